#!/usr/bin/env bash
# The performance gate on its calibration kernels (grader/selftest/gate/, the solutions, naive-in-tiled,
# token-tiles): each kernel's speedup over the model naive kernel, measured by the gate's checker, with the
# gate's build (TILELAB_GATE_CUDA_FLAGS: global loads cached in L2 only) and with the ordinary build, REPEATS
# times each, interleaved (the reference, in its own program, is always the gate build). Prints one row per kernel: median (min..max) of both, each as the checker's clock
# measured it (what decides) / as the programs' own CUDA events measured the same runs (for comparison). Run after
# the kit's tests on a GPU machine (they build the programs).
#   scripts/gate-variants.sh [build folder, default build/kit] [repeats, default 5]
set -uo pipefail
build=${1:-build/kit}
repeats=${2:-5}
checker="$build/grader/tilelab-checker-gpu"

speedup() {  # speedup <lab> <runner>: "<checker's clock> <events>"
  local output
  output=$("$checker" --lab "$1" --tile-width 16 --runner "$2" --test-suite=perf 2>&1)
  echo "$(grep -o ' speedup [0-9.]*x' <<<"$output" | head -1 | grep -o '[0-9.]*[0-9]')" \
       "$(grep -o "events' speedup [0-9.]*x" <<<"$output" | head -1 | grep -o '[0-9.]*[0-9]')"
}
summary() {  # summary <values...>: median (min..max)
  printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {if (NR == 0) {print "-"; exit}
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f (%.2f..%.2f)", m, v[1], v[NR]}'
}

printf '%-40s %-6s %-52s %s\n' "kernel" "lab" "gate build (L2 only): clock / events" "ordinary build: clock / events"
find "$build" -type f -perm -u+x -name 'tilelab_*_lab0[2-8]_tw16_gate' -not -path '*/batch/*' -not -path '*/cheats*' |
  sort | while read -r gate; do
  name=$(basename "$gate" _gate)
  name=${name#tilelab_}
  [[ $name =~ ^(.*)_(lab0[2-8])_tw16$ ]] || continue
  kernel=${BASH_REMATCH[1]} lab=${BASH_REMATCH[2]}
  case $kernel in stubs|mutant-*|accept-style*) continue ;; esac
  gate_clock=() gate_events=() plain_clock=() plain_events=()
  for _ in $(seq "$repeats"); do
    read -r clock events <<<"$(speedup "$lab" "$gate")"
    gate_clock+=("$clock") gate_events+=("$events")
    read -r clock events <<<"$(speedup "$lab" "${gate%_gate}")"
    plain_clock+=("$clock") plain_events+=("$events")
  done
  printf '%-40s %-6s %-52s %s\n' "$kernel" "$lab" \
    "$(summary "${gate_clock[@]}") / $(summary "${gate_events[@]}")" \
    "$(summary "${plain_clock[@]}") / $(summary "${plain_events[@]}")"
done
