#!/usr/bin/env bash
# Gathers a batch's rows into OUT/grades.csv, OUT/timings.csv and OUT/class.html.
#
#   grader/batch/merge.sh OUT [ENTRIES]
#
# ENTRIES (default OUT/entries.txt) lists the submissions graded, one path per line: each one without a row
# (its grading was killed, or its Slurm task failed) gets a row that says so, so no student goes missing.
set -uo pipefail
out=$(cd "$1" && pwd) || exit 2
entries=${2:-$out/entries.txt}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/grader/batch/common.sh"
labs=$(rubric_labs "$root")
empty=$(empty_lab_fields "$labs")

if [ -f "$entries" ]; then
  index=0
  chunk_lines=$(cat "$out/slurm/chunk" 2>/dev/null || echo 0)
  while IFS= read -r entry; do
    name=$(student_name "$entry")
    if [ ! -f "$out/reports/$name/row.csv" ]; then
      mkdir -p "$out/reports/$name"
      why="its grading ended before it wrote a row (killed?)"
      if [ -f "$out/slurm/job-id" ] && [ "$chunk_lines" -gt 0 ]; then
        task=$(( index / chunk_lines ))
        why="its Slurm task $task failed or was cancelled before grading it (see slurm/task-$task.out)"
      fi
      echo "$name$empty,,,,not graded: $why" >"$out/reports/$name/row.csv"
    fi
    index=$((index + 1))
  done <"$entries"
fi

{
  echo "student,$(echo $labs | tr ' ' ','),total,possible,seconds,notes"
  find "$out/reports" -mindepth 2 -maxdepth 2 -name row.csv -exec cat {} + 2>/dev/null | sort
} >"$out/grades.csv"

# Where the time went, from each submission's measures.txt (grade.cmake).
{
  echo "student,wall_seconds,configure_seconds,prebuild_seconds,test_seconds_build,test_seconds_cpu,test_seconds_gpu,speedups"
  for measures in "$out"/reports/*/measures.txt; do
    [ -f "$measures" ] || continue
    awk -v student="$(basename "$(dirname "$measures")")" '
      $1 == "speedup" { split($2, parts, ".")  # lab=speedup, and /required where the gate said it (labs differ)
                        speedups = speedups (speedups == "" ? "" : " ") parts[2] "=" $3 ($4 == "" ? "" : "/" $4); next }
      { value[$1] = $2 }
      END { printf "%s,%s,%s,%s,%.1f,%.1f,%.1f,%s\n", student, value["wall_seconds"], value["configure_seconds"],
                   value["prebuild_seconds"], value["test_ms_build"] / 1000, value["test_ms_cpu"] / 1000,
                   value["test_ms_gpu"] / 1000, speedups }' "$measures"
  done
} >"$out/timings.csv"

cmake -DOUT="$out" -P "$root/grader/batch/class-report.cmake" || echo "class.html was not written (see above)" >&2
graded=$(( $(wc -l <"$out/grades.csv") - 1 ))
echo "wrote $out/grades.csv ($graded submissions), $out/timings.csv and $out/class.html" >&2
