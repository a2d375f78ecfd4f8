// The gate's calibration cache (grader/gate/gate_calibration.hpp) and its records (flat JSON objects): a record is
// read back as written, replaced whole, and ignored (so measured again) when it is corrupt, another GPU's or another
// kit build's, or in a file or folder another user could have written.
#include "gate_calibration.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace tilelab::grader;
namespace fs = std::filesystem;

namespace {

CalibrationKey h100_key() {
    return {"NVIDIA H100 80GB HBM3", "9.0", "lab02", "lab01", 16, 4096, 15, 40, "0123456789abcdef"};
}

Calibration h100_calibration() {
    Calibration c;
    c.key = h100_key();
    c.model_speedup = 2.19;
    c.speedup_min = 2.18;
    c.speedup_max = 2.20;
    c.reference_median_ms = 40.1;
    c.model_median_ms = 18.3;
    c.trials = 3;
    c.fraction = 0.25;
    c.required = 1.2975;
    c.reference_program = "tilelab-gate-model-01_naive";
    c.model_program = "tilelab-gate-model-02_tiled";
    c.date = "2026-11-24T10:00:00Z";
    c.kit_version = "0.1.0";
    return c;
}

std::string read_all(const fs::path& file) {
    std::ifstream in(file);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_SUITE("gate_calibration") {
    TEST_CASE("a flat JSON record reads back as written, and anything else is refused") {
        const nlohmann::json record = {
            {"gpu", "NVIDIA \"H100\"\n\\ x\x01"}, {"speedup", 2.1912345678901234}, {"ok", true}, {"n", 4096}};
        const auto back = parse_flat_record(record.dump());
        REQUIRE(back);
        CHECK((*back)["gpu"] == "NVIDIA \"H100\"\n\\ x\x01");
        CHECK((*back)["speedup"].get<double>() == 2.1912345678901234);
        CHECK((*back)["ok"] == true);
        CHECK((*back)["n"].get<double>() == 4096);
        CHECK_FALSE((*back)["gpu"].is_number());  // the wrong type is not read as another
        CHECK_FALSE(back->contains("missing"));
        // What an earlier kit wrote (spaces after ':' and ',', 17 digits) reads back the same.
        const auto spaced = parse_flat_record("{\"n\": 4096, \"speedup\": 2.1912345678901234}");
        REQUIRE(spaced);
        CHECK((*spaced)["speedup"].get<double>() == 2.1912345678901234);
        for (const char* bad : {"", "{", "{\"a\": 1", "{\"a\": 1} x", "{\"a\": {\"b\": 1}}", "{\"a\": [1]}",
                                "{\"a\": 1, \"a\": 2}", "{\"a\": NaN}", "{\"a\": inf}", "{\"a\": 0x10}", "{a: 1}",
                                "{\"a\": \"\\q\"}", "{\"a\": tru}", "[1, 2]", "{\"a\": null}", "{\"a\": 1e400}",
                                "4"})
            CHECK_MESSAGE(!parse_flat_record(bad), bad);
        CHECK(parse_flat_record(" { } \n"));
    }

    TEST_CASE("written, read back, and replaced whole") {
        tilelab::unit::TempFolder scratch;
        const fs::path dir = scratch.path / "gate-calibration";
        write_calibration(dir, h100_calibration());
        struct stat info {};
        REQUIRE(stat(dir.c_str(), &info) == 0);
        CHECK((info.st_mode & 0777) == 0700);  // the sandbox's user can neither read nor write it
        std::string why_not;
        const auto read = read_calibration(dir, h100_key(), why_not);
        REQUIRE_MESSAGE(read, why_not);
        CHECK(read->model_speedup == 2.19);
        CHECK(read->speedup_min == 2.18);
        CHECK(read->speedup_max == 2.20);
        CHECK(read->reference_median_ms == 40.1);
        CHECK(read->trials == 3);
        CHECK(read->date == "2026-11-24T10:00:00Z");
        CHECK(read->model_program == "tilelab-gate-model-02_tiled");
        CHECK(calibration_file(dir, h100_key()).filename() == "NVIDIA_H100_80GB_HBM3-cc90-lab02-vs-lab01-tw16.json");

        Calibration again = h100_calibration();
        again.model_speedup = 2.17;
        again.speedup_min = 2.16;
        write_calibration(dir, again);
        const auto replaced = read_calibration(dir, h100_key(), why_not);
        REQUIRE(replaced);
        CHECK(replaced->model_speedup == 2.17);
        int files = 0;
        for (const auto& entry : fs::directory_iterator(dir)) {
            ++files;
            CHECK(entry.path().filename().string()[0] != '.');  // no temporary file left behind
        }
        CHECK(files == 1);
    }

    TEST_CASE("a corrupt record is ignored") {
        tilelab::unit::TempFolder scratch;
        const fs::path dir = scratch.path / "c";
        write_calibration(dir, h100_calibration());
        const fs::path file = calibration_file(dir, h100_key());
        const std::string whole = read_all(file);
        for (const std::string& text : {whole.substr(0, whole.size() / 2), std::string("garbage"), std::string(""),
                                        std::string("{\"gpu\": \"NVIDIA H100 80GB HBM3\"}")}) {
            std::ofstream(file, std::ios::trunc) << text;
            std::string why_not;
            CHECK_FALSE(read_calibration(dir, h100_key(), why_not));
            CHECK(!why_not.empty());
        }
        // Out of range: a speedup below its own minimum.
        Calibration odd = h100_calibration();
        odd.speedup_min = 3.0;
        std::ofstream(file, std::ios::trunc) << calibration_json(odd).dump();
        std::string why_not;
        CHECK_FALSE(read_calibration(dir, h100_key(), why_not));
        CHECK(why_not.find("out of range") != std::string::npos);
    }

    TEST_CASE("another GPU's, another kit build's, another lab's record is ignored") {
        tilelab::unit::TempFolder scratch;
        const fs::path dir = scratch.path / "c";
        std::string why_not;
        CHECK_FALSE(read_calibration(dir, h100_key(), why_not));  // none yet
        CHECK(why_not.find("no calibration") != std::string::npos);
        write_calibration(dir, h100_calibration());

        CalibrationKey h200 = h100_key();
        h200.gpu = "NVIDIA H200";
        CHECK_FALSE(read_calibration(dir, h200, why_not));
        // Another GPU's record under this GPU's file name (copied from another machine): its own fields decide.
        fs::copy_file(calibration_file(dir, h100_key()), calibration_file(dir, h200));
        CHECK_FALSE(read_calibration(dir, h200, why_not));
        CHECK(why_not.find("another GPU") != std::string::npos);

        CalibrationKey other_cc = h100_key();
        other_cc.compute_capability = "8.0";
        CHECK_FALSE(calibration_from_json(calibration_json(h100_calibration()), other_cc, why_not));
        CHECK(why_not.find("another GPU") != std::string::npos);

        CalibrationKey rebuilt = h100_key();
        rebuilt.kit_fingerprint = "fedcba9876543210";
        CHECK_FALSE(read_calibration(dir, rebuilt, why_not));
        CHECK(why_not.find("another build of the kit") != std::string::npos);

        for (auto change : {+[](CalibrationKey& k) { k.size = 2048; }, +[](CalibrationKey& k) { k.repeats = 5; },
                            +[](CalibrationKey& k) { k.request_ms = 20; }, +[](CalibrationKey& k) { k.lab = "lab03"; },
                            +[](CalibrationKey& k) { k.reference = "lab03"; }}) {
            CalibrationKey other = h100_key();
            change(other);
            CHECK_FALSE(calibration_from_json(calibration_json(h100_calibration()), other, why_not));
        }
    }

    TEST_CASE("a record others could have written is not trusted, and none is written where others can write") {
        tilelab::unit::TempFolder scratch;
        const fs::path dir = scratch.path / "c";
        write_calibration(dir, h100_calibration());
        const fs::path file = calibration_file(dir, h100_key());
        std::string why_not;
        REQUIRE(chmod(file.c_str(), 0666) == 0);
        CHECK_FALSE(read_calibration(dir, h100_key(), why_not));
        CHECK(why_not.find("writable by other users") != std::string::npos);
        REQUIRE(chmod(file.c_str(), 0600) == 0);
        REQUIRE(chmod(dir.c_str(), 0777) == 0);
        CHECK_FALSE(read_calibration(dir, h100_key(), why_not));
        CHECK_THROWS_AS(write_calibration(dir, h100_calibration()), std::runtime_error);
        REQUIRE(chmod(dir.c_str(), 0700) == 0);
        // A link in the record's place (to a file of the attacker's choosing) is not followed.
        const fs::path elsewhere = scratch.path / "elsewhere.json";
        fs::rename(file, elsewhere);
        fs::create_symlink(elsewhere, file);
        CHECK_FALSE(read_calibration(dir, h100_key(), why_not));
        CHECK(why_not.find("symbolic link") != std::string::npos);
    }

    TEST_CASE("the kit's fingerprint changes with any byte of its programs") {
        tilelab::unit::TempFolder scratch;
        const fs::path a = scratch.path / "a", b = scratch.path / "b";
        std::ofstream(a) << "checker";
        std::ofstream(b) << "model";
        const std::string before = files_fingerprint({a.string(), b.string()});
        CHECK(before.size() == 16);
        CHECK(files_fingerprint({a.string(), b.string()}) == before);
        CHECK(files_fingerprint({b.string(), a.string()}) != before);
        std::ofstream(b) << "modem";
        CHECK(files_fingerprint({a.string(), b.string()}) != before);
        CHECK_THROWS_AS(files_fingerprint({(scratch.path / "missing").string()}), std::runtime_error);
    }

    TEST_CASE("the folder: TILELAB_CALIBRATION_DIR, else gate-calibration next to the checker") {
        setenv("TILELAB_CALIBRATION_DIR", "/tmp/somewhere", 1);
        CHECK(calibration_dir() == fs::path("/tmp/somewhere"));
        unsetenv("TILELAB_CALIBRATION_DIR");
        CHECK(calibration_dir() == fs::read_symlink("/proc/self/exe").parent_path() / "gate-calibration");
    }
}
