#!/usr/bin/env bash
# Grading time of the solutions on the CPU backend with two kits, interleaved (issue 52 bounds its growth):
#   scripts/grading-time.sh OLD_SOURCE OLD_KIT NEW_SOURCE NEW_KIT ROUNDS [CPUS] [LABS]
# Each round grades LABS (default labs 01 to 09) of each source tree's solutions/ with its kit, in turn, through its
# own grader/grade.cmake with JOBS=2, pinned to CPUS (default 0,1: the two cores of the CI machine), from a fresh
# build folder. One JSON line per grading: which kit, the round, wall and CPU seconds (the children's user and
# system time), and the points. KEEP_VERDICTS=DIR keeps each kit's last verdicts (per-check seconds) in DIR/old, DIR/new.
set -euo pipefail
old_source=$1 old_kit=$2 new_source=$3 new_kit=$4 rounds=$5 cpus=${6:-0,1} labs=${7:-01;02;03;04;05;06;07;08;09}
work=$(mktemp -d)
chmod 755 "$work"  # the sandboxed compile runs as another user
grade() {  # NAME SOURCE KIT ROUND
  local name=$1 source=$2 kit=$3 round=$4
  rm -rf "$work/build"
  /usr/bin/time -f '%e %U %S' -o "$work/time" taskset -c "$cpus" \
    cmake "-DSUBMISSION=$source/solutions" "-DBUILD=$work/build" "-DRESULTS=$work/results.json" "-DKIT=$kit" \
    -DJOBS=2 "-DLABS=$labs" "-DCONFIGURE_ARGS=-DTILELAB_BACKENDS=cpu" -P "$source/grader/grade.cmake" >"$work/log" 2>&1 ||
    { tail -20 "$work/log" >&2; return 1; }
  read -r wall user system <"$work/time"
  local points
  points=$(grep -oE 'Total: [0-9]+ of [0-9]+' "$work/log" | head -1)
  printf '{"kit": "%s", "round": %d, "wall_s": %s, "cpu_s": %s, "points": "%s"}\n' \
    "$name" "$round" "$wall" "$(awk "BEGIN { print $user + $system }")" "$points"
  if [ -n "${KEEP_VERDICTS:-}" ]; then mkdir -p "$KEEP_VERDICTS/$name"; cp "$work"/build/verdicts/*.json "$KEEP_VERDICTS/$name/" 2>/dev/null || true; fi
}
for round in $(seq 1 "$rounds"); do
  # Alternate which goes first, so that neither always finds the machine as the other left it.
  if [ $((round % 2)) -eq 1 ]; then
    grade old "$old_source" "$old_kit" "$round"; grade new "$new_source" "$new_kit" "$round"
  else
    grade new "$new_source" "$new_kit" "$round"; grade old "$old_source" "$old_kit" "$round"
  fi
done
rm -rf "$work"
