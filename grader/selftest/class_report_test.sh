#!/usr/bin/env bash
# Self-test of class.html end to end: tilelab-report class over a fixed batch folder (grader/unit/fixtures/
# summaries, whose content the unit tests unit.class_report check in detail) with the kit's registry, then the
# page in a real browser: headless Chromium takes a screenshot, which must not be blank, and its DOM must hold
# every chart. Exits 77 (skipped, with the reason) where Chromium is missing; the files are checked anyway first.
#   class_report_test.sh <kit root> <work folder> <tilelab-report>
set -uo pipefail
root=$1
work=$2
report=$3
rm -rf "$work" && mkdir -p "$work"
cp -r "$root/grader/unit/fixtures/summaries" "$work/out"
"$report" class --out "$work/out" --registry "$root/grader/labs.json" || exit 1
page="$work/out/class.html"
csv="$work/out/grades.csv"
cat "$csv" "$work/out/timings.csv"

failures=0
expect() {
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
labs=$(grep -c '"id": "lab' "$root/grader/labs.json")
expect "grades.csv: a point column per registry lab" test "$(head -1 "$csv" | tr ',' '\n' | grep -c '^lab')" = "$labs"
expect "grades.csv: four students, the one never graded named with its Slurm task" \
  test "$(grep -c . "$csv")" = 5 -a "$(grep -c '^chloe,.*Slurm task 2 failed' "$csv")" = 1
expect "timings.csv: the two graded" test "$(grep -c . "$work/out/timings.csv")" = 3
expect "four submissions, two with a total" grep -q "4 submissions, 2 with a total" "$page"
expect "--student: one student's points" test "$("$report" class --out "$work/out" --registry "$root/grader/labs.json" \
  --student ben)" = "32/49 points"
[ "$failures" -eq 0 ] || { echo "$failures expectations failed"; exit 1; }

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: no Chromium here (apt-get install chromium) to render class.html; its content was checked"
  exit 77
fi
# --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start.
chrome=("$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1400)
"${chrome[@]}" --screenshot="$work/class.png" "file://$page" >"$work/chromium.log" 2>&1
"${chrome[@]}" --dump-dom "file://$page" >"$work/dom.html" 2>>"$work/chromium.log"
size=$(stat -c %s "$work/class.png" 2>/dev/null || echo 0)
echo "screenshot: $work/class.png ($size bytes)"
# A blank 1200x1400 page compresses to a few kilobytes; this one, with text, tables and charts, to far more.
expect "the screenshot is not blank" test "$size" -gt 40000
# One histogram, a pass-rate bar for each of the five checks graded somewhere, one speedup chart.
expect "the browser built every chart (histogram, 5 pass-rate bars, speedups)" test "$(grep -o '<svg' "$work/dom.html" | wc -l)" = 7
[ "$failures" -eq 0 ] || { tail -5 "$work/chromium.log"; echo "$failures expectations failed"; exit 1; }
echo "class.html self-test: every expectation met"
