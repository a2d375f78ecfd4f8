#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (its Ubuntu 22.04 or 24.04 base image).
# The kit itself is in /autograder/source (zip the repository's contents as the autograder, with this folder's two
# files at its top).
set -euo pipefail
# The packages (shared with PrairieLearn's image and GitHub Classroom's workflow): grader/packages.sh.
bash /autograder/source/grader/packages.sh

# The kit, built once here (CPU backend), so that each submission compiles only its own labs' files against it
# (run_autograder: grade.cmake -DKIT); run_autograder builds it per submission where it is missing.
cmake --preset grade -S /autograder/source -B /autograder/kit -DTILELAB_BACKENDS=cpu
cmake --build /autograder/kit

# The kit's model answers stay out of the image: the CPU backend has no performance gate, so nothing in grading
# needs them, and a submission must not be able to reach them (docs/instructors.md, threat model).
rm -rf /autograder/source/solutions
