// What the platforms show of a failed check beyond its reason (grader/report/check_details.hpp), on logs laid out as
// the checker and the build write them: a compile error, a fault quoted from the lab's program, wrong elements, a
// request past its limit.
#include "check_details.hpp"
#include "grade.hpp"
#include "registry.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

using namespace tilelab::report;

const std::string build = "/tmp/g/build";

const std::string compile_log =
    "[1/3] source check of graded's 02_tiled\n"
    "[2/3] Building CXX object CMakeFiles/lab.dir/kernel.cu.cpp.o\n"
    "FAILED: CMakeFiles/lab.dir/kernel.cu.cpp.o \n"
    "/k/grader/tilelab-sandbox-compile /usr/bin/c++ -DTILE_WIDTH=16 -o CMakeFiles/lab.dir/k.o -c /tmp/g/build/x.cpp\n"
    "/tmp/g/build/submission/02_tiled/kernel.cu: In function 'void matmul_tiled_kernel(...)':\n"
    "/tmp/g/build/submission/02_tiled/kernel.cu:18:5: error: expected ',' or ';' before 'for'\n"
    "   18 |     for (int phase = 0; phase < inner / TILE_WIDTH; ++phase) {\n"
    "      |     ^~~\n"
    "/tmp/g/build/submission/02_tiled/kernel.cu:18:25: error: 'phase' was not declared in this scope\n"
    "/tmp/g/build/submission/02_tiled/kernel.cu:19:9: error: 'M_tile' was not declared in this scope\n"
    "/tmp/g/build/submission/02_tiled/kernel.cu:20:9: error: 'N_tile' was not declared in this scope\n"
    "ninja: build stopped: subcommand failed.\n"
    "hint: the lab does not compile or link: fix the first error above (file and line are at its start)\n"
    "see docs/grading.md#check_build (grading.html#check_build on the docs site)\n";

const std::string fault_log =
    "Grading lab02 (matmul_tiled) at TILE_WIDTH 16 with seed 1\n"
    "===============================================================================\n"
    "/k/grader/src/correctness_test.cpp:61:\n"
    "TEST SUITE: tiny\n"
    "TEST CASE:  computes the smallest product\n"
    "\n"
    "/k/grader/src/correctness_test.cpp:47: FATAL ERROR: lab02, TILE_WIDTH 16, shape 16x16x16: the lab's program "
    "exited with status 139 while multiplying 16x16x16\n"
    "  what the lab's program printed:\n"
    "  | error: illegal memory access in the kernel matmul_tiled_kernel, block (0, 0, 0), thread (0, 0, 0): a read "
    "at 0x7f00, which is in no device buffer\n"
    "  |   hint: check the index arithmetic (row * width + col) and the bounds tests\n"
    "  hint: the lab's program crashed with a memory fault while multiplying 16x16x16: a pointer used outside its "
    "memory\n"
    "\n"
    "===============================================================================\n"
    "[doctest] test cases: 1 | 0 passed | 1 failed | 12 skipped\n";

}  // namespace

TEST_SUITE("check_details") {
    TEST_CASE("a compile error: the compiler's first three errors, named from the submission, no build commands") {
        const std::string details = check_details(compile_log, "build", build);
        CHECK(details.find("02_tiled/kernel.cu: In function") == 0);
        CHECK(details.find("02_tiled/kernel.cu:18:5: error: expected ',' or ';' before 'for'\n   18 |") != std::string::npos);
        CHECK(details.find("'M_tile' was not declared") != std::string::npos);
        CHECK(details.find("'N_tile'") == std::string::npos);  // the fourth error is left out
        for (const char* tool : {"/tmp/g/build", "[2/3]", "FAILED:", "sandbox-compile", "ninja:", "hint:", "see docs"})
            CHECK_MESSAGE(details.find(tool) == std::string::npos, tool);
    }

    TEST_CASE("a fault: the checker's failure block with what the lab's program printed, quoted, and the hint") {
        const std::string details = check_details(fault_log, "tiny", build);
        CHECK(details.find("lab02, TILE_WIDTH 16, shape 16x16x16: the lab's program exited with status 139") == 0);
        CHECK(details.find("  | error: illegal memory access in the kernel matmul_tiled_kernel") != std::string::npos);
        CHECK(details.find("  hint: the lab's program crashed with a memory fault") != std::string::npos);
        CHECK(details.find("correctness_test.cpp") == std::string::npos);  // not the checker's source position
        CHECK(details.find("[doctest]") == std::string::npos);
        // The reason shows the hint already: the details keep the rest.
        const std::string beyond = details_beyond(details, "graded.lab02.tw16.cpu.tiny: hint: the lab's program "
                                                           "crashed with a memory fault while multiplying 16x16x16: a "
                                                           "pointer used outside its memory");
        CHECK(beyond.find("illegal memory access") != std::string::npos);
        CHECK(beyond.find("  hint: the lab's program crashed") == std::string::npos);
        CHECK(beyond.find("|   hint: check the index arithmetic") != std::string::npos);  // the program's, kept
    }

    TEST_CASE("wrong elements and messages, a request past its limit; a flood of the program's lines is cut") {
        const std::string wrong =
            "/k/c.cpp:50: ERROR: lab02 (matmul_tiled), TILE_WIDTH 16, shape 16x16x16 (rows x inner x cols):\n"
            "  16 of 256 elements wrong, 0 never written; the first:\n"
            "    P(3, 0) = 0.625546, expected -0.374454\n"
            "\n"
            "/k/c.cpp:55: MESSAGE: 0 of 27 shapes correct\n";
        CHECK(check_details(wrong, "edges", build) ==
              "lab02 (matmul_tiled), TILE_WIDTH 16, shape 16x16x16 (rows x inner x cols):\n"
              "  16 of 256 elements wrong, 0 never written; the first:\n"
              "    P(3, 0) = 0.625546, expected -0.374454\n"
              "0 of 27 shapes correct");
        const std::string hung = "/k/c.cpp:47: FATAL ERROR: lab02: the lab's program did not answer within 1.25 s, the "
                                 "limit of one request (--request-limit)\n  hint: the check did not finish in time while "
                                 "multiplying 16x16x16 with matmul_tiled(...)\n";
        CHECK(check_details(hung, "edges", build).find("did not answer within 1.25 s") != std::string::npos);
        std::string flood = "/k/c.cpp:47: FATAL ERROR: lab02: the lab's program exited\n  what the lab's program printed:\n";
        for (int i = 0; i < 500; ++i) flood += "  | \x1b[31mline " + std::to_string(i) + "\n";
        const std::string details = check_details(flood, "tiny", build);
        CHECK(details.size() <= details_limit);
        CHECK(details.find("line 11\n  | ...") != std::string::npos);  // 12 of the program's lines, then "..."
        CHECK(details.find('\x1b') == std::string::npos);                // no terminal escapes
    }

    TEST_CASE("a log without a failure block gives no details; a passed check is left alone") {
        CHECK(check_details("[doctest] Status: SUCCESS!\n", "edges", build).empty());
        std::vector<TestResult> tests(1);
        tests[0].name = "graded.lab02.tw16.cpu.edges";
        tests[0].state = "passed";
        attach_details(tests, "/no/such/verdicts", build);
        CHECK(tests[0].details.empty());
    }

    TEST_CASE("details are shown, never counted: the same points with and without them") {
        const std::string records = TILELAB_UNIT_FIXTURES "/records";
        const Registry registry = load_registry(records + "/labs.json");
        const auto tests = read_test_list(load_json(records + "/tests.json"));
        std::vector<TestResult> plain = read_results(records + "/verdicts", tests, registry), shown = plain;
        attach_details(shown, records + "/verdicts", records);
        const Grade without = score(registry, plain), with = score(registry, shown);
        CHECK(with.earned == without.earned);
        CHECK(with.possible == without.possible);
        REQUIRE(with.checks.size() == without.checks.size());
        for (std::size_t i = 0; i < with.checks.size(); ++i) CHECK(with.checks[i].state == without.checks[i].state);
    }
}
