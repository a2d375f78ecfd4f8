#!/usr/bin/env bash
# Self-test of PrairieLearn's entry point (grader/prairielearn/grade.sh), run in a folder laid out as /grade
# (PL_GRADE_ROOT) against a CPU-only kit built once (selftest.platform-kit): first the instructor's guide's dry run,
# exactly as docs/instructors.md writes it, in the kit's copy; then lab 02 uploaded on its own as the question asks
# (TILELAB_LABS=02). The model answer scores 1 with only lab 02's checks; the stub scores low; a compile error (the
# compiler's own words), an out-of-bounds read (the fault) and a kernel that never ends (the request's limit) are
# gradable, each test showing its cause, and end in time; the entry point's own time limit gives a gradable 0 that
# says so, with the checks as far as they got; a missing kit and a TILELAB_LABS that names no lab are not gradable,
# with the reason. Every results.json is checked against PrairieLearn's documented fields and 1 MB
# (tilelab-report prairielearn --validate).
#   prairielearn_test.sh <kit source> <kit build> <work folder>
set -uo pipefail
root=$1 kit=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
expect() {  # expect <case> <description> <test command...>
  local name=$1 what=$2; shift 2
  if "$@"; then echo "ok: $name: $what"; else echo "FAILED: $name: $what"; failures=$((failures + 1)); fi
}
field() { python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"r": r}))' "$work/$1/results/results.json" "$2"; }
grade() {  # grade <case> <kernel.cu or -> [VAR=value...]: the entry point as PrairieLearn runs it, timed
  local name=$1 file=$2; shift 2
  mkdir -p "$work/$name/student" "$work/$name/tests"
  [ "$file" = - ] || cp "$file" "$work/$name/student/kernel.cu"
  local started=$SECONDS
  env PL_GRADE_ROOT="$work/$name" TILELAB_KIT="$kit" TILELAB_LABS=02 "$@" bash "$root/grader/prairielearn/grade.sh"
  echo "$name: graded in $((SECONDS - started)) s: $(field "$name" "r.get('score'), r.get('gradable'), r.get('message', r.get('format_errors'))")"
  expect "$name" "results.json as PrairieLearn documents it" "$kit/grader/tilelab-report" prairielearn --validate "$work/$name/results/results.json"
}

# The guide's dry run, in the kit's copy of the sources (its build/kit is the guide's CPU kit).
repo=$(cd "$kit/../.." && pwd)
python3 "$root/grader/selftest/guide_recipe.py" "$root/docs/instructors.md" prairielearn_dry_run >"$work/recipe.sh"
cat "$work/recipe.sh"
expect recipe "the guide's dry run runs as written" bash -c "cd '$repo' && bash -e '$work/recipe.sh' >'$work/recipe.txt' 2>&1"
expect recipe "its results.json: gradable, lab 02's tests" test "$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["gradable"], sorted({t["name"].split(":")[0] for t in r["tests"]}))' "$repo/build/pl/results/results.json")" = "True ['lab02']"

grade solution "$root/solutions/02_tiled/kernel.cu"
expect solution "score 1" test "$(field solution "r['score']")" = 1.0
expect solution "only lab 02's checks" test "$(field solution "sorted({t['name'].split(':')[0] for t in r['tests']})")" = "['lab02']"
grade stub "$root/labs/02_tiled/kernel.cu"
expect stub "gradable, score under 0.5" test "$(field stub "r['gradable'] and r['score'] < 0.5")" = True
sed 's/float sum = 0.0f;/float sum = 0.0f/' "$root/solutions/02_tiled/kernel.cu" >"$work/compile-error.cu"
grade compile-error "$work/compile-error.cu"
expect compile-error "gradable, score 0" test "$(field compile-error "r['gradable'] and r['score'] == 0")" = True
expect compile-error "a test says it does not compile" test "$(field compile-error "any('does not compile' in t['output'] for t in r['tests'])")" = True
expect compile-error "a test shows the compiler's error" test "$(field compile-error "any('02_tiled/kernel.cu:18' in t['output'] and 'error' in t['output'] for t in r['tests'])")" = True
sed 's/M\[row \* inner + phase \* TILE_WIDTH + tx\]/M[row * inner + phase * TILE_WIDTH + tx + 100000000]/' \
  "$root/solutions/02_tiled/kernel.cu" >"$work/out-of-bounds.cu"
grade out-of-bounds "$work/out-of-bounds.cu"
expect out-of-bounds "a test shows the fault" test "$(field out-of-bounds "any('illegal memory access' in t['output'] for t in r['tests'])")" = True
sed 's/for (int k = 0; k < TILE_WIDTH; ++k)/for (int k = 0; k < TILE_WIDTH; k += (inner > 0 ? 0 : 1))/' \
  "$root/solutions/02_tiled/kernel.cu" >"$work/never-ends.cu"
started=$SECONDS
grade never-ends "$work/never-ends.cu"
took=$((SECONDS - started))
expect never-ends "gradable, score under 0.5" test "$(field never-ends "r['gradable'] and r['score'] < 0.5")" = True
expect never-ends "a test says it did not finish" test "$(field never-ends "any('did not finish' in t['output'] for t in r['tests'])")" = True
expect never-ends "a test shows the request's limit" test "$(field never-ends "any('did not answer within' in t['output'] for t in r['tests'])")" = True
# The same kernel stopped by the entry point's own limit, half way: its checks as far as they got, earning nothing.
limit=$((took / 2 > 3 ? took / 2 : 3))
grade time-limit "$work/never-ends.cu" TILELAB_TIME_LIMIT=$limit
expect time-limit "gradable, score 0, the limit named" test "$(field time-limit "r['gradable'] and r['score'] == 0 and 'stopped after $limit s' in r['message']")" = True
expect time-limit "the checks as far as they got, none earning" test "$(field time-limit "len(r['tests']) > 0 and all(t['points'] == 0 for t in r['tests'])")" = True
grade bad-setting "$root/solutions/02_tiled/kernel.cu" TILELAB_LABS=99
expect bad-setting "TILELAB_LABS=99: not gradable, the reason given" test "$(field bad-setting "not r['gradable'] and \"names '99', which is no lab\" in r['format_errors'][0]")" = True
grade no-kit "$root/solutions/02_tiled/kernel.cu" TILELAB_KIT="$work/no-kit"
expect no-kit "not gradable, the reason given" test "$(field no-kit "not r['gradable'] and 'no built TileLab kit' in r['format_errors'][0]")" = True
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }
echo "PrairieLearn self-test: every expectation met"
