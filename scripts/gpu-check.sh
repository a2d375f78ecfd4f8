#!/usr/bin/env bash
# Builds the kit for the local GPU, runs the whole suite (the kit's own tests, then grading of labs/ through
# the student's command), repeats the racy self-test, and prints a short table last.
# Logs go to $OUT (the device tool's output folder) or build/gpu-check.
#   scripts/gpu-check.sh            on a machine with an NVIDIA GPU
#   TILELAB_CUDA_ARCHS=90 scripts/gpu-check.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/gpu-check}
mkdir -p "$out"
# Both are read by CMake from the environment, so the grading command below sees them too.
export CUDAARCHS=${TILELAB_CUDA_ARCHS:-native}
[ -d "$root/.deps/root/usr" ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
repeats=${TILELAB_REPEATS:-20}

start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
cmake --preset kit >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build --preset kit >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
ctest --preset kit -j 8 >"$out/kit.log" 2>&1
kit_status=$?
kit_end=$(date +%s)

# The missing-first-barrier mutant is caught only when the race shows: count how often it does.
race_caught=0
for _ in $(seq "$repeats"); do
  ctest --test-dir build/kit -R 'mutant-tiled-missing-first-barrier.*[.]fail$' >/dev/null 2>&1 && race_caught=$((race_caught + 1))
done

# The performance gate's robustness: the solutions must pass it every time, untiled code must fail it every time.
declare -A gate_passed
gate_tests=(graded.lab02.tw16.perf graded.lab03.tw16.perf naive-in-tiled-perf.lab02.tw16.fail token-tiles.lab02.tw16.fail)
for t in "${gate_tests[@]}"; do gate_passed[$t]=0; done
for _ in $(seq "$repeats"); do
  for t in "${gate_tests[@]}"; do
    ctest --test-dir build/kit -R "^${t//./[.]}\$" -V >>"$out/gate.log" 2>&1 && gate_passed[$t]=$((gate_passed[$t] + 1))
  done
done

# What each self-test kernel was told (the expect-failure tests pass quietly, so their output is kept here).
ctest --test-dir build/kit -L 'mutant|selftest' -V >"$out/selftest-verbose.log" 2>&1

cmake --build --preset kit --target tilelab-bench >>"$out/build.log" 2>&1 &&
  build/kit/grader/bench/tilelab-bench --csv "$out/bench.csv" --plot "$out/bench.svg" >"$out/bench.txt" 2>/dev/null

cmake -DSUBMISSION=labs -P grader/grade.cmake >"$out/grade-labs.log" 2>&1
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
echo "== summary =="
printf '%-44s %s\n' "GPU" "$(head -1 "$out/gpu.txt")"
printf '%-44s %s\n' "kit tests (ctest --preset kit)" "$(grep -E 'tests passed' "$out/kit.log")"
printf '%-44s %s\n' "kit tests exit status" "$kit_status"
printf '%-44s %s s\n' "configure + build + kit tests wall time" "$((kit_end - start))"
printf '%-44s %s\n' "missing-first-barrier mutant caught" "$race_caught of $repeats runs"
for t in "${gate_tests[@]}"; do printf '%-44s %s\n' "$t" "passed ${gate_passed[$t]} of $repeats"; done
printf '%-44s %s s\n' "whole script wall time" "$((end - start))"
exit "$kit_status"
