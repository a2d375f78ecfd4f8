// The kit's sealed files and their digests (kit_seal.hpp).
#include "kit_seal.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <set>
#include <stdexcept>
#include <system_error>

namespace tilelab::grade {
namespace fs = std::filesystem;

namespace {

/// Every regular file under @p dir (links neither followed nor listed) for which @p keep holds, but none of a build
/// tree nested in it (a folder with a CMakeCache.txt of its own, such as a self-test's copy of the kit) and none under
/// @p skip: another build's files are not this kit's, and a test may be building them while this grading runs.
template <typename Keep>
void collect(const fs::path& dir, Keep keep, std::set<fs::path>& out, const fs::path& skip = {}) {
    std::error_code error;
    if (!fs::is_directory(fs::symlink_status(dir, error))) return;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error)) {
        if (it->is_directory(error) && !it->is_symlink(error) &&
            (it->path() == skip || fs::exists(it->path() / "CMakeCache.txt", error)))
            it.disable_recursion_pending();
        else if (it->is_regular_file(error) && !it->is_symlink(error) && keep(it->path()))
            out.insert(it->path());
    }
}

/// Whether a file's name matches a shell pattern ("tilelab-checker-*").
bool named(const fs::path& file, const char* pattern) {
    return ::fnmatch(pattern, file.filename().c_str(), 0) == 0;
}

/// Whether @p object is one that every lab's runner links: in CMake's folder of an adapter, the runner's harness,
/// a gate model or a kit kernel (<kit>/grader/CMakeFiles/<target>.dir/...).
bool kit_object(const fs::path& object, const fs::path& objects_dir) {
    if (object.extension() != ".o") return false;
    const fs::path target = *object.lexically_relative(objects_dir).begin();
    for (const char* pattern : {"tilelab_adapter_*.dir", "tilelab_runner_main_*.dir", "tilelab_gate_model_*.dir",
                                "tilelab_lab*_kernel_*.dir", "tilelab_runner_module_entry_*.dir"})
        if (::fnmatch(pattern, target.c_str(), 0) == 0) return true;
    return false;
}

}  // namespace

std::vector<fs::path> sealed_files(const SealedTree& tree) {
    std::set<fs::path> files;
    auto any = [](const fs::path&) { return true; };
    // The kit's own tests' work (a kit built with its self-tests): other gradings and builds, some of them being
    // configured while this grading runs, before their CMakeCache.txt exists (a configure writes it last). None of
    // the kit's programs, settings, libraries or objects is there.
    const fs::path kit_tests = tree.kit / "grader" / "selftest";
    for (const char* dir : {"cmake", "common", "grader", "docs"}) collect(tree.root / dir, any, files);
    for (const char* file : {"CMakeLists.txt", "CMakePresets.json"})
        if (fs::is_regular_file(fs::symlink_status(tree.root / file))) files.insert(tree.root / file);
    collect(tree.build, [](const fs::path& f) { return named(f, "*CTestTestfile.cmake"); }, files);
    collect(tree.kit / "grader", [&](const fs::path& f) {
        if (tree.against_kit) return named(f, "tilelab-*");
        return named(f, "tilelab-checker-*") || named(f, "tilelab-gate-model-*") || named(f, "tilelab-runner-host-*") ||
               named(f, "tilelab-report");
    }, files, kit_tests);
    if (tree.against_kit) {
        collect(tree.kit, [](const fs::path& f) { return named(f, "tilelab-kit-*.cmake") || f.extension() == ".a"; },
                files, kit_tests);
        collect(tree.kit / "common" / "cpu", [](const fs::path& f) { return named(f, "tilelab-cuda-to-cpp"); }, files);
        const fs::path objects = tree.kit / "grader" / "CMakeFiles";
        collect(objects, [&](const fs::path& f) { return kit_object(f, objects); }, files);
    }
    return {files.begin(), files.end()};
}

std::map<std::string, std::string> digests(const std::vector<fs::path>& files, const std::string& cmake) {
    std::map<std::string, std::string> out;
    constexpr std::size_t per_call = 256;  // files per `cmake -E sha256sum`, well inside the command line's limit
    for (std::size_t first = 0; first < files.size(); first += per_call) {
        std::string command = "'" + cmake + "' -E sha256sum";
        for (std::size_t i = first; i < std::min(files.size(), first + per_call); ++i) {
            std::string quoted;
            for (char c : files[i].string()) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
            command += " '" + quoted + "'";
        }
        std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
        if (!pipe) throw std::runtime_error("cannot run " + cmake + " -E sha256sum");
        std::array<char, 8192> line{};
        std::size_t got = 0;
        while (std::fgets(line.data(), line.size(), pipe.get()) != nullptr) {
            std::string text(line.data());
            if (!text.empty() && text.back() == '\n') text.pop_back();
            // "<64 hex digits>  <path>", one line per file, in the order given.
            if (text.size() < 67 || text.compare(64, 2, "  ") != 0) continue;
            out[text.substr(66)] = text.substr(0, 64);
            ++got;
        }
        const int status = ::pclose(pipe.release());
        if (status != 0 || got != std::min(files.size() - first, per_call))
            throw std::runtime_error("cmake -E sha256sum could not digest the kit's files (a file unreadable or "
                                     "removed while grading)");
    }
    return out;
}

std::vector<std::string> changed_files(const std::map<std::string, std::string>& before,
                                       const std::map<std::string, std::string>& after) {
    std::vector<std::string> changed;
    for (const auto& [path, digest] : before) {
        const auto found = after.find(path);
        if (found == after.end() || found->second != digest) changed.push_back(path);
    }
    for (const auto& [path, digest] : after)
        if (before.count(path) == 0) changed.push_back(path);
    std::sort(changed.begin(), changed.end());
    return changed;
}

}  // namespace tilelab::grade
