#!/usr/bin/env bash
# The performance gates' margins on this GPU: every gate kernel the kit has (the solutions; grader/selftest/gate/
# honest, dishonest and partial, for every lab folder under them; grader/selftest/bad/'s kernels that have a gate
# program) is judged by the real checker TRIALS times (20), all trials in one checker process
# (TILELAB_GATE_TRIALS: each trial is the gate's own race and statistic, fresh operands and seeds, the same
# programs), with the requirement calibrated on this GPU (once per lab: the calibrations land in OUT/calibration).
# Prints one row per kernel (lab, kind, what the gate must say, passes of TRIALS, median speedup, min..max,
# required, the model's speedup) and writes it as OUT/margins.csv and OUT/margins.json; each kernel's checker
# output and gate record stay in OUT/logs and OUT/records.
# Run on a GPU machine after the kit is built and its lab programs too (ctest builds them; --build-missing builds
# the gate programs that are not there yet, in one build command). Nothing else is rebuilt.
#   scripts/gate-margins.sh [--build build/kit] [--out build/gate-margins] [--trials 20] [--only REGEX]
#                           [--build-missing] [--suite SUITE]
# REGEX selects kernels by "<kind>/<name>/<lab>" (e.g. 'lab0[23]' or '^honest/'). SUITE is the rung of each lab's
# ladder to race (perf, the top rung, by default; perf-rung1 or perf-rung2 for a lower rung: grader/labs.json): a lab
# whose gate has no rung of that suite is left out.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/kit
out=${OUT:-$root/build/gate-margins}
trials=20
only=''
build_missing=0
suite=perf
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --build-missing) build_missing=1; shift ;;
    --suite) suite=$2; shift 2 ;;
    *) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd) || exit 1
checker=$build/grader/tilelab-checker-gpu
[ -x "$checker" ] || { echo "no $checker: build the kit first (cmake --preset kit && cmake --build --preset kit)" >&2; exit 1; }
tile_width=$(sed -n 's/^TILELAB_PERF_TILE_WIDTH:[A-Z]*=//p' "$build/CMakeCache.txt")
tile_width=${tile_width:-16}
flags=$(sed -n 's/^TILELAB_GATE_CUDA_FLAGS:[A-Z]*=//p' "$build/CMakeCache.txt")
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/calibration" "$out/records" "$out/logs"
mkdir -p "$out/records" "$out/logs"

lab_id() { echo "lab${1:0:2}"; }  # 02_tiled -> lab02
# Whether lab $1's gate has a rung raced by $suite (its registry entry's gate rungs).
# Prints "top" when that rung races the top rung's reference (the previous stage's model), "earlier" when it races an
# earlier lab's model; fails when the lab has no such rung.
rung_of() { python3 -c 'import json,sys; l=[x for x in json.load(open(sys.argv[1]))["labs"] if x["id"]==sys.argv[2]]; r=l[0].get("gate",{}).get("rungs",[]) if l else []; m=[x for x in r if x["suite"]==sys.argv[3]]; m or sys.exit(1); print("top" if m[0]["reference"]==r[-1]["reference"] else "earlier")' "$root/grader/labs.json" "$1" "$suite"; }

# The kernels: "<kind>|<name>|<lab>|<must: pass, fail or either>|<target>", one per line.
kernels=()
# The gate programs the build can make (a dishonest kernel the pipeline check judges is registered as
# gate-<name>-pipeline).
gate_targets=$(cmake --build "$build" --target help 2>/dev/null | grep -oE 'tilelab_[^ :]+_gate' | sort -u)
gate_target() {  # gate_target <name> <lab>: the target of that kernel's gate program
  local plain="tilelab_gate-$1_$2_tw${tile_width}_gate" pipeline="tilelab_gate-$1-pipeline_$2_tw${tile_width}_gate"
  if ! grep -qx "$plain" <<<"$gate_targets" && grep -qx "$pipeline" <<<"$gate_targets"; then echo "$pipeline"; else echo "$plain"; fi
}
for folder in "$root"/solutions/0[2-9]_*; do
  lab=$(lab_id "$(basename "$folder")")
  grep -qx "tilelab_graded_${lab}_tw${tile_width}_gate" <<<"$gate_targets" || continue  # a lab with no gate
  kernels+=("solution|model|$lab|pass|tilelab_graded_${lab}_tw${tile_width}_gate")
done
for kind_dir in "$root"/grader/selftest/gate/*/; do
  kind=$(basename "$kind_dir")
  case $kind in honest) must=pass ;; dishonest) must=fail ;; *) must=either ;; esac
  for variant in "$kind_dir"*/; do
    name=$(basename "$variant")
    for lab_dir in "$variant"*/; do
      lab=$(lab_id "$(basename "$lab_dir")")
      target=$(gate_target "$name" "$lab")
      # A dishonest kernel registered for the pipeline check must fail that check, not the gate, whose
      # requirement there is only "not slower": the gate may judge it either way.
      judged=$must
      [[ $kind == dishonest && $target == *-pipeline_* ]] && judged=either
      kernels+=("$kind|$name|$lab|$judged|$target")
    done
  done
done
# grader/selftest/bad/'s kernels that the kit races in the gate: the gate programs its registered tests run with
# --test-suite=perf (naive-in-tiled-perf, token-tiles), whose submission is named after a folder of bad/.
while read -r target; do
  [[ $target =~ ^tilelab_(.+)_(lab0[0-9])_tw${tile_width}_gate$ ]] || continue
  submission=${BASH_REMATCH[1]} lab=${BASH_REMATCH[2]}
  for bad in "$root"/grader/selftest/bad/*/; do
    name=$(basename "$bad")
    if [[ $submission == "$name" || $submission == "$name"-perf ]]; then
      kernels+=("bad|$name|$lab|fail|$target")
    fi
  done
done < <(grep -rhoE "/tilelab_[^|/\"]+_gate[|][^\"]*--test-suite=perf" "$build" --include=CTestTestfile.cmake |
         grep -oE "tilelab_[^|/\"]+_gate" | sort -u)

# Where each program is (the build tree's layout follows the registering CMakeLists).
declare -A program_of
while read -r program; do program_of[$(basename "$program")]=$program; done < <(
  find "$build" -type f -perm -u+x -name 'tilelab_*_gate' -not -path '*/batch/*')
selected=()
missing=()
for entry in "${kernels[@]}"; do
  IFS='|' read -r kind name lab must target <<<"$entry"
  [ -z "$only" ] || [[ "$kind/$name/$lab" =~ $only ]] || continue
  rung=$(rung_of "$lab") || continue
  # A dishonest kernel does the previous lab's idea: a rung that races an earlier lab's model is its to reach (the
  # technique checks refuse it), one that races the top rung's reference is not.
  if [[ $rung == earlier && $kind == dishonest && $must == fail ]]; then
    IFS='|' read -r kind name lab _ target <<<"$entry"
    entry="$kind|$name|$lab|pass|$target"
  fi
  selected+=("$entry")
  [ -n "${program_of[$target]:-}" ] || missing+=("$target")
done
if [ ${#missing[@]} -gt 0 ] && [ "$build_missing" = 1 ]; then
  echo "building ${#missing[@]} gate programs (log: $out/build.log)"
  cmake --build "$build" --target "${missing[@]}" >"$out/build.log" 2>&1 || echo "some did not build (see $out/build.log)"
  while read -r program; do program_of[$(basename "$program")]=$program; done < <(
    find "$build" -type f -perm -u+x -name 'tilelab_*_gate' -not -path '*/batch/*')
fi

# Each kernel: one checker, TRIALS races, the calibration from OUT/calibration (measured by the first of each lab).
export TILELAB_CALIBRATION_DIR=$out/calibration
export TILELAB_GATE_CUDA_FLAGS=$flags
unset TILELAB_MIN_SPEEDUP
index=$out/kernels.txt
: >"$index"
start=$(date +%s)
for entry in "${selected[@]}"; do
  IFS='|' read -r kind name lab must target <<<"$entry"
  key="$kind-$name-$lab"
  program=${program_of[$target]:-}
  if [ -z "$program" ]; then
    echo "$kind|$name|$lab|$must|not built ($target: ctest builds it, or --build-missing)" >>"$index"
    continue
  fi
  began=$(date +%s)
  TILELAB_GATE_TRIALS=$trials "$checker" --lab "$lab" --tile-width "$tile_width" --runner "$program" \
    --time-limit $((60 + 5 * trials)) --verdict-file "$out/records/$key" --test-suite="$suite" >"$out/logs/$key.log" 2>&1
  status=$?
  echo "$kind|$name|$lab|$must|$out/records/$key.json|$status|$(($(date +%s) - began))" >>"$index"
  printf '%-44s %s, %d s\n' "$kind/$name/$lab" "checker exit $status" "$(($(date +%s) - began))"
done
echo "$(($(date +%s) - start)) s for ${#selected[@]} kernels x $trials trials" >"$out/time.txt"
cmake -DINDEX="$index" -DOUT="$out" -DTRIALS="$trials" -P "$root/scripts/gate-margins.cmake"
cat "$out/time.txt"
