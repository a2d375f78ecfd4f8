#!/bin/sh
# Doxygen input filter for the Markdown pages (docs/Doxyfile.in):
#   markdown_filter.sh <source dir> <generated dir> <YES|NO: MathJax> <page.md>
# The pages are written to read well on a code host too; this turns them into what the site shows:
# - figures and data are linked by their path in the repository (../../docs/figures/ from a handout, ../figures/
#   from a run log in docs/benchmarks/); on the site they sit next to the pages; links
#   to the API's headers become links to their pages; a link to a section of another page (page.md#anchor), which
#   Doxygen would leave as it is, becomes a reference to the section's anchor (anchors are the site's, not a page's);
# - "<!-- site: ... -->" lines, invisible on a code host, become what only the site has:
#     <!-- site: toc -->         the page's table of contents
#     <!-- site: points -->      the lab's points, generated from grader/labs.json (docs/site/points_tables.cmake),
#                                in place of the paragraph right after the marker (what a code host shows)
#     <!-- site: platform-points -->  each lab's points possible per platform (the same script), in place of the
#                                paragraph right after the marker
#     <!-- site: stub FILE -->   FILE of the page's folder, highlighted, as it is in the repository
# - <details> hint blocks lose their blank lines (Doxygen would end the block there);
# - $...$ and $$...$$ outside code become formulas where MathJax is installed, else stay as written;
# - inline code right after a letter (Chinese puts no space there: "压缩包（`.zip`") gets an invisible separator.
src=$1
generated=$2
math=$3
page=$4
relative=${page#"$src"/}
folder=${relative%/*}
lab=$(printf '%s\n' "$relative" | sed -n 's|^labs/\([0-9][0-9]*\)_.*|lab\1|p')
# Links to headers of the kit's API become references to their pages; links to a lab's own .cu files become plain
# names (the page shows the stub itself); links to a section of another page, references to the section's anchor.
sed -e 's|\.\./\.\./docs/figures/|figures/|g' -e 's|(\.\./figures/|(figures/|g' -e 's|(figures/\([^)]*\.csv\))|(\1)|g' \
    -e 's|\[\([^]]*\)\]([./]*common/include/tilelab/\([a-z_]*\.hpp\))|@ref \2 "\1"|g' \
    -e 's|\[\([^]]*\)\](\([a-z_]*\.cu\))|\1|g' -e 's|\](\([^)# ]*\.md\)#\([A-Za-z0-9_]*\))|](@ref \2)|g' "$page" |
LC_ALL=C awk -v generated="$generated" -v folder="$folder" -v lab="$lab" -v math="$math" '
# $$...$$ (on one line) outside code spans becomes a displayed formula, \f[...\f]; $...$ an inline one, \f$...\f$;
# a $ followed by a space, or with no closing $, stays.
function formulas(line,    out, i, c, run, closing, end) {
    out = ""
    i = 1
    while (i <= length(line)) {
        c = substr(line, i, 1)
        if (c == "`") {
            run = c
            while (substr(line, i + length(run), 1) == "`") run = run "`"
            closing = index(substr(line, i + length(run)), run)
            if (closing == 0) { out = out run; i += length(run); continue }
            end = i + length(run) + closing - 1 + length(run)
            out = out substr(line, i, end - i)
            i = end
            continue
        }
        if (substr(line, i, 2) == "$$") {
            closing = index(substr(line, i + 2), "$$")
            if (closing > 0) {
                out = out "\\f[" substr(line, i + 2, closing - 1) "\\f]"
                i += closing + 3
                continue
            }
        }
        if (c == "$" && substr(line, i + 1, 1) != " " && substr(line, i + 1, 1) != "") {
            closing = index(substr(line, i + 1), "$")
            if (closing > 1 && substr(line, i + closing - 1, 1) != " ") {
                out = out "\\f$" substr(line, i + 1, closing - 1) "\\f$"
                i += closing + 1
                continue
            }
        }
        out = out c
        i++
    }
    return out
}
# Doxygen 1.9 reads a letter right before `.x` or `(x)` as one word with the code ("<tt>" lost, a warning, so the
# build fails): "&zwnj;" (an invisible zero-width non-joiner) keeps them apart. Bytes 128-255: other scripts (UTF-8).
function apart(line,    out, i, c, run, closing, end) {
    out = ""
    i = 1
    while (i <= length(line)) {
        c = substr(line, i, 1)
        if (c != "`") { out = out c; i++; continue }
        run = c
        while (substr(line, i + length(run), 1) == "`") run = run "`"
        closing = index(substr(line, i + length(run)), run)
        if (closing == 0) { out = out run; i += length(run); continue }
        end = i + length(run) + closing - 1 + length(run)
        if (i > 1 && substr(line, i - 1, 1) ~ /[A-Za-z0-9_\200-\377]/) out = out "&zwnj;"
        out = out substr(line, i, end - i)
        i = end
    }
    return out
}
/^ *(```|~~~)/ { fenced = !fenced; print; next }
fenced { print; next }
# Doxygen ends a <details> block at a blank line, which a code host needs after </summary>: drop blank lines inside.
/^<details>/ { details = 1 }
/^<\/details>/ { details = 0 }
details && /^[ \t]*$/ { next }
/^<!-- site: toc -->$/ { print "[TOC]"; next }
# What a code host shows instead of the table: the lines right after the marker, up to a blank line.
fallback && /^[ \t]*$/ { fallback = 0 }
fallback { next }
/^<!-- site: points -->$/ {
    fallback = 1
    file = generated "/points_" lab ".md"
    found = 0
    while ((getline row < file) > 0) { print row; found = 1 }
    close(file)
    if (!found) print "(The lab registry, grader/labs.json, gives this lab no points yet.)"
    next
}
/^<!-- site: platform-points -->$/ {
    fallback = 1
    file = generated "/platform_points.md"
    while ((getline row < file) > 0) print row
    close(file)
    next
}
/^<!-- site: points-summary -->$/ {
    file = generated "/points_summary.md"
    while ((getline row < file) > 0) print row
    close(file)
    next
}
/^<!-- site: stub [^ ]+ -->$/ { print "\\include{lineno} " folder "/" $4; next }
{ print apart(math == "YES" ? formulas($0) : $0) }
'
