// The pure parts of the batch grader (grader/batch/batch_plan.hpp): its options, where an unpacked archive's lab
// folders sit, the student's name from an entry, the progress line, the Slurm tasks' share of the class.
#include "batch_plan.hpp"
#include "class_report.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace tilelab::batch;
using tilelab::unit::TempFolder;

TEST_SUITE("batch_plan") {
    TEST_CASE("the lab folders' root: the submission itself, or where an archive put them up to three levels down") {
        TempFolder temp;
        fs::create_directories(temp.path / "flat" / "01_naive");
        CHECK(lab_root(temp.path / "flat") == temp.path / "flat");
        fs::create_directories(temp.path / "nested" / "student-archive" / "02_tiled");
        fs::create_directories(temp.path / "nested" / "student-archive" / "01_naive");
        CHECK(lab_root(temp.path / "nested") == temp.path / "nested" / "student-archive");
        fs::create_directories(temp.path / "two" / "a" / "b" / "03_tiled_boundary");
        CHECK(lab_root(temp.path / "two") == temp.path / "two" / "a" / "b");
        // Deeper than find -maxdepth 3, named unlike a lab, or a link: not a lab folder.
        fs::create_directories(temp.path / "deep" / "a" / "b" / "c" / "01_naive");
        fs::create_directories(temp.path / "other" / "00_intro");
        fs::create_directories(temp.path / "other" / "0x_labs");
        fs::create_directories(temp.path / "linked");
        fs::create_directory_symlink(temp.path / "flat" / "01_naive", temp.path / "linked" / "01_naive");
        CHECK(lab_root(temp.path / "deep") == temp.path / "deep");
        CHECK(lab_root(temp.path / "other") == temp.path / "other");
        CHECK(lab_root(temp.path / "linked") == temp.path / "linked");
    }

    TEST_CASE("the class's entries: folders and archives in byte order, nothing else") {
        TempFolder temp;
        fs::create_directories(temp.path / "b-folder");
        fs::create_directories(temp.path / "B-upper");
        for (const char* file : {"a.zip", "c.tar.gz", "d.tgz", "e.tar", "notes.txt", "f.rar"}) {
            std::ofstream(temp.path / file) << "x";
        }
        fs::create_directory_symlink(temp.path / "b-folder", temp.path / "link");
        std::vector<std::string> names;
        for (const std::string& entry : list_entries(temp.path)) names.push_back(fs::path(entry).filename().string());
        CHECK(names == std::vector<std::string>{"B-upper", "a.zip", "b-folder", "c.tar.gz", "d.tgz", "e.tar"});
    }

    TEST_CASE("the student's name from an entry: its file name without the archive's extension") {
        CHECK(tilelab::report::student_name("/class/ann") == "ann");
        CHECK(tilelab::report::student_name("/class/ben.tar.gz") == "ben");
        CHECK(tilelab::report::student_name("/class/cy.tar") == "cy");
        CHECK(tilelab::report::student_name("/class/dan.tgz") == "dan");
        CHECK(tilelab::report::student_name("/class/ed.zip") == "ed");
    }

    TEST_CASE("the progress line: count, time so far, and the estimate from the pace so far") {
        CHECK(progress_line(2, 8, 125, "graded ann: 44/50 points in 60 s") ==
              "[2/8, 2m05s elapsed, about 6m15s left] graded ann: 44/50 points in 60 s");
        CHECK(progress_line(0, 3, 7, "graded x: no points: y in 1 s") ==
              "[0/3, 0m07s elapsed, about 0m00s left] graded x: no points: y in 1 s");
        CHECK(progress_line(3, 3, 61, "graded z") == "[3/3, 1m01s elapsed, about 0m00s left] graded z");
        CHECK(progress_line(1, 0, 61, "graded alone") == "graded alone");
        // More done than the class holds (a folder shared with another class, before the refusal): never "6/3" or
        // a time left below zero.
        CHECK(progress_line(6, 3, 61, "graded w") == "[3/3, 1m01s elapsed, about 0m00s left] graded w");
        CHECK(progress_line(1, 3, -5, "graded v") == "[1/3, 0m00s elapsed, about 0m00s left] graded v");
    }

    TEST_CASE("a batch folder holds one class: another submissions folder, or another class's reports, is refused") {
        const std::filesystem::path out = "/b/out", mine = "/c/class";
        CHECK(other_class_reason("", mine, {}, {"ana", "ben"}, out).empty());  // a new folder, or one with a kit only
        CHECK(other_class_reason("/c/class", mine, {"ana", "old"}, {"ana", "ben"}, out).empty());  // the same class again
        const std::string other = other_class_reason("/c/other", mine, {}, {"ana"}, out);
        CHECK(other.find("/b/out holds the class graded from /c/other, not /c/class") == 0);
        CHECK(other.find("grade into another folder") != std::string::npos);
        // No class.json (a batch of an older kit): a report of someone else is another class.
        CHECK(other_class_reason("", mine, {"ana", "zed"}, {"ana", "ben"}, out).find("reports/zed is no submission") !=
              std::string::npos);
        CHECK(other_class_reason("", mine, {"ana"}, {"ana", "ben"}, out).empty());
    }

    TEST_CASE("Slurm chunks: each task's share of entries.txt, the last one short") {
        const std::vector<std::string> entries = {"a", "b", "c", "d", "e"};
        CHECK(task_count(5, 2) == 3);
        CHECK(task_count(4, 2) == 2);
        CHECK(task_count(1, 8) == 1);
        CHECK(task_entries(entries, 0, 2) == std::vector<std::string>{"a", "b"});
        CHECK(task_entries(entries, 2, 2) == std::vector<std::string>{"e"});
        CHECK(task_entries(entries, 3, 2).empty());
        CHECK(task_entries(entries, 2, 1) == std::vector<std::string>{"c"});
        CHECK(default_task_minutes(8, 1800) == 250);
    }

    TEST_CASE("options: batch.sh's, with their defaults; anything else is a usage error") {
        const auto options = parse_options({"class", "out", "-j", "3", "--slurm", "--chunk", "2", "--no-wait",
                                            "--sbatch", "-p gpu -A x", "--", "-DTILELAB_TILE_WIDTHS=16"},
                                           16, "default");
        REQUIRE(options);
        CHECK(options->out == "out");
        CHECK(options->jobs == 3);
        CHECK(options->limit == 1800);
        CHECK(options->slurm);
        CHECK(options->chunk == 2);
        CHECK_FALSE(options->wait);
        CHECK(options->gres == "auto");
        CHECK(split_words(options->sbatch_extra) == std::vector<std::string>{"-p", "gpu", "-A", "x"});
        CHECK(options->kit_settings == std::vector<std::string>{"-DTILELAB_TILE_WIDTHS=16"});
        const auto defaults = parse_options({"class", "-t", "900"}, 16, "default");
        REQUIRE(defaults);
        CHECK(defaults->out == "default");
        CHECK(defaults->jobs == 8);
        CHECK(defaults->limit == 900);
        CHECK(parse_options({"--merge", "out"}, 1, "d")->merge_only);
        CHECK_FALSE(parse_options({}, 1, "d"));
        CHECK_FALSE(parse_options({"--merge"}, 1, "d"));
        CHECK_FALSE(parse_options({"class", "--frobnicate"}, 1, "d"));
        CHECK_FALSE(parse_options({"class", "-j"}, 1, "d"));
        CHECK_FALSE(parse_options({"class", "-j", "two"}, 1, "d"));
    }

    TEST_CASE("GPU lanes: CUDA_VISIBLE_DEVICES where set, else every GPU listed; slots take them in turn") {
        CHECK(gpu_lanes(nullptr, 0).empty());
        CHECK(gpu_lanes("", 2) == std::vector<std::string>{"0", "1"});
        CHECK(gpu_lanes(nullptr, 3) == std::vector<std::string>{"0", "1", "2"});
        // An instructor keeping the batch to two of eight GPUs: nvidia-smi still lists all eight.
        CHECK(gpu_lanes("2,3", 8) == std::vector<std::string>{"2", "3"});
        CHECK(gpu_lanes("GPU-8e0c, MIG-1f2a", 0) == std::vector<std::string>{"GPU-8e0c", "MIG-1f2a"});
        const std::vector<std::string> lanes = gpu_lanes("2,3", 8);
        const char* const saved = std::getenv("CUDA_VISIBLE_DEVICES");
        const std::string restore = saved != nullptr ? saved : "";
        for (int slot = 0; slot < 5; ++slot) {
            pin_to_gpu("/batch", slot, lanes);
            const std::string gpu = slot % 2 == 0 ? "2" : "3";
            CHECK(std::string(std::getenv("CUDA_VISIBLE_DEVICES")) == gpu);
            CHECK(std::string(std::getenv("TILELAB_GPU_LOCK")) == "/batch/locks/gpu" + gpu);
            CHECK(std::string(std::getenv("TILELAB_GPU_HOLDS_LOG")) == "/batch/gpu" + gpu + "-holds.csv");
        }
        if (saved != nullptr) ::setenv("CUDA_VISIBLE_DEVICES", restore.c_str(), 1);
        else ::unsetenv("CUDA_VISIBLE_DEVICES");
        ::unsetenv("TILELAB_GPU_LOCK");
        ::unsetenv("TILELAB_GPU_HOLDS_LOG");
    }

    TEST_CASE("the not-graded record: valid JSON whatever the note quotes, seconds or null") {
        const auto record = nlohmann::json::parse(not_graded_json(12, "stopped: \"x\\y\"\n\xff\x01 end"));
        CHECK(record["not_graded"] == 1);
        CHECK(record["seconds"] == 12);
        CHECK(record["note"] == "stopped: \"x\\y\" end");
        CHECK(nlohmann::json::parse(not_graded_json(std::nullopt, "n"))["seconds"].is_null());
        CHECK(shell_quote("it's") == "'it'\\''s'");
    }
}
