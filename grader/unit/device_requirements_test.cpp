// The oldest GPU each lab is graded on (grader/src/device_requirements.hpp), with faked compute capabilities: an
// older GPU gets the lab's GPU checks skipped with the reason, in the form CTest, the self-test and the report read.
#include "device_requirements.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <string>

using tilelab::grader::ComputeCapability;
using tilelab::grader::device_skip_reason;
using tilelab::grader::FoundGpu;

namespace {

// The reason the report shows (grader/report.cmake: what follows "SKIPPED: ", up to the first ';').
std::string report_reason(const std::string& line) {
    std::smatch m;
    REQUIRE(std::regex_search(line, m, std::regex("^SKIPPED: ([^;]*)")));
    return m[1].str();
}

}  // namespace

TEST_SUITE("device_requirements") {
    TEST_CASE("lab 08 is skipped below compute capability 8.0, with the reason, and graded from 8.0 on") {
        const std::string turing = device_skip_reason("lab08", ComputeCapability{7, 5}, 75);
        CHECK(turing.rfind("SKIPPED: no usable CUDA GPU (", 0) == 0);  // CTest's and the self-test's skip
        const std::string reason = report_reason(turing);
        CHECK(reason.find("lab08 needs compute capability 8.0 or higher") != std::string::npos);
        CHECK(reason.find("is 7.5") != std::string::npos);
        CHECK(reason.find("cp.async") != std::string::npos);
        CHECK(reason.back() == ')');  // the whole reason, not cut at a ';' inside it
        CHECK(turing.find("the CPU backend grades the lab") != std::string::npos);
        CHECK(device_skip_reason("lab08", ComputeCapability{7, 0}, 0) != "");
        CHECK(device_skip_reason("lab08", ComputeCapability{8, 0}, 75) == "");
        CHECK(device_skip_reason("lab08", ComputeCapability{8, 6}, 75) == "");
        CHECK(device_skip_reason("lab08", ComputeCapability{9, 0}, 75) == "");
        CHECK(device_skip_reason("lab08", ComputeCapability{12, 0}, 75) == "");
    }

    TEST_CASE("labs 01 to 07 run on any GPU the build has code for") {
        for (const char* lab : {"lab01", "lab02", "lab03", "lab04", "lab05", "lab06", "lab07"}) {
            CAPTURE(lab);
            CHECK(device_skip_reason(lab, ComputeCapability{7, 5}, 75) == "");
            CHECK(device_skip_reason(lab, ComputeCapability{6, 1}, 0) == "");  // built for it (CUDA 12, sm_61)
            CHECK(tilelab::grader::minimum_compute_capability(lab).number() == 0);
        }
        CHECK(tilelab::grader::minimum_compute_capability("lab08").number() == 80);
    }

    TEST_CASE("a GPU older than every architecture built for is skipped for every lab, naming the oldest") {
        for (const char* lab : {"lab01", "lab04", "lab08"}) {
            CAPTURE(lab);
            const std::string pascal = device_skip_reason(lab, ComputeCapability{6, 1}, 75);
            const std::string reason = report_reason(pascal);
            CHECK(reason.find("compute capability 6.1") != std::string::npos);
            CHECK(reason.find("sm_75") != std::string::npos);
            CHECK(reason.back() == ')');
        }
    }

    TEST_CASE("TILELAB_GPU_FOUND's record carries the compute capability, and nothing else reads as one") {
        const FoundGpu t4{true, {7, 5}, "GPU: Tesla T4 (compute capability 7.5)"};
        CHECK(tilelab::grader::found_gpu_record(t4) == "+7.5|GPU: Tesla T4 (compute capability 7.5)");
        FoundGpu read;
        REQUIRE(tilelab::grader::read_found_gpu(tilelab::grader::found_gpu_record(t4), read));
        CHECK(read.usable);
        CHECK(read.capability.number() == 75);
        CHECK(read.said == t4.said);

        REQUIRE(tilelab::grader::read_found_gpu("-SKIPPED: no usable CUDA GPU (no device found)", read));
        CHECK_FALSE(read.usable);
        CHECK(read.said == "SKIPPED: no usable CUDA GPU (no device found)");

        FoundGpu untouched{true, {9, 0}, "kept"};
        for (const char* bad : {"", "+GPU: Tesla T4", "+7.5GPU: x", "+7|GPU: x", "7.5|GPU: x", "+7.5 |x"}) {
            CAPTURE(bad);
            CHECK_FALSE(tilelab::grader::read_found_gpu(bad, untouched));
            CHECK(untouched.said == "kept");
        }
    }
}
