#!/usr/bin/env bash
# Grades a class: builds the kit once, then each submission's labs against it, many at once.
#
#   grader/batch.sh SUBMISSIONS [OUT] [options] [-- kit cmake settings, e.g. -DTILELAB_TILE_WIDTHS=16]
#   grader/batch.sh --merge OUT          writes grades.csv and class.html again from what OUT holds
#
# SUBMISSIONS holds one entry per student: a folder laid out like labs/, or an archive of one (.zip, .tar,
# .tar.gz, .tgz; the lab folders may sit one or two levels down). OUT (default build/batch) receives
#   grades.csv                       student, points per lab, total, possible, seconds, notes
#   class.html                       the class at a glance: grades, pass rate per check, totals, speedups
#   timings.csv                      where each submission's time went (build, CPU checks, GPU checks)
#   reports/<student>/report.txt     what grade.cmake printed for that student; results.json for Gradescope;
#                                    summary.json, its points, checks, gates and timings as data
#   kit/                             the kit, built once for the whole batch
# Options:
#   -j N              submissions graded at once on this machine (default: half the cores)
#   -t SECONDS        time one submission may take in all (default 1800); one that runs out gets a note
#   --slurm           grade on a Slurm cluster as a job array (OUT must be on a file system the nodes share):
#     --chunk N         submissions per array task (default 8)
#     --task-minutes M  time limit of a task (default: enough for its chunk, one after another)
#     --cpus N          CPUs per task (default 8); --gres G (default gpu:1 where the cluster has GPUs, else none)
#     --sbatch "ARGS"   more sbatch options (a partition, an account)
#     --no-wait         return once submitted; run --merge OUT when the job has ended
# Each submission is graded in its own folder with its own build of its labs and its own time limit; nothing it
# does reaches the kit or another submission (grade as root: see the instructor's guide). On a machine with
# GPUs, each submission's GPU checks go to one GPU (CUDA_VISIBLE_DEVICES, round robin), and a check that measures
# the GPU (performance gate, lab 04's clock and memory checks) holds it alone while it measures.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/grader/batch/common.sh"
usage() { sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage

merge_only=0
if [ "$1" = "--merge" ]; then
  [ $# -eq 2 ] || usage
  merge_only=1
  out=$2
  shift 2
else
  submissions=$(cd "$1" && pwd) || usage
  shift
  out="$root/build/batch"
  if [ $# -ge 1 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
fi
cores=$(nproc)
jobs=$(( cores / 2 > 0 ? cores / 2 : 1 ))
limit=1800
slurm=0 chunk=8 task_minutes="" cpus=8 gres=auto sbatch_extra="" wait_for_job=1
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs=$2; shift 2 ;;
    -t) limit=$2; shift 2 ;;
    --slurm) slurm=1; shift ;;
    --chunk) chunk=$2; shift 2 ;;
    --task-minutes) task_minutes=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --gres) gres=$2; shift 2 ;;
    --sbatch) sbatch_extra=$2; shift 2 ;;
    --no-wait) wait_for_job=0; shift ;;
    --) shift; extra=("$@"); break ;;
    *) usage ;;
  esac
done
mkdir -p "$out/reports" "$out/work" "$out/builds" "$out/locks"
out=$(cd "$out" && pwd)
# The lock files and the kit are the grader's: a lab's program (another user, as root) cannot hold or change them.
chmod 700 "$out/locks"

# grades.csv, timings.csv and class.html, from each submission's summary.json (a row for each entry without one).
merge() {
  "$(report_program "$out/kit")" class --out "$out" --registry "$root/grader/labs.json"
}
if [ "$merge_only" = 1 ]; then merge; exit $?; fi

rm -rf "$out/slurm" "$out"/gpu*-holds.csv
entries=()
while IFS= read -r -d '' entry; do entries+=("$entry"); done < <(find "$submissions" -mindepth 1 -maxdepth 1 \
  \( -type d -o -name '*.zip' -o -name '*.tar' -o -name '*.tar.gz' -o -name '*.tgz' \) -print0 | sort -z)
total=${#entries[@]}
[ "$total" -gt 0 ] || { echo "no submissions in $submissions (folders or archives)" >&2; exit 1; }
entries_file="$out/entries.txt"
printf '%s\n' "${entries[@]}" >"$entries_file"
for entry in "${entries[@]}"; do
  rm -f "$out/reports/$(student_name "$entry")"/{summary,not-graded}.json
done

# The kit, once: everything but the students' files (the "grade" preset, grading the stubs, which nobody runs).
batch_start=$(date +%s)
echo "building the kit once in $out/kit ${extra[*]:-}" >&2
if ! { cmake --preset grade -B "$out/kit" "${extra[@]}" -S "$root" && cmake --build "$out/kit"; } \
     >"$out/kit.log" 2>&1; then
  tail -30 "$out/kit.log" >&2
  echo "building the kit failed (log: $out/kit.log): nothing was graded; this is the kit's problem, not a student's" >&2
  exit 1
fi
kit_seconds=$(( $(date +%s) - batch_start ))
echo "kit built in $kit_seconds s" >&2
echo "$kit_seconds" >"$out/kit-seconds.txt"

# The progress line's estimate counts from here, once the kit is built.
export TILELAB_LIMIT=$limit TILELAB_BATCH_TOTAL=$total TILELAB_BATCH_START=$(date +%s) TILELAB_ROOT=$root

if [ "$slurm" = 0 ]; then
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
  echo "grading $total submissions, $jobs at a time, up to $limit s each, on $cores cores and ${gpus:-0} GPUs" >&2
  # Each parallel slot keeps to one GPU: slot k uses GPU k mod G, and the lock of that GPU.
  printf '%s\0' "${entries[@]}" | xargs -0 -P "$jobs" --process-slot-var=TILELAB_SLOT -I{} bash -c '
    if [ "$0" -gt 0 ]; then
      gpu=$(( TILELAB_SLOT % $0 ))
      export CUDA_VISIBLE_DEVICES=$gpu TILELAB_GPU_LOCK="$2/locks/gpu$gpu" TILELAB_GPU_HOLDS_LOG="$2/gpu$gpu-holds.csv"
    fi
    exec "$1/grader/batch/grade-one.sh" "$3" "$2"' "${gpus:-0}" "$root" "$out" {}
else
  command -v sbatch >/dev/null || { echo "--slurm: sbatch not found (is this a Slurm login node?)" >&2; exit 1; }
  mkdir -p "$out/slurm"
  cp "$entries_file" "$out/slurm/entries.txt"
  echo "$chunk" >"$out/slurm/chunk"
  tasks=$(( (total + chunk - 1) / chunk ))
  [ -n "$task_minutes" ] || task_minutes=$(( chunk * limit / 60 + 10 ))
  if [ "$gres" = auto ]; then
    if sinfo -h -o '%G' 2>/dev/null | grep -q 'gpu'; then gres=gpu:1; else gres=none; fi
  fi
  gres_args=()
  [ "$gres" = none ] || gres_args=(--gres="$gres")
  # shellcheck disable=SC2086 # the extra sbatch options are words
  job=$(sbatch --parsable --job-name=tilelab-grade --array=0-$((tasks - 1)) --cpus-per-task="$cpus" \
        --time="$task_minutes" --signal=B:USR1@90 "${gres_args[@]}" --output="$out/slurm/task-%a.out" \
        --export=ALL $sbatch_extra "$root/grader/batch/slurm-task.sh" "$out" "$chunk") ||
    { echo "sbatch refused the job (see above)" >&2; exit 1; }
  job=${job%%;*}
  echo "$job" >"$out/slurm/job-id"
  echo "submitted Slurm job $job: $tasks tasks of up to $chunk submissions, $cpus CPUs, ${gres}, $task_minutes min each" >&2
  if [ "$wait_for_job" = 0 ]; then
    echo "when it has ended: $0 --merge $out" >&2
    exit 0
  fi
  reported=-1
  while squeue -h -j "$job" 2>/dev/null | grep -q .; do
    finished=$(finished_count "$out")
    if [ "$finished" != "$reported" ]; then
      elapsed=$(( $(date +%s) - batch_start ))
      printf '[%d/%d, %dm%02ds elapsed] Slurm job %s: %s\n' "$finished" "$total" $((elapsed / 60)) $((elapsed % 60)) \
        "$job" "$(squeue -h -j "$job" -o '%t' | sort | uniq -c | tr -s ' \n' ' ')" >&2
      reported=$finished
    fi
    sleep 5
  done
fi
merge
