# cmake -DBUILD_DIR=<dir> -DTARGET=<lab runner> -DCONFIG=<config> -DOBJECTS=<the lab's a.o|b.o> -DNM=<nm>
#       [-DCXXFILT=<c++filt>] [-DLIBC_SYMBOLS=<file>] -DSOURCES=<a.cu|b.cu> [-DBACKEND=cpu|gpu]
#       [-DSOURCE_CHECK=<tilelab-source-check> [-DSOURCE_LAUNCHER=<sandbox launcher>] -DSOURCE_ROOT=<submission>
#        -DSOURCE_FILES=<a.cu,b.cu>]
#       -P tilelab_build_lab.cmake
# The build check of one lab: runs the source check (what its files may include and name, no links), builds its runner, says plainly why when it does not build, rejects a lab that
# hands the product to a library (cuBLAS and friends, Thrust, CUB, CUTLASS) instead of computing it, and one
# whose files define a name of the kit's, CUDA's or the C library's (a definition that would replace what the
# runner's harness calls: link-time interposition).
cmake_minimum_required(VERSION 3.22...3.25)  # policies of this century in script mode (IN_LIST)
# Every failure ends with the section of the students' grading page that explains the build check.
set(see_page "see docs/grading.md#check_build (grading.html#check_build on the docs site)")
set(libraries "cublas|cublasLt|cusparse|cusolver|cufft|curand|cudnn|cutlass|thrust::|cub::")
string(REPLACE "|" ";" targets "${TARGET}")  # the runner, and the performance gate's runner where there is one
# First what the lab's files may include and name, and that they are plain files (tilelab-source-check, as the
# sandbox's user): before the build, which would otherwise show a compiler's view of whatever a link or an
# include reached.
if(SOURCE_CHECK)
  string(REPLACE "," ";" files "${SOURCE_FILES}")
  execute_process(COMMAND ${SOURCE_LAUNCHER} "${SOURCE_CHECK}" "${SOURCE_ROOT}" ${files} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message("${output}")
    # A library's header (cuBLAS, Thrust, ...): the same hint as when the build finds the library (below).
    if(output MATCHES "the lab calls a library [(]([a-z]+)[.][.][.][)][^\n]*[(]it has (#include [^\n]*)[)]")
      message(FATAL_ERROR "hint: the lab calls a library (${CMAKE_MATCH_1}...) instead of computing the product itself: write the kernel (it has ${CMAKE_MATCH_2})\n${see_page}")
    endif()
    message(FATAL_ERROR "hint: the lab's files reach beyond what a lab may (each line above says where and why): "
                        "a lab includes the kit's public headers, CUDA's and the C++ standard library's headers and "
                        "files of its own folder, names nothing of the kit's but its public helpers and nothing of "
                        "the system's (files, descriptors, processes, threads, signals, the environment), and holds "
                        "plain files only\n${see_page}")
  endif()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target ${targets} --config "${CONFIG}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
message("${output}")
if(NOT result EQUAL 0)
  # The CPU backend has none of these libraries, so such a lab does not even compile there: say why.
  string(REPLACE "|" ";" sources "${SOURCES}")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](cublas|cusparse|cusolver|cufft|curand|cudnn|cutlass|thrust/|cub/)")
    if(includes)
      list(GET includes 0 include)
      string(STRIP "${include}" include)
      string(REGEX MATCH "[<\"]([a-z]+)" unused "${include}")
      message(FATAL_ERROR "hint: the lab calls a library (${CMAKE_MATCH_1}...) instead of computing the product itself: write the kernel (it has ${include})\n${see_page}")
    endif()
  endforeach()
  if(output MATCHES "undefined reference to `(tilelab::[^`']*|tilelab_[^`']*)")
    message(FATAL_ERROR "hint: the lab calls the grader's own code (${CMAKE_MATCH_1}), which a lab's program does not have: the lab's program holds the lab's files and nothing of the grader; compute the product in the kernel\n${see_page}")
  endif()
  if(output MATCHES "undefined reference to `(${libraries})")
    message(FATAL_ERROR "hint: the lab calls a library (${CMAKE_MATCH_1}...) instead of computing the product itself: write the kernel\n${see_page}")
  endif()
  # Correct CUDA that the CPU backend does not emulate: name it, and say that the GPU backend grades it, so that a
  # student does not hunt for an error in right code.
  if(BACKEND STREQUAL "cpu")
    set(not_emulated "This is CUDA that the CPU backend does not emulate (docs/cpu-backend.md lists what it does), not necessarily an error in the lab: the GPU backend grades it; to be graded on the CPU backend too (Gradescope has no GPU), write it with what that page lists")
    if(output MATCHES "fatal error: ([A-Za-z0-9_/.]+[.]h|cuda/[a-z_]+): No such file")
      message(FATAL_ERROR "hint: the lab includes <${CMAKE_MATCH_1}>, which the CPU backend does not have. ${not_emulated}\n${see_page}")
    endif()
    # GCC quotes names with ‘ ’ in a UTF-8 locale, with ' ' otherwise.
    if(output MATCHES "error: (‘|')(__[A-Za-z0-9_]+|cuda[A-Z][A-Za-z0-9_]*)(’|') was not declared")
      message(FATAL_ERROR "hint: the lab calls ${CMAKE_MATCH_2}. ${not_emulated}\n${see_page}")
    endif()
    if(output MATCHES "error: (‘|')([A-Za-z0-9_]+)(’|') is not a member of (‘|')(cooperative_groups|cg|nvcuda|wmma|cuda)")
      message(FATAL_ERROR "hint: the lab uses ${CMAKE_MATCH_5}::${CMAKE_MATCH_2}. ${not_emulated}\n${see_page}")
    endif()
    if(output MATCHES "error: [^\n]*tilelab::cpu::(Shared|DevicePointer)")
      message(FATAL_ERROR "hint: the CPU backend cannot follow this use of shared memory (the first error above gives its line). It checks every access to a __shared__ array for races, so a pointer into one must be one it knows: declare the pointer with its value (float* tile = shared + n; float* p = &tile[0][0];) or pass it to a __device__ function's float* parameter; a pointer assigned later (p = tile;), a reference to an element kept in auto, a shared array passed as an array parameter, or a pointer stored in a struct are not followed. ${not_emulated}\n${see_page}")
    endif()
  endif()
  message(FATAL_ERROR "hint: the lab does not compile or link: fix the first error above (file and line are at its start)\n${see_page}")
endif()
if(NM)
  string(REPLACE "|" ";" objects "${OBJECTS}")
  execute_process(COMMAND "${NM}" -C ${objects} OUTPUT_VARIABLE symbols ERROR_QUIET)
  # Symbol lines only ("<address> <type> <name>"): nm's "<object file>:" headers carry paths, which may
  # contain anything, a student's folder name included.
  if(symbols MATCHES "(^|\n)[0-9a-fA-F ]* [A-Za-z] ([^\n]*(${libraries})[^\n]*)")
    set(symbol "${CMAKE_MATCH_2}")
    message(FATAL_ERROR "hint: the lab calls a library instead of computing the product itself: its code refers to ${symbol}\n${see_page}")
  endif()
endif()
# Names a lab's files may not define: the kit's (namespace tilelab, tilelab_*), CUDA's runtime and driver
# (cuda*, __cuda*, cu[A-Z]*), main, and what the C library exports. Mangled names are matched, so that nothing in
# a C++ name (brackets, commas) can confuse the match; weak definitions from headers (inline functions,
# templates) are left alone.
if(NM)
  string(REPLACE "|" ";" objects "${OBJECTS}")
  execute_process(COMMAND "${NM}" -g --defined-only ${objects} OUTPUT_VARIABLE defined ERROR_QUIET)
  string(REGEX MATCHALL "(^|\n)[0-9a-fA-F]* [ABCDGRST] [^\n]+" lines "${defined}")
  set(libc_names "")
  if(LIBC_SYMBOLS AND EXISTS "${LIBC_SYMBOLS}")
    file(STRINGS "${LIBC_SYMBOLS}" libc_names)
  endif()
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^\n?[0-9a-fA-F]* [A-Z] " "" name "${line}")
    set(owner "")
    if(name MATCHES "^_Z(T[VIS]|GV|TH|TW)?N[rVK]*7tilelab" OR name MATCHES "^_?_?tilelab")
      set(owner "the kit's grader and runner")
    elseif(name MATCHES "^(_?_?cuda|cu[A-Z])")
      set(owner "CUDA's runtime")
    elseif(name STREQUAL "main")
      set(owner "the runner's harness")
    elseif(NOT name MATCHES "^_Z" AND name IN_LIST libc_names)
      set(owner "the C library")
    endif()
    if(owner)
      set(readable "${name}")
      if(CXXFILT)
        execute_process(COMMAND "${CXXFILT}" "${name}" OUTPUT_VARIABLE readable OUTPUT_STRIP_TRAILING_WHITESPACE)
      endif()
      message(FATAL_ERROR "hint: the lab defines ${readable}, a name that belongs to ${owner}: a lab may not replace the kit's, CUDA's or the C library's functions (link-time interposition); rename it\n${see_page}")
    endif()
  endforeach()
endif()
# What the lab's code refers to and does not define: none of the C library's or the system's functions that
# open, duplicate, read or write files or descriptors, start processes or threads, or change signals, memory
# protection or the environment. The source check refuses these names as written; this looks at the objects the
# compiler made, which no spelling, overload or pointer to a function hides from. Both use one list
# (grader/src/source_policy.cpp, first_os_symbol).
if(NM)
  string(REPLACE "|" ";" objects "${OBJECTS}")
  list(GET targets 0 runner)
  execute_process(COMMAND "${NM}" -u ${objects} OUTPUT_FILE "${BUILD_DIR}/${runner}.undefined-symbols" ERROR_QUIET)
  execute_process(COMMAND "${SOURCE_CHECK}" --undefined-symbols "${BUILD_DIR}/${runner}.undefined-symbols"
                  RESULT_VARIABLE result OUTPUT_VARIABLE os_name OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(result EQUAL 1)
    message(FATAL_ERROR "hint: the lab's code calls ${os_name}, a function of the C library or the system (files, descriptors, processes, threads, signals, the environment): a lab needs only CUDA and the C++ standard library; its code runs in the runner's process, next to the channel that carries its results to the checker\n${see_page}")
  elseif(NOT result EQUAL 0)
    message(FATAL_ERROR "the build check could not read the lab's objects' symbols (${result})")
  endif()
  execute_process(COMMAND "${NM}" -u -C ${objects} OUTPUT_VARIABLE undefined ERROR_QUIET)
  if(undefined MATCHES "(^|\n)[ \t]*U (std::(thread|jthread|filesystem|basic_filebuf|basic_[io]?fstream|this_thread)[^\n]*)")
    message(FATAL_ERROR "hint: the lab's code uses ${CMAKE_MATCH_2} (files or threads of its own): a lab needs only CUDA and the C++ standard library's computing headers; its code runs in the runner's process, next to the channel that carries its results to the checker\n${see_page}")
  endif()
endif()
message("built ${TARGET}")
