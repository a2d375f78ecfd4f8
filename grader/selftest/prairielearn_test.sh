#!/usr/bin/env bash
# Self-test of PrairieLearn's entry point (grader/prairielearn/grade.sh), run in a folder laid out as /grade
# (PL_GRADE_ROOT) against a CPU-only kit built once (selftest.platform-kit): lab 02 uploaded on its own as the
# question asks (TILELAB_LABS=02). The model answer scores 1 with only lab 02's checks; the stub scores low; a
# compile error and a kernel that never ends are gradable, with a message, and end in time; the entry point's own
# time limit gives a gradable 0 that says so; a missing kit is not gradable, with the reason. Every results.json is
# checked against PrairieLearn's documented fields and 1 MB (tilelab-report prairielearn --validate).
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

grade solution "$root/solutions/02_tiled/kernel.cu"
expect solution "score 1" test "$(field solution "r['score']")" = 1.0
expect solution "only lab 02's checks" test "$(field solution "sorted({t['name'].split(':')[0] for t in r['tests']})")" = "['lab02']"
grade stub "$root/labs/02_tiled/kernel.cu"
expect stub "gradable, score under 0.5" test "$(field stub "r['gradable'] and r['score'] < 0.5")" = True
sed 's/float sum = 0.0f;/float sum = 0.0f/' "$root/solutions/02_tiled/kernel.cu" >"$work/compile-error.cu"
grade compile-error "$work/compile-error.cu"
expect compile-error "gradable, score 0" test "$(field compile-error "r['gradable'] and r['score'] == 0")" = True
expect compile-error "a test says it does not compile" test "$(field compile-error "any('does not compile' in t['output'] for t in r['tests'])")" = True
sed 's/for (int k = 0; k < TILE_WIDTH; ++k)/for (int k = 0; k < TILE_WIDTH; k += (inner > 0 ? 0 : 1))/' \
  "$root/solutions/02_tiled/kernel.cu" >"$work/never-ends.cu"
grade never-ends "$work/never-ends.cu"
expect never-ends "gradable, score under 0.5" test "$(field never-ends "r['gradable'] and r['score'] < 0.5")" = True
expect never-ends "a test says it did not finish" test "$(field never-ends "any('did not finish' in t['output'] for t in r['tests'])")" = True
grade time-limit "$root/solutions/02_tiled/kernel.cu" TILELAB_TIME_LIMIT=2
expect time-limit "gradable, score 0, the limit named" test "$(field time-limit "r['gradable'] and r['score'] == 0 and 'stopped after 2 s' in r['message']")" = True
grade no-kit "$root/solutions/02_tiled/kernel.cu" TILELAB_KIT="$work/no-kit"
expect no-kit "not gradable, the reason given" test "$(field no-kit "not r['gradable'] and 'no built TileLab kit' in r['format_errors'][0]")" = True
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }
echo "PrairieLearn self-test: every expectation met"
