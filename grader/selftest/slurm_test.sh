#!/usr/bin/env bash
# Self-test of grader/batch.sh --slurm on a real Slurm: starts a one-node cluster on this machine
# (grader/selftest/local-slurm.sh: munged, slurmctld, slurmd; CPU backend, no GPU), grades a class of four as a job
# array of one submission per task, cancels one task before it runs, and checks the merged grades.csv: the three
# graded rows as the single-machine batch gives them, and the cancelled one with a row that says so.
# Exits 77 (skipped, with the reason) where Slurm cannot start: not root, or slurm-wlm/munge missing.
#   slurm_test.sh <kit root> <work folder>
set -uo pipefail
root=$1
work=$2
rm -rf "$work" && mkdir -p "$work/class"
state="$work/slurm-state"
settings=$("$root/grader/selftest/local-slurm.sh" start "$state")
status=$?
[ "$status" -eq 0 ] || exit "$status"
eval "$settings"
trap '"$root/grader/selftest/local-slurm.sh" stop "$state"' EXIT
sinfo

class="$work/class"
cp -r "$root/solutions" "$class/a-complete"
cp -r "$root/labs" "$class/b-stubs"
cp -r "$root/solutions" "$class/c-cancelled"
cp -r "$root/solutions" "$class/d-compile-error"
sed -i 's/float sum = 0.0f;/float sum = 0.0f/' "$class/d-compile-error/01_naive/kernel.cu"

# Submitted without waiting, so that task 2 (c-cancelled) can be cancelled while it is still pending: each task
# asks for every core of the node, so the tasks run one after another.
"$root/grader/batch.sh" "$class" "$work/out" --slurm --chunk 1 --cpus "$(nproc)" --task-minutes 20 --no-wait \
  -- -DTILELAB_BACKENDS=cpu -DTILELAB_TILE_WIDTHS=16 || exit 1
job=$(cat "$work/out/slurm/job-id")
scancel "${job}_2"
echo "cancelled task 2 of job $job"
for _ in $(seq 1 600); do
  squeue -h -j "$job" 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -h -j "$job" 2>/dev/null | grep -q . && { echo "FAILED: the job did not end within 20 minutes"; exit 1; }
scontrol show job "$job" 2>/dev/null | grep -E "ArrayTaskId|JobState" | paste - - | sed 's/^ *//'
"$root/grader/batch.sh" --merge "$work/out" || exit 1
csv="$work/out/grades.csv"
cat "$csv"
for task in "$work"/out/slurm/task-*.out; do echo "== $task"; cat "$task"; done

failures=0
row() { grep "^$1," "$csv"; }
column() { head -1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
field() { row "$1" | cut -d, -f"$(column "$2")"; }
expect() {
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
expect "four rows" test "$(( $(wc -l <"$csv") - 1 ))" = 4
expect "a-complete: full marks" test "$(field a-complete total)" = "$(field a-complete possible)" -a -n "$(field a-complete total)"
# One build point per lab: as many points as the header has lab columns (labNN), whatever other columns it has.
labs=$(head -1 "$csv" | tr ',' '\n' | grep -cx 'lab[0-9][0-9]*')
expect "b-stubs: build points only" test "$(field b-stubs total)" = "$labs" -a "$labs" -gt 0
expect "c-cancelled: a row that names its task" grep -q "^c-cancelled,.*Slurm task 2 failed or was cancelled" "$csv"
expect "d-compile-error: no lab 01 points" test "$(field d-compile-error lab01)" = 0
expect "d-compile-error: the reason" grep -q "^d-compile-error,.*does not compile" "$csv"
expect "class.html" grep -q "c-cancelled" "$work/out/class.html"
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }
echo "slurm self-test: every expectation met"
