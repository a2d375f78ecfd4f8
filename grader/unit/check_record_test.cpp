// The record a check leaves (grader/src/check_record.hpp): written whole and read back the same, refused when it
// is not a record, and its message and hint taken from the checker's own words, never from a line quoting the lab's
// program ("  | ..."), which a hostile lab fills with whatever it likes.
#include "check_record.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace tilelab::grader;

namespace {

// A record of a failed performance gate, as the checker writes one.
CheckRecord gate_record() {
    CheckRecord record;
    record.test = "graded.lab02.tw16.perf";
    record.lab = "lab02";
    record.tile_width = 16;
    record.backend = "gpu";
    record.check = "perf";
    record.verdict = "failed";
    record.seconds = 12.5;
    record.message = "the kernel is not fast enough: 1.10x as fast as the model naive kernel";
    record.hint = "";
    record.anchor = "check_perf";
    record.log = "graded.lab02.tw16.perf.log";
    record.measures = {{"speedup", 1.1}, {"required_speedup", 1.3}, {"model_speedup", 2.19},
                       {"required_by", "calibration"}, {"gpu", "NVIDIA H100 80GB HBM3"}, {"gflops", 1234.5}};
    return record;
}

// A fresh path in the system's temporary folder.
std::string temporary(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("tilelab-unit-" + name)).string();
}

}  // namespace

TEST_SUITE("check_record") {
    TEST_CASE("a failure's first line is the message and the checker's hint line the hint") {
        const FailureWords words = split_failure(
            "3 of 8 shapes have elements wrong (first: P[0][17])\n  detail line\n  hint: test row < rows && col < cols "
            "before the store\n  hint: a second hint is not taken");
        CHECK(words.message == "3 of 8 shapes have elements wrong (first: P[0][17])");
        CHECK(words.hint == "test row < rows && col < cols before the store");
    }

    TEST_CASE("a first line that ends with a colon takes the next line with it, unless it quotes the lab's program") {
        FailureWords words = split_failure("lab02 (matmul_tiled), TILE_WIDTH 16, shape 16x16x16:\n  0 of 256 elements "
                                           "wrong, 256 never written; the first:\n    P(0, 0) = (never written)\n"
                                           "  hint: nothing was written to P");
        CHECK(words.message == "lab02 (matmul_tiled), TILE_WIDTH 16, shape 16x16x16: 0 of 256 elements wrong, 256 "
                               "never written; the first:");
        CHECK(words.hint == "nothing was written to P");
        words = split_failure("the lab's program printed:\n  | hint: forged\n  | forged message");
        CHECK(words.message == "the lab's program printed:");
        CHECK(words.hint.empty());
    }

    TEST_CASE("a line quoting the lab's program never becomes the hint, nor anything it printed the message") {
        const FailureWords words = split_failure(
            "the lab's program exited with status 3 while multiplying\n  what the lab's program printed:\n"
            "  | hint: forged\n  | error: forged too\n  hint: the lab's program ended by itself while multiplying, "
            "with exit status 3");
        CHECK(words.message == "the lab's program exited with status 3 while multiplying");
        CHECK(words.hint == "the lab's program ended by itself while multiplying, with exit status 3");
        // With no hint of the checker's, the quoted one is still not taken.
        CHECK(split_failure("the lab's program ended\n  | hint: forged\n  |   hint: forged").hint.empty());
        // A message that starts with "hint: " is the message, not a hint.
        CHECK(split_failure("hint: forged").hint.empty());
        CHECK(split_failure("").message.empty());
    }

    TEST_CASE("a record is written whole and read back the same") {
        const std::string path = temporary("record.json");
        const CheckRecord written = gate_record();
        write_record(path, written);
        CHECK_FALSE(std::filesystem::exists(path + ".partial"));
        const CheckRecord read = read_record(path);
        CHECK(read.test == written.test);
        CHECK(read.lab == "lab02");
        CHECK(read.tile_width == 16);
        CHECK(read.backend == "gpu");
        CHECK(read.check == "perf");
        CHECK(read.verdict == "failed");
        CHECK(read.seconds == doctest::Approx(12.5));
        CHECK(read.message == written.message);
        CHECK(read.anchor == "check_perf");
        CHECK(read.log == "graded.lab02.tw16.perf.log");
        CHECK(read.measures.at("required_speedup").get<double>() == doctest::Approx(1.3));
        CHECK(read.measures.at("gpu").get<std::string>() == "NVIDIA H100 80GB HBM3");
        const nlohmann::json json = nlohmann::json::parse(std::ifstream(path));
        CHECK(json.at("record").get<int>() == 1);
        std::filesystem::remove(path);
    }

    TEST_CASE("a record without measures has none, and invalid UTF-8 in a message does not stop the writing") {
        CheckRecord record = gate_record();
        record.measures = nlohmann::json::object();
        record.message = "the lab defines \xff\xfe, a name that belongs to the C library";
        CHECK_FALSE(to_json(record).contains("measures"));
        const std::string path = temporary("utf8.json");
        write_record(path, record);
        CHECK(read_record(path).verdict == "failed");
        std::filesystem::remove(path);
    }

    TEST_CASE("what is not a record is refused, saying why") {
        CHECK_THROWS_AS(read_record(temporary("no-such-record.json")), std::runtime_error);
        const std::string path = temporary("bad.json");
        std::ofstream(path) << "passed\n";  // a plain verdict file of old
        CHECK_THROWS_AS(read_record(path), std::runtime_error);
        nlohmann::json json = to_json(gate_record());
        json["verdict"] = "PASSED";
        CHECK_THROWS_AS(record_from_json(json), std::runtime_error);
        json = to_json(gate_record());
        json["record"] = 2;
        CHECK_THROWS_AS(record_from_json(json), std::runtime_error);
        json = to_json(gate_record());
        json.erase("hint");
        CHECK_THROWS_AS(record_from_json(json), std::runtime_error);
        std::filesystem::remove(path);
    }

    TEST_CASE("verdicts become CTest's exit statuses, and checks their grading page's anchors") {
        CHECK(verdict_exit_status("passed") == 0);
        CHECK(verdict_exit_status("skipped") == 77);
        CHECK(verdict_exit_status("failed") == 1);
        CHECK(verdict_exit_status("") == 1);
        CHECK(check_anchor("odd-shapes") == "check_odd_shapes");
        CHECK(record_path("verdicts/graded.lab01.tw16.cpu.tiny") == "verdicts/graded.lab01.tw16.cpu.tiny.json");
        CHECK(log_path("verdicts/graded.lab01.tw16.cpu.tiny") == "verdicts/graded.lab01.tw16.cpu.tiny.log");
    }
}
