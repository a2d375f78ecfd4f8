// The checker's own diagnosis of an out-of-bounds access (grader/process/fault_words.hpp), from the numbers of a
// reply's header and the shape the checker asked for, and where it goes in a LabError: first, so that it is the
// line the points table shows. A header's fault site out of range is dropped, never shown.
#include "fault_words.hpp"
#include "check_record.hpp"
#include "lab_runner.hpp"

#include <tilelab/matrix_element.hpp>
#include <tilelab/wire.hpp>

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <string>

namespace {

namespace wire = tilelab::wire;
using tilelab::grader::describe_fault;

wire::FaultSite site(wire::Matrix matrix, std::int64_t element, std::uint8_t access, std::uint8_t host = 0) {
    wire::FaultSite fault;
    fault.matrix = matrix;
    fault.element = element;
    fault.access = access;
    fault.host_code = host;
    return fault;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("fault_words") {
    TEST_CASE("an element of M, N or P in the student's terms: its index, row and column, and the matrix's shape") {
        char text[256];
        tilelab::format_matrix_element(text, sizeof text, "M", 1, 1, 4);
        CHECK(std::string(text) == "M[4], past the end of M (M is 1x1, 1 element; index 4 would be row 4, column 0)");
        tilelab::format_matrix_element(text, sizeof text, "N", 3, 7, -2);
        CHECK(std::string(text) == "N[-2], before the start of N (N is 3x7, 21 elements; a negative index)");
        tilelab::format_matrix_element(text, sizeof text, "P", 3, 7, 9);
        CHECK(std::string(text) == "P[9], row 1, column 2 of P (P is 3x7)");
    }

    TEST_CASE("the kernel's read or write of which matrix, with the shape the checker asked for, and what to check") {
        const std::string doing = "multiplying 1x1x1 with matmul_tiled_boundary(...)";
        CHECK(describe_fault(site(wire::Matrix::M, 4, 1), 1, 1, 1, doing) ==
              "the kernel read M[4], past the end of M (M is 1x1, 1 element; index 4 would be row 4, column 0), while "
              "multiplying 1x1x1 with matmul_tiled_boundary(...): check the bounds tests and the index arithmetic");
        // N is inner x cols, P rows x cols: the checker's own shape, not the runner's.
        CHECK(has(describe_fault(site(wire::Matrix::N, 35, 0), 2, 5, 7, doing), "read or wrote N[35], past the end of "
                                                                                 "N (N is 5x7, 35 elements"));
        CHECK(has(describe_fault(site(wire::Matrix::P, 14, 2), 2, 5, 7, doing), "the kernel wrote P[14], past the end "
                                                                                 "of P (P is 2x7, 14 elements"));
        CHECK(has(describe_fault(site(wire::Matrix::M, 0, 1, 1), 2, 5, 7, doing),
                  "host code (the launcher, not a kernel) read M[0], row 0, column 0 of M (M is 2x5)"));
        // No matrix of the kit's: the checker says what it knows, in words of its own.
        CHECK(describe_fault(site(wire::Matrix::none, 3, 1), 2, 5, 7, doing).empty());
        CHECK(tilelab::grader::outside_every_matrix(doing) ==
              "the kernel reached an address in none of M, N and P while multiplying 1x1x1 with "
              "matmul_tiled_boundary(...): an index far out of bounds, or a pointer that is not from cudaMalloc; check "
              "the bounds tests, the index arithmetic and the pointers the kernel is given");
    }

    TEST_CASE("the diagnosis is a LabError's first hint, and the record's; the runner's lines follow it") {
        tilelab::grader::ReplyHeader header;
        header.status = wire::Status::cuda_error;
        header.code = static_cast<int>(cudaErrorIllegalAddress);
        header.message = "kernel failed: illegal memory access in the kernel k, block (0, 0, 0), thread (4, 0, 0): a "
                         "read at 0x10, M[4]\n  hint: the kernel read memory outside its buffers";
        const std::string diagnosis = describe_fault(site(wire::Matrix::M, 4, 1), 1, 1, 1, "multiplying 1x1x1");
        const std::string text = tilelab::grader::LabError(header, "matmul(...)", "", diagnosis).what();
        CHECK(text.rfind("matmul(...) kernel failed: illegal memory access in the kernel k", 0) == 0);
        CHECK(tilelab::grader::split_failure("shape 1x1x1: CUDA error\n  " + text).hint == diagnosis);
        CHECK(has(text, "\n  hint: the kernel read memory outside its buffers"));  // the runner's, kept
        CHECK_FALSE(has(text, "or was given a host pointer"));                   // hint_for's: the diagnosis says more
    }

    TEST_CASE("a reply's fault site out of range is dropped: numbers from the lab's program are checked") {
        wire::Writer out;
        out.put(wire::Status::cuda_error).put<std::int32_t>(700).put_string("e").put_string("m").put<std::uint8_t>(1);
        out.put<std::uint8_t>(7).put(wire::Matrix::M).put<std::uint8_t>(0).put<std::int64_t>(4);  // access 7: no such
        wire::Reader in(out.bytes());
        const tilelab::grader::ReplyHeader header = tilelab::grader::read_header(in);
        CHECK(in.at_end());
        CHECK(header.fault.matrix == wire::Matrix::none);
        wire::Writer good;
        good.put(wire::Status::cuda_error).put<std::int32_t>(700).put_string("e").put_string("m").put<std::uint8_t>(1);
        good.put<std::uint8_t>(2).put(wire::Matrix::P).put<std::uint8_t>(0).put<std::int64_t>(-3);
        wire::Reader again(good.bytes());
        const tilelab::grader::ReplyHeader kept = tilelab::grader::read_header(again);
        CHECK(kept.fault.matrix == wire::Matrix::P);
        CHECK(kept.fault.element == -3);
        CHECK(kept.fault.access == 2);
    }
}
