# cmake -DBUILD_DIR=<dir> -DTARGET=<lab program> -DCONFIG=<config> -DOBJECTS=<a.o|b.o> -DNM=<nm>
#       -DSOURCES=<a.cu|b.cu> -P tilelab_build_lab.cmake
# The build check of one lab: builds its program, says plainly why when it does not build, and rejects a lab
# that hands the product to a library (cuBLAS and friends, Thrust, CUB, CUTLASS) instead of computing it.
set(libraries "cublas|cublasLt|cusparse|cusolver|cufft|curand|cudnn|cutlass|thrust::|cub::")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}" --config "${CONFIG}"
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
      message(FATAL_ERROR "hint: the lab calls a library (${CMAKE_MATCH_1}...) instead of computing the product itself: write the kernel (it has ${include})")
    endif()
  endforeach()
  if(output MATCHES "undefined reference to `(${libraries})")
    message(FATAL_ERROR "hint: the lab calls a library (${CMAKE_MATCH_1}...) instead of computing the product itself: write the kernel")
  endif()
  message(FATAL_ERROR "hint: the lab does not compile or link: fix the first error above (file and line are at its start)")
endif()
if(NM)
  string(REPLACE "|" ";" objects "${OBJECTS}")
  execute_process(COMMAND "${NM}" -C ${objects} OUTPUT_VARIABLE symbols ERROR_QUIET)
  # Symbol lines only ("<address> <type> <name>"): nm's "<object file>:" headers carry paths, which may
  # contain anything, a student's folder name included.
  if(symbols MATCHES "(^|\n)[0-9a-fA-F ]* [A-Za-z] ([^\n]*(${libraries})[^\n]*)")
    set(symbol "${CMAKE_MATCH_2}")
    message(FATAL_ERROR "hint: the lab calls a library instead of computing the product itself: its code refers to ${symbol}")
  endif()
endif()
message("built ${TARGET}")
