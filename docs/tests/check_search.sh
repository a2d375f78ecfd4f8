#!/bin/sh
# check_search.sh <site> <folder for the results> ["query page..."]...
# Searches the site's full text in headless Chromium, as a student would (fulltext_search.html?q=...), and fails
# when a word the handouts teach does not find them. Exit 77 (skipped) without Chromium.
set -u
html=$1
out=$2
. "$(dirname "$0")/chromium.sh"
mkdir -p "$out"
status=0
shift 2
# Each search: "query page...", the pages its results must include ("never written" is one two-word query).
[ $# -gt 0 ] || set -- "syncthreads md_labs_02_tiled_README.html md_labs_03_tiled_boundary_README.html" \
                       "racecheck grading.html md_labs_02_tiled_README.html" \
                       "never written grading.html md_labs_01_naive_README.html"
for entry in "$@"; do
    set -- $entry
    query=$1
    shift
    if [ "$query" = never ]; then query="never written"; shift; fi
    file="$out/search-$(printf '%s' "$query" | tr ' ' '_').html"
    headless --dump-dom "file://$html/fulltext_search.html?q=$(printf '%s' "$query" | sed 's/ /%20/g')" > "$file"
    results=$(sed -n '/id="tilelab-search-results"/,/<\/ol>/p' "$file" | grep -o '<a href="[^"]*">[^<]*</a>')
    echo "search \"$query\":"
    printf '%s\n' "$results" | sed 's/<a href="\([^"]*\)">\([^<]*\)<\/a>/  \2 (\1)/'
    for page in "$@"; do
        if ! printf '%s\n' "$results" | grep -q "href=\"$page\""; then
            echo "FAIL: searching \"$query\" does not find $page"
            status=1
        fi
    done
done
exit $status
