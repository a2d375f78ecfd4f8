// The kit's seal (grader/grade/kit_seal.hpp): which files a grading must leave as they were, and that a change to
// any of them, a new one or a removed one is seen.
#include "kit_seal.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tilelab::unit::write;
using namespace tilelab::grade;

namespace {

/// Whether @p files holds @p file.
bool holds(const std::vector<fs::path>& files, const fs::path& file) {
    return std::find(files.begin(), files.end(), file) != files.end();
}

/// A kit's sources and a build against a kit built before, with one file of each kind sealed and some not.
struct KitTree {
    tilelab::unit::TempFolder temp;
    SealedTree tree{temp.path / "kit-src", temp.path / "build", temp.path / "kit", true};
    KitTree() {
        for (const char* file : {"cmake/TileLab.cmake", "grader/labs.json", "common/include/tilelab/labs.hpp",
                                 "docs/grading.md", "CMakeLists.txt", "labs/02_tiled/kernel.cu"})
            write(tree.root / file, file);
        write(tree.build / "CTestTestfile.cmake", "tests");
        write(tree.build / "grader" / "CTestTestfile.cmake", "tests");
        write(tree.build / "verdicts" / "graded.lab02.json", "{}");
        write(tree.kit / "grader" / "tilelab-checker-cpu", "checker");
        write(tree.kit / "tilelab-kit-settings.cmake", "settings");
        write(tree.kit / "common" / "libtilelab_common_cpu.a", "library");
        write(tree.kit / "grader" / "CMakeFiles" / "tilelab_adapter_02_tiled_cpu.dir" / "generated" / "a.cu.cpp.o", "o");
        write(tree.kit / "grader" / "CMakeFiles" / "tilelab_graded_lab02_tw16_cpu_lab.dir" / "kernel.cu.cpp.o", "o");
        write(tree.kit / "grader" / "selftest" / "copy" / "build" / "CMakeCache.txt", "a build of its own");
        write(tree.kit / "grader" / "selftest" / "copy" / "build" / "grader" / "libtilelab_copy.a", "library");
        // A self-test's copy of the kit being configured: no CMakeCache.txt yet, its generated files already there.
        write(tree.kit / "grader" / "selftest" / "cheats" / "kit" / "docs" / "site" / "tilelab-search.js", "site");
        write(tree.kit / "grader" / "selftest" / "cheats" / "kit" / "tilelab-kit-settings.cmake", "settings");
        write(tree.kit / "grader" / "selftest" / "cheats" / "kit" / "common" / "libtilelab_common_cpu.a", "library");
    }
};

}  // namespace

TEST_SUITE("kit_seal") {
    TEST_CASE("the seal holds the kit's sources, CTest's registrations and the kit's programs, libraries and objects") {
        KitTree kit;
        const std::vector<fs::path> files = sealed_files(kit.tree);
        for (const char* file : {"cmake/TileLab.cmake", "grader/labs.json", "common/include/tilelab/labs.hpp",
                                 "docs/grading.md", "CMakeLists.txt"})
            CHECK(holds(files, kit.tree.root / file));
        CHECK(holds(files, kit.tree.build / "grader" / "CTestTestfile.cmake"));
        CHECK(holds(files, kit.tree.kit / "grader" / "tilelab-checker-cpu"));
        CHECK(holds(files, kit.tree.kit / "tilelab-kit-settings.cmake"));
        CHECK(holds(files, kit.tree.kit / "common" / "libtilelab_common_cpu.a"));
        CHECK(holds(files, kit.tree.kit / "grader" / "CMakeFiles" / "tilelab_adapter_02_tiled_cpu.dir" / "generated" /
                               "a.cu.cpp.o"));
        // The submission's own files, objects and records are its own business, not the kit's.
        CHECK_FALSE(holds(files, kit.tree.root / "labs/02_tiled/kernel.cu"));
        CHECK_FALSE(holds(files, kit.tree.build / "verdicts" / "graded.lab02.json"));
        CHECK_FALSE(holds(files, kit.tree.kit / "grader" / "CMakeFiles" / "tilelab_graded_lab02_tw16_cpu_lab.dir" /
                                     "kernel.cu.cpp.o"));
        // A build nested in the kit's (a self-test's copy of the kit) is another build's business.
        CHECK_FALSE(holds(files, kit.tree.kit / "grader" / "selftest" / "copy" / "build" / "grader" / "libtilelab_copy.a"));
        // So is one still being configured, whose CMakeCache.txt comes last: the kit's own tests' work is not the kit.
        const fs::path configuring = kit.tree.kit / "grader" / "selftest" / "cheats" / "kit";
        CHECK_FALSE(holds(files, configuring / "docs" / "site" / "tilelab-search.js"));
        CHECK_FALSE(holds(files, configuring / "tilelab-kit-settings.cmake"));
        CHECK_FALSE(holds(files, configuring / "common" / "libtilelab_common_cpu.a"));
    }

    TEST_CASE("a changed, added or removed sealed file breaks the seal; an unsealed one does not") {
        KitTree kit;
        const std::string cmake = TILELAB_CMAKE_COMMAND;
        const auto before = digests(sealed_files(kit.tree), cmake);
        REQUIRE(before.size() == sealed_files(kit.tree).size());
        CHECK(changed_files(before, digests(sealed_files(kit.tree), cmake)).empty());
        write(kit.tree.root / "labs/02_tiled/kernel.cu", "the student's own file, rewritten");
        CHECK(changed_files(before, digests(sealed_files(kit.tree), cmake)).empty());
        write(kit.tree.kit / "grader" / "tilelab-checker-cpu", "a checker that passes everything");
        write(kit.tree.root / "grader" / "new.cmake", "a file the grading never had");
        fs::remove(kit.tree.root / "docs" / "grading.md");
        const std::vector<std::string> expected = {(kit.tree.kit / "grader" / "tilelab-checker-cpu").string(),
                                                   (kit.tree.root / "docs" / "grading.md").string(),
                                                   (kit.tree.root / "grader" / "new.cmake").string()};
        std::vector<std::string> sorted = expected;
        std::sort(sorted.begin(), sorted.end());
        CHECK(changed_files(before, digests(sealed_files(kit.tree), cmake)) == sorted);
    }
}
