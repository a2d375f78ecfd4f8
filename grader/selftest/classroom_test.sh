#!/usr/bin/env bash
# Self-test of GitHub Classroom's workflow: in a repository laid out as the student's (the kit's copy that
# selftest.platform-kit built, its kit in build/kit as the workflow's Kit step leaves it), lab 02's workflow
# (tilelab-report classroom --labs 02) is run as Actions would: its Grade step, then each test's command, whose
# exit status gives it its max-score. The model answer earns every test, and their points equal the lab's points
# in the grading's summary (read from grader/labs.json); the stub earns fewer; a test's command without a summary
# fails and says why.
#   classroom_test.sh <kit source> <repository with build/kit> <work folder>
set -uo pipefail
root=$1 repo=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
expect() {  # expect <description> <test command...>
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
"$repo/build/kit/grader/tilelab-report" classroom --registry "$repo/grader/labs.json" --labs 02 >"$work/classroom.yml" || exit 1
grade_step=$(sed -n '/^    - name: Grade$/{n;s/^      run: //p}' "$work/classroom.yml")
run_workflow() {  # run_workflow <case> <kernel.cu>: the Grade step and the tests; prints "<earned> <possible>"
  cp "$2" "$repo/labs/02_tiled/kernel.cu"
  local started=$SECONDS earned=0 possible=0 command
  (cd "$repo" && bash -c "$grade_step") >"$work/$1.grade.txt" 2>&1
  echo "$1: Grade step took $((SECONDS - started)) s" >&2
  while read -r command && read -r score; do
    possible=$((possible + score))
    if (cd "$repo" && timeout 60 bash -c "$command") >>"$work/$1.tests.txt" 2>&1; then earned=$((earned + score)); fi
  done < <(sed -n 's/^        command: //p; s/^        max-score: //p' "$work/classroom.yml")
  echo "$earned $possible"
}
summary_points() { python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(*[l["possible"] for l in s["labs"] if l["id"] == "lab02"])' "$repo/build/classroom/summary.json"; }

read -r earned possible < <(run_workflow solution "$root/solutions/02_tiled/kernel.cu")
echo "solution: $earned of $possible"
expect "solution: every test passes" test "$earned" = "$possible"
expect "solution: the tests' points are the lab's points in the summary" test "$possible" = "$(summary_points)"
expect "solution: only lab 02 in the summary" test "$(python3 -c 'import json, sys; print([l["id"] for l in json.load(open(sys.argv[1]))["labs"]])' "$repo/build/classroom/summary.json")" = "['lab02']"
read -r stub_earned stub_possible < <(run_workflow stub "$root/labs/02_tiled/kernel.cu")
echo "stub: $stub_earned of $stub_possible"
expect "stub: fewer points than the solution" test "$stub_earned" -lt "$earned"
expect "stub: a failed test says which check and why" grep -q "lab02: 1x1x1 and the tile edges: 0/" "$work/stub.tests.txt"
rm -f "$repo/build/classroom/summary.json"
expect "no summary: a test fails" bash -c "! (cd '$repo' && $(sed -n 's/^        command: //p' "$work/classroom.yml" | head -1))"
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }
echo "GitHub Classroom self-test: every expectation met"
