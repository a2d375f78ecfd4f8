#!/usr/bin/env bash
# The oldest tools the kit supports for grading, proven: grades solutions/ with CMake 3.22.6 (Ubuntu 22.04's
# CMake, here from PyPI) and g++-11 (Ubuntu 22.04's g++), on the CPU backend at one tile width, and requires full
# marks, read from grade.cmake's summary (summary.json: "earned", "possible").
#   compat_grade.sh <work folder>      (.ci/run: build/compat)
#   TILELAB_COMPAT_SUBMISSION=labs compat_grade.sh <work folder>    the stubs instead: must fail (the check can fail)
# Needs python3 with venv and pip (PyPI reachable) and g++-11. Where CI=true, a missing one is an error: the check
# must not be skipped there. Elsewhere it says what is missing and stops with status 77 (skipped).
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(realpath -m "${1:?usage: compat_grade.sh <work folder>}")
cmake_version=3.22.6
compiler=g++-11

missing() {
  if [ "${CI:-}" = "true" ]; then
    echo "compat_grade: $1; CI must grade with CMake $cmake_version and $compiler (see .ci/run)" >&2
    exit 1
  fi
  echo "compat_grade: SKIPPED: $1" >&2
  exit 77
}
command -v "$compiler" >/dev/null || missing "$compiler is not installed (Debian/Ubuntu: apt-get install $compiler)"
venv="$work/cmake-$cmake_version"
if [ ! -x "$venv/bin/cmake" ]; then
  python3 -m venv "$venv" || missing "python3 -m venv failed (Debian/Ubuntu: apt-get install python3-venv)"
  "$venv/bin/pip" install --quiet "cmake==$cmake_version" || missing "pip could not install cmake==$cmake_version"
fi
cmake="$venv/bin/cmake"
"$cmake" --version | head -1
"$compiler" --version | head -1

# One tile width (the gate's, 16) is enough to prove the tools: the other widths build the same sources. A copy
# of the solutions, graded as any submission is: solutions/ itself is compiled without the sandbox (as root, each
# lab's files are compiled and run as a user of its own), which then would go untested.
build="$work/grade"
submission="$work/submission"
rm -rf "$submission"
cp -r "${TILELAB_COMPAT_SUBMISSION:-solutions}" "$submission"
started=$(date +%s)
status=0
CXX="$compiler" CUDAHOSTCXX="$compiler" "$cmake" -DSUBMISSION="$submission" -DBUILD="$build" \
  "-DCONFIGURE_ARGS=-DTILELAB_BACKENDS=cpu|-DTILELAB_TILE_WIDTHS=16|-DCMAKE_CXX_COMPILER=$compiler" \
  -P grader/grade.cmake >"$work/grade.txt" 2>&1 || status=$?
seconds=$(( $(date +%s) - started ))
grep -E "^(lab |lab[0-9]|Total:)" "$work/grade.txt" || true
compiler_used=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
read -r earned possible < <(python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["earned"], s["possible"])' \
  "$build/summary.json" 2>/dev/null || echo "0 0")
echo "compat_grade: CMake $cmake_version, $compiler_used: $earned of $possible points in $seconds s (log: $work/grade.txt)"
if [ "$status" -ne 0 ] || [ "$possible" -eq 0 ] || [ "$earned" -ne "$possible" ]; then
  tail -40 "$work/grade.txt" >&2
  echo "compat_grade: FAILED: ${TILELAB_COMPAT_SUBMISSION:-solutions} must get full marks with CMake $cmake_version and $compiler" >&2
  exit 1
fi
case "$compiler_used" in
  *"$compiler") ;;
  *) echo "compat_grade: FAILED: the kit was configured with $compiler_used, not $compiler" >&2; exit 1 ;;
esac
