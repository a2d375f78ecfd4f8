# cmake -DSOURCE_DIR=<repository> -DLANGUAGE=<es|vi|zh> -DOUT=<folder> -P stage_pages.cmake
# Lays out one language's pages in OUT as the repository lays out the English ones (OUT/labs/02_tiled/README.md,
# OUT/docs/grading.md, ...): the translation where docs/i18n/<language>/ has it, else the English page. The pages'
# relative links (../../docs/grading.md) then lead to the same page in the same language, and Doxygen names each
# page as it names the English one (md_labs_02_tiled_README), so the language switch finds it by its file name.
# The API's headers are copied too: Doxygen names a folder's page by its path once stripped (dir_<md5 of "labs/">),
# so the folders' pages have the same names only when every input lies in the one stripped tree.
# A missing translation is built from English here; docs.translations.<language> is what fails for it.
cmake_minimum_required(VERSION 3.22...3.25)
include("${CMAKE_CURRENT_LIST_DIR}/pages.cmake")
foreach(page IN LISTS TILELAB_DOCS_PAGES)
  set(from "${SOURCE_DIR}/docs/i18n/${LANGUAGE}/${page}")
  if(NOT page IN_LIST TILELAB_DOCS_TRANSLATED_PAGES OR NOT EXISTS "${from}")
    set(from "${SOURCE_DIR}/${page}")
  endif()
  get_filename_component(folder "${OUT}/${page}" DIRECTORY)
  file(MAKE_DIRECTORY "${folder}")
  file(COPY_FILE "${from}" "${OUT}/${page}" ONLY_IF_DIFFERENT)
endforeach()
file(GLOB headers RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/common/include/tilelab/*.hpp")
file(MAKE_DIRECTORY "${OUT}/common/include/tilelab")
foreach(header IN LISTS headers)
  file(COPY_FILE "${SOURCE_DIR}/${header}" "${OUT}/${header}" ONLY_IF_DIFFERENT)
endforeach()
