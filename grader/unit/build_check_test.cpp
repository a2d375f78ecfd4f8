// The build check's rules (grader/tools/lib/build_check.hpp), on the lines of the source check, the compilers and nm
// that trigger each: the refusal's message and the hint that teaches what to do.
#include "build_check.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

using namespace tilelab::grader;

namespace {
std::string as_written(const std::string& name) { return name == "_Z4mainv" ? "main()" : name; }
}  // namespace

TEST_SUITE("build_check") {
    TEST_CASE("a library's header, found by the source check or in the sources, names the library") {
        const BuildRefusal checked = source_check_refusal(
            "kernel.cu:3: error: the lab calls a library (cublas...) instead of computing it (it has #include "
            "<cublas_v2.h>)\n");
        CHECK(checked.hint == "the lab calls a library (cublas...) instead of computing the product itself: write the "
                              "kernel (it has #include <cublas_v2.h>)");
        CHECK(checked.message.find("kernel.cu:3: error") == 0);
        CHECK(source_check_refusal("\nsource check: kernel.cu, line 4: a link\nmore\n").message ==
              "source check: kernel.cu, line 4: a link");
        const BuildRefusal built = build_failure("fatal error: cublas_v2.h: No such file", {"// a kernel\n  #include <thrust/sort.h>\n"}, true);
        CHECK(built.hint.find("the lab calls a library (thrust...)") == 0);
        CHECK(built.hint.find("(it has #include <thrust/sort.h>)") != std::string::npos);
    }

    TEST_CASE("anything else the source check refuses gets its general hint") {
        const BuildRefusal refusal = source_check_refusal("kernel.cu:1: error: <unistd.h> is not a lab's to include\n");
        CHECK(refusal.refused());
        CHECK(refusal.hint.find("the lab's files reach beyond what a lab may") == 0);
    }

    TEST_CASE("a compile error is the first error line, with the general hint, or the CPU backend's own") {
        const std::string gcc = "In file included from x.cpp:1:\nkernel.cu:12:5: error: expected ';' before '}'\n";
        BuildRefusal refusal = build_failure(gcc, {}, true);
        CHECK(refusal.message == "kernel.cu:12:5: error: expected ';' before '}'");
        // A progress line naming a folder with "error" in it is not the error.
        refusal = build_failure("[1/4] source check of mutant-naive-compile-error's 01_naive\n" + gcc, {}, false);
        CHECK(refusal.message == "kernel.cu:12:5: error: expected ';' before '}'");
        CHECK(refusal.hint.find("the lab does not compile or link: fix the first error above") == 0);
        refusal = build_failure("kernel.cu:4:10: fatal error: cuda/pipeline: No such file or directory\n", {}, true);
        CHECK(refusal.hint.find("the lab includes <cuda/pipeline>, which the CPU backend does not have.") == 0);
        refusal = build_failure("kernel.cu:9:3: error: \xe2\x80\x98__shfl_sync\xe2\x80\x99 was not declared in this scope\n", {}, true);
        CHECK(refusal.hint.find("the lab calls __shfl_sync. This is CUDA that the CPU backend does not emulate") == 0);
        refusal = build_failure("kernel.cu:9:3: error: 'fragment' is not a member of 'wmma'\n", {}, true);
        CHECK(refusal.hint.find("the lab uses wmma::fragment.") == 0);
        // What a stand-in header or fragment says the CPU backend does not emulate is the message and the hint,
        // before the errors it brings (a redefinition, an unknown type, a shared pointer the rewrite made).
        const std::string half =
            "kernel.cu:9:3: error: 'tile' was declared with ::tilelab::cpu::Shared<__half>\n"
            "common/cpu/include/cuda_fp16.h:8:2: error: #error \"the CPU backend does not emulate <cuda_fp16.h> (half "
            "precision: __half, __half2 and their intrinsics)\"\n"
            "kernel.cu:12:5: error: '__float2half' was not declared in this scope\n";
        refusal = build_failure(half, {}, true);
        CHECK(refusal.message == "common/cpu/include/cuda_fp16.h:8:2: error: #error \"the CPU backend does not emulate "
                                 "<cuda_fp16.h> (half precision: __half, __half2 and their intrinsics)\"");
        CHECK(refusal.hint.find("the lab uses <cuda_fp16.h> (half precision: __half, __half2 and their intrinsics). "
                                "This is CUDA that the CPU backend does not emulate") == 0);
        refusal = build_failure("mma.h:112:19: error: static assertion failed: the CPU backend does not emulate this warp "
                                "matrix fragment (half, bfloat16, integer or double elements, or another shape): only "
                                "the TF32 ones\n", {}, true);
        CHECK(refusal.hint.find("the lab uses this warp matrix fragment (half, bfloat16") == 0);
        refusal = build_failure("/tmp/ccX.s: Assembler messages:\n/tmp/ccX.s:40: Error: no such instruction: `mma.sync'\n",
                                {}, true);
        CHECK(refusal.hint.find("the lab has inline PTX (asm(...))") == 0);
        refusal = build_failure("kernel.cu:9:3: error: 'tex2D' was not declared in this scope\n", {}, true);
        CHECK(refusal.hint.find("the lab calls tex2D.") == 0);
        // On the GPU backend the same error is the lab's own.
        refusal = build_failure("kernel.cu:9:3: error: 'fragment' is not a member of 'wmma'\n", {}, false);
        CHECK(refusal.hint.find("the lab does not compile or link") == 0);
    }

    TEST_CASE("undefined references to the grader or a library") {
        BuildRefusal refusal = build_failure("kernel.cu:(.text+0x1): undefined reference to `tilelab::reference_matmul(int)'", {}, true);
        CHECK(refusal.hint.find("the lab calls the grader's own code (tilelab::reference_matmul(int))") == 0);
        refusal = build_failure("undefined reference to `cublasSgemm_v2'", {}, false);
        CHECK(refusal.hint == "the lab calls a library (cublas...) instead of computing the product itself: write the kernel");
    }

    TEST_CASE("the objects' symbols: a library, a name of the kit's, CUDA's, the harness's or the C library's") {
        CHECK_FALSE(library_symbol("kernel.o:\n0000000000000000 T matmul_naive\n").refused());
        // A folder named like a library is not a symbol.
        CHECK_FALSE(library_symbol("/home/cublas_fan/kernel.o:\n0000000000000000 T matmul_naive\n").refused());
        CHECK(library_symbol("                 U cublasSgemm_v2\n").hint ==
              "the lab calls a library instead of computing the product itself: its code refers to cublasSgemm_v2");
        const std::set<std::string> libc = {"write", "open"};
        CHECK_FALSE(interposed_definition("0000000000000000 T matmul_naive\n0000000000000000 W _ZN7tilelab4weakEv\n",
                                          libc, as_written).refused());
        BuildRefusal refusal = interposed_definition("0000000000000000 T write\n", libc, as_written);
        CHECK(refusal.hint.find("the lab defines write, a name that belongs to the C library") == 0);
        refusal = interposed_definition("0000000000000010 T cudaMalloc\n", libc, as_written);
        CHECK(refusal.message == "the lab defines cudaMalloc, a name that belongs to CUDA's runtime");
        refusal = interposed_definition("0000000000000010 T _ZN7tilelab7compareEv\n", libc, as_written);
        CHECK(refusal.message.find("the kit's grader and runner") != std::string::npos);
        refusal = interposed_definition("0000000000000010 T main\n", libc, nullptr);
        CHECK(refusal.message == "the lab defines main, a name that belongs to the runner's harness");
    }

    TEST_CASE("calls of the system, and files or threads of the standard library") {
        CHECK(os_call("pipe").hint.find("the lab's code calls pipe, a function of the C library or the system") == 0);
        CHECK_FALSE(files_or_threads("                 U std::vector<float>::size()\n").refused());
        CHECK(files_or_threads("                 U std::thread::join()\n").message ==
              "the lab's code uses std::thread::join()");
    }
}
