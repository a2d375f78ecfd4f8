#include <tilelab/cuda_check.hpp>

#include <doctest/doctest.h>

#include <string>

TEST_SUITE("cuda_check") {
    TEST_CASE("a failed call throws with the call, file, line, error name and a hint") {
        try {
            TILELAB_CUDA_CHECK(cudaErrorIllegalAddress);
            FAIL("no exception");
        } catch (const tilelab::CudaError& error) {
            const std::string message = error.what();
            CHECK(error.code() == cudaErrorIllegalAddress);
            CHECK(message.find("cudaErrorIllegalAddress failed") != std::string::npos);
            CHECK(message.find("cuda_check_test.cpp:") != std::string::npos);
            CHECK(message.find("cudaErrorIllegalAddress (") != std::string::npos);
            CHECK(message.find("hint: ") != std::string::npos);
        }
    }

    TEST_CASE("a successful call does not throw") { CHECK_NOTHROW(TILELAB_CUDA_CHECK(cudaSuccess)); }
}
