#!/usr/bin/env bash
# The performance gate on its calibration kernels (grader/selftest/gate/, the solutions, naive-in-tiled,
# token-tiles): each kernel's speedup over the model naive kernel, measured by the gate's checker, with the
# gate's build (TILELAB_GATE_CUDA_FLAGS: global loads cached in L2 only) and with the ordinary build, REPEATS
# times each, interleaved. Prints one row per kernel: median (min..max) of both. Run after the kit's tests on a
# GPU machine (they build the programs).
#   scripts/gate-variants.sh [build folder, default build/kit] [repeats, default 5]
set -uo pipefail
build=${1:-build/kit}
repeats=${2:-5}
checker="$build/grader/tilelab-checker-gpu"

speedup() {  # speedup <lab> <runner>
  "$checker" --lab "$1" --tile-width 16 --runner "$2" --test-suite=perf 2>&1 |
    grep -o 'speedup [0-9.]*x' | head -1 | grep -o '[0-9.]*[0-9]'
}
summary() {  # summary <values...>: median (min..max)
  printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {if (NR == 0) {print "-"; exit}
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f..%.2f)", m, v[1], v[NR]}'
}

printf '%-40s %-6s %-26s %s\n' "kernel" "lab" "gate build (L2 only)" "ordinary build"
find "$build" -type f -perm -u+x -name 'tilelab_*_lab0[23]_tw16_gate' -not -path '*/batch/*' -not -path '*/cheats*' |
  sort | while read -r gate; do
  name=$(basename "$gate" _gate)
  name=${name#tilelab_}
  [[ $name =~ ^(.*)_(lab0[23])_tw16$ ]] || continue
  kernel=${BASH_REMATCH[1]} lab=${BASH_REMATCH[2]}
  case $kernel in stubs|mutant-*|accept-styles) continue ;; esac
  gate_values=() plain_values=()
  for _ in $(seq "$repeats"); do
    gate_values+=("$(speedup "$lab" "$gate")")
    plain_values+=("$(speedup "$lab" "${gate%_gate}")")
  done
  printf '%-40s %-6s %-26s %s\n' "$kernel" "$lab" "$(summary "${gate_values[@]}")" "$(summary "${plain_values[@]}")"
done
