#!/bin/sh
# Doxygen input filter for the Markdown pages: they link figures by their path in the repository (so they
# show on a code host too); on the site every figure and data file sits next to the pages.
sed -e 's|\.\./\.\./docs/figures/|figures/|g' -e 's|(figures/\([^)]*\.csv\))|(\1)|g' "$1"
