#!/usr/bin/env bash
# One task of a Slurm job array (grader/batch.sh --slurm submits it): grades its chunk of the class, lines
# CHUNK*i+1 ... CHUNK*(i+1) of OUT/slurm/entries.txt, against the kit in OUT/kit, several at once on the task's
# CPUs and on the GPU Slurm gave it, if any.
#
#   sbatch --array=0-N ... grader/batch/slurm-task.sh OUT CHUNK
#
# Slurm warns the task before its time limit (sbatch --signal=B:USR1@90): each submission it has not finished
# then gets a note that says so. A task killed outright leaves nothing; grader/batch.sh --merge gives each such
# submission a row that names its task.
set -uo pipefail
out=$1
chunk=$2
index=${SLURM_ARRAY_TASK_ID:?run by sbatch --array}
root=$(cd "$(dirname "$0")/../.." && pwd)
# sbatch runs a copy of this script: the kit's own path comes from the environment batch.sh exported.
root=${TILELAB_ROOT:-$root}
. "$root/grader/batch/common.sh"

mapfile -t entries < <(sed -n "$((chunk * index + 1)),$((chunk * (index + 1)))p" "$out/slurm/entries.txt")
echo "Slurm task $index on $(hostname): ${#entries[@]} submissions, CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-none}"

out_of_time() {
  local entry report
  for entry in "${entries[@]}"; do
    report="$out/reports/$(student_name "$entry")"
    [ -f "$report/summary.json" ] || [ -f "$report/not-graded.json" ] && continue
    mkdir -p "$report"
    not_graded "$report" "" "Slurm task $index ran out of its time limit before grading it (sbatch --time; batch.sh --task-minutes)"
  done
  kill -- -$$ 2>/dev/null
  exit 1
}
trap out_of_time USR1 TERM

# The GPU Slurm gave this task (--gres) is this task's alone: one lock for its own submissions' checks. A node whose
# GPUs Slurm does not hand out is shared with whatever else runs there: the lock is then the node's.
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  export TILELAB_GPU_LOCK="$out/locks/slurm-task-$index"
elif nvidia-smi -L >/dev/null 2>&1; then
  export TILELAB_GPU_LOCK="$out/locks/node-$(hostname -s)"
fi
cpus=${SLURM_CPUS_PER_TASK:-$(nproc)}
parallel=$(( cpus / 2 > 0 ? cpus / 2 : 1 ))
printf '%s\0' "${entries[@]}" |
  xargs -0 -P "$parallel" -I{} "$root/grader/batch/grade-one.sh" {} "$out" &
wait $!
echo "Slurm task $index done"
