#!/usr/bin/env bash
# A new student's first session, replayed (selftest.student-session): in a fresh copy of the kit (no build, labs/ the
# stubs), grade as the README says, fix one lab by copying in its model answer (as following its handout would), and
# grade it again with the handout's own command. Every command is read from the README and the handout, never typed
# here. Checks: each grade exits 0; the first grade prints at most 60 lines; the second counts the tests the handout
# promises, none failed. The copy's machine is a student's without nvcc, at one tile width, to keep it short: its
# CMakePresets.json's grade preset sets TILELAB_BACKENDS=cpu and TILELAB_TILE_WIDTHS=16 (the commands stay as
# written).
#   student_session_test.sh <kit source> <work folder> [lab folder, default 05_coarsened]
set -uo pipefail
root=$(cd "$1" && pwd) work=$2 lab=${3:-05_coarsened}
number=${lab%%_*}
failures=0
expect() {  # expect <description> <test command...>
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
# first_command <markdown file> <line that opens the section>: the first command of the section's first sh block,
# its comment left out.
first_command() {
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
at = text.index(sys.argv[2])
block = re.search(r"```sh\n(.*?)```", text[at:], re.S)
print(block.group(1).splitlines()[0].split("#")[0].strip())
PY
}
# fact <handout> <name>: the number a handout's marked span states (tilelab-handout-facts keeps it the registry's).
fact() { sed -n "s/.*<!-- fact: $2 -->\([0-9]*\)<!-- \/fact -->.*/\1/p" "$1" | head -n 1; }

rm -rf "$work" && mkdir -p "$work/kit"
kit="$work/kit"
cp -r "$root"/CMakeLists.txt "$root"/CMakePresets.json "$root"/README.md "$root"/cmake "$root"/common "$root"/grader \
      "$root"/labs "$root"/solutions "$kit"/
python3 - "$kit/CMakePresets.json" <<'PY'
import json, sys
presets = json.load(open(sys.argv[1]))
for preset in presets["configurePresets"]:
    if preset["name"] == "grade":
        preset["cacheVariables"].update({"TILELAB_BACKENDS": "cpu", "TILELAB_TILE_WIDTHS": "16"})
json.dump(presets, open(sys.argv[1], "w"), indent=2)
PY

first=$(first_command "$kit/README.md" "**Grade your labs**")
echo "--- the README's command: $first"
(cd "$kit" && bash -c "$first") >"$work/first-grade.txt" 2>&1
status=$?
cat "$work/first-grade.txt"
lines=$(wc -l <"$work/first-grade.txt")
expect "the first grade exits 0 (status $status)" test "$status" = 0
expect "the first grade prints at most 60 lines ($lines)" test "$lines" -le 60
expect "the first grade gives the points" grep -q "^Total: " "$work/first-grade.txt"
expect "the first grade names the log of its build" grep -q "logs/kit-build.log" "$work/first-grade.txt"

handout="$kit/labs/$lab/README.md"
command=$(first_command "$handout" "## Test just this lab")
promised=$(fact "$handout" "lab$number.tests-cpu")
echo "--- the handout's command: $command (it promises $promised tests on the CPU backend)"
expect "the handout's command grades its own lab" test "$command" = "cmake -DLABS=$number -P grader/grade.cmake"
cp "$kit/solutions/$lab"/* "$kit/labs/$lab"/
(cd "$kit" && bash -c "$command") >"$work/second-grade.txt" 2>&1
status=$?
cat "$work/second-grade.txt"
expect "the second grade exits 0 (status $status)" test "$status" = 0
ran=$(sed -n 's/^Ran \([0-9]*\) tests: .*, \([0-9]*\) failed.*/\1 \2/p' "$work/second-grade.txt")
expect "the handout's count of tests is the count seen ($promised promised; seen, then failed: $ran)" \
  test -n "$promised" -a "$ran" = "$promised 0"
expect "the lab earns every point" grep -Eq "^Total: ([0-9]+) of \\1 points" "$work/second-grade.txt"
# The assignment lasted for that one command: the build has every lab's tests again.
expect "after -DLABS=$number, the build still has lab 03's tests" \
  bash -c "cd '$kit' && ctest --preset grade -N -L lab03 | grep -q 'Total Tests: [1-9]'"
[ "$failures" = 0 ] && echo "student session: every step as the README and the handout say" && exit 0
echo "student session: $failures failed (logs: $work)"
exit 1
