#!/usr/bin/env bash
# Grades a folder of submissions, each in its own build folder, several at once where the machine allows.
#
#   grader/batch.sh SUBMISSIONS [OUT] [-j JOBS] [-t SECONDS] [-- extra cmake cache settings]
#
# SUBMISSIONS holds one entry per student: a folder laid out like labs/, or an archive of one (.zip, .tar,
# .tar.gz, .tgz; the lab folders may sit one or two levels down). OUT (default build/batch) receives
#   grades.csv                       student, points per lab, total, possible, notes
#   reports/<student>/report.txt     what grade.cmake printed for that student
#   reports/<student>/results.json   Gradescope-format results
# Each submission gets SECONDS (default 1800) in all; one that runs out is recorded with a note and the batch
# goes on. JOBS defaults to 1 on a machine with an NVIDIA GPU (the performance gate must have the GPU to
# itself) and to half the cores otherwise.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
submissions=$(cd "$1" && pwd) || usage
shift
out="$root/build/batch"
if [ $# -ge 1 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
if nvidia-smi -L >/dev/null 2>&1; then jobs=1; else jobs=$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 )); fi
limit=1800
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs=$2; shift 2 ;;
    -t) limit=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) usage ;;
  esac
done
mkdir -p "$out/reports" "$out/work" "$out/builds"
out=$(cd "$out" && pwd)
configure_args=$(IFS='|'; echo "${extra[*]:-}")

# The folder that holds the lab folders, for a submission unpacked anywhere below $1.
find_root() {
  local lab
  lab=$(find "$1" -maxdepth 3 -type d -name '0[1-9]_*' | sort | head -1)
  if [ -n "$lab" ]; then dirname "$lab"; else echo "$1"; fi
}

grade_one() {
  local entry=$1 name dir report status start
  name=$(basename "$entry")
  name=${name%.zip}; name=${name%.tar.gz}; name=${name%.tgz}; name=${name%.tar}
  report="$out/reports/$name"
  mkdir -p "$report"
  if [ -d "$entry" ]; then
    dir=$(find_root "$entry")
  else
    rm -rf "$out/work/$name" && mkdir -p "$out/work/$name"
    if ! (cd "$out/work/$name" && cmake -E tar xf "$entry") >"$report/unpack.txt" 2>&1; then
      echo "$name,,,,,,,could not unpack the archive" >"$report/row.csv"
      return
    fi
    dir=$(find_root "$out/work/$name")
  fi
  start=$(date +%s)
  rm -f "$out/builds/$name/points.txt"
  timeout --kill-after=30 "$limit" cmake -DSUBMISSION="$dir" -DBUILD="$out/builds/$name" \
    -DRESULTS="$report/results.json" "-DCONFIGURE_ARGS=$configure_args" -P "$root/grader/grade.cmake" \
    >"$report/report.txt" 2>&1
  status=$?
  local note="" lab1="" lab2="" lab3="" lab4="" total="" possible=""
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    note="ran out of its ${limit} s"
  elif [ -f "$out/builds/$name/points.txt" ]; then
    read -r _ lab1 _ < <(grep '^lab01 ' "$out/builds/$name/points.txt")
    read -r _ lab2 _ < <(grep '^lab02 ' "$out/builds/$name/points.txt")
    read -r _ lab3 _ < <(grep '^lab03 ' "$out/builds/$name/points.txt")
    read -r _ lab4 _ < <(grep '^lab04 ' "$out/builds/$name/points.txt")
    read -r _ total possible < <(grep '^total ' "$out/builds/$name/points.txt")
    note=$(grep -E '^lab0[0-9] .* failed: ' "$report/report.txt" | head -3 | sed 's/  */ /g' | tr '\n' ';' | tr ',' ' ')
  else
    note="grading stopped before any points: $(grep -m1 -E 'Error|error' "$report/report.txt" | tr ',' ' ')"
  fi
  echo "$name,$lab1,$lab2,$lab3,$lab4,$total,$possible,${note%;}" >"$report/row.csv"
  echo "graded $name: ${total:-?} of ${possible:-?} points in $(( $(date +%s) - start )) s${note:+ ($note)}" >&2
}
export -f grade_one find_root
export out limit configure_args root

entries=()
while IFS= read -r -d '' entry; do entries+=("$entry"); done < <(find "$submissions" -mindepth 1 -maxdepth 1 \
  \( -type d -o -name '*.zip' -o -name '*.tar' -o -name '*.tar.gz' -o -name '*.tgz' \) -print0 | sort -z)
echo "grading ${#entries[@]} submissions, $jobs at a time, up to $limit s each; reports in $out/reports" >&2
rm -f "$out"/reports/*/row.csv
printf '%s\0' "${entries[@]}" | xargs -0 -P "$jobs" -I{} bash -c 'grade_one "$1"' _ {}

{
  echo "student,lab01,lab02,lab03,lab04,total,possible,notes"
  cat "$out"/reports/*/row.csv 2>/dev/null | sort
} >"$out/grades.csv"
echo "wrote $out/grades.csv" >&2
