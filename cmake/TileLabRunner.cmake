# How a submission's lab becomes programs (cmake/TileLab.cmake makes its tests): the runner, left out of `all`,
# made of the lab's files, the lab's adapter (grader/runner/adapters) and the runner's harness; where the lab has a
# performance gate on the GPU, the gate's runner; the source check; and the build test's command.
include_guard(GLOBAL)

# c++filt, for readable names in the build check's messages.
find_program(TILELAB_CXXFILT c++filt DOC "Demangles C++ names in the build check's messages")

# Floating-point contraction on the CPU backend, as nvcc's default --fmad=true: a*b + c in device code becomes one
# fused multiply-add, rounded once, on a GPU. Without it the CPU rounds the product first, and a kernel could test
# which it runs on (e*e - 1 - 2^-11 is 2^-24 fused, 0 unfused, for e = 1 + 2^-12). So lab code is compiled with
# contraction on and the FMA instruction available (-mfma on x86-64; aarch64 has it in its baseline), where the
# compiler takes the flags and this machine runs the result; else without, said at configure time. The compiler
# cannot contract exactly the expressions nvcc does: this closes the plain a*b + c, not every last-bit difference.
# A submission's build takes the kit's flags (tilelab-kit-settings.cmake), so both compile lab code alike;
# -DTILELAB_CPU_FMA_FLAGS= turns it off. A kit built here must grade on machines with FMA, as this one has.
if(NOT DEFINED TILELAB_CPU_FMA_FLAGS)
  include(CheckCXXSourceRuns)
  set(_tilelab_fma_flags -ffp-contract=fast)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|i[3-6]86)$")
    list(APPEND _tilelab_fma_flags -mfma)
  endif()
  list(JOIN _tilelab_fma_flags " " _tilelab_fma_shown)
  set(CMAKE_REQUIRED_FLAGS "${_tilelab_fma_shown} -O2")  # contraction is an optimisation: as lab code is built (Release)
  # Exits 0 only where the product was fused: e*e is 1 + 2^-11 + 2^-24, which one rounding of e*e + c keeps.
  check_cxx_source_runs([[
    volatile float e = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
    int main() { const float x = e, y = c; return x * x + y == 0x1p-24f ? 0 : 1; }
  ]] TILELAB_CPU_FMA_RUNS)
  unset(CMAKE_REQUIRED_FLAGS)
  if(TILELAB_CPU_FMA_RUNS)
    message(STATUS "TileLab: the CPU backend compiles lab code with FMA contraction (${_tilelab_fma_shown}), as nvcc's --fmad=true")
  else()
    set(_tilelab_fma_flags "")
    message(STATUS "TileLab: no FMA contraction on the CPU backend (${_tilelab_fma_shown} failed to build or run here): "
                   "a*b + c in lab code is rounded twice, where a GPU rounds it once")
  endif()
  set(TILELAB_CPU_FMA_FLAGS "${_tilelab_fma_flags}" CACHE STRING "Flags that compile CPU-backend lab code with FMA contraction")
endif()

# The sources as the CPU backend compiles them: each rewritten by tilelab-cuda-to-cpp (launches and __shared__
# declarations, lines kept) and compiled as C++ with the stand-in cuda_runtime.h force-included. The rewrite waits
# for the lab's source check (@p checked, a target): it reads the files with the build's rights, so it must never
# read through a link. With TILELAB_CPU_FMA_FLAGS, as device code is on a GPU, products and sums are contracted.
function(_tilelab_cpu_sources target root checked out_var)
  set(out "")
  foreach(source IN LISTS ARGN)
    file(RELATIVE_PATH relative "${root}" "${source}")
    set(rewritten "${CMAKE_CURRENT_BINARY_DIR}/cpu_sources/${target}/${relative}.cpp")
    add_custom_command(OUTPUT "${rewritten}" COMMAND tilelab-cuda-to-cpp "${source}" "${rewritten}"
                       DEPENDS "${source}" tilelab-cuda-to-cpp ${checked}
                       COMMENT "CPU backend: rewriting ${relative}" VERBATIM)
    set_source_files_properties("${rewritten}" PROPERTIES COMPILE_OPTIONS "-include;cuda_runtime.h;${TILELAB_CPU_FMA_FLAGS}")
    list(APPEND out "${rewritten}")
  endforeach()
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()

# Kit code linked into every runner of a lab, the same for every submission, so an object library built once:
# - the adapter (tilelab_adapter_<folder>_<backend>): grader/runner/adapters/<folder>.cu where the lab has its own
#   (lab 04's host code), else generic.cu.in written with the lab's names and launch from the registry (names in
#   the source, not macros: the CPU backend's messages name the kernel as its launch is written); the runner is
#   told the tile width, so one serves every tile width;
# - the kit kernel of a lab of host code (kit_kernel, at each tile width): the kit's copy of that lab's model answer
#   (grader/runner/<lab id>/recorded_kernel.cu), built under the contract's names and instrumented to record its
#   launches, so that the lab grades the student's host code alone, with a kernel whose launches the checker sees.
function(_tilelab_kit_objects out_var lab backend tile_width)
  set(id ${TILELAB_${lab}_ID})
  set(target tilelab_adapter_${lab}_${backend})
  if(tile_width)
    set(target tilelab_${id}_kernel_${backend}_tw${tile_width})
  endif()
  set(${out_var} ${target} PARENT_SCOPE)
  if(TARGET ${target})
    return()
  endif()
  set(folder "${_tilelab_kit_source_dir}/grader/runner/adapters")
  set(source "${folder}/${lab}.cu")
  if(tile_width)
    set(folder "${_tilelab_kit_source_dir}/grader/runner/${id}")
    set(source "${folder}/recorded_kernel.cu")
  elseif(NOT EXISTS "${source}")
    if(NOT TILELAB_${lab}_KERNEL)
      message(FATAL_ERROR "TileLab: lab ${lab} has no kernel in grader/labs.json: it needs its own adapter, ${source}")
    endif()
    foreach(field ID LAUNCHER KERNEL BLOCK_TILE THREADS)
      set(${field} "${TILELAB_${lab}_${field}}")  # the template's @ID@, @LAUNCHER@, ...
    endforeach()
    set(source "${CMAKE_BINARY_DIR}/generated/adapters/${lab}.cu")
    configure_file("${folder}/generic.cu.in" "${source}" @ONLY)
    set(folder "${CMAKE_BINARY_DIR}/generated/adapters")
  endif()
  if(backend STREQUAL "cpu")
    _tilelab_cpu_sources(${target} "${folder}" "" source "${source}")
  endif()
  if(NOT tile_width)
    # The record of the launcher's launches that the kit's launch of the kernel follows (launch_record.hpp); on a
    # GPU it holds the wrappers that the runner's link (_tilelab_add_runner) sends the lab's launches to.
    list(APPEND source "${_tilelab_kit_source_dir}/grader/runner/launch_record.cpp")
  endif()
  add_library(${target} OBJECT ${source})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)  # also in labs' modules
  set_property(GLOBAL APPEND PROPERTY TILELAB_KIT_OBJECTS ${target})  # exported with the kit (TileLabKitExport.cmake)
  if(tile_width)
    target_compile_definitions(${target} PRIVATE TILE_WIDTH=${tile_width})
    target_include_directories(${target} PRIVATE "${folder}")
    target_link_libraries(${target} PRIVATE tilelab_lab_support_${backend})
  else()
    target_link_libraries(${target} PRIVATE tilelab_runner_main_${backend})
  endif()
endfunction()

# The source check of a submission's lab (tilelab-source-check, tools/lib/source_policy.hpp): what the lab's files may
# include and name, and no link in their folders, on the files as written, run as the sandbox's user before anything
# compiles or rewrites them; once per submission and lab. Sets <out_target>, and <out_launcher>: the path of the
# sandbox's compiler launcher (tilelab-sandbox-compile, the kit's or, in grader/submission, the built kit's). A
# path, not $<TARGET_FILE:...>: CMake before 3.24 runs a compiler launcher as written, generator expression and
# all, so every lab of a submission failed its build on CMake 3.22.
function(_tilelab_source_check out_target out_launcher submission root lab)
  get_target_property(imported tilelab-sandbox-compile IMPORTED)
  if(imported)
    get_target_property(launcher tilelab-sandbox-compile LOCATION)
  else()
    get_target_property(dir tilelab-sandbox-compile BINARY_DIR)  # no RUNTIME_OUTPUT_DIRECTORY of its own
    set(launcher "${dir}/tilelab-sandbox-compile${CMAKE_EXECUTABLE_SUFFIX}")
  endif()
  file(REAL_PATH "${root}" real_root)
  file(REAL_PATH "${_tilelab_kit_source_dir}/solutions" real_solutions)
  if(real_root STREQUAL real_solutions)
    # The kit's own model answers, which grade.cmake closes to the sandbox's user when it grades a submission
    # as root: the kit's code, compiled and checked with the build's own rights.
    set(launcher "")
  endif()
  set(source_check tilelab_${submission}_${TILELAB_${lab}_ID}_source_check)
  if(NOT TARGET ${source_check})
    add_custom_target(${source_check} COMMAND ${launcher} "$<TARGET_FILE:tilelab-source-check>" "${root}"
                      ${TILELAB_${lab}_FILES} COMMENT "source check of ${submission}'s ${lab}" VERBATIM)
    add_dependencies(${source_check} tilelab-sandbox-compile tilelab-source-check)
  endif()
  set(${out_target} ${source_check} PARENT_SCOPE)
  set(${out_launcher} "${launcher}" PARENT_SCOPE)
endfunction()

# Sets <target>'s CUDA_ARCHITECTURES, those a lab's own code is compiled for: the build's, less those older than the
# lab's min_compute_capability (lab 09's TF32 fragments do not exist before sm_80), so that a lab never tests
# __CUDA_ARCH__ itself (the source check forbids it); the GPU checks skip such a lab on an older GPU. Entries
# without a number ("native", "all") are kept; where none is left, the minimum itself. In the kit's own tests on a
# machine without a GPU (TILELAB_SELFTEST, TILELAB_LAB_ARCHITECTURE_WITHOUT_GPU: TileLabCudaArchitectures.cmake),
# the newest architecture alone: no lab runs there, and a build for seven architectures took 1,160 of the 1,870 s
# that the build tests, one after another, held the build tree in a full run on 2 cores.
function(tilelab_lab_cuda_architectures target lab)
  string(REPLACE "." "" minimum "${TILELAB_${lab}_MIN_COMPUTE_CAPABILITY}")
  set(kept "")
  set(architectures ${CMAKE_CUDA_ARCHITECTURES})
  if(TILELAB_SELFTEST AND TILELAB_LAB_ARCHITECTURE_WITHOUT_GPU)
    set(architectures ${TILELAB_LAB_ARCHITECTURE_WITHOUT_GPU})
  endif()
  foreach(architecture IN LISTS architectures)
    string(REGEX MATCH "^[0-9]+" number "${architecture}")
    if(NOT minimum OR NOT number OR number GREATER_EQUAL minimum)
      list(APPEND kept ${architecture})
    endif()
  endforeach()
  if(NOT kept)
    set(kept ${minimum}-real)
  endif()
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${kept}")
endfunction()

# Whether a lab on @p backend is a module for the runner host (grader/runner/runner_host.cpp) rather than a program
# of its own: on the GPU, graded against a kit (TILELAB_GPU_LEASE, grader/submission) built with
# TILELAB_RUNNER_MODULES: every lab of a submission at a tile width then shares one CUDA context (_tilelab_add_checks).
function(_tilelab_runner_is_module out_var backend)
  set(${out_var} OFF PARENT_SCOPE)
  if(backend STREQUAL "gpu" AND TILELAB_GPU_LEASE AND TILELAB_RUNNER_MODULES)
    set(${out_var} ON PARENT_SCOPE)
  endif()
endfunction()

# <target> linked with the shared CUDA runtime (common/CMakeLists.txt's TILELAB_SHARED_CUDART), found where it was
# at build time: the runner host and the modules it loads share one runtime.
function(tilelab_shared_cuda_runtime target)
  set_target_properties(${target} PROPERTIES TILELAB_SHARED_CUDART ON CUDA_RUNTIME_LIBRARY Shared LINKER_LANGUAGE CUDA
                                             BUILD_RPATH "${CUDAToolkit_LIBRARY_DIR}")
endfunction()

# What makes <target> a module the runner host loads (grader/runner/runner_host.cpp): the host's shared CUDA
# runtime, its names resolved inside it (-Bsymbolic, so never to the host's), and none left undefined (what would not
# link into a program fails its build, not its loading).
function(tilelab_runner_module_properties target)
  target_link_options(${target} PRIVATE "LINKER:-Bsymbolic" "LINKER:--no-undefined")
  tilelab_shared_cuda_runtime(${target})
endfunction()

# The runner <target>: the lab's files alone (<target>_lab, so the build check can see what they define), compiled
# as an unprivileged user of its own when the build runs as root (the launcher: hostile source never runs a
# compiler that can write the kit), with the adapter, the lab's kit kernel and the runner's harness; or, as a
# module (_tilelab_runner_is_module), with the adapter, the kit kernel and the module's entry point, which the runner
# host loads.
function(_tilelab_add_runner target lab tile_width backend launcher source_check flags)
  _tilelab_runner_is_module(module ${backend})
  add_library(${target}_lab OBJECT EXCLUDE_FROM_ALL ${ARGN})
  set_target_properties(${target}_lab PROPERTIES POSITION_INDEPENDENT_CODE ${module})
  target_compile_definitions(${target}_lab PRIVATE TILE_WIDTH=${tile_width})
  target_compile_options(${target}_lab PRIVATE ${flags})
  # __FILE__ (assert, TILELAB_CUDA_CHECK, the CPU backend's launch sites) names the lab's files from the build folder
  # (submission/02_tiled/kernel.cu), never by a path that holds the student's name: the same file compiles to the
  # same object for every student, which the batch's compile cache relies on (grader/tools/lib/compile_cache.hpp;
  # without the map it caches nothing). Not where the folder's name has a space, a comma or a quote: nvcc splits
  # -Xcompiler's value there.
  if(NOT CMAKE_BINARY_DIR MATCHES "[ ,\"']")
    set(prefix_map "-fmacro-prefix-map=${CMAKE_BINARY_DIR}/=")
    target_compile_options(${target}_lab PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${prefix_map}>
                                                 $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${prefix_map}>)
  endif()
  target_link_libraries(${target}_lab PRIVATE tilelab_lab_support_${backend})
  set_target_properties(${target}_lab PROPERTIES CXX_COMPILER_LAUNCHER "${launcher}" CUDA_COMPILER_LAUNCHER "${launcher}")
  add_dependencies(${target}_lab tilelab-sandbox-compile ${source_check})
  if(backend STREQUAL "gpu")
    tilelab_lab_cuda_architectures(${target}_lab ${lab})
  endif()
  _tilelab_kit_objects(adapter ${lab} ${backend} "")
  if(module)
    add_library(${target} MODULE EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${adapter}>
                $<TARGET_OBJECTS:tilelab_runner_module_entry_gpu>)
    target_link_libraries(${target} PRIVATE ${target}_lab tilelab_lab_support_${backend})
    tilelab_runner_module_properties(${target})
  else()
    add_executable(${target} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${adapter}>)
    target_link_libraries(${target} PRIVATE ${target}_lab tilelab_runner_main_${backend} tilelab_lab_support_${backend})
  endif()
  if(TILELAB_${lab}_KIT_KERNEL)
    _tilelab_kit_objects(kit_kernel ${lab} ${backend} ${tile_width})
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${kit_kernel}>)
  endif()
  if(backend STREQUAL "gpu")
    # On a GPU, the link sends CUDA's launch functions, as the lab's code calls them, to the wrappers in
    # grader/runner/launch_record.cpp (its adapter's objects), which record what the launcher's launches of the lab's
    # kernel ask for before calling CUDA's own: nvcc's <<< >>> (__cudaGetKernel and __cudaLaunchKernel from CUDA 13,
    # cudaLaunchKernel before), cudaLaunchKernel and cudaLaunchKernelEx (cudaLaunchKernelExC), per-thread-stream forms.
    set(names cudaLaunchKernel cudaLaunchKernel_ptsz cudaLaunchKernelExC cudaLaunchKernelExC_ptsz __cudaGetKernel
              __cudaLaunchKernel __cudaLaunchKernel_ptsz)
    list(TRANSFORM names PREPEND "LINKER:--wrap=")
    target_link_options(${target} PRIVATE ${names})
  endif()
endfunction()

# A submission's lab at a tile width on a backend: its runner <target> and, with a performance gate on the GPU,
# <target>_gate: the same files built again with global loads cached in L2 only, raced against the gate's reference
# model built the same way (grader/CMakeLists.txt), so that only reuse through shared memory counts, not the L1
# cache that makes a naive kernel fast on recent GPUs. Sets <out_build>, the build test's command, and
# <out_program>, the checker's command that grades the runner; where a file is missing, commands that fail saying so.
function(_tilelab_add_lab_targets out_build out_program prefix submission root lab tile_width backend target with_gate)
  set(sources "")
  foreach(file IN LISTS TILELAB_${lab}_FILES)
    # A link counts as there (even one to nothing): the source check then refuses it, naming it.
    if(NOT EXISTS "${root}/${file}" AND NOT IS_SYMLINK "${root}/${file}")
      tilelab_record_command(build ${prefix}.build ${TILELAB_${lab}_ID} ${tile_width} ${backend} --fail
        "missing file: ${file} is not in ${root}. A submission keeps the layout of labs/ (one folder per lab, with the same file names) or, for an assignment of one lab, holds its files alone; add the file and grade again.")
      set(${out_build} ${build} PARENT_SCOPE)
      set(${out_program} "$<TARGET_FILE:tilelab-build-check>" --fail "not graded: a file of the lab is missing" PARENT_SCOPE)
      return()
    endif()
    list(APPEND sources "${root}/${file}")
  endforeach()
  _tilelab_source_check(source_check launcher ${submission} "${root}" ${lab})
  set(compiled ${sources})
  if(backend STREQUAL "cpu")
    _tilelab_cpu_sources(${target} "${root}" ${source_check} compiled ${sources})
  endif()
  set(targets ${target})
  _tilelab_add_runner(${target} ${lab} ${tile_width} ${backend} "${launcher}" ${source_check} "" ${compiled})
  if(with_gate)
    list(APPEND targets ${target}_gate)
    _tilelab_add_runner(${target}_gate ${lab} ${tile_width} ${backend} "${launcher}" ${source_check}
                        "${TILELAB_GATE_CUDA_FLAGS}" ${compiled})
  endif()
  # One target per submission builds all its labs at once (grade.cmake, before the checks).
  if(NOT TARGET tilelab_${submission}_labs)
    add_custom_target(tilelab_${submission}_labs)
  endif()
  add_dependencies(tilelab_${submission}_labs ${targets})
  # The build check (grader/tools/tilelab_build_check.cpp), which writes the build test's record: the source check
  # as the sandbox's user (the launcher), the build of the targets, and the library, interposition and system-call
  # rules on the objects of the lab's files (a generator expression joined with "|").
  tilelab_record_command(build ${prefix}.build ${TILELAB_${lab}_ID} ${tile_width} ${backend}
    --build-dir "${CMAKE_BINARY_DIR}" --config "$<CONFIG>" --cmake "${CMAKE_COMMAND}" --target ${targets}
    --object "$<JOIN:$<TARGET_OBJECTS:${target}_lab>,|>" --source ${sources} --nm "${CMAKE_NM}"
    --cxxfilt "${TILELAB_CXXFILT}" --cxx "${CMAKE_CXX_COMPILER}" --source-check "$<TARGET_FILE:tilelab-source-check>"
    --source-launcher "${launcher}" --source-root "${root}" --source-file ${TILELAB_${lab}_FILES})
  set(${out_build} ${build} PARENT_SCOPE)
  # The checker (no student code) grades the lab's runner, which it starts in a sandbox of its own: the lab's own
  # program, or the runner host with the lab's module.
  set(runner --runner "$<TARGET_FILE:${target}>")
  _tilelab_runner_is_module(module ${backend})
  if(module)
    set(runner --runner "$<TARGET_FILE:tilelab-runner-host-gpu>" --module "$<TARGET_FILE:${target}>")
  endif()
  set(${out_program} "$<TARGET_FILE:tilelab-checker-${backend}>" --lab ${TILELAB_${lab}_ID} --tile-width ${tile_width}
      ${runner} PARENT_SCOPE)
endfunction()
