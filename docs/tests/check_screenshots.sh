#!/bin/sh
# check_screenshots.sh <site> <folder for the screenshots> <YES|NO: the site was built with MathJax> [page:yes|no]...
# Opens pages of the built site (by default its main page, lab 02's handout and the grading page; else the pages
# given, each with whether it has formulas) in headless Chromium, saves a screenshot of each, and fails when a page
# renders (nearly) empty, when a figure it shows is not there, when (with MathJax) its formulas were not typeset, or
# when it has no language switch leading to the same page in the other languages. Exit 77 (skipped) without Chromium.
set -u
html=$1
shots=$2
mathjax=$3
shift 3
[ $# -gt 0 ] || set -- index.html:no md_labs_02_tiled_README.html:yes grading.html:yes
. "$(dirname "$0")/chromium.sh"
mkdir -p "$shots"

# What an empty page weighs as a screenshot of the same size: a page with content weighs many times more.
printf '<html><body></body></html>\n' > "$shots/empty.html"
headless --screenshot="$shots/empty.png" "file://$shots/empty.html" >/dev/null
empty=$(wc -c < "$shots/empty.png")

status=0
# page, and whether it has formulas
for entry in "$@"; do
    page=${entry%%:*}
    formulas=${entry##*:}
    name=${page%.html}
    if [ ! -f "$html/$page" ]; then
        echo "FAIL: $page is not in $html"
        status=1
        continue
    fi
    headless --screenshot="$shots/$name.png" "file://$html/$page" >/dev/null
    size=$(wc -c < "$shots/$name.png" 2>/dev/null || echo 0)
    if [ "$size" -lt $((empty * 8)) ]; then
        echo "FAIL: $page renders (nearly) empty: its screenshot is $size bytes, an empty page's $empty"
        status=1
    fi
    # The page as the browser built it (scripts run): every figure it shows must be a file of the site.
    headless --dump-dom "file://$html/$page" > "$shots/$name.dom.html"
    figures=0
    # Figures of the text (<img>, and <object> for SVG) inside the page's contents, not the theme's own icons.
    for src in $(sed -n '/class="contents"/,/id="nav-path"/p' "$shots/$name.dom.html" |
                 grep -o -e '<img [^>]*src="[^"]*"' -e '<object [^>]*data="[^"]*"' |
                 sed -e 's/.*src="//' -e 's/.*data="//' -e 's/"$//'); do
        case $src in http*|data:*) continue ;; esac
        figures=$((figures + 1))
        if [ ! -f "$html/${src%%[?#]*}" ]; then
            echo "FAIL: $page shows the figure $src, which is not in the site"
            status=1
        fi
    done
    if [ "$figures" -eq 0 ] && [ "$page" != grading.html ]; then
        echo "FAIL: $page shows no figure (the phases figure is expected)"
        status=1
    fi
    if [ "$formulas" = yes ] && [ "$mathjax" = YES ] && ! grep -q 'class="MathJax_SVG' "$shots/$name.dom.html"; then
        echo "FAIL: $page has formulas, but MathJax did not typeset them (is mathjax/ in the site?)"
        status=1
    fi
    # The language switch: a link to this same page in every other language's site, each a file of the site.
    switch=$(grep -o '<nav id="tilelab-languages"[^>]*>.*</nav>' "$shots/$name.dom.html" | head -n 1)
    languages=0
    for target in $(printf '%s\n' "$switch" | grep -o 'href="[^"]*"' | sed -e 's/^href="//' -e 's/"$//'); do
        languages=$((languages + 1))
        if [ "${target##*/}" != "$page" ] || [ ! -f "$html/$target" ]; then
            echo "FAIL: $page's language switch leads to $target, not to this page in another language"
            status=1
        fi
    done
    if [ "$languages" -eq 0 ]; then
        echo "FAIL: $page has no language switch (<nav id=\"tilelab-languages\">) linking the other languages"
        status=1
    fi
    echo "$page: screenshot $shots/$name.png ($size bytes; empty page $empty), $figures figures, $languages other languages"
done
exit $status
