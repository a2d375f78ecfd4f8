// The build check's source rules (grader/tools/lib/source_policy.hpp): each way in seen so far is refused, with the
// line, and what a lab legitimately writes is not.
#include "source_policy.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using tilelab::grader::check_lab_file;
using tilelab::grader::check_source_text;
using tilelab::grader::first_os_symbol;

namespace {

// The messages of the rules @p text breaks, one "line: message" per line ("" when none).
std::string broken(const std::string& text) {
    std::string out;
    for (const auto& finding : check_source_text(text).findings)
        out += std::to_string(finding.line) + ": " + finding.message + "\n";
    return out;
}

bool refused(const std::string& text, const std::string& part, int line) {
    for (const auto& finding : check_source_text(text).findings)
        if (finding.line == line && finding.message.find(part) != std::string::npos) return true;
    return false;
}

void write(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

struct Folder {
    std::filesystem::path path;
    Folder() {
        path = std::filesystem::temp_directory_path() / ("tilelab-source-policy-" + std::to_string(getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~Folder() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_SUITE("source_policy") {
    TEST_CASE("what labs write is allowed") {
        CHECK(broken("#include <tilelab/labs.hpp>\n#include <cuda_pipeline.h>\n#include <type_traits>\n"
                     "#include \"helpers.cuh\"\n__global__ void k(const float* M) {\n"
                     "  __shared__ float tile[TILE_WIDTH][TILE_WIDTH + 1];\n#pragma unroll\n"
                     "  for (int i = 0; i < 4; ++i) tile[0][i] = M[1'000 + i] * 1.0e-3f;\n  __syncthreads();\n}\n") == "");
        CHECK(broken("#include <tilelab/cuda_check.hpp>\n#include <tilelab/cuda_event.hpp>\n"
                     "#include <tilelab/device_buffer.hpp>\nfloat f() {\n  tilelab::DeviceBuffer<float> d(4);\n"
                     "  ::tilelab::CudaEvent start;\n  TILELAB_CUDA_CHECK(cudaGetLastError());\n"
                     "  try { } catch (const tilelab::CudaError&) { }\n  return tilelab::elapsed_ms(start, start);\n}\n") == "");
        // Lab 10's tensor-core instructions, which the kit's header wraps in inline PTX.
        CHECK(broken("#include <tilelab/mma.hpp>\n__global__ void k(const float* M) {\n"
                     "  __shared__ __align__(16) float tile[16][20];\n  float a[4], b[2] = {}, c[4] = {};\n"
                     "  tilelab::ldmatrix_x4(a, &tile[threadIdx.x % 16][0]);\n  float x = ::tilelab::to_tf32(M[0]);\n"
                     "  tilelab::ldmatrix_x2(b, &tile[0][0]);\n  tilelab::mma_m16n8k8_tf32(c, a, b);\n}\n") == "");
        // Names in comments and literals are not code.
        CHECK(broken("// tilelab::cpu::note_shared_access, asm, ##\n/* TILELAB_CPU_BACKEND */\n"
                     "const char* s = \"tilelab::cpu ## asm\";\nconst char* r = R\"x(tilelab_reference_naive)x\";\n") == "");
        // A member of the same name as an emulator function is the student's own.
        CHECK(broken("struct S { int stats(); };\nint f(S s) { return s.stats(); }\nconst int block_dim = 3;\n") == "");
    }

    TEST_CASE("memory beside M, N and P and renamed lines are refused") {
        CHECK(refused("__device__ float scratch[1 << 20];\n", "may not declare a variable in device memory", 1));
        CHECK(refused("\nstatic __device__ int counter = 0;\n", "may not declare a variable in device memory", 2));
        CHECK(refused("__managed__ float m;\n", "may not declare a variable in device memory", 1));
        CHECK(refused("__constant__ float c[16];\n", "may not declare a variable in device memory", 1));
        // Shared memory only where the CPU backend gives each block its own, followed copy: in a function.
        CHECK(refused("__shared__ float shadow[256];\n__global__ void k() { shadow[0] = 1; }\n",
                      "declare __shared__ memory inside the kernel (or a __device__ function), not at file scope", 1));
        CHECK(refused("extern __shared__ float smem[];\n", "not at file scope", 1));
        CHECK(refused("#define TILE(name) __shared__ float name[16]\n__global__ void k() { TILE(t); }\n",
                      "not in a macro", 1));
        CHECK(broken("__global__ void k() {\n  extern __shared__ float smem[];\n  __shared__ float t[4];\n}\n") == "");
        CHECK(refused("#line 40 \"kernel.cu\"\n", "#line is not allowed", 1));
        CHECK(refused("# 40 \"kernel.cu\"\n", "#line is not allowed", 1));
        CHECK(broken("__device__ __forceinline__ float twice(float x) { return 2 * x; }\n"
                     "template <int N> __device__ void f(const float* p);\n").empty());
        // A static variable in a device function outlasts the block (a ticket the blocks count themselves by): its
        // tables and the host's own statics are fine.
        CHECK(refused("__device__ unsigned* ticket() {\n  static unsigned count = 0;\n  return &count;\n}\n",
                      "may not keep a static variable in a __global__ or __device__ function", 2));
        CHECK(refused("__global__ void k(float* P) {\n  if (true) {\n    static int seen[4];\n  }\n}\n",
                      "may not keep a static variable", 3));
        CHECK(broken("__device__ float f(int i) {\n  static const float table[2] = {1, 2};\n"
                     "  static constexpr int k = 3;\n  static __shared__ float tile[4];\n  return table[i] * k;\n}\n"
                     "void launch() {\n  static bool configured = false;\n  configured = true;\n}\n"
                     "struct Shape { static constexpr int rows = 4; static int count(); };\n").empty());
        // State and tells by other spellings (red team round eight): a static hidden in a macro, thread_local,
        // mutable, a class's static variable, the C library's hidden state, the lanes the hardware runs together,
        // the type the CPU backend gives shared memory, the GPU's approximate intrinsics.
        CHECK(refused("#define KEEP static\n__device__ int* f() { KEEP int n = 0; return &n; }\n", "a macro may not hold `static`", 1));
        CHECK(refused("__device__ int f() {\n  thread_local int n = 0;\n  return n;\n}\n", "`thread_local` is not allowed", 2));
        CHECK(refused("struct Box { mutable int n; };\n", "`mutable` is not allowed", 1));
        CHECK(refused("template <int N> struct Count {\n  static inline unsigned seen = 0;\n};\n", "may not keep a static variable", 2));
        CHECK(refused("__device__ int f() { return rand(); }\n", "may not use rand", 1));
        CHECK(refused("const auto ticket = []() -> unsigned* {\n  static unsigned n = 0;\n  return &n;\n};\n",
                      "may not keep a static variable", 2));
        CHECK(refused("__device__ unsigned f() { return __activemask(); }\n", "__activemask() is not allowed", 1));
        CHECK(refused("__global__ void k() {\n  __shared__ float tile[4];\n  bool r = std::is_reference<decltype(tile)>::value;\n}\n",
                      "may not take the type of a __shared__ variable", 3));
        CHECK(refused("__global__ void k() {\n  __shared__ __align__(16) float tile[4];\n  using T = decltype((tile));\n}\n",
                      "may not take the type of a __shared__ variable", 3));
        CHECK(refused("__device__ float f(float a, float b) { return __fdividef(a, b); }\n", "__fdividef is not allowed", 1));
        CHECK(refused("__device__ float f(float a) {\n  return expf(a) + std::sin(a);\n}\n", "expf is not allowed in device code", 2));
        CHECK(broken("#include <cmath>\ndouble gflops(double ms) { return 2.0 * std::pow(4096.0, 3) / (ms * 1e6); }\n"
                     "__device__ float f(float a) { return sqrtf(a) + fmaxf(a, 0.0f) + a / 3.0f; }\n").empty());
        CHECK(broken("struct Loader {\n  static constexpr int kRows = 4;\n  static __device__ float load(const float* p) { return p[0]; }\n"
                     "  static const int kCols = 2;\n};\n__global__ void k(const float* M) {\n  __shared__ float tile[4];\n"
                     "  using T = decltype(M);\n  tile[0] = Loader::load(M);\n}\n").empty());
        // A variable at file scope that is neither const nor constexpr: host memory the CPU backend's kernel reaches.
        CHECK(refused("#include <tilelab/labs.hpp>\nunsigned int tickets = 0;\n", "may not declare a variable at file scope", 2));
        CHECK(refused("namespace {\nstatic float seen[4];\n}\n", "may not declare a variable at file scope", 2));
        CHECK(refused("__attribute__((aligned(16))) float seen[4];\n", "may not declare a variable at file scope", 1));
        CHECK(refused("[[maybe_unused]] unsigned seen = 0;\n", "may not declare a variable at file scope", 1));
        CHECK(refused("alignas(16) float seen[4];\n", "may not declare a variable at file scope", 1));
        CHECK(broken("namespace {\nconstexpr int kTile = 16;\nconst float kScale = 2.0f;\nusing Vec = float4;\n"
                     "struct Tiles { float a[4]; int n = 0; };\ntemplate <int N>\n__device__ float f(float x);\n"
                     "enum class Mode { fast, slow };\n}  // namespace\nstatic_assert(sizeof(float) == 4, \"x\");\n"
                     "__global__ void k(float* P) { int local = 0; P[0] = local; }\n"
                     "void launch(float* P) { dim3 grid(1, 1); k<<<grid, 1>>>(P); }\n").empty());
    }

    TEST_CASE("the kit's internals are refused, with the line") {
        const std::string cpu_only = "#include <tilelab/labs.hpp>\n#include <cstddef>\n"
                                     "#if defined(TILELAB_CPU_BACKEND)\n"
                                     "namespace tilelab::cpu { void note_shared_access(const void*, std::size_t, bool) noexcept; }\n"
                                     "#endif\n";
        CHECK(refused(cpu_only, "which backend", 3));
        CHECK(refused(cpu_only, "student code may not name the kit's own functions (namespace tilelab::cpu)", 4));
        CHECK(refused("__global__ void k() {\n  __shared__ float t[4];\n  return note_shared_access(&t[0], 4, false);\n}\n",
                      "emulator", 3));
        CHECK(refused("void f() { tilelab::cpu::note_shared_access(nullptr, 4, false); }\n",
                      "(tilelab::cpu::note_shared_access)", 1));
        CHECK(refused("using namespace tilelab;\n", "may not name the kit's own functions", 1));
        CHECK(refused("namespace t = tilelab;\n", "may not name the kit's own functions", 1));
        CHECK(refused("x = tilelab::reference_matmul(m, n);\n", "(tilelab::reference_matmul)", 1));
        // The emulator's count of mma.sync's multiply-adds is the grader's measure, not the lab's.
        CHECK(refused("auto n = tilelab::cpu::mma_sync_multiply_adds();\n", "(tilelab::cpu::mma_sync_multiply_adds)", 1));
        CHECK(refused("auto n = mma_sync_multiply_adds();\n", "emulator", 1));
        CHECK(refused("\n\nextern void tilelab_reference_tiled_boundary(const float*);\n", "tilelab_reference_tiled_boundary", 3));
        CHECK(refused("extern \"C\" void _ZN7tilelab3cpu18note_shared_accessEPKvmb(const void*, unsigned long, bool);\n",
                      "_ZN7tilelab3cpu18note_shared_accessEPKvmb", 1));
        CHECK(refused("#ifdef TILELAB_SEED\n#endif\n", "TILELAB_SEED", 1));
        // Through argument-dependent lookup from a shared array's element type.
        CHECK(refused("__global__ void k() {\n  __shared__ float t[4];\n  note_shared_access(&t[0], 4, false);\n}\n",
                      "emulator", 3));
        CHECK(refused("#ifdef __CUDA_ARCH__\n#endif\n", "which backend", 1));
    }

    TEST_CASE("names hidden from a plain reading are refused") {
        CHECK(refused("void f() { tile\\\nlab::cpu::sync_threads(\"\", 0); }\n", "tilelab::cpu::sync_threads", 1));
        CHECK(refused("#define CAT(a, b) a##b\nvoid f() { CAT(tile, lab)::cpu::stats(); }\n", "token pasting", 1));
        CHECK(refused("%:define CAT(a, b) a%:%:b\n", "token pasting", 1));
        CHECK(refused("void f() asm(\"_ZN7tile\" \"lab3cpu5statsEv\");\n", "asm", 1));
        CHECK(refused("__asm__(\".incbin \\\"/autograder/source/solutions/01_naive/kernel.cu\\\"\");\n", "asm", 1));
        CHECK(refused("void g() __attribute__((weakref(\"_ZN7tile\" \"lab3cpu5statsEv\")));\n", "weakref", 1));
        CHECK(refused("void* p = dlsym(RTLD_DEFAULT, \"x\");\n", "symbol's name", 1));
        CHECK(refused("_Pragma(\"redefine_extname f g\")\n", "redefine_extname", 1));
        CHECK(refused("int \\u0074ilelab;\n", "universal character", 1));
        CHECK(refused("?\?=include <x>\n", "trigraph", 1));
        // A lone carriage return ends a line for the compiler: the code after it is no comment.
        CHECK(refused("int a;\n// note\rvoid f() { auto p = &tilelab::cpu::launch; }\n", "carriage return", 2));
        CHECK(refused("// note\r#include \"../x.h\"\n", "carriage return", 1));
        CHECK(broken("const int a = 0;\r\n// note\r\nconst int b = 1;\r\n").empty());
        // A raw string's end found in the text as written: what follows it is code.
        CHECK(refused("const char* r = R\"(a)\\\n\" tilelab_x )\";\nint tilelab_y;\n", "tilelab_y", 3));
    }

    TEST_CASE("what reaches the OS from the runner's process is refused, its lookalikes are not") {
        // Headers: POSIX and system headers, the C++ library's files and threads, the driver API.
        for (const char* header : {"unistd.h", "fcntl.h", "pthread.h", "sys/mman.h", "dlfcn.h", "signal.h",
                                   "csignal", "csetjmp", "thread", "future", "fstream", "filesystem"})
            CHECK(refused(std::string("#include <") + header + ">\n", "neither CUDA's nor the C++ standard library's", 1));
        CHECK(broken("#include <cstdio>\n#include <iostream>\n#include <cstdlib>\n#include <vector>\n#include <cmath>\n"
                     "#include <cooperative_groups/reduce.h>\n#include <cuda/pipeline>\n#include <mma.h>\n"
                     "#include <cuda_fp16.h>\n#include <math.h>\n") == "");
        CHECK(refused("#include <cuda.h>\n", "driver API", 1));
        CHECK(refused("#include <cublas_v2.h>\n", "calls a library (cublas", 1));
        CHECK(refused("#include <thrust/reduce.h>\n", "calls a library (thrust", 1));
        // The functions: called, qualified, or named without a declaration of the file's own.
        CHECK(refused("void f(int fd) {\n  ::write(fd, \"x\", 1);\n}\n", "may not call ::write", 2));
        CHECK(refused("int f(int a[2]) { return pipe(a); }\n", "may not call pipe", 1));
        CHECK(refused("int f(int a) { return dup2(a, 3); }\n", "may not call dup2", 1));
        CHECK(refused("auto p = std::getenv(\"HOME\");\n", "may not call std::getenv", 1));
        CHECK(refused("auto w = &write;\n", "may not call write", 1));
        CHECK(refused("FILE* f = fopen(\"/proc/self/cmdline\", \"rb\");\n", "may not call fopen", 1));
        CHECK(refused("void f() { pthread_t t; }\n", "threads of its own (pthread_t)", 1));
        CHECK(refused("std::thread t([] {});\n", "std::thread", 1));
        CHECK(refused("namespace fs = std::filesystem;\n", "std::filesystem", 1));
        CHECK(refused("void* f() { return __builtin_frame_address(0); }\n", "stack's frames", 1));
        CHECK(refused("static int read(int);\nint g() { return read(4); }\n", "another name", 1));
        // Lookalikes: the student's own variables, parameters, members and namespaces of those names.
        CHECK(broken("__device__ void count(const float* p, bool write) { if (write) { } }\n"
                     "void f() {\n  int read = 0, open = 1;\n  read += open;\n  struct S { int signal; } s;\n"
                     "  s.signal = read;\n  std::cin.read(nullptr, 0);\n  mine::write(3);\n  int thread = 0;\n"
                     "  printf(\"%d\\n\", thread);\n  exit(1);\n}\n#define COUNT(a, write) f(a, write)\n"
                     "void g(std::vector<int>& v) { v.erase(std::remove(v.begin(), v.end(), 0), v.end()); }\n"
                     "struct Tile { Tile clone() const { return *this; } };\n") == "");
        // A template type's variable named as the CUDA Samples name a pipeline; a comparison does not declare one.
        CHECK(broken("__global__ void k() {\n  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();\n"
                     "  pipe.producer_acquire();\n  cuda::memcpy_async(nullptr, nullptr, 4, pipe);\n}\n") == "");
        CHECK(refused("bool f(int a) { return a > pipe; }\n", "may not call pipe", 1));
        // Code that runs before main or binds to C names, and pragmas that change symbols.
        CHECK(refused("__attribute__((constructor)) void f() {}\n", "`constructor`", 1));
        CHECK(refused("[[gnu::constructor]] void f() {}\n", "`constructor`", 1));
        CHECK(refused("__attribute__((section(\".init_array\"))) void (*p)() = 0;\n", "`section`", 1));
        CHECK(broken("__attribute__((aligned(16))) const float a[4] = {};\n[[maybe_unused]] const int b = 0;\n"
                     "const int c[2][2] = {}; const int d = c[0][1];\n") == "");
        CHECK(refused("extern \"C\" int close(int);\n", "extern \"C\"", 1));
        CHECK(broken("__global__ void k() { extern __shared__ float tile[]; }\nextern \"C++\" int g();\n") == "");
        CHECK(refused("#pragma weak write\n", "#pragma weak", 1));
        CHECK(refused("_Pragma(\"GCC visibility push(default)\")\n", "#pragma GCC", 1));
        CHECK(broken("#pragma once\n#pragma unroll 4\n#pragma GCC unroll 8\n_Pragma(\"unroll\")\n#pragma nv_diag_suppress 177\n") == "");
    }

    TEST_CASE("includes that leave the lab's reach are refused") {
        CHECK(refused("#include <tilelab/../../../solutions/03_tiled_boundary/kernel.cu>\n", "`..`", 1));
        CHECK(refused("\n#include \"../01_naive/kernel.cu\"\n", "`..`", 2));
        CHECK(refused("#include \"/autograder/source/solutions/01_naive/kernel.cu\"\n", "absolute", 1));
        CHECK(refused("#include </autograder/source/solutions/01_naive/kernel.cu>\n", "absolute", 1));
        CHECK(refused("#include <tilelab/cpu/emulator.hpp>\n", "kit's own", 1));
        CHECK(refused("#include <tilelab/reference.hpp>\n", "kit's own", 1));
        CHECK(refused("#include <./tilelab/cpu/emulator.hpp>\n", "`.`", 1));
        CHECK(refused("#define ANSWER <tilelab/labs.hpp>\n#include ANSWER\n", "computed", 2));
        CHECK(refused("#include_next <cuda_runtime.h>\n", "#include_next", 1));
        CHECK(refused("#if __has_include(<x>)\n#endif\n", "__has_include", 1));
        CHECK(refused("# /* c */ include \\\n <tilelab/../x>\n", "`..`", 1));
    }

    TEST_CASE("links, and quoted includes outside the lab's folder") {
        Folder root;
        write(root.path / "kit/solutions/01_naive/kernel.cu", "// the model answer\n");
        write(root.path / "sub/02_tiled/kernel.cu", "#include \"helpers/tile.cuh\"\n");
        write(root.path / "sub/02_tiled/helpers/tile.cuh", "#include \"more.cuh\"\n");
        write(root.path / "sub/02_tiled/helpers/more.cuh", "const int tilelab_z = 0;\n");
        const auto sub = root.path / "sub";
        auto findings = check_lab_file(sub, "02_tiled/kernel.cu");
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].file == "02_tiled/helpers/more.cuh");
        CHECK(findings[0].message.find("tilelab_z") != std::string::npos);

        std::filesystem::create_directories(sub / "01_naive");
        std::filesystem::create_symlink(root.path / "kit/solutions/01_naive/kernel.cu", sub / "01_naive/kernel.cu");
        findings = check_lab_file(sub, "01_naive/kernel.cu");
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].file == "01_naive/kernel.cu");
        CHECK(findings[0].message.find("symbolic link (to " + (root.path / "kit").string()) != std::string::npos);

        std::filesystem::create_directory_symlink(root.path / "kit/solutions/01_naive", sub / "03_tiled_boundary");
        findings = check_lab_file(sub, "03_tiled_boundary/kernel.cu");
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].message.find("symbolic link") != std::string::npos);

        write(root.path / "sub/05_coarsened/kernel.cu", "int x;\n");
        std::filesystem::create_hard_link(root.path / "kit/solutions/01_naive/kernel.cu", sub / "05_coarsened/answer.cu");
        findings = check_lab_file(sub, "05_coarsened/kernel.cu");
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].file == "05_coarsened/answer.cu");
        CHECK(findings[0].message.find("hard link") != std::string::npos);

        write(root.path / "sub/06_register_tiled/kernel.cu", "#include \"cuda_runtime.h\"\n");
        findings = check_lab_file(sub, "06_register_tiled/kernel.cu");
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].line == 1);
        CHECK(findings[0].message.find("names no file of the lab's folder") != std::string::npos);
    }

    TEST_CASE("tells of the backend are refused: long double, macros, printf's value, NaN bits, local addresses") {
        // long double: 80-bit on the CPU backend, a double in a GPU's device code (red9 a1).
        CHECK(refused("__device__ bool f() {\n  const long double u = 1.0;\n  return u == 1;\n}\n", "long double", 2));
        CHECK(refused("double long x = 0;\n", "long double", 1));
        CHECK(refused("__device__ bool f(int b) { return 1.0 + b * 1e-19L == 1.0; }\n", "long double (1e-19L)", 1));
        CHECK(refused("auto x = 0x1p-60L;\n", "long double", 1));
        CHECK(refused("__float128 x;\n", "__float128", 1));
        CHECK(broken("const long n = 1L + 0xEL;\nconst double d = 1.0;\nconst float f = 2.5e-3f;\nconst long long k = 3;\n") == "");

        // Conditionals only on TILE_WIDTH and the lab's own macros (red9 a9: CUDART_VERSION).
        CHECK(refused("#if defined(CUDART_VERSION)\n#endif\n", "toolkit's version (CUDART_VERSION)", 1));
        CHECK(refused("int v = CUDA_VERSION;\n", "toolkit's version", 1));
        CHECK(refused("#ifdef __CUDA_RUNTIME_H__\n#endif\n", "not __CUDA_RUNTIME_H__", 1));
        CHECK(refused("#define HAS defined(__CUDA_RUNTIME_H__)\n#if HAS\n#endif\n", "__CUDA_RUNTIME_H__ (through HAS)", 2));
        CHECK(refused("#if __has_builtin(__builtin_fmaf)\n#endif\n", "not __has_builtin", 1));
        CHECK(refused("int x;\n#elif __cplusplus > 201703L\n", "not __cplusplus", 2));
        CHECK(broken("#if TILE_WIDTH == 32\n#endif\n#ifndef SPIN\n#define SPIN 256\n#endif\n#if SPIN > 8 && defined(SPIN)\n"
                     "#endif\n#ifndef HELPERS_CUH\n#define HELPERS_CUH\n#endif\n#define TWICE(x) ((x) * 2)\n"
                     "#if TWICE(TILE_WIDTH) > 16\n#endif\n") == "");

        // printf's value: arguments parsed on a GPU, characters printed on the CPU backend (red9 a6).
        CHECK(broken("#define DEBUG(...) printf(__VA_ARGS__)\n__device__ void f(int t) {\n  printf(\"%d\\n\", t);\n"
                     "  if (t == 0) printf(\"zero\\n\");\n  for (int i = 0; i < 2; ++i) std::printf(\"%d\", i);\n"
                     "  DEBUG(\"%d\", t);\n  if (t) { printf(\"a\"); } else printf(\"b\");\n}\n"
                     "int host() { return printf(\"host code is the same on both\\n\"); }\n") == "");
        CHECK(refused("__device__ bool f() { return __syncthreads_or(printf(\"%s\", \"\") == 1); }\n", "printf only as a statement", 1));
        CHECK(refused("__device__ void f() {\n  int n = printf(\"x\");\n}\n", "printf only as a statement", 2));
        CHECK(refused("__device__ void f() {\n  printf(\"x\") == 1 ? g() : h();\n}\n", "printf only as a statement", 2));
        CHECK(refused("#define SAY(...) printf(__VA_ARGS__)\n__device__ void f() {\n  if (SAY(\"x\") == 1) g();\n}\n",
                      "SAY only as a statement", 3));
        CHECK(refused("#define COUNT (printf(\"x\") == 1)\n", "printf only as a statement", 1));

        // A NaN's sign and bits: 0x7FFFFFFF on a GPU, 0xFFC00000 on x86 (red9 a3; __float_as_uint faults on a NaN in
        // the emulator instead, so that launders of finite values stay the technique check's).
        CHECK(refused("__device__ bool f(float z) { return signbit(z / z); }\n", "signbit is not allowed", 1));
        CHECK(refused("__device__ float f(float z) { return copysignf(1.0f, z); }\n", "copysignf", 1));
        CHECK(refused("__device__ unsigned f(float z) { return std::bit_cast<unsigned>(z); }\n", "bit_cast", 1));
        CHECK(refused("__device__ unsigned f(float z) {\n  union { float f; unsigned u; } v;\n  return v.u;\n}\n", "a union", 2));
        CHECK(broken("bool host(float z) { return std::signbit(z); }\n") == "");

        // A local's address: one per frame offset on a GPU, one per fiber stack on the CPU backend (red9 a7).
        CHECK(refused("__device__ bool f() {\n  int probe = 0;\n  volatile int* where = &probe;\n"
                      "  const unsigned long long mine = reinterpret_cast<unsigned long long>(where);\n"
                      "  return mine == __shfl_sync(~0u, mine, 0);\n}\n", "cast to an integer", 4));
        CHECK(refused("__device__ bool f() {\n  float x = 0;\n  return (unsigned long long)&x % 64 == 0;\n}\n",
                      "cast to an integer", 3));
        CHECK(refused("__device__ int f() {\n  float x = 0;\n  return *reinterpret_cast<int*>(&x);\n}\n", "cast to an integer", 3));
        CHECK(refused("__global__ void k() {\n  __shared__ int* slot;\n  int probe;\n  if (threadIdx.x == 0) slot = &probe;\n"
                      "  __syncthreads();\n  bool same = &probe == slot;\n}\n", "store in shared memory", 4));
        CHECK(refused("__global__ void k() {\n  __shared__ int* slot;\n  int probe;\n  bool same = &probe == slot;\n}\n",
                      "compare", 4));
        CHECK(refused("__global__ void k(int* q) {\n  int a[2];\n  long d = a - q;\n}\n", "subtract", 3));
        CHECK(broken("__device__ bool aligned(const float* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }\n"
                     "__device__ void add(float* acc, float v) { acc[0] += v; }\n"
                     "__global__ void k(const float* M, float* P, int n) {\n  __shared__ float tile[16][16];\n"
                     "  float acc[4] = {};\n  float* a = acc;\n  float* end = &acc[0] + 4;\n  add(acc, M[0]);\n"
                     "  for (int i = 0; i < n && i < 4; ++i) a[i] += tile[0][i];\n  float4 v;\n"
                     "  float* f = reinterpret_cast<float*>(&v);\n  f[0] = a[3] - a[1];\n"
                     "  if ((size_t)&tile[0][0] % 16 == 0 && reinterpret_cast<uintptr_t>(P) % 16 == 0) P[0] = acc[0];\n"
                     "  const int row = blockIdx.y * 16 + threadIdx.y;\n  if (row < n && row - 1 > 0) P[row] = f[0];\n}\n") == "");

        // An overload set of a template and a plain function: a tile element picks one on a GPU, the other on the CPU
        // backend, whose shared elements have a type of their own (red9 a8).
        CHECK(refused("__device__ bool plain(const float&) { return true; }\ntemplate <class T>\n"
                      "__device__ bool plain(const T&) { return false; }\n", "overload plain", 3));
        CHECK(broken("template <class T>\n__device__ T twice(T x) { return x + x; }\n__device__ float half(float x) { return x / 2; }\n"
                     "__device__ double half(double x) { return x / 2; }\n__host__ __device__ int one() { return 1; }\n") == "");
    }

    TEST_CASE("the rules on macros and overloads read every file of the lab") {
        Folder root;
        write(root.path / "02_tiled/kernel.cu", "#include \"config.cuh\"\n#if USE_WIDE\n#endif\n#if NOT_DEFINED\n#endif\n"
                                                "__device__ int pick(float x) { return 0; }\n");
        write(root.path / "02_tiled/config.cuh", "#pragma once\n#define USE_WIDE 1\ntemplate <class T>\n"
                                                 "__device__ int pick(T x) { return 1; }\n");
        const auto findings = check_lab_file(root.path, "02_tiled/kernel.cu");
        REQUIRE(findings.size() == 2);
        CHECK(findings[0].file == "02_tiled/kernel.cu");
        CHECK(findings[0].line == 4);
        CHECK(findings[0].message.find("not NOT_DEFINED") != std::string::npos);
        CHECK(findings[1].file == "02_tiled/config.cuh");
        CHECK(findings[1].line == 4);
        CHECK(findings[1].message.find("overload pick") != std::string::npos);
    }

    TEST_CASE("device code calls device functions only: host helpers and raw-memory functions are refused") {
        // A host helper of the lab's own, called from a kernel: nvcc refuses it; the CPU backend would not follow it.
        const std::string host_helper =
            "#include <cstring>\n"
            "inline float read_word(const void* p) { float f; std::memcpy(&f, p, 4); return f; }\n"
            "__global__ void k(float* P) {\n"
            "    __shared__ float tile[4];\n"
            "    P[0] = read_word(&tile[0]);\n"
            "}\n";
        const auto helper = check_source_text(host_helper).findings;
        REQUIRE(helper.size() == 1);
        CHECK(helper[0].line == 5);
        CHECK(helper[0].message.find("read_word is a function of the lab's own without __device__") != std::string::npos);
        // The C library's raw-memory functions, plain or std::, in a kernel or a device helper of a class.
        for (const std::string call : {"memmove(&x, &tile[0], 4);", "std::memmove(&x, &tile[0], 4);",
                                       "x = ::memcmp(&x, &tile[0], 4);", "__builtin_memmove(&x, &tile[0], 4);"}) {
            CAPTURE(call);
            const auto found = check_source_text("__global__ void k(float* P) {\n  __shared__ float tile[4];\n"
                                                 "  float x;\n  " + call + "\n  P[0] = x;\n}\n").findings;
            REQUIRE(found.size() == 1);
            CHECK(found[0].line == 4);
            CHECK(found[0].message.find("host function of the C library on raw memory") != std::string::npos);
        }
        CHECK(check_source_text("struct S { __device__ void f(float* a) { memmove(a, a + 1, 4); } };\n").findings.size() == 1);
        // A macro of the file's own that says nothing of __device__ hides nothing.
        CHECK(check_source_text("#define HELPER inline\nHELPER float h(float* p) { return *p; }\n"
                                "__global__ void k(float* P) { P[0] = h(P); }\n").findings.size() == 1);
        // What nvcc accepts: device and __host__ __device__ helpers (with __launch_bounds__ or a template), constexpr
        // helpers, memcpy and memset, a member of the same name, host code calling host helpers and memmove, and a
        // constructor's initializer list, whose members are no functions.
        const std::string fine =
            "#include <cstring>\n"
            "template <int N> __host__ __device__ inline int twice(int a) { return N * a; }\n"
            "__device__ float load(const float* p) { float f; memcpy(&f, p, 4); return f; }\n"
            "constexpr int index_of(int r, int c) { return r * 16 + c; }\n"
            "int host_only(int a) { return a + 1; }\n"
            "struct Box { int a; Box() : a(host_only(1)) {} };\n"
            "struct Reader { float v; __device__ float get() const { return v; } };\n"
            "#define MY_DEVICE __forceinline__ __device__\n"
            "struct Acc { float s; MY_DEVICE void clear() { s = 0; } HEADER_DEVICE float sum() const { return s; } };\n"
            "__global__ void __launch_bounds__(256) k(float* P, Reader r) {\n"
            "    __shared__ float tile[16 * 16];\n"
            "    memset(tile, 0, sizeof tile);\n"
            "    Acc acc;\n    acc.clear();\n"
            "    P[index_of(0, 1)] = load(&tile[twice<2>(1)]) + r.get() + acc.sum();\n"
            "}\n"
            "void launch(float* P) { float a[2], b[2]; memmove(a, b, sizeof a); host_only(2); }\n";
        const auto accepted = check_source_text(fine).findings;
        for (const auto& finding : accepted) MESSAGE(finding.message);
        CHECK(accepted.empty());
    }

    TEST_CASE("the objects' system functions are found in nm's output, whatever the version suffix") {
        CHECK(first_os_symbol("").empty());
        CHECK(first_os_symbol("kernel.o:\n                 U cudaMalloc\n                 U memcpy@GLIBC_2.14\n").empty());
        CHECK(first_os_symbol("                 U atexit@GLIBC_2.2.5\n").empty());  // nvcc's host code calls it
        CHECK(first_os_symbol("                 U cudaFree\n                 U open64@GLIBC_2.2.5\n") == "open64");
        CHECK(first_os_symbol("                 U remove\n") == "remove");  // only objects can tell std::remove
        CHECK(first_os_symbol("                 U pthread_create@GLIBC_2.34\n") == "pthread_create");
        CHECK(first_os_symbol("                 U __libc_write\n") == "__libc_write");
        CHECK(first_os_symbol("/tmp/U open.o:\nU pthread_x:\n").empty());  // objects' paths are not symbols
    }
}
