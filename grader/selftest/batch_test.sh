#!/usr/bin/env bash
# Self-test of grader/batch.sh: grades a class of bundled bad submissions in one batch (the kit built once, at
# TILE_WIDTH 16 to keep it short), checks each one's points and reason, and checks that one of them gets the same
# grade, check by check, as when graded on their own by grade.cmake. Holds with or without a GPU: the GPU checks
# are either graded or skipped and left out of the total, and neither changes what is asserted here.
#   batch_test.sh <kit root> <work folder>
set -uo pipefail
root=$1
work=$2
rm -rf "$work" && mkdir -p "$work/class"
class="$work/class"
sol="$root/solutions"

cp -r "$sol" "$class/complete"
cp -r "$root/labs" "$class/stubs"
cp -r "$sol" "$class/missing-lab02" && rm -rf "$class/missing-lab02/02_tiled"
cp -r "$sol" "$class/compile-error" && sed -i 's/float sum = 0.0f;/float sum = 0.0f/' "$class/compile-error/01_naive/kernel.cu"
cp -r "$sol" "$class/calls-cublas" && cp "$root/grader/selftest/bad/calls-cublas/01_naive/kernel.cu" "$class/calls-cublas/01_naive/"
cp -r "$sol" "$class/empty-file" && : >"$class/empty-file/03_tiled_boundary/kernel.cu"
mkdir -p "$work/archive/student-archive" && cp -r "$sol"/* "$work/archive/student-archive/"
(cd "$work/archive" && cmake -E tar czf "$class/archived.tar.gz" student-archive)
echo "this is not an archive" >"$class/not-an-archive.zip"

"$root/grader/batch.sh" "$class" "$work/out" -t 900 -- -DTILELAB_TILE_WIDTHS=16 || exit 1
csv="$work/out/grades.csv"
cat "$csv"

failures=0
row() { grep "^$1," "$csv"; }
column() { head -1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
field() { row "$1" | cut -d, -f"$(column "$2")"; }
expect() {  # expect <student> <description> <test command...>
  local student=$1 what=$2; shift 2
  if "$@"; then echo "ok: $student: $what"; else echo "FAILED: $student: $what"; echo "  row: $(row "$student")"; failures=$((failures + 1)); fi
}
full_marks() { [ -n "$(field "$1" total)" ] && [ "$(field "$1" total)" = "$(field "$1" possible)" ] && [ "$(field "$1" possible)" -gt 0 ]; }
lab_zero() { [ "$(field "$1" "$2")" = "0" ]; }
note_has() { row "$1" | cut -d, -f"$(column notes)"- | grep -q "$2"; }

expect complete "full marks" full_marks complete
expect stubs "build points only, no correctness points" test "$(field stubs total)" = "$(head -1 "$csv" | tr ',' '\n' | grep -c '^lab')"
expect archived "an archive is unpacked and graded in full" full_marks archived
expect not-an-archive "an unreadable archive gets a row and a reason" note_has not-an-archive "could not unpack"
expect missing-lab02 "no lab 02 points" lab_zero missing-lab02 lab02
expect missing-lab02 "reason: missing file" note_has missing-lab02 "missing file: 02_tiled/kernel.cu"
expect missing-lab02 "lab 01 still graded" test "$(field missing-lab02 lab01)" -gt 0
expect compile-error "no lab 01 points" lab_zero compile-error lab01
expect compile-error "reason: does not compile" note_has compile-error "does not compile"
expect calls-cublas "no lab 01 points" lab_zero calls-cublas lab01
expect calls-cublas "reason: calls a library" note_has calls-cublas "calls a library"
expect empty-file "no lab 03 points" lab_zero empty-file lab03
expect empty-file "lab 04 still graded (it runs the kit's own lab 03 kernel)" test "$(field empty-file lab04)" -gt 0
expect empty-file "lab 02 still graded" test "$(field empty-file lab02)" -gt 0
expect class "class.html written with every student" grep -q "not-an-archive" "$work/out/class.html"
expect class "timings.csv has a row per graded submission" test "$(grep -c '^complete,' "$work/out/timings.csv")" = 1
expect class "each graded submission left its summary" test -f "$work/out/reports/compile-error/summary.json"
expect not-an-archive "its note is a record" test -f "$work/out/reports/not-an-archive/not-graded.json"

# The same submissions graded one at a time, each with a kit of its own (grade.cmake as before batches):
# the batch must give the same points for every check.
mkdir -p "$work/alone"
for student in compile-error; do
  cmake -DSUBMISSION="$class/$student" -DBUILD="$work/alone/$student" -DRESULTS="$work/alone/$student.json" \
    "-DCONFIGURE_ARGS=-DTILELAB_TILE_WIDTHS=16" -P "$root/grader/grade.cmake" >"$work/alone/$student.txt" 2>&1
  expect "$student" "same grade in the batch as graded alone" "$work/out/kit/grader/tilelab-report" same \
    "$work/out/reports/$student/results.json" "$work/alone/$student.json"
done
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }
echo "batch self-test: every expectation met"
