#!/usr/bin/env bash
# PrairieLearn's entry point (a question's externalGradingOptions.entrypoint): grades /grade/student with the kit
# built in the image (Dockerfile; CPU backend, no GPU) and writes /grade/results/results.json from the grading's
# summary (tilelab-report prairielearn). The question's labs: TILELAB_LABS (its "environment"), e.g. "02"; none:
# every lab. TILELAB_TIME_LIMIT (s, default 570): keep it under the question's timeout, so that a submission that
# runs too long gets a result that says so instead of PrairieLearn's bare failure. PL_GRADE_ROOT (default /grade)
# and TILELAB_KIT (default: the image's kit, or build/kit beside these sources) are for a dry run (docs/instructors.md,
# "A dry run") and the tests.
set -uo pipefail
root=${PL_GRADE_ROOT:-/grade} source=$(cd "$(dirname "$0")/../.." && pwd)
kit=${TILELAB_KIT:-$source/build/kit} limit=${TILELAB_TIME_LIMIT:-570} work=$root/tilelab
mkdir -p "$root/results" && rm -rf "$work" "$root/results/results.json" && mkdir -p "$work"
if [ ! -x "$kit/grader/tilelab-report" ]; then
  echo '{"gradable": false, "format_errors": ["The autograder is broken: its image has no built TileLab kit ('"$kit"'). This is not your code'"'"'s fault and the attempt does not count; tell your instructor (grader/prairielearn/Dockerfile builds it)."]}' >"$root/results/results.json"
  exit 0
fi
# VERBOSE: the log, the student's "output", keeps every check's messages. Whether a grade exists is summary.json's
# being there (a grade with failed checks exits 0 too), not the status.
# The kit's program itself, as grade.cmake calls it against a built kit (grader/grade/main.cpp).
timeout -k 5 "$limit" "$kit/grader/tilelab-grade" --root "$source" --build "$work/build" --kit "$kit" --against-kit \
  --submission "$root/student" --labs "${TILELAB_LABS:-}" --verbose --results "$work/gradescope.json" \
  --summary "$work/summary.json" >"$work/log.txt" 2>&1
status=$?
# Stopped at the time limit: the checks' records written by then, as tests that earn nothing (a check that had not
# finished says so), so that the student sees which check never ended.
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
  ctest --test-dir "$work/build" --show-only=json-v1 >"$work/tests.json" 2>/dev/null &&
    "$kit/grader/tilelab-report" grade --build "$work/build" --registry "$source/grader/labs.json" \
      --tests "$work/tests.json" --results "$work/partial-gradescope.json" --summary "$work/partial.json" \
      --labs "${TILELAB_LABS:-}" >/dev/null 2>&1
fi
exec "$kit/grader/tilelab-report" prairielearn --summary "$work/summary.json" --log "$work/log.txt" --status "$status" \
  --time-limit "$limit" --labs "${TILELAB_LABS:-}" --partial "$work/partial.json" --no-grade "$work/build/no-grade.txt" \
  --out "$root/results/results.json"
