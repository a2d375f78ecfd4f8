#!/usr/bin/env bash
# The advanced labs (05 and up) on a GPU machine: builds the kit for the GPU (sm_90 unless told otherwise), runs
# every test of the new labs on both backends (the model answers graded, the stubs and the mutants failing as they
# should, the performance gates), repeats each gate TILELAB_REPEATS times (20), and times every stage against
# cuBLAS with tilelab-bench at 4096³, 8192³ and a non-multiple size, printing GFLOP/s and % of cuBLAS.
# Logs go to $OUT or build/advanced-gpu; the build to build/advanced (its own, so build/kit is left alone).
#   scripts/advanced-gpu.sh
#   TILELAB_CUDA_ARCHS=native TILELAB_REPEATS=5 TILELAB_BENCH_SIZES=4096,8192,4095 scripts/advanced-gpu.sh
#   TILELAB_SKIP_TESTS=1 TILELAB_SKIP_BENCH=1 scripts/advanced-gpu.sh     the gates' repeats alone (a second call)
# TILELAB_BUILD_DIR puts the build elsewhere (default build/advanced).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/advanced-gpu}
build=${TILELAB_BUILD_DIR:-$root/build/advanced}
mkdir -p "$out"
export CUDAARCHS=${TILELAB_CUDA_ARCHS:-90}
[ -d "$root/.deps/root/usr" ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
[ -d "$root/.deps/boost" ] && export CMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH:+$CMAKE_PREFIX_PATH:}$root/.deps/boost"
repeats=${TILELAB_REPEATS:-20}
sizes=${TILELAB_BENCH_SIZES:-4096,8192,4095}
labs='lab0[5-9]'                       # the advanced labs' tests: graded.lab05..., stubs.lab05..., mutants
mutants='mutant-(coarsened|register|vectorized|warp)-'  # ... and their mutants

start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"

# The kit at TILE_WIDTH 16 only: the advanced labs are registered at one tile width, and their gates race
# against lab 03's model kernel at the gate's tile width, 16.
echo "configuring and building in $build (log: $out/build.log)"
cmake --preset kit -B "$build" -DTILELAB_TILE_WIDTHS=16 >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build "$build" >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build "$build" --target tilelab-bench >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }

# Every test of the advanced labs, both backends (the lab programs are built by their build tests first).
tests_status=0
if [ -z "${TILELAB_SKIP_TESTS:-}" ]; then
  echo "running the advanced labs' tests (log: $out/tests.log)"
  ctest --test-dir "$build" -R "([.]${labs}[.]|^${mutants})" -j 4 --output-on-failure >"$out/tests.log" 2>&1
  tests_status=$?
fi
grep -E "tests passed|tests failed|The following tests FAILED|^\s+[0-9]+ - " "$out/tests.log" | tail -20

# The gates' robustness: each model answer must pass its gate every time.
declare -A gate_passed
mapfile -t gate_tests < <(ctest --test-dir "$build" -N -L gpu -R "^graded[.]${labs}[.]tw[0-9]+[.]perf$" |
                          sed -n 's/^ *Test *#[0-9]*: //p' | grep -v '[.]build$')  # (-N lists the builds they need too)
for t in "${gate_tests[@]}"; do gate_passed[$t]=0; done
for i in $(seq "$repeats"); do
  echo -ne "\rperformance gates: run $i of $repeats"
  for t in "${gate_tests[@]}"; do
    ctest --test-dir "$build" -R "^${t//./[.]}\$" -V >>"$out/gate.log" 2>&1 && gate_passed[$t]=$((gate_passed[$t] + 1))
  done
done
echo

# Every stage against cuBLAS (model answers: the kit preset grades solutions/).
echo "tilelab-bench --sizes $sizes (log: $out/bench.txt)"
bench_status=0
if [ -z "${TILELAB_SKIP_BENCH:-}" ]; then
  "$build/grader/bench/tilelab-bench" --sizes "$sizes" --repeats 10 --csv "$out/bench.csv" --plot "$out/bench.svg" \
    >"$out/bench.txt" 2>&1
  bench_status=$?
fi

end=$(date +%s)
echo
echo "=== advanced labs on $(cut -d, -f1 "$out/gpu.txt") (CUDAARCHS=$CUDAARCHS), $((end - start)) s ==="
echo "--- tests of labs 05+ (both backends): $(grep -E 'tests passed' "$out/tests.log" | tail -1)"
echo "--- performance gates, $repeats runs each (speedup over the previous lab's model kernel):"
for t in "${gate_tests[@]}"; do
  lab=$(echo "$t" | cut -d. -f2)  # graded.lab05.tw16.perf -> lab05
  speedups=$(grep -o "${lab} at TILE_WIDTH [0-9]*, .*speedup [0-9.]*x" "$out/gate.log" | grep -o 'speedup [0-9.]*x' |
             grep -o '[0-9.]*[0-9]' | sort -n | sed -n '1p;$p' | paste -sd' ')
  printf '%-32s passed %2d of %d   speedups (min max): %s\n' "$t" "${gate_passed[$t]}" "$repeats" "${speedups:-?}"
done
echo "--- tilelab-bench (median ms, GFLOP/s, % of cuBLAS SGEMM FP32):"
cat "$out/bench.txt"
status=0
[ "$tests_status" -eq 0 ] || { echo "FAILED: some tests of the advanced labs failed: see $out/tests.log"; status=1; }
for t in "${gate_tests[@]}"; do
  [ "${gate_passed[$t]}" -eq "$repeats" ] || { echo "FAILED: $t passed ${gate_passed[$t]} of $repeats"; status=1; }
done
[ "$bench_status" -eq 0 ] || { echo "FAILED: tilelab-bench: see $out/bench.txt"; status=1; }
echo "logs: $out"
exit $status
