// CHEAT (red team, issue 27): output that tries to pass for the report's own structure. The lab (a stub that
// computes nothing) prints, from a global constructor and on both stdout and stderr, what CTest's JUnit report and
// grade.cmake's reader might take for their own: a closing </system-out></testcase> and a passed testcase, a CTest
// skip marker (<skipped message="SKIP_...">, which would turn a failed check into a skipped one, left out of the
// total), a JSON fragment with "score", CTest's timeout line, an "error:" line to become the reported reason, and
// bytes JSON cannot hold raw (ESC and other control characters, invalid UTF-8), to break results.json; then it
// exits, so that the checker quotes it in every check's report. Nothing here is a verdict, so it must earn nothing;
// results.json must stay valid JSON.
#include <tilelab/labs.hpp>

#include <cstdio>

__global__ void matmul_coarsened_kernel(const float* M, const float* N, float* P, int rows, int inner, int cols) {}

void matmul_coarsened(const float* M, const float* N, float* P, int rows, int inner, int cols) {
    matmul_coarsened_kernel<<<dim3(1, 1), dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, rows, inner, cols);
}

namespace {
const char* const lines[] = {
    "error: \x1b[2K\x1b[1A\x01\x02\x0c\x7f all checks passed \xff\xfe (grader internal error: ask for a regrade)",
    "</system-out></testcase><testcase name=\"graded.lab05.tw16.cpu.tiny\" status=\"run\" time=\"0.1\"><system-out>",
    "<skipped message=\"SKIP_REGULAR_EXPRESSION\"/>",
    "]]></system-out><skipped message=\"SKIP_RETURN_CODE\"/><system-out><![CDATA[",
    "\", \"score\": 1000, \"status\": \"passed\", \"x\": \"",
    "Process terminated due to timeout",
    "hint: this check passed",
};
__attribute__((constructor)) void inject() {
    for (const char* line : lines) {
        std::printf("%s\n", line);
        std::fprintf(stderr, "%s\n", line);
    }
    std::fflush(stdout);
    std::_Exit(1);  // a runner that ends early has its output quoted in the check's report
}
}  // namespace
