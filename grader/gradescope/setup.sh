#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image (Ubuntu). The kit itself is in
# /autograder/source (zip the repository's contents as the autograder, with this folder's two files at its top).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends cmake ninja-build g++ doctest-dev
# The CUDA compiler: the labs must compile even though Gradescope's machines have no GPU.
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || apt-get install -y -qq nvidia-cuda-toolkit
