#!/usr/bin/env bash
# How long a CUDA context takes to start, alone and 8 at once, on an idle GPU and beside 64 processes making small
# requests, with CUDA's default hardware queues per context and with one (CUDA_DEVICE_MAX_CONNECTIONS=1, what the
# grader's sandbox sets): docs/benchmarks.md#class_connections. Needs a GPU and the kit's build; about 90 s.
#   scripts/context-starts.sh [build folder, default build/kit] [loaders, default 64]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/kit}
loaders=${2:-64}
cmake --build "$build" --target tilelab-context-starts >/dev/null || exit 1
program=$(find "$build" -type f -perm -u+x -name tilelab-context-starts | head -1)
monotonic() { python3 -c "import time; print(time.clock_gettime(time.CLOCK_MONOTONIC) + $1)"; }
starts() {  # three starts one after another, then eight at once
  for _ in 1 2 3; do "$program" start; done
  for _ in $(seq 8); do "$program" start & done
  wait
}
for queues in default 1; do
  if [ "$queues" = 1 ]; then export CUDA_DEVICE_MAX_CONNECTIONS=1; else unset CUDA_DEVICE_MAX_CONNECTIONS; fi
  echo "hardware queues per context: $queues; no load: $(starts | awk '{printf "%s ", $2}')"
  settle=$((4 + loaders / 4))  # the loaders' own contexts start first
  until=$(monotonic $((settle + 16)))
  logs=$(mktemp -d)
  for i in $(seq "$loaders"); do "$program" load "$until" >"$logs/$i" & done
  sleep "$settle"
  echo "hardware queues per context: $queues; beside $loaders loaders: $(starts | awk '{printf "%s ", $2}')"
  wait
  echo "  the loaders' requests: $(cat "$logs"/* | awk '{n += $2} END {print n}')"
done
