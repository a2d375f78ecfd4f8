#!/usr/bin/env bash
# Self-test of the grader's defences: every submission in grader/selftest/cheats/ (each a stub submission with
# one lab replaced by a dishonest one) is graded end to end through grade.cmake and must earn no more than the
# stubs, lab by lab; the kit's files must come out unchanged. Grading happens in a copy of the kit, so a cheat
# that got through would damage the copy, not this checkout.
#   cheats_test.sh <kit root> <work folder> [backends, default cpu] [tile width, default 16] [cheat names...]
# With names, only those cheats are graded (and the stubs, to compare); CHEATS=<regex> does the same by pattern.
# A cheat is every file in its folder (the lab files it replaces, headers too) but `OPEN` and `links`; a file
# `links` lists the links it holds: one per line, "<path in the submission> <symbolic|hard> <target, relative to
# the kit>" (the kit's copy holds solutions/, as the kit an instructor zips for Gradescope does). A file `OPEN`
# marks a hole not yet closed (see below).
# Needs root: only then does the checker confine a lab's program to a user of its own (grader/process/sandbox.cpp).
set -uo pipefail
root=$1
work=$2
backends=${3:-cpu}
tile_width=${4:-16}
only=("${@:5}")
if [ "$(id -u)" != 0 ]; then
  echo "SKIPPED: the cheat self-test needs root: the grader confines a lab's program to a user of its own only" \
       "when it runs as root (as on Gradescope and CI); as another user the cheats could damage this checkout"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work/kit" "$work/submissions" "$work/logs"
kit="$work/kit"
cp -r "$root"/CMakeLists.txt "$root"/CMakePresets.json "$root"/cmake "$root"/common "$root"/docs "$root"/grader \
      "$root"/labs "$root"/solutions "$kit"/
chmod -R go-w "$kit" "$work"
build="$work/build"
rubric_hash=$(sha256sum "$kit/grader/labs.json" | cut -d' ' -f1)

# grade <name> <submission folder>: prints "lab01 n|lab02 n|...|total n" (REFUSED when grade.cmake refused to
# report, which earns nothing).
grade() {
  local log="$work/logs/$1.log"
  rm -f "$build/summary.json"
  cmake -DSUBMISSION="$2" -DBUILD="$build" -DRESULTS="$work/logs/$1.json" \
        "-DCONFIGURE_ARGS=-DTILELAB_BACKENDS=$backends|-DTILELAB_TILE_WIDTHS=$tile_width" \
        -P "$kit/grader/grade.cmake" >"$log" 2>&1
  if grep -q "refusing to report a grade" "$log"; then echo REFUSED; return; fi
  if [ ! -f "$build/summary.json" ]; then echo NOREPORT; return; fi
  python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
print("|".join(["%s %d" % (lab["id"], lab["earned"]) for lab in s["labs"]] + ["total %d" % s["earned"]]), end="")' \
    "$build/summary.json"
}
points_of() {  # points_of <report> <lab>
  tr '|' '\n' <<<"$1" | awk -v lab="$2" '$1 == lab {print $2}'
}

stubs=$(grade stubs "$kit/labs")
echo "stubs: $stubs"
case $stubs in REFUSED|NOREPORT) echo "FAIL: the stubs could not be graded; see $work/logs/stubs.log"; exit 1 ;; esac

failures=0
printf '\n%-34s %-8s %s\n' "cheat" "result" "points (stubs: ${stubs//|/, })"
for cheat in "$root"/grader/selftest/cheats/*/; do
  name=$(basename "$cheat")
  [[ $name =~ ${CHEATS:-.} ]] || continue
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  submission="$work/submissions/$name"
  cp -r "$kit/labs" "$submission"
  # Every file of the cheat (a lab may have headers too), over the stubs' copy.
  (cd "$cheat" && find . -type f ! -name OPEN ! -name links -exec cp --parents {} "$submission" \;)
  if [ -f "$cheat/links" ]; then
    while read -r path kind target; do
      case $path in ''|'#'*) continue ;; esac
      rm -rf "${submission:?}/$path"
      if [ "$kind" = hard ]; then ln "$kit/$target" "$submission/$path"; else ln -s "$kit/$target" "$submission/$path"; fi
    done <"$cheat/links"
  fi
  result=$(grade "$name" "$submission")
  verdict=ok
  case $result in
    REFUSED) ;;  # the grade was withheld: nothing earned
    NOREPORT) verdict="FAIL (no report: see $work/logs/$name.log)" ;;
    *)
      # Every lab the report lists, and the total: a cheat in lab 05 to 08 counts as much as one in lab 01.
      for lab in $(tr '|' '\n' <<<"$stubs" | awk '{print $1}'); do
        earned=$(points_of "$result" $lab) allowed=$(points_of "$stubs" $lab)
        if [ "${earned:-0}" -gt "${allowed:-0}" ]; then verdict="FAIL ($lab: $earned > $allowed)"; fi
      done ;;
  esac
  if [ "$(sha256sum "$kit/grader/labs.json" | cut -d' ' -f1)" != "$rubric_hash" ]; then
    verdict="FAIL (the rubric was changed)"
    cp "$root/grader/labs.json" "$kit/grader/labs.json"
  fi
  # OPEN: a known hole, written down with what would stop it; it is listed, not failed, while it gets through,
  # and fails the test once it is stopped, so that the marker goes and the cheat guards the fix from then on.
  if [ -f "$cheat/OPEN" ]; then
    if [ "$verdict" = ok ]; then
      verdict="FAIL (marked OPEN but now stopped: remove $name/OPEN)"
    else
      verdict="open (${verdict#FAIL (}"
      verdict="${verdict%)}: known hole, see $name/OPEN)"
    fi
  fi
  if [ -e "$build/cheat-was-here" ]; then verdict="FAIL (it wrote into the build folder)"; rm -f "$build/cheat-was-here"; fi
  case $verdict in ok|open*) ;; *) failures=$((failures + 1)) ;; esac
  printf '%-34s %-8s %s\n' "$name" "$verdict" "${result//|/, }"
done

echo
if [ "$failures" -gt 0 ]; then
  echo "FAIL: $failures cheats earned more than the stubs or changed the kit (logs in $work/logs)"
  exit 1
fi
echo "every cheat earned no more than the stubs, and the kit is unchanged"
