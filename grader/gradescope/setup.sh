#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (Ubuntu). The kit itself is in
# /autograder/source (zip the repository's contents as the autograder, with this folder's two files at its top).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# No CUDA compiler: Gradescope's machines have no GPU, so run_autograder grades on the CPU backend, which needs
# only a C++ compiler and Boost.Context.
apt-get install -y -qq --no-install-recommends cmake ninja-build g++ doctest-dev libboost-context-dev
# The kit's model answers stay out of the image: the CPU backend has no performance gate, so nothing in grading
# needs them, and a submission must not be able to reach them (docs/instructors.md, threat model).
rm -rf /autograder/source/solutions
