#!/usr/bin/env bash
# Self-test of the instructor's guide (docs/instructors.md): its recipes run exactly as the page writes them
# (grader/selftest/guide_recipe.py prints each), in a copy of the kit's sources whose CPU kit selftest.platform-kit
# built in build/kit with the guide's own command (at one tile width and a 5 s request limit, to keep CI short: a
# recipe that runs that command again finds it built). What the recipes cannot reach here is stood in for: GitHub
# by a fake `gh` (fake_gh.py) and local repositories, a class by a few generated submissions of lab 02
# (TILELAB_LABS=02 in the environment).
#   guide_test.sh <kit source> <repository with build/kit> <work folder> class|gradescope|classroom
#   class       the CPU kit's command; the class command on three submissions of a Gradescope export (names from
#               submission_metadata.yml, quoted notes, a stub apart); a second class refused in the same folder
#   gradescope  the dry run; a compile error, an out-of-bounds read, a kernel that never ends each show their cause
#               in results.json, a TILELAB_LABS naming no lab is not gradable (no results.json); the points possible
#               are the guide's table's; the zip loop writes one autograder per lab and leaves the tree as it was
#   classroom   the template recipe (no solutions/, the workflow, one commit pushed); the deadline's regrade over
#               1,050 repositories, grading each at its last push before the deadline
set -uo pipefail
root=$(cd "$1" && pwd) repo=$(cd "$2" && pwd) work=$3 part=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
expect() {  # expect <description> <test command...>
  local what=$1; shift
  if "$@"; then echo "ok: $part: $what"; else echo "FAILED: $part: $what"; failures=$((failures + 1)); fi
}
recipe() { python3 "$root/grader/selftest/guide_recipe.py" "$root/docs/instructors.md" "$@"; }
run_recipe() {  # run_recipe <anchor> [<n>]: the recipe, in the repository, as a shell runs it (stopping at an error)
  recipe "$@" >"$work/recipe-$1-${2:-1}.sh" || return 1
  echo "--- recipe {#$1} ${2:-1}:"; cat "$work/recipe-$1-${2:-1}.sh"
  (cd "$repo" && bash -e "$work/recipe-$1-${2:-1}.sh")
}
# The points the guide's table gives a lab on the CPU backend, as the docs site writes them from the registry.
cpu_points() {
  cmake -DREGISTRY="$root/grader/labs.json" -DOUT_DIR="$work/points" -DLANGUAGE=en -P "$root/docs/site/points_tables.cmake" >/dev/null &&
    sed -n "s/^| $1 | \([0-9]*\) |.*/\1/p" "$work/points/platform_points.md"
}
json() { python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"r": r}))' "$@"; }
# A recipe that builds a kit of its own into <folder>/kit finds the CPU kit there: the same command, already built.
share_kit() { mkdir -p "$repo/$1" && rm -rf "$repo/$1/kit" && ln -s "$repo/build/kit" "$repo/$1/kit"; }
sol="$root/solutions/02_tiled/kernel.cu"
stub="$root/labs/02_tiled/kernel.cu"
sed 's/float sum = 0.0f;/float sum = 0.0f/' "$sol" >"$work/compile-error.cu"
sed 's/M\[row \* inner + phase \* TILE_WIDTH + tx\]/M[row * inner + phase * TILE_WIDTH + tx + 100000000]/' "$sol" >"$work/out-of-bounds.cu"
sed 's/for (int k = 0; k < TILE_WIDTH; ++k)/for (int k = 0; k < TILE_WIDTH; k += (inner > 0 ? 0 : 1))/' "$sol" >"$work/never-ends.cu"

case $part in
class)
  expect "the CPU kit's command runs (and finds the kit built)" run_recipe guide_platforms 1
  # A Gradescope export, unpacked: a folder per submission and the metadata naming their students.
  rm -rf "$repo/submissions" && mkdir -p "$repo/submissions"
  for who in 1001:"$sol" 1002:"$stub" 1003:"$work/compile-error.cu"; do
    mkdir -p "$repo/submissions/submission_${who%%:*}/02_tiled" && cp "${who#*:}" "$repo/submissions/submission_${who%%:*}/02_tiled/kernel.cu"
  done
  printf '%s\n' "submission_1001:" "  :submitters:" "  - :name: Ruiz, Ana" "    :sid: '100'" "    :email: ana@example.edu" \
    "submission_1002:" "  :submitters:" "  - :name: Ben Ng" "    :sid: '200'" "  - :name: Chloe O'Hara" "    :sid: '201'" \
    "submission_1003:" "  :submitters:" "  - :name: Dan \"D\" Li" "    :sid: '300'" >"$repo/submissions/submission_metadata.yml"
  share_kit build/class
  (export TILELAB_LABS=02 && run_recipe guide_platforms 2) >"$work/class.txt" 2>&1
  expect "the class command ran" test $? = 0
  cat "$work/class.txt"
  csv="$repo/build/class/grades.csv"
  cat "$csv"
  possible=$(python3 -c 'import csv, sys; print([r["possible"] for r in csv.DictReader(open(sys.argv[1]))])' "$csv")
  row() { python3 -c 'import csv, sys; print([r for r in csv.DictReader(open(sys.argv[1])) if r["student"] == sys.argv[2]][0][sys.argv[3]])' "$csv" "$@"; }
  lab02_cpu=$(cpu_points lab02)
  expect "three rows, each out of lab 02's CPU points ($lab02_cpu)" test "$possible" = "['$lab02_cpu', '$lab02_cpu', '$lab02_cpu']"
  expect "students named from submission_metadata.yml (a comma kept: the field is quoted)" test "$(row submission_1001 name)" = "Ruiz, Ana"
  expect "a group's names joined" test "$(row submission_1002 name)" = "Ben Ng; Chloe O'Hara"
  expect "the model answer: full marks" test "$(row submission_1001 total)" = "$lab02_cpu"
  expect "the stub: said to be one" grep -q "lab02: left as the stub" <(row submission_1002 notes)
  expect "the compile error: one note for lab 02" test "$(row submission_1003 notes | grep -o 'lab02' | wc -l)" -ge 1
  expect "the progress line counts this class" grep -q '^\[3/3, ' "$work/class.txt"
  page="$repo/build/class/class.html"
  expect "class.html: the grade table first" python3 -c 'import sys; p = open(sys.argv[1]).read(); sys.exit(not 0 < p.find("<th>student</th>") < p.find("<h2>Totals</h2>"))' "$page"
  expect "class.html: the lab's maximum in its header" grep -q "<th>lab02<br><span class=\"max\">of $lab02_cpu</span>" "$page"
  expect "class.html: each name links to its report" grep -q '<a href="reports/submission_1001/report.txt">Ruiz, Ana</a>' "$page"
  # Another class into the same folder: refused, and the first class's rows stay.
  mkdir -p "$repo/other-class/eve/02_tiled" && cp "$sol" "$repo/other-class/eve/02_tiled/kernel.cu"
  (cd "$repo" && TILELAB_LABS=02 grader/batch.sh other-class build/class -- -DTILELAB_BACKENDS=cpu) >"$work/other.txt" 2>&1
  expect "a second class in the same folder is refused" test $? != 0
  expect "the refusal names the class the folder holds" grep -q "holds the class graded from $repo/submissions" "$work/other.txt"
  expect "the first class's grades are as they were" test "$(grep -c . "$csv")" = 4
  rm -rf "$repo/submissions" "$repo/other-class"
  ;;
gradescope)
  # The points the guide's table gives each lab on the CPU backend, as the docs site writes them.
  cmake -DREGISTRY="$root/grader/labs.json" -DOUT_DIR="$work/points" -DLANGUAGE=en -P "$root/docs/site/points_tables.cmake"
  lab02_cpu=$(sed -n 's/^| lab02 | \([0-9]*\) |.*/\1/p' "$work/points/platform_points.md")
  expect "the dry run runs" run_recipe gradescope_dry_run
  results="$repo/build/autograder/results/results.json"
  expect "results.json: lab 02's checks alone" test "$(json "$results" "sorted({t['name'].split(':')[0] for t in r['tests']})")" = "['lab02']"
  expect "the stub scores low" test "$(json "$results" "r['score'] < 5")" = True
  expect "the points possible are the guide's table's ($lab02_cpu)" test "$(json "$results" "sum(t['max_score'] for t in r['tests'])")" = "$lab02_cpu"
  # Each cause as the student reads it, in the same folder (the dry run's).
  cause() {  # cause <kernel.cu> <what a failed test's output must hold> [TILELAB_LABS]
    cp "$1" "$repo/build/autograder/submission/kernel.cu"
    (cd "$repo" && TILELAB_LABS=${3:-02} AUTOGRADER="$repo/build/autograder" grader/gradescope/run_autograder) >"$work/cause.txt" 2>&1
    json "$results" "any(\"\"\"$2\"\"\" in t['output'] for t in r['tests'] if t.get('status') == 'failed')" 2>/dev/null
  }
  expect "a compile error shows the compiler's first errors" test "$(cause "$work/compile-error.cu" "02_tiled/kernel.cu:18")" = True
  expect "an out-of-bounds read shows the fault the lab's program met" test "$(cause "$work/out-of-bounds.cu" "illegal memory access")" = True
  expect "a kernel that never ends shows the request's limit" test "$(cause "$work/never-ends.cu" "did not answer within")" = True
  cause "$sol" "" 99
  expect "TILELAB_LABS=99: no results.json, so no score (not a 0)" test ! -e "$results"
  expect "TILELAB_LABS=99: the reason for the course staff" grep -q "names '99', which is no lab" "$repo/build/autograder/results/not-graded.txt"
  # The zip loop: one autograder per lab, the tree left as it was. An instructor's tree has the model answers, which
  # no zip may take: a stand-in for them here (the copy has none).
  mkdir -p "$repo/solutions/02_tiled" && cp "$sol" "$repo/solutions/02_tiled/kernel.cu"
  tree() { (cd "$repo" && find . -path ./build -prune -o -type f -print0 | sort -z | xargs -0 cksum); }
  tree >"$work/tree-before.txt"
  expect "the zip loop runs" run_recipe assignments 2
  tree >"$work/tree-after.txt"
  expect "the tree is left as it was" cmp -s "$work/tree-before.txt" "$work/tree-after.txt"
  for lab in $("$repo/build/kit/grader/tilelab-report" labs --registry "$repo/grader/labs.json"); do
    zip="$repo/build/autograder-$lab.zip"
    cmake -E tar tf "$zip" >"$work/list.txt" 2>/dev/null
    rm -rf "$work/unzipped" && mkdir -p "$work/unzipped" && (cd "$work/unzipped" && cmake -E tar xf "$zip" grader/gradescope/assignment.txt)
    expect "$lab: setup.sh and run_autograder at the zip's top, no solutions/" \
      test "$(grep -cxE 'setup.sh|run_autograder' "$work/list.txt")" = 2 -a "$(grep -c '^solutions/' "$work/list.txt")" = 0
    expect "$lab: its assignment.txt names it" test "$(cat "$work/unzipped/grader/gradescope/assignment.txt" 2>/dev/null)" = "$lab"
  done
  rm -rf "$repo/solutions"
  ;;
classroom)
  command -v git >/dev/null || { echo "SKIPPED: no git here for the Classroom recipes"; exit 77; }
  export FAKE_GH_DIR="$work/github" GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.edu GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.edu
  mkdir -p "$FAKE_GH_DIR/activity" "$work/bin" "$work/remotes"
  printf '#!/bin/sh\nexec python3 %s "$@"\n' "$root/grader/selftest/fake_gh.py" >"$work/bin/gh" && chmod +x "$work/bin/gh"
  export PATH="$work/bin:$PATH"
  expect "the template recipe runs" run_recipe classroom_template
  template="$repo/build/lab02-template"
  expect "the template has no solutions/" test ! -e "$template/solutions"
  expect "the template has lab 02's workflow" grep -q "lab02: builds at every tile width" "$template/.github/workflows/classroom.yml"
  expect "the template was pushed and made a template" grep -q "repo edit YOUR-ORG/lab02-template --template" "$FAKE_GH_DIR/calls.log"
  # An organization of 1,050 repositories, lab 02's three on the last page; git reaches the local ones for GitHub.
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0="url.$work/remotes/.insteadOf" GIT_CONFIG_VALUE_0="https://github.com/YOUR-ORG/"
  for i in $(seq -w 1 1047); do echo "other-repo-$i"; done >"$FAKE_GH_DIR/repos.txt"
  printf '%s\n' lab02-ana lab02-ben lab02-cara >>"$FAKE_GH_DIR/repos.txt"
  student_repo() {  # student_repo <name> <kernel.cu>...: one commit per file, printing each commit
    local dir="$work/remotes/lab02-$1" file; shift
    git init -q -b main "$dir" && git -C "$dir" config uploadpack.allowAnySHA1InWant true && mkdir -p "$dir/labs/02_tiled"
    for file in "$@"; do cp "$file" "$dir/labs/02_tiled/kernel.cu" && git -C "$dir" add -A && git -C "$dir" commit -qm push && git -C "$dir" rev-parse HEAD; done
  }
  { read -r ana_before; read -r ana_after; } < <(student_repo ana "$sol" "$work/compile-error.cu")
  ben=$(student_repo ben "$stub")
  cara=$(student_repo cara "$sol")
  activity() { printf '['; local first=1; while [ $# -gt 0 ]; do [ $first = 1 ] || printf ','; first=0; printf '{"timestamp": "%s", "activity_type": "%s", "after": "%s"}' "$1" "$2" "$3"; shift 3; done; printf ']\n'; }
  # Newest first, as GitHub lists them: ana pushed the model answer before the deadline and a compile error after.
  activity 2026-03-02T08:00:00Z push "$ana_after" 2026-03-01T22:00:00Z push "$ana_before" >"$FAKE_GH_DIR/activity/lab02-ana.json"
  activity 2026-02-27T09:00:00Z force_push "$ben" >"$FAKE_GH_DIR/activity/lab02-ben.json"
  activity 2026-03-03T09:00:00Z push "$cara" >"$FAKE_GH_DIR/activity/lab02-cara.json"
  share_kit build/regrade
  run_recipe classroom_regrade >"$work/regrade.txt" 2>&1
  expect "the regrade recipe runs" test $? = 0
  cat "$work/regrade.txt"
  csv="$repo/build/regrade/grades.csv"
  cat "$csv"
  total() { python3 -c 'import csv, sys; print([r["total"] for r in csv.DictReader(open(sys.argv[1])) if r["student"] == sys.argv[2]])' "$csv" "$1"; }
  expect "past 1,000 repositories: lab 02's, listed on page 11, were found" grep -q '^ana,' "$csv"
  expect "ana graded at her last push before the deadline (the model answer), not the compile error after it" test "$(total ana)" = "['$(cpu_points lab02)']"
  expect "ben's forced push before the deadline graded (the stub: its build check's point)" test "$(total ben)" = "['1']"
  expect "cara pushed only after the deadline: not graded, and said so" grep -q "lab02-cara: no push before the deadline" "$work/regrade.txt"
  ;;
*) echo "guide_test.sh: no part $part"; exit 2 ;;
esac
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }
echo "guide self-test ($part): every expectation met"
