# Grades a submission: copies it, configures and builds, runs the checks, and has tilelab-report print the tables
# and write results.json (Gradescope's) and summary.json (a batch's) from the checks' records.
#   cmake [-DSUBMISSION=<folder laid out like labs/>] [-DBUILD=<build folder, default build/grade>]
#         [-DRESULTS=<results.json>] [-DSUMMARY=<summary.json>] ["-DCONFIGURE_ARGS=-DA=1|-DB=2"] [-DKIT=<kit build>] [-DJOBS=4]
#         [-DLABS=<labs: 02;03, lab02,lab03 or 02_tiled; default $ENV{TILELAB_LABS}, else all>] -P grader/grade.cmake
# Only the assignment's LABS are built, run and counted. A submission with no lab folder (a file uploaded on its own)
# has each file placed in the folder of the one lab of the assignment that takes a file of its name.
# With KIT (grader/batch.sh), only the submission's lab files are built, against that kit; CONFIGURE_ARGS were the
# kit's. Exits non-zero when a check failed. The kit's files are sealed before the labs' programs run and checked
# after (tilelab-grade): if any changed, no grade.
cmake_minimum_required(VERSION 3.22...3.25)
get_filename_component(root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
foreach(default "SUBMISSION=labs" "BUILD=${root}/build/grade" "JOBS=4" "GPU_QUEUE_SECONDS=900" "SUMMARY=")
  string(REGEX MATCH "^([A-Z_]+)=(.*)$" unused "${default}")
  if(NOT DEFINED ${CMAKE_MATCH_1})
    set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")  # GPU_QUEUE_SECONDS: in a batch, a GPU check's longest wait for its turn
  endif()
endforeach()
if(NOT DEFINED LABS)
  set(LABS "$ENV{TILELAB_LABS}")
endif()
include("${root}/cmake/TileLabRegistry.cmake")
tilelab_assignment(assignment "${LABS}")  # the labs' folders; an item that names no lab stops here, saying so
string(REPLACE ";" "," assignment_folders "${assignment}")
set(assignment_ids "")
set(expected "")  # the files the assignment's labs take, for the note on a file that no lab takes
foreach(folder IN LISTS assignment)
  string(APPEND assignment_ids ",${TILELAB_${folder}_ID}")
  string(APPEND expected ", ${TILELAB_${folder}_FILES}")
endforeach()
string(SUBSTRING "${expected}" 2 -1 expected)
get_filename_component(build "${BUILD}" ABSOLUTE)
if(NOT DEFINED RESULTS)
  set(RESULTS "${build}/results.json")
endif()
if(SUMMARY STREQUAL "")
  set(SUMMARY "${build}/summary.json")
endif()
string(REPLACE "|" ";" configure_args "${CONFIGURE_ARGS}")
set(kit "${build}")  # where the kit's programs are: this build, or the kit a batch built once
if(DEFINED KIT)
  get_filename_component(kit "${KIT}" ABSOLUTE)
  if(NOT EXISTS "${kit}/tilelab-kit-settings.cmake")
    message(FATAL_ERROR "KIT: ${kit} is not a built kit (no tilelab-kit-settings.cmake): grader/batch.sh builds one")
  endif()
endif()
string(TIMESTAMP started "%s")
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
get_filename_component(submission_path "${SUBMISSION}" ABSOLUTE)
if(SUBMISSION MATCHES "^(labs|solutions)$")
  set(submission_path "${SUBMISSION}")
elseif(IS_DIRECTORY "${submission_path}")
  # A copy that the labs' compiler (its own user, as root) can read and nothing in the grading can change. A symbolic
  # link stays a link, which the source check refuses; a hard link would become a plain file, so each file with more
  # than one name gets a second name under submission-links/, which the source check sees and refuses too.
  file(REMOVE_RECURSE "${build}/submission" "${build}/submission-links")
  file(COPY "${submission_path}/" DESTINATION "${build}/submission"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
       DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  execute_process(COMMAND find "${submission_path}/" -type f -links +1 -printf "%P\\n" OUTPUT_VARIABLE hard_links ERROR_QUIET)
  string(REPLACE "\n" ";" hard_links "${hard_links}")
  set(index 0)
  foreach(hard_link IN LISTS hard_links)
    if(NOT hard_link STREQUAL "" AND EXISTS "${build}/submission/${hard_link}")
      math(EXPR index "${index} + 1")
      file(MAKE_DIRECTORY "${build}/submission-links")
      file(CREATE_LINK "${build}/submission/${hard_link}" "${build}/submission-links/${index}")
    endif()
  endforeach()
  set(submission_path "${build}/submission")
  # No lab folder (an upload of a lab's files alone, or of one folder): each file goes where the one lab of the
  # assignment that takes a file of its name expects it, moved as it is (a link stays a link, a hard link keeps its
  # second name), and any other file is named in the report. A missing file is then its lab's build check's message.
  list(TRANSFORM TILELAB_LABS PREPEND "${submission_path}/" OUTPUT_VARIABLE lab_folders)
  file(GLOB lab_folders LIST_DIRECTORIES true ${lab_folders})
  if(NOT lab_folders)
    file(GLOB_RECURSE uploaded LIST_DIRECTORIES false RELATIVE "${submission_path}" "${submission_path}/*")
  endif()
  foreach(file IN LISTS uploaded)
    get_filename_component(name "${file}" NAME)
    set(takes "")
    foreach(folder IN LISTS assignment)
      if("${folder}/${name}" IN_LIST TILELAB_${folder}_FILES)
        list(APPEND takes "${folder}/${name}")
      endif()
    endforeach()
    string(REPLACE ";" " and " takes_text "${takes}")
    set(why "no lab of this assignment takes a file of that name (it takes ${expected})")
    if(takes MATCHES ";")
      set(why "${takes_text} each take a file of that name: upload each in its lab's folder, as labs/ has them")
    elseif(takes AND (EXISTS "${submission_path}/${takes}" OR IS_SYMLINK "${submission_path}/${takes}"))
      set(why "another file of that name was placed at ${takes} first")
    elseif(takes)
      get_filename_component(folder "${submission_path}/${takes}" DIRECTORY)
      file(MAKE_DIRECTORY "${folder}")
      file(RENAME "${submission_path}/${file}" "${submission_path}/${takes}" RESULT moved)
      if(moved EQUAL 0)
        message(STATUS "TileLab: the uploaded ${file} is graded as ${takes}")
        continue()
      endif()
      set(why "its name cannot be read (a semicolon in it?)")  # CMake's lists split names at semicolons
    endif()
    list(APPEND note_args --note "the uploaded ${file} was not graded: ${why}")
  endforeach()
endif()
# The model answers, out of reach of the labs' user: solutions/ closed to "others" (its owner and group, who build
# the kit's gate kernels from it, keep their rights). Gradescope's image does not hold it at all.
if(uid STREQUAL "0" AND IS_DIRECTORY "${root}/solutions" AND NOT SUBMISSION STREQUAL "solutions")
  execute_process(COMMAND chmod o-rwx "${root}/solutions" RESULT_VARIABLE closed)
  if(NOT closed EQUAL 0)
    message(FATAL_ERROR "cannot close ${root}/solutions to the labs' user (chmod o-rwx); a lab could read the model answers")
  endif()
endif()
if(DEFINED KIT)
  set(configure -S "${root}/grader/submission" -G Ninja "-DTILELAB_KIT=${kit}" "-DTILELAB_GPU_QUEUE_SECONDS=${GPU_QUEUE_SECONDS}")
  if("$ENV{TILELAB_GPU_LOCK}" STREQUAL "")
    set(ENV{TILELAB_GPU_LOCK} "${build}/gpu.lock")  # against a kit, the measuring checks take turns by this lock
  endif()
else()
  set(configure --preset grade -DTILELAB_ONE_ARCHITECTURE=ON ${configure_args})
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${configure} -B "${build}" "-DTILELAB_SOURCE=${submission_path}"
                        "-DTILELAB_ASSIGNMENT=${assignment_folders}"
                WORKING_DIRECTORY "${root}" RESULT_VARIABLE result)
if(result EQUAL 0 AND NOT DEFINED KIT)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" RESULT_VARIABLE result)
endif()
if(NOT result EQUAL 0)
  message(FATAL_ERROR "configuring or building the kit failed (see above); the labs themselves are built by the tests")
endif()
string(TIMESTAMP configured "%s")
# The rest is the kit's program tilelab-grade (grader/grade/main.cpp): the kit's files sealed, the GPU found once,
# the labs built, the checks run, the seal checked, and the grade reported by tilelab-report (the options after --).
set(against_kit "")
if(DEFINED KIT)
  set(against_kit --against-kit)
endif()
load_cache("${kit}" READ_WITH_PREFIX kit_ CMAKE_CUDA_ARCHITECTURES)
string(REPLACE ";" ", " architectures "${kit_CMAKE_CUDA_ARCHITECTURES}")
execute_process(COMMAND "${kit}/grader/tilelab-grade" --root "${root}" --build "${build}" --kit "${kit}" ${against_kit}
                        --jobs ${JOBS} --cmake "${CMAKE_COMMAND}" --ctest "${CMAKE_CTEST_COMMAND}" --results "${RESULTS}"
                        --summary "${SUMMARY}" --submission "${SUBMISSION}" --started ${started}
                        --configured ${configured} --no-gpu-note "the GPU backend was compiled for CUDA architecture ${architectures} only, nvcc's check that the labs compile (its checks are skipped)"
                        -- --labs "${assignment_ids}" ${note_args} RESULT_VARIABLE graded)
if(graded EQUAL 1)
  message(FATAL_ERROR "not every check passed (see the points above)")
elseif(NOT graded EQUAL 0)
  message(FATAL_ERROR "no grade (see the reason above)")
endif()
