#!/usr/bin/env bash
# Watches a batch while it runs, so that a run that stands still says why (scripts/class-benchmark.sh,
# scripts/two-gpu-benchmark.sh): every 5 s the load average and each GPU's use (DIR/load.csv: epoch seconds, load,
# utilization per GPU); and, when DEADLINE (seconds from now) is more than 2, 2 s before it the grading's processes
# with their state, age and CPU, and the file locks held with the batch's lock files' inodes (DIR/at-deadline.txt).
# Runs until killed (kill its process group, or the PID it printed); DIR/locks is the batch's lock folder.
#   scripts/watch-run.sh DIR [DEADLINE] &
set -uo pipefail
dir=$1 deadline=${2:-0} dumper=""
trap 'kill $dumper 2>/dev/null; exit 0' TERM INT
if [ "$deadline" -gt 2 ]; then
  (sleep $((deadline - 2))
   { ps -eo pid,ppid,pgid,stat,etimes,pcpu,args --sort=etimes | grep -E 'tilelab|compute-sanitizer|ctest' | grep -v grep
     ls -i "$dir"/locks/* 2>/dev/null
     cat /proc/locks; } >"$dir/at-deadline.txt" 2>&1) &
  dumper=$!
fi
while sleep 5; do
  echo "$(date +%s),$(cut -d' ' -f1 /proc/loadavg),$(nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null | paste -sd' ')"
done >"$dir/load.csv"
