#!/usr/bin/env bash
# Batch grading across two GPUs against one (issue "Batch grading across the GPUs of one machine"): generates a
# class (scripts/make-class.cmake), builds the kit and calibrates its gates once, grades the class with
# grader/batch.sh on GPU 0 alone (CUDA_VISIBLE_DEVICES=0) and on GPUs 0 and 1, the same -j, the same seed, the same
# kit, and prints: each run's seconds after the kit's check and submissions per minute, the ratio, whether every
# submission graded in both got the same points check by check (tilelab-report same), and whether any GPU's lock
# record shows a timed or exclusive hold overlapping another hold on that GPU (it must not).
#   scripts/two-gpu-benchmark.sh --kit               the class, the seed, the kit and its calibration (a command)
#   scripts/two-gpu-benchmark.sh [COUNT] [JOBS]      the runs (defaults 64 and 32)
# Environment: TILELAB_TWO_GPU_WORK (default build/two-gpu, inside the kit: the sandboxed lab programs must reach
# their builds, which a folder like /root would keep from them); TILELAB_KIT_ARGS, more kit settings (e.g. "-DTILELAB_TILE_WIDTHS=16");
# TILELAB_CUDA_ARCHS (default: the local GPUs'); RUNS, the runs to make now (default "0,1 0": device lists as
# CUDA_VISIBLE_DEVICES takes them), so that each run can be its own command (runs already in OUT are compared);
# DEADLINE, seconds after which a run's batch is stopped and what it graded is counted (default none; a run may take
# 30 s more: the stop, and grades.csv written again).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${TILELAB_TWO_GPU_WORK:-$root/build/two-gpu}
batch=$out/batch  # the kit (batch/kit) and its calibration stay here; each run's results move to out/gpus-<list>
[ -n "${TILELAB_CUDA_ARCHS:-}" ] && export CUDAARCHS=$TILELAB_CUDA_ARCHS
[ -d "$root/.deps/root/usr" ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
[ -d "$root/.deps/boost" ] && export CMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:+$CMAKE_PREFIX_PATH:}$root/.deps/boost"
# shellcheck disable=SC2206
kit_args=(${TILELAB_KIT_ARGS:-})
if [ "${1:-}" = --kit ]; then
  count=${2:-64}
  mkdir -p "$out" && nvidia-smi -L | tee "$out/gpus.txt"
  cmake -DCOUNT="$count" -DOUT="$out/class" -P "$root/scripts/make-class.cmake" >"$out/make-class.log" || exit 1
  # One seed for both runs: the same operands, so the grades can be compared check by check.
  echo $((16#$(od -An -N7 -tx1 /dev/urandom | tr -d ' \n'))) >"$out/seed.txt"
  "$root/grader/batch.sh" --kit "$batch" -- "${kit_args[@]}" || exit 1
  echo "kit built in $(cat "$batch/kit-seconds.txt") s, gates calibrated in $(cat "$batch/calibration-seconds.txt" 2>/dev/null || echo '?') s" |
    tee "$out/kit.txt"
  exit 0
fi
count=${1:-64} jobs=${2:-32}
[ -x "$batch/kit/grader/tilelab-batch" ] && [ -f "$out/seed.txt" ] || { echo "run $0 --kit first" >&2; exit 2; }
[ "$(grep -c '^GPU ' "$out/gpus.txt")" -ge 2 ] || { echo "two GPUs needed (nvidia-smi lists fewer)" >&2; exit 2; }
# What a run leaves in the batch's folder: all but the kit and its calibration, which both runs use.
run_files() { find "$batch" -mindepth 1 -maxdepth 1 ! -name kit ! -name 'kit-seconds.txt' ! -name 'calibration*' "$@"; }
for gpus in ${RUNS:-0,1 0}; do
  run=$out/gpus-${gpus//,/-}
  rm -rf "$run" && run_files -exec rm -rf {} +
  start=$(date +%s)
  # Where a run's time goes when it stands still (scripts/watch-run.sh: load.csv, at-deadline.txt).
  "$root/scripts/watch-run.sh" "$batch" "${DEADLINE:-0}" &
  watcher=$!
  CUDA_VISIBLE_DEVICES=$gpus TILELAB_SEED=$(cat "$out/seed.txt") timeout --kill-after=20 "${DEADLINE:-0}" \
    "$root/grader/batch.sh" "$out/class/class" "$batch" -j "$jobs" -- "${kit_args[@]}" >"$batch/batch.log" 2>&1
  status=$?
  end=$(date +%s)
  kill "$watcher" 2>/dev/null
  wait "$watcher" 2>/dev/null
  [ "$status" = 0 ] || "$root/grader/batch.sh" --merge "$batch" >>"$batch/batch.log" 2>&1
  # The kit's check and the calibration's (both found done by --kit) are set-up, reported apart.
  setup=$(( $(cat "$batch/kit-seconds.txt" 2>/dev/null || echo 0) + $(cat "$batch/calibration-seconds.txt" 2>/dev/null || echo 0) ))
  seconds=$((end - start - setup))
  mkdir -p "$run" && run_files -exec mv -t "$run" {} +
  graded=$(ls "$run"/reports/*/summary.json 2>/dev/null | wc -l)
  echo "GPUs $gpus: batch.sh exit $status, $graded of $count graded in $seconds s after the kit's check ($setup s)" \
       "($(awk -v n="$graded" -v s="$seconds" 'BEGIN { printf "%.2f", (s > 0) ? 60 * n / s : 0 }') per minute)" |
    tee -a "$out/summary.txt"
done
one=$out/gpus-0 two=$out/gpus-0-1 differ=0 compared=0
[ -d "$one/reports" ] && [ -d "$two/reports" ] || exit 0  # a run still to make
for report in "$one"/reports/*/results.json; do
  student=$(basename "$(dirname "$report")")
  [ -f "$two/reports/$student/results.json" ] || continue  # graded in one run only (a deadline)
  compared=$((compared + 1))
  "$batch/kit/grader/tilelab-report" same "$report" "$two/reports/$student/results.json" >>"$out/same.log" 2>&1 ||
    { differ=$((differ + 1)); echo "differs: $student" | tee -a "$out/summary.txt"; }
done
echo "$differ of $compared submissions graded in both runs graded differently on two GPUs than on one" | tee -a "$out/summary.txt"
# The GPU lock's records (gpu<k>-holds.csv: submission/check, use, waited ms, held ms, start in epoch ms): on each GPU, no
# hold that measures (timing, exclusive) may overlap another hold, but a program's CUDA start during a timing.
python3 - "$two"/gpu*-holds.csv "$one"/gpu*-holds.csv <<'PY' | tee -a "$out/summary.txt"
import bisect, csv, sys
bad = 0
for log in sys.argv[1:]:
    holds = sorted((float(r[4]), float(r[4]) + float(r[3]), r[1], r[0]) for r in csv.reader(open(log)) if len(r) == 5)
    # A program's CUDA start may overlap a gate's timing by design (it waits only for lab 04's exclusive checks,
    # which read the whole GPU's memory); nothing else may overlap a hold that measures. Sorted by start, a hold
    # overlaps a measuring one that starts at s and ends at e when it starts in [s, e) or starts before s and ends
    # after s (the largest end of those before it).
    def overlaps(of, kept):
        starts = [h[0] for h in kept]
        latest, latest_end = [], float("-inf")
        for h in kept:
            latest.append(latest_end)
            latest_end = max(latest_end, h[1])
        found = []
        for i, h in enumerate(kept):
            if h[2] != of:
                continue
            later = bisect.bisect_left(starts, h[1]) - (i + 1)
            if later > 0 or latest[i] > h[0]:
                found.append(h)
        return found
    clashes = overlaps("timing", [h for h in holds if h[2] != "starting"]) + overlaps("exclusive", holds)
    for start, end, use, who in clashes[:10]:
        print(f"{log}: {who} ({use}, from {start:.3f} ms, {end - start:.3f} ms) overlaps another hold")
    bad += len(clashes)
    measuring = [h for h in holds if h[2] in ("timing", "exclusive")]
    print(f"{log}: {len(holds)} holds, {len(measuring)} that measure, held alone {sum(h[1] - h[0] for h in measuring) / 1000:.1f} s,"
          f" {len(clashes)} overlapping another")
print(f"{bad} holds that measure overlapping another hold")
sys.exit(1 if bad else 0)
PY
