#!/usr/bin/env bash
# Grades a class: builds the kit once, then each submission's labs against it, many at once.
#
#   grader/batch.sh SUBMISSIONS [OUT] [options] [-- kit cmake settings, e.g. -DTILELAB_TILE_WIDTHS=16]
#   grader/batch.sh --merge OUT          writes grades.csv and class.html again from what OUT holds
#   grader/batch.sh --kit OUT [-- ...]   builds the kit in OUT/kit, calibrates the gates on this machine's GPU, and
#                                        stops (a batch into OUT then finds both done)
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
# does reaches the kit or another submission (grade as root: see the instructor's guide). On a machine with GPUs
# (those CUDA_VISIBLE_DEVICES names, where set), each submission's GPU checks go to one GPU (round robin), and a
# check that measures the GPU (performance gate, lab 04's clock and memory checks) holds it alone while it measures.
set -uo pipefail
# Only the kit's build is shell: the rest is the program tilelab-batch (grader/batch/), built with the kit.
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ "${1:-}" = --merge ] && [ $# -eq 2 ] && exec -a "$0" "$2/kit/grader/tilelab-batch" "$@"
kit_only=0
[ "${1:-}" = --kit ] && [ $# -ge 2 ] && { kit_only=1; set -- "$root" "${@:2}"; }
[ -d "${1:-}" ] || usage
out=$root/build/batch extra=()
[ $# -ge 2 ] && [ "${2#-}" = "$2" ] && out=$2
for ((i = 2; i <= $#; i++)); do [ "${!i}" = -- ] && { extra=("${@:i+1}"); break; }; done
mkdir -p "$out" && out=$(cd "$out" && pwd)
# The kit, once: everything but the students' files (the "grade" preset, grading the stubs, which nobody runs).
echo "building the kit once in $out/kit ${extra[*]:-}" >&2
SECONDS=0
if ! { cmake --preset grade -B "$out/kit" "${extra[@]}" -S "$root" &&
       cmake --build "$out/kit" --target all tilelab-batch; } \
     >"$out/kit.log" 2>&1; then
  tail -30 "$out/kit.log" >&2
  echo "building the kit failed (log: $out/kit.log): nothing was graded; this is the kit's problem, not a student's" >&2
  exit 1
fi
echo "kit built in $SECONDS s" >&2 && echo "$SECONDS" >"$out/kit-seconds.txt"
# The rest is the program's: the gates' calibration on this machine's GPU (all of --kit), then the class's shared
# settings (its seed, compile cache and reference store) and the grading.
[ "$kit_only" = 1 ] && exec -a "$0" "$out/kit/grader/tilelab-batch" --kit "$out"
exec -a "$0" "$out/kit/grader/tilelab-batch" "$@"
