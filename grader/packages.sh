#!/usr/bin/env bash
# What grading on the CPU backend needs, from a Debian or Ubuntu system's packages, as root: Gradescope's setup.sh,
# PrairieLearn's image (grader/prairielearn/Dockerfile) and GitHub Classroom's workflow run it.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# No CUDA compiler: Gradescope's machines have no GPU, so run_autograder grades on the CPU backend, which needs
# only CMake, Ninja, a C++17 compiler, doctest and Boost.Context. Ubuntu 22.04 has CMake 3.22 and g++ 11, 24.04
# CMake 3.28 and g++ 13.
apt-get install -y -qq --no-install-recommends cmake ninja-build g++ doctest-dev libboost-context-dev nlohmann-json3-dev

# Grading needs CMake 3.22 or newer. Where the distribution's is older (Ubuntu 20.04: 3.16), CMake 3.22.6 from PyPI
# (the version CI grades with) goes into a venv of its own and onto the PATH ahead of it, with its ctest.
at_least_3_22() {
  local version
  version=$("$1" --version 2>/dev/null | sed -n '1s/^cmake version \([0-9.]*\).*/\1/p')
  [ -n "$version" ] && [ "$(printf '%s\n3.22\n' "$version" | sort -V | head -1)" = "3.22" ]
}
if ! at_least_3_22 cmake; then
  apt-get install -y -qq --no-install-recommends python3-venv python3-pip
  python3 -m venv /opt/tilelab-cmake
  /opt/tilelab-cmake/bin/pip install --quiet cmake==3.22.6
  ln -sf /opt/tilelab-cmake/bin/cmake /usr/local/bin/cmake
  ln -sf /opt/tilelab-cmake/bin/ctest /usr/local/bin/ctest
  hash -r
  at_least_3_22 cmake || { echo "setup.sh: no CMake 3.22 or newer on the PATH" >&2; exit 1; }
fi
cmake --version | head -1
