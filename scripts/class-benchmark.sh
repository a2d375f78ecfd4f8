#!/usr/bin/env bash
# Class-scale grading benchmark (docs/benchmarks.md): generates a class (scripts/make-class.cmake: copies of the
# solutions, other correct styles, stubs, bad submissions and every self-test mutant), grades it with
# grader/batch.sh at every tile width on both backends, then grades a sample again one at a time against the
# same kit, nothing else running, and checks that each gets the same points, check by check. Prints the time end
# to end, the cost per submission and where it went (build, CPU checks, GPU checks, what the class's compile cache
# served) last.
#   scripts/class-benchmark.sh [COUNT] [SAMPLE]      (defaults 200 and 6)
#   scripts/class-benchmark.sh --kit                  builds the batch's kit only (a command of its own, before)
#   scripts/class-benchmark.sh --alone [SAMPLE]       grades the last run's sample alone (a command of its own)
# Environment: OUT (where logs go; default build/class-benchmark), TILELAB_BATCH_JOBS (-j of batch.sh),
# TILELAB_CUDA_ARCHS (default: the local GPU's), TILELAB_BATCH_DEADLINE (seconds after which the batch is stopped and
# what it finished is reported; default none), TILELAB_ALONE_PICK (variants whose first graded submission the sample
# graded alone takes, e.g. "stubs naive-faults-memcheck"; default: SAMPLE spread over the class).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
alone_only=0 kit_only=0
[ "${1:-}" = --alone ] && { alone_only=1; shift; set -- 0 "${1:-6}"; }
[ "${1:-}" = --kit ] && { kit_only=1; shift; }
count=${1:-200}
sample=${2:-6}
out=${OUT:-$root/build/class-benchmark}
work=${TILELAB_BENCH_WORK:-$root/build/class-benchmark-work}
mkdir -p "$out" "$work"
# Unset: the local GPUs' own architectures (cmake/TileLabCudaArchitectures.cmake: what "native" gives on CMake 3.24+,
# on CMake 3.22 too).
if [ -n "${TILELAB_CUDA_ARCHS:-}" ]; then export CUDAARCHS=$TILELAB_CUDA_ARCHS; fi
[ -d "$root/.deps/root/usr" ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
[ -d "$root/.deps/boost" ] && export CMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:+$CMAKE_PREFIX_PATH:}$root/.deps/boost"

# Grades equal: a sample (spread over the variants that the batch graded) graded again, one at a time, against the
# same kit, with the class's seed, nothing else running.
grade_sample_alone() {
  same=0 compared=0
  echo "grading a sample of $sample again, one at a time, from $(date +%s)" >&2
  local graded_students step i student
  graded_students=$(cd "$work/out/reports" && for s in *; do [ -f "$s/results.json" ] && echo "$s"; done)
  step=$(( $(echo "$graded_students" | wc -l) / sample ))
  [ "$step" -gt 0 ] || step=1
  : >"$out/same-grades.txt"
  local picked=""
  if [ -n "${TILELAB_ALONE_PICK:-}" ]; then  # the first graded submission of each variant named
    for variant in $TILELAB_ALONE_PICK; do
      picked="$picked $(echo "$graded_students" | grep -m1 -- "-$variant\$")"
    done
  else
    for i in $(seq 1 "$step" 100000 | head -"$sample"); do picked="$picked $(echo "$graded_students" | sed -n "${i}p")"; done
  fi
  for student in $picked; do
    [ -n "$student" ] || continue
    rm -rf "$work/alone/$student"
    SECONDS=0
    TILELAB_SEED=$(cat "$work/seed.txt") cmake -DSUBMISSION="$work/class/$student" -DBUILD="$work/alone/$student" \
      -DKIT="$work/out/kit" -DRESULTS="$work/alone/$student.json" -P grader/grade.cmake >"$out/alone-$student.txt" 2>&1
    compared=$((compared + 1))
    if "$work/out/kit/grader/tilelab-report" same "$work/out/reports/$student/results.json" "$work/alone/$student.json" \
         >>"$out/same-grades.txt" 2>&1; then
      same=$((same + 1)); echo "  $student: same ($SECONDS s alone)" >>"$out/same-grades.txt"
    else
      echo "  $student: DIFFERENT ($SECONDS s alone)" >>"$out/same-grades.txt"
    fi
  done
  printf '%-44s %d of %d\n' "same grades graded alone" "$same" "$compared" | tee -a "$out/summary.txt"
}
# The kit alone (batch.sh --kit): a batch that finds it built only checks it (a few seconds), so that the batch's
# time is its grading.
if [ "$kit_only" = 1 ]; then
  grader/batch.sh --kit "$work/out" || exit 1
  cp "$work/out/kit-seconds.txt" "$out/kit-built-seconds.txt"
  cp "$work/out/calibration.log" "$out/" 2>/dev/null
  cp "$work/out/calibration-seconds.txt" "$out/calibration-built-seconds.txt" 2>/dev/null
  exit 0
fi
if [ "$alone_only" = 1 ]; then
  grade_sample_alone
  cat "$out/same-grades.txt"
  exit 0
fi

: >"$out/summary.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$out/gpu.txt"
echo "$(nproc) cores" | tee -a "$out/gpu.txt"
# A kit built before (--kit) stays; everything else of an earlier run goes.
rm -rf "$work/class" "$work/alone" && mkdir -p "$work/out" && find "$work/out" -mindepth 1 -maxdepth 1 ! -name kit -exec rm -rf {} +
cmake -DCOUNT="$count" -DOUT="$work" -P scripts/make-class.cmake || exit 1
# The class's seed, drawn here so that the sample graded alone gets the operands the batch had.
export TILELAB_SEED=${TILELAB_SEED:-$((16#$(od -An -N7 -tx1 /dev/urandom | tr -d ' \n')))}
echo "$TILELAB_SEED" >"$work/seed.txt"

jobs_args=()
[ -n "${TILELAB_BATCH_JOBS:-}" ] && jobs_args=(-j "$TILELAB_BATCH_JOBS")
# Where the CPU goes (scripts/cpu-by-program.py): every process's CPU time, sampled while the batch runs.
sampler=""
if command -v python3 >/dev/null; then
  python3 "$root/scripts/cpu-by-program.py" "$out/cpu-by-program.json" 0.25 & sampler=$!
fi
# Where a run's time goes when it stands still (scripts/watch-run.sh: load.csv, at-deadline.txt in the batch's folder).
"$root/scripts/watch-run.sh" "$work/out" "${TILELAB_BATCH_DEADLINE:-0}" & watcher=$!
start=$(date +%s)
if [ -n "${TILELAB_BATCH_DEADLINE:-}" ]; then
  timeout --kill-after=20 "$TILELAB_BATCH_DEADLINE" grader/batch.sh "$work/class" "$work/out" "${jobs_args[@]}" \
    2>&1 | tee "$out/batch.log"
  grader/batch.sh --merge "$work/out" 2>&1 | tail -1
else
  grader/batch.sh "$work/class" "$work/out" "${jobs_args[@]}" 2>&1 | tee "$out/batch.log"
fi
end=$(date +%s)
[ -n "$sampler" ] && kill "$sampler" && wait "$sampler"
kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
cp "$work/out/load.csv" "$work/out/at-deadline.txt" "$out/" 2>/dev/null
cp "$work/out/grades.csv" "$work/out/timings.csv" "$work/out/class.html" "$out/" 2>/dev/null
graded=$(grep -c 'graded student-' "$out/batch.log")
kit_seconds=$(cat "$work/out/kit-seconds.txt" 2>/dev/null || echo "?")
# The gates' calibration check before the batch (batch.sh: measured with --kit, found kept here): set-up, like the kit.
calibration_seconds=$(cat "$work/out/calibration-seconds.txt" 2>/dev/null || echo 0)
[ "$sample" -gt 0 ] && grade_sample_alone

# Test-seconds per kind of check and backend, over the class (each check's record).
"$work/out/kit/grader/tilelab-report" timings "$work"/out/builds/*/verdicts | tee "$out/suite-times.txt"
cp "$work"/alone-*.txt "$out/" 2>/dev/null

# The class's compile cache (grader/tools/lib/compile_cache.hpp, grading as root): compiles it served (with the seconds
# their first compile took, saved each time), compiles done and kept, and those it could not keep, and why.
if [ -f "$work/out/compile-cache/events.csv" ]; then
  awk -F, '{ n[$1]++; s[$1] += $2 }
       END { for (k in n) printf "compile cache: %-8s %6d compiles, %9.1f compile-seconds%s\n", k, n[k], s[k],
                                 k == "hit" ? " saved" : "" }' "$work/out/compile-cache/events.csv" |
    sort | tee "$out/compile-cache.txt"
fi

# How long the GPU was held (grader/process/gpu_lease.hpp's log): alone by the measuring checks, one after another,
# and shared by the others (the time any shared hold was on, overlapping holds counted once), per kind of check.
cat "$work"/out/gpu*-holds.csv 2>/dev/null | sort -t, -k5,5n |
  awk -F, '{ n = split($1, part, "."); kind = part[n]; held = $4 / 1000; start = $5 / 1000; end = start + held
             if ($2 == "exclusive" || $2 == "timing") { alone += held; alone_n++ } else { shared_n++
               if (start > busy_end) { busy += busy_end - busy_start; busy_start = start; busy_end = end }
               else if (end > busy_end) busy_end = end }
             total[$2 " " kind] += held; count[$2 " " kind]++; wait[$2 " " kind] += $3 / 1000 }
       END { busy += busy_end - busy_start
             printf "GPU held alone %.1f s (%d holds); shared holds on for %.1f s (%d holds)\n", alone, alone_n, busy, shared_n
             for (k in total) printf "  %-32s %8.1f s held in %5d holds (%.3f s each), %8.1f s waited\n", k, total[k], count[k], total[k] / count[k], wait[k] }' |
  tee "$out/gpu-holds.txt"

# Where the time went, summed over the class (timings.csv: seconds per submission).
awk -F, 'NR > 1 && $2 != "" { n++; wall += $2; conf += $3; pre += $4; b += $5; c += $6; g += $7 }
  END { if (n) printf "per submission (mean of %d): wall %.1f s in its slot; configure %.1f s, labs built %.1f s; test-seconds: build checks %.1f, CPU checks %.1f, GPU checks %.1f\n", n, wall / n, conf / n, pre / n, b / n, c / n, g / n }' \
  "$out/timings.csv" | tee "$out/cost.txt"
total=$((end - start))
{
  echo
  echo "== class benchmark ($(head -1 "$out/gpu.txt"), $(nproc) cores)"
  printf '%-44s %s\n' "submissions generated / graded" "$count / $graded"
  printf '%-44s %s s\n' "kit built once" "$kit_seconds"
  printf '%-44s %s s\n' "gates' calibrations checked (kept from --kit)" "$calibration_seconds"
  printf '%-44s %d s (%dm%02ds)\n' "end to end (kit, grading, merge)" "$total" $((total / 60)) $((total % 60))
  [ "$graded" -gt 0 ] && awk -v t="$total" -v k="$kit_seconds" -v c="$calibration_seconds" -v n="$graded" 'BEGIN {
    printf "%-44s %.0f s, %.1f s per submission\n", "grading, the kit apart (end to end - kit - calibration)", t - k - c, (t - k - c) / n }'
  [ -f "$out/cpu-by-program.json" ] && python3 "$root/scripts/class-cost.py" "$out/cpu-by-program.json" "$graded" \
    "$work"/out/gpu*-holds.csv
  if [ "${compared:-0}" -gt 0 ]; then printf '%-44s %d of %d\n' "same grades graded alone" "$same" "$compared"; fi
} | tee -a "$out/summary.txt"
