/// @file kit_seal.hpp
/// @brief The kit's files that a grading must leave as they were, and their SHA-256 digests: tilelab-grade takes
/// them before any lab's program runs and again after the checks, and refuses to report a grade where one changed
/// (something the grading ran, a submission's program most likely, wrote to the kit).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tilelab::grade {

/// Where a grading's kit files are.
struct SealedTree {
    std::filesystem::path root;   ///< the kit's sources (the repository)
    std::filesystem::path build;  ///< the grading's build folder (its CTest registrations)
    std::filesystem::path kit;    ///< the build holding the kit's programs: `build`, or the kit a batch built once
    bool against_kit = false;     ///< graded against a kit built before (grade.cmake -DKIT): its libraries and
                                  ///< objects are sealed too, since the submission's build links them
};

/// The files sealed, sorted: the kit's sources and registry (cmake/, common/, grader/, docs/, CMakeLists.txt,
/// CMakePresets.json), CTest's registrations in the build, and the kit's programs (checkers, gate models,
/// tilelab-report); against a kit, also its other programs, settings, static libraries and the objects every lab's
/// runner links (adapters, the runner's harness, gate models, kit kernels). Links are not followed.
std::vector<std::filesystem::path> sealed_files(const SealedTree& tree);

/// path → SHA-256 (hex) of each file, computed by `cmake -E sha256sum` (@p cmake: the CMake program). Throws
/// std::runtime_error where CMake could not digest them.
std::map<std::string, std::string> digests(const std::vector<std::filesystem::path>& files, const std::string& cmake);

/// The paths whose digest differs between @p before and @p after, or that only one of them has, sorted.
std::vector<std::string> changed_files(const std::map<std::string, std::string>& before,
                                       const std::map<std::string, std::string>& after);

}  // namespace tilelab::grade
