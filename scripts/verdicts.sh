#!/usr/bin/env bash
# The correctness verdicts of every lab 01-03 program the kit built on both backends (the solutions, the stubs,
# the mutants, the bad and the alternative submissions, at every tile width built), side by side: the CPU
# backend must give the GPU's verdict, or say why not. Run after the kit's tests, which build the programs.
#   scripts/verdicts.sh [build folder, default build/kit] [log file]
set -uo pipefail
build=${1:-build/kit}
log=${2:-/dev/null}
suites=tiny,edges,odd-shapes,large,index-order

# A verdict and its reason in a few words, from a program's exit status and output.
verdict() {
  local status=$1 output=$2 reason=""
  case $status in
    0) echo "pass|"; return ;;
    77) echo "skipped|no GPU"; return ;;
    124) echo "fail|timeout"; return ;;
  esac
  if grep -q "shared-memory race" <<<"$output"; then reason="race: $(grep -o 'A barrier is missing between [a-z ]*' <<<"$output" | head -1 | sed 's/A barrier is missing between/barrier missing between/')"
  elif grep -q "barrier divergence" <<<"$output"; then reason="barrier divergence"
  elif grep -q "cudaErrorInvalidConfiguration" <<<"$output"; then reason="launch refused (invalid configuration)"
  elif grep -q "launch failed.*cudaErrorInvalidValue" <<<"$output"; then reason="launch refused (invalid value: too many threads?)"
  elif grep -q "in no device buffer" <<<"$output"; then reason="fault: outside every buffer"
  elif grep -q "illegal memory access in" <<<"$output"; then reason="fault: $(grep -o 'out-of-bounds [a-z]*' <<<"$output" | head -1)"
  elif grep -q "cudaErrorIllegalAddress" <<<"$output"; then reason="fault: illegal address"
  elif grep -q "out-of-bounds write" <<<"$output"; then reason="out-of-bounds write (guard zone)"
  elif grep -q "elements wrong" <<<"$output"; then reason="wrong results"
  else reason="failed"; fi
  echo "fail|$reason"
}

# One program on both backends: a table row on stdout, both outputs in the log.
one() {
  local cpu_program=$1 gpu_program=${1%_cpu} name cpu_output gpu_output cpu_status gpu_status
  [ -x "$gpu_program" ] || return 0
  name=$(basename "$gpu_program")
  name=${name#tilelab_}
  case $name in *_lab04_*|*never-ends*) return 0 ;; esac  # lab 04 has no correctness suites; a hang proves nothing here
  [[ $name =~ _(lab[0-9]+)_tw([0-9]+)$ ]] || return 0
  local lab=(--lab "${BASH_REMATCH[1]}" --tile-width "${BASH_REMATCH[2]}")
  # Each lab's runner, graded by its backend's checker.
  cpu_output=$(timeout 60 "$build/grader/tilelab-checker-cpu" "${lab[@]}" --runner "$cpu_program" --test-suite=$suites 2>&1); cpu_status=$?
  gpu_output=$(timeout 60 "$build/grader/tilelab-checker-gpu" "${lab[@]}" --runner "$gpu_program" --test-suite=$suites 2>&1); gpu_status=$?
  { echo "=== $name (CPU, status $cpu_status)"; echo "$cpu_output"; echo "=== $name (GPU, status $gpu_status)"; echo "$gpu_output"; } >"$work/$name.log"
  IFS='|' read -r cpu_verdict cpu_reason <<<"$(verdict "$cpu_status" "$cpu_output")"
  IFS='|' read -r gpu_verdict gpu_reason <<<"$(verdict "$gpu_status" "$gpu_output")"
  printf '%-58s %-5s %-5s %s | %s\n' "$name" "$cpu_verdict" "$gpu_verdict" "$cpu_reason" "$gpu_reason"
}
export -f one verdict
export suites build
work=$(mktemp -d)
export work

printf '%-58s %-5s %-5s %s | %s\n' "program (submission.lab.tile width)" "CPU" "GPU" "CPU reason" "GPU reason"
# (Not the batch self-test's builds: their programs repeat the graded names.)
find "$build" -type f -name 'tilelab_*_cpu' -perm -u+x -not -path '*/batch/*' | sort |
  xargs -P "${TILELAB_VERDICT_JOBS:-8}" -I{} bash -c 'one "$1"' _ {} | sort >"$work/table"
cat "$work/table"
cat "$work"/*.log >"$log" 2>/dev/null
awk '{ if ($2 == $3) same++; else different++ } END { printf "same verdict on both backends: %d; different: %d\n", same, different }' "$work/table"
rm -rf "$work"
