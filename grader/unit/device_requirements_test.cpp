// The oldest GPU each lab is graded on (grader/src/device_requirements.hpp), with faked compute capabilities: an
// older GPU gets the lab's GPU checks skipped with the reason, in the form CTest, the self-test and the report read.
#include "device_requirements.hpp"
#include "lab_registry.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
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

// The registry's lab that asks for a compute capability of its own (grader/labs.json's min_compute_capability).
const tilelab::grader::LabEntry& lab_with_minimum() {
    for (const auto& lab : tilelab::grader::all_labs())
        if (lab.minimum.major > 0) return lab;
    FAIL("no lab of the registry asks for a compute capability of its own: these cases test nothing");
    throw;
}

TEST_SUITE("device_requirements") {
    TEST_CASE("the lab whose entry asks for a compute capability is skipped below it, with the reason, and graded from it on") {
        const auto& lab = lab_with_minimum();
        const ComputeCapability minimum{lab.minimum.major, lab.minimum.minor};
        const std::string version = std::to_string(minimum.major) + "." + std::to_string(minimum.minor);
        CAPTURE(lab.id);
        CHECK(tilelab::grader::minimum_compute_capability(lab.id).number() == minimum.number());
        const ComputeCapability below = minimum.minor > 0 ? ComputeCapability{minimum.major, minimum.minor - 1}
                                                          : ComputeCapability{minimum.major - 1, 5};
        const std::string older = device_skip_reason(lab.id, below, below.number());
        CHECK(older.rfind("SKIPPED: no usable CUDA GPU (", 0) == 0);  // CTest's and the self-test's skip
        const std::string reason = report_reason(older);
        CHECK(reason.find(std::string(lab.id) + " needs compute capability " + version + " or higher") != std::string::npos);
        CHECK(reason.find("is " + std::to_string(below.major) + "." + std::to_string(below.minor)) != std::string::npos);
        CHECK(reason.find(lab.minimum.why) != std::string::npos);
        CHECK(reason.back() == ')');  // the whole reason, not cut at a ';' inside it
        CHECK(older.find("the CPU backend grades the lab") != std::string::npos);
        CHECK(device_skip_reason(lab.id, below, 0) != "");
        CHECK(device_skip_reason(lab.id, minimum, below.number()) == "");
        for (const ComputeCapability newer : {ComputeCapability{minimum.major, minimum.minor + 6},
                                              ComputeCapability{minimum.major + 1, 0}, ComputeCapability{12, 0}}) {
            CAPTURE(newer.number());
            CHECK(device_skip_reason(lab.id, newer, below.number()) == "");
        }
    }

    TEST_CASE("the labs whose entries ask for none run on any GPU the build has code for") {
        for (const auto& lab : tilelab::grader::all_labs()) {
            if (lab.minimum.major > 0) continue;
            CAPTURE(lab.id);
            CHECK(device_skip_reason(lab.id, ComputeCapability{7, 5}, 75) == "");
            CHECK(device_skip_reason(lab.id, ComputeCapability{6, 1}, 0) == "");  // built for it (CUDA 12, sm_61)
            CHECK(tilelab::grader::minimum_compute_capability(lab.id).number() == 0);
        }
        CHECK(tilelab::grader::minimum_compute_capability("no-such-lab").number() == 0);
    }

    TEST_CASE("a GPU older than every architecture built for is skipped for every lab, naming the oldest") {
        for (const auto& lab : tilelab::grader::all_labs()) {
            CAPTURE(lab.id);
            const std::string pascal = device_skip_reason(lab.id, ComputeCapability{6, 1}, 75);
            const std::string reason = report_reason(pascal);
            CHECK(reason.find("compute capability 6.1") != std::string::npos);
            CHECK(reason.find("sm_75") != std::string::npos);
            CHECK(reason.back() == ')');
        }
    }

#ifdef TILELAB_GPU_CHECKER
    TEST_CASE("the GPU checker itself, on a GPU older than a lab needs: skipped with the reason, its program not started") {
        // grade.cmake's record of the GPU (TILELAB_GPU_FOUND), faked as a Turing card (7.5), and a lab program that
        // fails if started. The reason after the GPU's line: the lab's own minimum where the kit has code for 7.5;
        // a build for newer GPUs only (CUDAARCHS=90) skips a 7.5 GPU for every lab first, with that reason.
        const auto& lab = lab_with_minimum();
        if (lab.minimum.major * 10 + lab.minimum.minor <= 75) return;
        const std::string command = "TILELAB_GPU_FOUND='+7.5|GPU: Tesla T4 (compute capability 7.5)' '" +
                                    std::string(TILELAB_GPU_CHECKER) + "' --lab " + lab.id +
                                    " --tile-width 16 --runner /bin/false 2>&1";
        FILE* checker = ::popen(command.c_str(), "r");
        REQUIRE(checker != nullptr);
        std::string output;
        char buffer[4096];
        while (std::fgets(buffer, sizeof buffer, checker) != nullptr) output += buffer;
        const int status = ::pclose(checker);
        CAPTURE(output);
        CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 77));
        const std::string minimum = std::to_string(lab.minimum.major) + "[.]" + std::to_string(lab.minimum.minor);
        CHECK(std::regex_search(output, std::regex("GPU: Tesla T4 [(]compute capability 7.5[)]\nSKIPPED: no usable "
                                                   "CUDA GPU [(](" + std::string(lab.id) + " needs compute capability " +
                                                   minimum + " or higher|this GPU, of compute capability 7.5, is older "
                                                   "than the oldest architecture the kit was built for)")));
    }
#endif

    TEST_CASE("the oldest architecture built for, from CMAKE_CUDA_ARCHITECTURES; not known where one is a name") {
        using tilelab::grader::oldest_architecture;
        CHECK(oldest_architecture("75-real;80-real;86-real;89-real;90-real;100-real;120") == 75);
        CHECK(oldest_architecture("90,80-virtual") == 80);
        CHECK(oldest_architecture("120") == 120);
        CHECK(oldest_architecture("") == 0);
        CHECK(oldest_architecture("native") == 0);
        CHECK(oldest_architecture("80-real;all") == 0);
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
