#!/usr/bin/env bash
# The kit's GPU work cut into phases that each fit one call of a lent machine (10 minutes a command), on a machine
# that keeps the build between calls. Logs accumulate in build/gpu-logs; each call packs them into one archive,
# $OUT/logs.tar.gz (or build/gpu-phases/), since the device tool brings back few files.
#   scripts/gpu-phases.sh build                 unpacks .deps/debs, configures build/dev (the backends in
#                                               TILELAB_BACKENDS, gpu by default; sm_90, TILE_WIDTH 16) and builds
#                                               the kit and tilelab-bench
#   scripts/gpu-phases.sh bench                 tilelab-bench at TILELAB_BENCH_SIZES (4096,8192,4095), 10 repeats
#   scripts/gpu-phases.sh suite SECONDS         every GPU test (ctest -L gpu), stopped after SECONDS
#   scripts/gpu-phases.sh cpu-suite SECONDS     every CPU-backend test (ctest -L cpu), after the GPU's
#   scripts/gpu-phases.sh resume SECONDS        the tests the last suite run failed or did not reach
#   scripts/gpu-phases.sh list FILE SECONDS     the tests named in FILE (one a line: those a machine given back
#                                               before the suite ended did not reach), stopped after SECONDS
#   scripts/gpu-phases.sh trials N REGEX        each test matching REGEX, N times, interleaved (ctest -V logs kept)
# Several phases in one call: scripts/gpu-phases.sh build bench suite 300
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${OUT:-$root/build/gpu-phases}
build=$root/build/dev
logs=$root/build/gpu-logs
mkdir -p "$out" "$logs"
export CMAKE_PREFIX_PATH=$root/.deps/root/usr
jobs=$(nproc)

# The Debian packages travel packed (Boost's headers unpacked are over the tool's 64 MiB), and a carried .deps
# replaces the unpacked one: every call unpacks them, whatever its phases.
if [ ! -d .deps/root/usr ]; then
  for deb in .deps/debs/*.deb; do dpkg -x "$deb" .deps/root; done
fi

phase_build() {
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm --format=csv,noheader \
    | tee "$logs/gpu.txt"
  cmake --preset kit -B "$build" "-DTILELAB_BACKENDS=${TILELAB_BACKENDS:-gpu}" -DCMAKE_CUDA_ARCHITECTURES=90 -DTILELAB_TILE_WIDTHS=16 \
    >"$logs/build.log" 2>&1 &&
    cmake --build "$build" -j "$jobs" >>"$logs/build.log" 2>&1 &&
    cmake --build "$build" -j "$jobs" --target tilelab-bench >>"$logs/build.log" 2>&1
  local status=$?
  tail -3 "$logs/build.log"
  return $status
}

phase_bench() {
  "$build/grader/bench/tilelab-bench" --sizes "${TILELAB_BENCH_SIZES:-4096,8192,4095}" --repeats 10 \
    --csv "$logs/bench.csv" --plot "$logs/bench.svg" >"$logs/bench.txt" 2>&1
  cat "$logs/bench.txt"
}

# ctest's --stop-time takes a clock time: SECONDS from now.
stop_time() { date -d "+$1 seconds" +%H:%M:%S; }

phase_suite() {
  ctest --test-dir "$build" -L gpu -j "$jobs" --stop-time "$(stop_time "$1")" --output-junit "$logs/suite.xml" \
    --output-on-failure >"$logs/suite.log" 2>&1
  grep -E 'tests passed|Total Test time' "$logs/suite.log"
}

phase_cpu_suite() {
  ctest --test-dir "$build" -L cpu -j "$jobs" --stop-time "$(stop_time "$1")" --output-junit "$logs/cpu-suite.xml" \
    --output-on-failure >"$logs/cpu-suite.log" 2>&1
  grep -E 'tests passed|Total Test time' "$logs/cpu-suite.log"
  sed -n '/The following tests FAILED/,$p' "$logs/cpu-suite.log" | head -40
}

phase_resume() {
  ctest --test-dir "$build" --rerun-failed -j "$jobs" --stop-time "$(stop_time "$1")" \
    --output-junit "$logs/resume.xml" --output-on-failure >"$logs/resume.log" 2>&1
  grep -E 'tests passed|Total Test time' "$logs/resume.log"
  sed -n '/The following tests FAILED/,$p' "$logs/resume.log" | head -40
}

phase_list() {
  ctest --test-dir "$build" -R "^($(paste -sd'|' "$1" | sed 's/[.]/[.]/g'))\$" -j "$jobs" \
    --stop-time "$(stop_time "$2")" --output-junit "$logs/list.xml" --output-on-failure >"$logs/list.log" 2>&1
  grep -E 'tests passed|Total Test time' "$logs/list.log"
  sed -n '/The following tests FAILED/,$p' "$logs/list.log" | head -40
}

phase_trials() {
  local repeats=$1 regex=$2 i t
  mapfile -t tests < <(ctest --test-dir "$build" -N -R "$regex" | sed -n 's/^ *Test *#[0-9]*: //p' |
                       grep -v '[.]build$')
  declare -A passed
  for t in "${tests[@]}"; do passed[$t]=0; done
  for i in $(seq "$repeats"); do
    for t in "${tests[@]}"; do
      ctest --test-dir "$build" -R "^${t//./[.]}\$" -V >>"$logs/trials.log" 2>&1 && passed[$t]=$((passed[$t] + 1))
    done
  done
  for t in "${tests[@]}"; do printf '%-60s passed %2d of %d\n' "$t" "${passed[$t]}" "$repeats"; done |
    tee -a "$logs/trials.txt"
}

status=0
while [ $# -gt 0 ]; do
  phase=$1; shift
  start=$(date +%s)
  case $phase in
    build) phase_build || status=1 ;;
    bench) phase_bench || status=1 ;;
    suite) phase_suite "$1" || status=1; shift ;;
    cpu-suite) phase_cpu_suite "$1" || status=1; shift ;;
    resume) phase_resume "$1" || status=1; shift ;;
    list) phase_list "$1" "$2" || status=1; shift 2 ;;
    trials) phase_trials "$1" "$2" || status=1; shift 2 ;;
    *) echo "gpu-phases: unknown phase '$phase'" >&2; exit 2 ;;
  esac
  echo "--- $phase: $(($(date +%s) - start)) s"
done
tar -czf "$out/logs.tar.gz" -C "$root/build" gpu-logs
exit $status
