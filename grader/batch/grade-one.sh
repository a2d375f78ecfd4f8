#!/usr/bin/env bash
# Grades one submission of a batch against the batch's kit, and leaves its summary for grades.csv.
#
#   grader/batch/grade-one.sh ENTRY OUT
#
# ENTRY: a folder laid out like labs/, or an archive of one. OUT: the batch folder (kit/ built, reports/ and
# builds/ written here). Environment (grader/batch.sh, grader/batch/slurm-task.sh set it):
#   TILELAB_LIMIT           seconds the submission may take in all (default 1800)
#   TILELAB_JOBS            checks of this submission run at once (default 2)
#   TILELAB_GPU_LOCK        the lock file of the GPU it uses, shared with the other submissions graded on it
#   TILELAB_BATCH_START, TILELAB_BATCH_TOTAL   for the progress line: when grading began, how many (optional)
# Writes reports/<name>/{report.txt,results.json,summary.json}, or reports/<name>/not-graded.json with the reason
# where grading gave no points; never fails the caller: whatever goes wrong is that submission's note.
set -uo pipefail
entry=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
limit=${TILELAB_LIMIT:-1800}
. "$root/grader/batch/common.sh"

# The folder that holds the lab folders, for a submission unpacked anywhere below $1.
find_root() {
  local lab
  lab=$(find "$1" -maxdepth 3 -type d -name '0[1-9]_*' | sort | head -1)
  if [ -n "$lab" ]; then dirname "$lab"; else echo "$1"; fi
}

name=$(student_name "$entry")
report="$out/reports/$name"
build="$out/builds/$name"
mkdir -p "$report"
rm -f "$report/summary.json" "$report/not-graded.json"
start=$(date +%s)

dir=""
if [ -d "$entry" ]; then
  dir=$(find_root "$entry")
else
  rm -rf "$out/work/$name" && mkdir -p "$out/work/$name"
  if (cd "$out/work/$name" && cmake -E tar xf "$entry") >"$report/unpack.txt" 2>&1; then
    dir=$(find_root "$out/work/$name")
  else
    not_graded "$report" $(( $(date +%s) - start )) "could not unpack the archive"
  fi
fi

if [ -n "$dir" ]; then
  # timeout puts the grading in a process group of its own, out of reach of a signal to the batch's group: when
  # the batch is stopped (Ctrl-C, its own deadline, a Slurm task's end), the grading is stopped with it here.
  timeout --kill-after=30 "$limit" cmake -DSUBMISSION="$dir" -DBUILD="$build" -DKIT="$out/kit" \
    -DJOBS="${TILELAB_JOBS:-2}" -DRESULTS="$report/results.json" \
    -DSUMMARY="$report/summary.json" -P "$root/grader/grade.cmake" >"$report/report.txt" 2>&1 &
  grading=$!
  trap 'kill -TERM "$grading" 2>/dev/null; wait "$grading"; exit 143' TERM INT
  wait "$grading"
  status=$?
  trap - TERM INT
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    not_graded "$report" $(( $(date +%s) - start )) "ran out of its ${limit} s"
  elif [ ! -f "$report/summary.json" ]; then
    reason=$(grep -m1 -E 'Error|error' "$report/report.txt")
    not_graded "$report" $(( $(date +%s) - start )) "grading stopped before any points: ${reason:-see report.txt}"
  fi
fi

# One progress line: this submission, then the batch's count, time and estimate.
points=$("$(report_program "$out/kit")" class --out "$out" --registry "$root/grader/labs.json" --student "$name")
line="graded $name: $points in $(( $(date +%s) - start )) s"
if [ -n "${TILELAB_BATCH_TOTAL:-}" ] && [ -n "${TILELAB_BATCH_START:-}" ]; then
  done_count=$(finished_count "$out")
  elapsed=$(( $(date +%s) - TILELAB_BATCH_START ))
  left=$(( done_count > 0 ? elapsed * (TILELAB_BATCH_TOTAL - done_count) / done_count : 0 ))
  line=$(printf '[%d/%d, %dm%02ds elapsed, about %dm%02ds left] %s' "$done_count" "$TILELAB_BATCH_TOTAL" \
         $((elapsed / 60)) $((elapsed % 60)) $((left / 60)) $((left % 60)) "$line")
fi
echo "$line" >&2
exit 0
