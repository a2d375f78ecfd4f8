#!/usr/bin/env bash
# Batch grading across two GPUs against one (issue "Batch grading across the GPUs of one machine"): generates a
# class (scripts/make-class.cmake), grades it with grader/batch.sh on GPU 0 alone (CUDA_VISIBLE_DEVICES=0) and then
# on GPUs 0 and 1, the same -j, and prints: each run's seconds after its kit was built and submissions per minute,
# the ratio, whether every submission got the same points check by check in both (tilelab-report same), and whether
# any GPU's lock record shows a timed or exclusive hold overlapping another hold on that GPU (it must not).
#   scripts/two-gpu-benchmark.sh [COUNT] [JOBS]       (defaults 64 and 16)
# Environment: OUT (default build/two-gpu), more batch.sh kit settings in TILELAB_KIT_ARGS (e.g.
# "-DTILELAB_TILE_WIDTHS=16"); RUNS, the runs to make now (default "0 0,1": the device lists as
# CUDA_VISIBLE_DEVICES takes them), so the two runs can be made in two commands (a run already in OUT is compared);
# DEADLINE, seconds after which a run's batch is stopped and what it graded is counted (default none).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-64} jobs=${2:-16} out=${OUT:-$root/build/two-gpu}
mkdir -p "$out" && cmake -DCOUNT="$count" -DOUT="$out/class" -P "$root/scripts/make-class.cmake" >"$out/make-class.log" || exit 1
nvidia-smi -L | tee "$out/gpus.txt"
[ "$(grep -c '^GPU ' "$out/gpus.txt")" -ge 2 ] || { echo "two GPUs needed (nvidia-smi lists fewer)" >&2; exit 2; }
for gpus in ${RUNS:-0 0,1}; do
  run=$out/gpus-${gpus//,/-}
  rm -rf "$run" && start=$(date +%s)
  # shellcheck disable=SC2086
  CUDA_VISIBLE_DEVICES=$gpus timeout --kill-after=20 "${DEADLINE:-0}" "$root/grader/batch.sh" "$out/class/class" "$run" \
    -j "$jobs" -- ${TILELAB_KIT_ARGS:-} >"$run.log" 2>&1
  status=$?
  seconds=$(( $(date +%s) - start - $(cat "$run/kit-seconds.txt" 2>/dev/null || echo 0) ))
  graded=$(ls "$run"/reports/*/summary.json 2>/dev/null | wc -l)
  echo "GPUs $gpus: batch.sh exit $status, $graded of $count graded in $seconds s after the kit" \
       "($(awk -v n="$graded" -v s="$seconds" 'BEGIN { printf "%.2f", s > 0 ? 60 * n / s : 0 }') per minute)" |
    tee -a "$out/summary.txt"
done
one=$out/gpus-0 two=$out/gpus-0-1 differ=0 compared=0
[ -d "$one/reports" ] && [ -d "$two/reports" ] || exit 0  # a run still to make
for report in "$one"/reports/*/results.json; do
  student=$(basename "$(dirname "$report")")
  [ -f "$two/reports/$student/results.json" ] || continue  # graded in one run only (a deadline)
  compared=$((compared + 1))
  "$two/kit/grader/tilelab-report" same "$report" "$two/reports/$student/results.json" >>"$out/same.log" 2>&1 ||
    { differ=$((differ + 1)); echo "differs: $student" | tee -a "$out/summary.txt"; }
done
echo "$differ of $compared submissions graded in both runs graded differently on two GPUs than on one" | tee -a "$out/summary.txt"
# The GPU lock's records (gpu<k>-holds.csv: checker, use, waited ms, held ms, start in epoch ms): on each GPU, no
# hold that measures (timing, exclusive) may overlap another hold, but a program's CUDA start during a timing.
python3 - "$two"/gpu*-holds.csv <<'PY' | tee -a "$out/summary.txt"
import csv, sys
bad = 0
for log in sys.argv[1:]:
    holds = [(float(r[4]), float(r[4]) + float(r[3]), r[1], r[0]) for r in csv.reader(open(log)) if len(r) == 5]
    holds.sort()
    for i, (start, end, use, who) in enumerate(holds):
        for other in holds[i + 1:]:
            if other[0] >= end:
                break
            pair = {use, other[2]}
            # A program's CUDA start may overlap a gate's timing by design (it waits only for lab 04's exclusive
            # checks, which read the whole GPU's memory); nothing else may overlap a hold that measures.
            if pair & {"timing", "exclusive"} and pair != {"timing", "starting"}:
                bad += 1
                print(f"{log}: {who} ({use}) overlaps {other[3]} ({other[2]})")
    print(f"{log}: {len(holds)} holds, {sum(1 for h in holds if h[2] in ('timing', 'exclusive'))} that measure")
print(f"{bad} overlapping holds that measure")
sys.exit(1 if bad else 0)
PY
