# cmake -DFROM=<MathJax 2 folder, e.g. /usr/share/javascript/mathjax> -DTO=<site>/mathjax -P copy_mathjax.cmake
# Copies the part of MathJax 2 the site uses (TeX input, SVG output with the TeX fonts) into the site, so that
# formulas render with no network and the site can be copied anywhere. Unchanged files are not copied again.
cmake_minimum_required(VERSION 3.22...3.25)
file(COPY "${FROM}/MathJax.js" DESTINATION "${TO}")
file(COPY "${FROM}/extensions" DESTINATION "${TO}" PATTERN "a11y" EXCLUDE)
file(COPY "${FROM}/localization/en" DESTINATION "${TO}/localization")
file(COPY "${FROM}/jax/input/TeX" DESTINATION "${TO}/jax/input")
file(COPY "${FROM}/jax/element" DESTINATION "${TO}/jax")
file(COPY "${FROM}/jax/output/SVG/config.js" "${FROM}/jax/output/SVG/jax.js" "${FROM}/jax/output/SVG/autoload"
     DESTINATION "${TO}/jax/output/SVG")
file(COPY "${FROM}/jax/output/SVG/fonts/TeX" DESTINATION "${TO}/jax/output/SVG/fonts")
