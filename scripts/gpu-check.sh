#!/usr/bin/env bash
# Builds the kit for the local GPU, runs the whole suite (the kit's own tests on both backends, then grading of
# labs/ through the student's command), compares the CPU and GPU backends' verdicts kernel by kernel, repeats the
# racy self-test and the performance gate, runs both benchmarks, and prints a short table last.
# Logs go to $OUT (the device tool's output folder) or build/gpu-check.
#   scripts/gpu-check.sh            on a machine with an NVIDIA GPU
#   TILELAB_CUDA_ARCHS=90 scripts/gpu-check.sh
#   TILELAB_REPEATS=3 TILELAB_SKIP_BENCH=1 scripts/gpu-check.sh      fewer repeats, no benchmarks (a shorter run)
#   TILELAB_CLASS_COUNT=200 scripts/gpu-check.sh      also grades a generated class of 200 (scripts/class-benchmark.sh)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/gpu-check}
mkdir -p "$out"
# Both are read by CMake from the environment, so the grading command below sees them too.
# Unset: the local GPUs' own architectures (cmake/TileLabCudaArchitectures.cmake: what "native" gives on CMake 3.24+,
# on CMake 3.22 too).
if [ -n "${TILELAB_CUDA_ARCHS:-}" ]; then export CUDAARCHS=$TILELAB_CUDA_ARCHS; fi
[ -d "$root/.deps/root/usr" ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
# Boost.Context for the CPU backend, where the machine has no package of it (headers and the library only).
[ -d "$root/.deps/boost" ] && export CMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:+$CMAKE_PREFIX_PATH:}$root/.deps/boost"
repeats=${TILELAB_REPEATS:-20}

start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
cmake --preset kit >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build --preset kit >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
ctest --preset kit -j 8 >"$out/kit.log" 2>&1
kit_status=$?
# The CPU backend's counts, from this run's log (the repeats below replace it).
bash grader/selftest/cpu_summary.sh build/kit >"$out/cpu-summary.txt" 2>&1
kit_end=$(date +%s)

# The missing-first-barrier mutant is caught only when the race shows: count how often it does.
race_caught=0
for _ in $(seq "$repeats"); do
  ctest --test-dir build/kit -R 'mutant-tiled-missing-first-barrier[.]lab02[.]tw16[.]fail$' >/dev/null 2>&1 && race_caught=$((race_caught + 1))
done

# The performance gate's robustness: the solutions must pass it every time, untiled code must fail it every time.
declare -A gate_passed
# Every GPU performance-gate test: the solutions and the honest calibration kernels (pass), the untiled ones (fail).
mapfile -t gate_tests < <(ctest --test-dir build/kit -N -L gpu -R '([.]perf|(gate-|naive-in-tiled-perf|token-tiles).*[.]tw16[.]fail)$' |
                          sed -n 's/^ *Test *#[0-9]*: //p' | grep -v '[.]build$')  # (-N lists the builds they need too)
for t in "${gate_tests[@]}"; do gate_passed[$t]=0; done
for _ in $(seq "$repeats"); do
  for t in "${gate_tests[@]}"; do
    ctest --test-dir build/kit -R "^${t//./[.]}\$" -V >>"$out/gate.log" 2>&1 && gate_passed[$t]=$((gate_passed[$t] + 1))
  done
done

# The dishonest submissions, graded on both backends (the kit's suite ran them on the CPU backend alone).
bash grader/selftest/cheats_test.sh "$root" build/kit/cheats-both "cpu;gpu" >"$out/cheats.txt" 2>&1

# The gate's speedups, kernel by kernel, with its build and with the ordinary one.
bash scripts/gate-variants.sh build/kit 3 >"$out/gate-variants.txt" 2>&1

# Every lab program on both backends, verdict by verdict.
bash scripts/verdicts.sh build/kit "$out/verdicts.log" >"$out/verdicts.txt" 2>&1
cp build/kit/grader/selftest/batch/out/grades.csv "$out/batch-grades.csv" 2>/dev/null

# Grading a class (optional, long): TILELAB_CLASS_COUNT=200 grades 200 generated submissions with grader/batch.sh.
if [ -n "${TILELAB_CLASS_COUNT:-}" ]; then
  OUT="$out/class" bash scripts/class-benchmark.sh "$TILELAB_CLASS_COUNT" >"$out/class-benchmark.txt" 2>&1
fi
if [ -z "${TILELAB_SKIP_BENCH:-}" ]; then
  # What each self-test kernel was told (the expect-failure tests pass quietly, so their output is kept here).
  ctest --test-dir build/kit -L 'mutant|selftest' -E 'selftest[.]batch' -V >"$out/selftest-verbose.log" 2>&1
  cmake --build --preset kit --target tilelab-bench tilelab-cpu-bench >>"$out/build.log" 2>&1 &&
    build/kit/grader/bench/tilelab-bench --csv "$out/bench.csv" --plot "$out/bench.svg" >"$out/bench.txt" 2>/dev/null
  build/kit/grader/unit/cpu/tilelab-cpu-bench >"$out/cpu-bench.txt" 2>&1
  cmake -DSUBMISSION=labs -P grader/grade.cmake >"$out/grade-labs.log" 2>&1
fi
end=$(date +%s)

echo
echo "== failures in the kit's own tests (details in kit.log) =="
grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|Not Run|Exception)' "$out/kit.log" | head -40
echo
echo "== grading labs/ (the stubs) =="
sed -n '/TileLab results/,$p' "$out/grade-labs.log" | head -24
echo
echo "== gate lines (first run of each) =="
grep -E "speedup [0-9.]+x" "$out/gate.log" | sort -u -t, -k1,1 | head -4
echo
echo "== tilelab-bench (solutions) =="
cat "$out/bench.txt" 2>/dev/null | head -40
echo
echo "== performance gate: speedups over the model naive kernel (gate-variants.txt) =="
cat "$out/gate-variants.txt"
echo
echo "== CPU backend against GPU backend, kernel by kernel (verdicts.txt) =="
grep -v "^stubs\|^graded" "$out/verdicts.txt" | head -60
echo
echo "== CPU backend =="
cat "$out/cpu-summary.txt" "$out/cpu-bench.txt" 2>/dev/null
echo
echo "== batch self-test: grades.csv =="
cat "$out/batch-grades.csv" 2>/dev/null
echo
echo "== summary =="
printf '%-44s %s\n' "GPU" "$(head -1 "$out/gpu.txt")"
printf '%-44s %s\n' "kit tests (ctest --preset kit)" "$(grep -E 'tests passed' "$out/kit.log")"
printf '%-44s %s\n' "kit tests exit status" "$kit_status"
printf '%-44s %s s\n' "configure + build + kit tests wall time" "$((kit_end - start))"
printf '%-44s %s\n' "CPU and GPU verdicts" "$(tail -1 "$out/verdicts.txt")"
printf '%-44s %s\n' "batch self-test (selftest.batch)" "$(grep -E 'selftest[.]batch .*sec' "$out/kit.log" | sed 's/.*[.] *//')"
printf '%-44s %s\n' "cheats on both backends (cheats.txt)" "$(tail -1 "$out/cheats.txt")"
[ -f "$out/class/summary.txt" ] && grep -E "end to end|per submission|same grades" "$out/class/summary.txt"
printf '%-44s %s\n' "missing-first-barrier mutant caught" "$race_caught of $repeats runs"
for t in "${gate_tests[@]}"; do printf '%-44s %s\n' "$t" "passed ${gate_passed[$t]} of $repeats"; done
printf '%-44s %s s\n' "whole script wall time" "$((end - start))"
exit "$kit_status"
