#!/usr/bin/env bash
# The labs the rubric grades, in order (lab01 lab02 ...): the columns of grades.csv.
root=$(cd "$(dirname "$0")/../.." && pwd)
grep -o '"lab": *"lab[0-9]*"' "$root/grader/rubric.json" | sed 's/.*"\(lab[0-9]*\)"/\1/' | awk '!seen[$0]++' | tr '\n' ' '
