// The submission as tilelab-grade grades it (grader/grade/submission_copy.hpp): the copy keeps links as links and
// gives a hard-linked file a second name, and an upload of a lab's files alone is placed in its lab's folder.
#include "registry.hpp"
#include "submission_copy.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tilelab::unit::write;
using namespace tilelab::grade;

namespace {

/// The kit's registry (grader/labs.json): labs 02 and 03 both take a kernel.cu, lab 04 a timing.cu.
tilelab::report::Registry registry() { return tilelab::report::load_registry(TILELAB_REGISTRY_JSON); }

}  // namespace

TEST_SUITE("submission_copy") {
    TEST_CASE("a build folder inside the submission, or the submission inside the build, is refused before any copy") {
        tilelab::unit::TempFolder temp;
        const fs::path from = temp.path / "upload";
        write(from / "02_tiled" / "kernel.cu", "__global__ void k() {}\n");
        CHECK_THROWS_WITH_AS(copy_submission(from, from / "build"), doctest::Contains("give BUILD a folder outside"),
                             std::invalid_argument);
        CHECK_THROWS_AS(copy_submission(from, from), std::invalid_argument);
        CHECK_THROWS_AS(copy_submission(temp.path / "build" / "submission", temp.path / "build"), std::invalid_argument);
        CHECK_FALSE(fs::exists(from / "build" / "submission"));
        CHECK(fs::exists(from / "02_tiled" / "kernel.cu"));
        // Side by side, or sharing only the start of a name, is no overlap.
        CHECK(copy_submission(from, temp.path / "upload-build") == temp.path / "upload-build" / "submission");
    }

    TEST_CASE("the copy: readable by all, a link stays a link, a hard link gets a second name the source check sees") {
        tilelab::unit::TempFolder temp;
        const fs::path from = temp.path / "upload", build = temp.path / "build";
        write(from / "02_tiled" / "kernel.cu", "__global__ void k() {}\n");
        ::chmod((from / "02_tiled" / "kernel.cu").c_str(), 0600);
        fs::create_symlink("/etc/passwd", from / "02_tiled" / "notes.txt");
        write(temp.path / "elsewhere.cu", "int x;\n");
        fs::create_directories(from / "03_tiled_boundary");
        fs::create_hard_link(temp.path / "elsewhere.cu", from / "03_tiled_boundary" / "kernel.cu");
        write(build / "submission" / "stale.cu", "from an earlier grading");
        const fs::path copy = copy_submission(from, build);
        CHECK(copy == build / "submission");
        CHECK_FALSE(fs::exists(copy / "stale.cu"));
        CHECK((fs::status(copy / "02_tiled" / "kernel.cu").permissions() & fs::perms::others_read) != fs::perms::none);
        CHECK(fs::is_symlink(copy / "02_tiled" / "notes.txt"));
        CHECK(fs::read_symlink(copy / "02_tiled" / "notes.txt") == "/etc/passwd");
        REQUIRE(fs::is_regular_file(copy / "03_tiled_boundary" / "kernel.cu"));
        CHECK(fs::hard_link_count(copy / "03_tiled_boundary" / "kernel.cu") == 2);
        CHECK(fs::equivalent(build / "submission-links" / "1", copy / "03_tiled_boundary" / "kernel.cu"));
        CHECK(fs::hard_link_count(copy / "02_tiled" / "kernel.cu") == 1);
    }

    TEST_CASE("a flat upload: each file to the one lab of the assignment that takes its name, the others noted") {
        tilelab::unit::TempFolder temp;
        const fs::path submission = temp.path / "submission";
        write(submission / "src" / "kernel.cu", "lab 02");
        write(submission / "timing.cu", "not lab 02's");
        write(submission / "notes.txt", "my notes");
        const auto notes = place_flat_upload(submission, registry(), {"lab02"});
        CHECK(fs::exists(submission / "02_tiled" / "kernel.cu"));
        CHECK_FALSE(fs::exists(submission / "src" / "kernel.cu"));
        REQUIRE(notes.size() == 2);
        CHECK(notes[0] == "the uploaded notes.txt was not graded: no lab of this assignment takes a file of that name "
                          "(it takes 02_tiled/kernel.cu)");
        CHECK(notes[1].rfind("the uploaded timing.cu was not graded: no lab of this assignment", 0) == 0);
    }

    TEST_CASE("a flat upload: a name two labs take, or a second file of a name, is not guessed at") {
        tilelab::unit::TempFolder temp;
        const fs::path two_labs = temp.path / "two", twice = temp.path / "twice";
        write(two_labs / "kernel.cu", "which lab?");
        CHECK(place_flat_upload(two_labs, registry(), {"lab02", "lab03"}) ==
              std::vector<std::string>{"the uploaded kernel.cu was not graded: 02_tiled/kernel.cu and "
                                       "03_tiled_boundary/kernel.cu each take a file of that name: upload each in its "
                                       "lab's folder, as labs/ has them"});
        CHECK(fs::exists(two_labs / "kernel.cu"));
        write(twice / "a" / "kernel.cu", "first");
        write(twice / "b" / "kernel.cu", "second");
        CHECK(place_flat_upload(twice, registry(), {"lab02"}) ==
              std::vector<std::string>{"the uploaded b/kernel.cu was not graded: another file of that name was placed "
                                       "at 02_tiled/kernel.cu first"});
    }

    TEST_CASE("a submission with a lab's folder is laid out like labs/: nothing moves") {
        tilelab::unit::TempFolder temp;
        const fs::path submission = temp.path / "submission";
        write(submission / "03_tiled_boundary" / "kernel.cu", "lab 03");
        write(submission / "kernel.cu", "left where it is");
        CHECK(place_flat_upload(submission, registry(), {"lab02"}).empty());
        CHECK(fs::exists(submission / "kernel.cu"));
        CHECK_FALSE(fs::exists(submission / "02_tiled"));
    }
}
