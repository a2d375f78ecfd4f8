#!/usr/bin/env bash
# Counts the CPU backend's verdicts in the last CTest run of a build folder: how many checks the solutions passed,
# how many stub programs failed every check, how many bad kernels failed with their expected message, and how
# many checks the other correct styles passed. Exits non-zero when any of those tests did not pass.
#   cpu_summary.sh <build folder>
set -euo pipefail
log="$1/Testing/Temporary/LastTest.log"
[ -f "$log" ] || { echo "cpu_summary: no CTest log in $1" >&2; exit 2; }
awk '
  /^[0-9]+\/[0-9]+ Testing: / { name = $3; next }
  /^Test Passed\./ { verdict[name] = "passed"; next }
  /^Test Failed\./ { verdict[name] = "failed"; next }
  /^Skip regular expression found|^Test Skipped/ { verdict[name] = "skipped"; next }
  END {
    for (test in verdict) {
      if (test !~ /[.]cpu[.]/ || test ~ /[.]build$/) continue
      group = ""
      if (test ~ /^graded[.]/) group = "solutions: checks passed"
      else if (test ~ /^stubs[.]/) group = "stubs: programs failing every check"
      else if (test ~ /^mutant-/) group = "mutant kernels: failed with the expected message"
      else if (test ~ /^(missing-file|naive-in-tiled|calls-cublas|calls-thrust)[.]/) group = "bad submissions: failed with the expected message"
      else if (test ~ /^accept-styles[.]/) group = "other correct styles: checks passed"
      if (group == "") continue
      total[group]++
      if (verdict[test] == "passed") good[group]++
      else if (verdict[test] == "skipped") skipped[group]++
      else bad = bad "\n  " test
    }
    print "CPU backend verdicts (from " FILENAME "):"
    n = split("solutions: checks passed|stubs: programs failing every check|mutant kernels: failed with the expected message|bad submissions: failed with the expected message|other correct styles: checks passed", order, "|")
    for (i = 1; i <= n; i++) {
      g = order[i]
      if (!(g in total)) continue
      line = sprintf("  %-52s %4d of %4d", g, good[g] + 0, total[g] - skipped[g])
      if (skipped[g]) line = line sprintf("  (%d GPU-only, reported skipped)", skipped[g])
      print line
    }
    if (bad != "") { print "not as expected:" bad; exit 1 }
  }' "$log"
