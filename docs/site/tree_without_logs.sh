#!/bin/sh
# tree_without_logs.sh <one language's site> <page prefix>
# Takes the pages whose file names start with the prefix (the benchmarks' run logs, docs/site/pages.cmake) out of the
# site's sidebar, which Doxygen builds with every page in it: the sidebar is the student's way through the site,
# and the logs are a record of runs that the benchmarks page sums up and links to. The pages stay, with their
# anchors, so every link and @ref to them still leads there; opened, such a page's sidebar shows the site's root.
#
# Doxygen's sidebar is navtreedata.js (NAVTREE: the tree, one top-level entry a page) and navtreeindex<k>.js (each
# page's and section's path in the tree, as positions: [8,0,3] is child 3 of child 0 of top-level entry 8). The logs are
# top-level entries (pages of their own, not subpages); taking entry i out moves every later top-level entry up one,
# so the first position of each later path is lowered by the number of entries taken out before it.
set -eu
html=$1
prefix=$2
data="$html/navtreedata.js"
[ -f "$data" ] || { echo "tree_without_logs.sh: no $data (GENERATE_TREEVIEW off?)" >&2; exit 1; }
removed="$html/.tree-removed"
# The tree: a top-level entry is a line of four spaces and "[ "; it ends on that line, or, when that line ends with
# "[" (it has children), at the line of four spaces and "] ]".
awk -v prefix="$prefix" -v removed="$removed" '
BEGIN { index_ = -1; skipping = 0; count = 0; printf "" > removed }
skipping {
    if ($0 ~ /^    \] \],?$/) skipping = 0
    next
}
/^    \[ "/ {
    index_++
    line = $0
    gsub(/\\./, "", line)          # escaped characters of the title
    split(line, field, "\"")       # field[2]: the title, field[4]: the page
    if (index(field[4], prefix) == 1) {
        print index_ > removed
        count++
        if ($0 ~ /\[$/) skipping = 1
        next
    }
}
{ print }
END { close(removed) }
' "$data" > "$data.new"
mv "$data.new" "$data"
count=$(wc -l < "$removed" | tr -d ' ')
for index_file in "$html"/navtreeindex*.js; do
    awk -v prefix="$prefix" -v removed="$removed" '
    BEGIN { n = 0; while ((getline line < removed) > 0) taken[n++] = line + 0 }
    /^"[^"]*":\[[0-9]+/ {
        key = substr($0, 2, index(substr($0, 2), "\"") - 1)
        if (index(key, prefix) == 1) next
        start = index($0, ":[") + 2
        rest = substr($0, start)
        first = rest + 0
        shift = 0
        for (i = 0; i < n; i++) if (taken[i] < first) shift++
        sub(/^[0-9]+/, first - shift, rest)
        print substr($0, 1, start - 1) rest
        next
    }
    { print }
    ' "$index_file" > "$index_file.new"
    mv "$index_file.new" "$index_file"
done
rm -f "$removed"
echo "sidebar: $count pages starting with $prefix taken out"
