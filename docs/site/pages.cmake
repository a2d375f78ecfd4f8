# The documentation site's pages and languages, read by docs/CMakeLists.txt, the scripts that build each language's
# site and the translations' test, so that they all agree.

# Every Markdown page of the site, relative to the repository (Doxygen's INPUT, with the API's headers).
set(TILELAB_DOCS_PAGES
    docs/mainpage.md docs/labs.md
    labs/01_naive/README.md labs/02_tiled/README.md labs/03_tiled_boundary/README.md labs/04_timing/README.md
    labs/05_coarsened/README.md labs/06_register_tiled/README.md labs/07_vectorized/README.md
    labs/08_warp_tiled/README.md labs/09_tensor_cores/README.md labs/10_mma_sync/README.md
    docs/grading.md docs/cpu-backend.md docs/resources.md docs/benchmarks.md docs/instructors.md docs/contributing.md
    docs/search.md)
# The benchmarks' run logs (docs/benchmarks/<date>-<topic>.md), one page each, reached from the benchmarks page by its
# links: pages of the site (their anchors are Doxygen's, as every page's), but not of its sidebar, which is the
# student's way through the site (docs/site/tree_without_logs.sh takes them out of it, after Doxygen; the full-text
# search leaves them out). Doxygen names each page md_docs_benchmarks_<date>_<topic>: the prefix below.
get_filename_component(tilelab_docs_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
file(GLOB TILELAB_DOCS_LOG_PAGES RELATIVE "${tilelab_docs_root}" "${tilelab_docs_root}/docs/benchmarks/*.md")
list(SORT TILELAB_DOCS_LOG_PAGES)
list(APPEND TILELAB_DOCS_PAGES ${TILELAB_DOCS_LOG_PAGES})
set(TILELAB_DOCS_LOG_PREFIX md_docs_benchmarks_)

# English is the source, at the site's root. Each language below has its site in a folder of it (html/es/...),
# built from docs/i18n/<language>/<page> for the translated pages and the English page for the others
# (benchmarks, resources, the contributor guide, the API), so that every page exists in every language.
set(TILELAB_DOCS_LANGUAGES es vi zh)
set(TILELAB_DOCS_TRANSLATED_PAGES
    labs/01_naive/README.md labs/02_tiled/README.md labs/03_tiled_boundary/README.md labs/04_timing/README.md
    labs/05_coarsened/README.md labs/06_register_tiled/README.md labs/07_vectorized/README.md
    labs/08_warp_tiled/README.md labs/09_tensor_cores/README.md labs/10_mma_sync/README.md
    docs/mainpage.md docs/labs.md docs/grading.md docs/search.md docs/cpu-backend.md docs/instructors.md)

# Per language: its name in itself (the language switch), Doxygen's OUTPUT_LANGUAGE (Doxygen's own words) and the
# project's one-line description.
set(TILELAB_DOCS_NAME_en "English")
set(TILELAB_DOCS_DOXYGEN_en "English")
set(TILELAB_DOCS_BRIEF_en "Tiled matrix multiplication in CUDA, lab by lab, with an autograder")
set(TILELAB_DOCS_NAME_es "Español")
set(TILELAB_DOCS_DOXYGEN_es "Spanish")
set(TILELAB_DOCS_BRIEF_es "Multiplicación de matrices por teselas en CUDA, práctica a práctica, con corrector automático")
set(TILELAB_DOCS_NAME_vi "Tiếng Việt")
set(TILELAB_DOCS_DOXYGEN_vi "Vietnamese")
set(TILELAB_DOCS_BRIEF_vi "Nhân ma trận theo ô (tile) bằng CUDA, từng bài thực hành, có bộ chấm điểm tự động")
set(TILELAB_DOCS_NAME_zh "中文")
set(TILELAB_DOCS_DOXYGEN_zh "Chinese")
set(TILELAB_DOCS_BRIEF_zh "用 CUDA 实现分块矩阵乘法，逐个实验，配有自动评分器")
