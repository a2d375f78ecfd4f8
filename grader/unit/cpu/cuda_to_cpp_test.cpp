// The CPU backend's source rewrite: launches, __shared__ declarations, vector pointers, casts of pointers to
// integers and unroll pragmas, and nothing else, with every line kept.
#include <tilelab/cpu/cuda_to_cpp.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

using tilelab::cpu::cuda_to_cpp;

namespace {
long lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_SUITE("cuda-to-cpp") {
    TEST_CASE("rewrites a launch into a call of the emulator") {
        const std::string out = cuda_to_cpp("void f() { kernel<<<grid, block>>>(a, b, c); }\n");
        CHECK(out == "void f() { ::tilelab::cpu::launch(kernel, \"kernel\", __FILE__, __LINE__, grid, block).written_as(\"a, b, c\")(a, b, c); }\n");
    }

    TEST_CASE("keeps the lines of a launch spread over several") {
        const std::string in = "void f() {\n  kernel<<<dim3(n / 16,\n    m), block,\n 0>>>(\n  a,\n  g(b, c));\n}\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "launch(kernel, \"kernel\", __FILE__, __LINE__, dim3(n / 16,\n    m), block,\n 0).written_as(\"a, g(b, c)\")(\n  a,\n  g(b, c))"));
    }

    TEST_CASE("takes template and qualified kernel names and nested calls") {
        const std::string out = cuda_to_cpp("x(); ns::kern<T, 2 * W><<<g(h(1), 2), b>>>(p(q(1)), r);\n");
        CHECK(has(out, "launch(ns::kern<T, 2 * W>, \"ns::kern<T, 2 * W>\", __FILE__, __LINE__, g(h(1), 2), b).written_as(\"p(q(1)), r\")(p(q(1)), r);"));
    }

    TEST_CASE("passes the launch's arguments as written, quotes escaped, for messages") {
        const std::string out = cuda_to_cpp("void f() { k<<<1, 1>>>(d_P, g(\"a\\\\b\"));\n}\n");
        CHECK(has(out, ".written_as(\"d_P, g(\\\"a\\\\\\\\b\\\")\")(d_P, g(\"a\\\\b\"));"));
    }

    TEST_CASE("leaves comments, strings and shifts alone") {
        const std::string in = "// k<<<1, 1>>>(x);\nconst char* s = \"k<<<1,1>>>()\"; /* __shared__ float t[4]; */ int y = a << 3 >> 1;\n";
        CHECK(cuda_to_cpp(in) == in);
    }

    TEST_CASE("turns each shared array into a reference to the block's copy") {
        const std::string out = cuda_to_cpp("void k() {\n  __shared__ float a[T][T + 1], b[T];\n}\n");
        CHECK(has(out, "::tilelab::cpu::Shared<float> (&a)[T][T + 1] = ::tilelab::cpu::block_shared<::tilelab::cpu::Shared<float>[T][T + 1]>([] {}, \"a\");"));
        CHECK(has(out, "::tilelab::cpu::Shared<float> (&b)[T] = ::tilelab::cpu::block_shared<::tilelab::cpu::Shared<float>[T]>([] {}, \"b\");"));
        CHECK(lines(out) == 3);
    }

    TEST_CASE("turns a shared scalar and an extern shared array into the right kinds") {
        const std::string out = cuda_to_cpp("void k() { __shared__ int count; extern __shared__ double buffer[]; }");
        CHECK(has(out, "::tilelab::cpu::Shared<int>& count = ::tilelab::cpu::block_shared<::tilelab::cpu::Shared<int>>([] {}, \"count\");"));
        CHECK(has(out, "::tilelab::cpu::Shared<double>* buffer = ::tilelab::cpu::dynamic_shared<double>();"));
        CHECK_FALSE(has(out, "extern"));
    }

    TEST_CASE("turns vector casts and vector pointer types into checked vector pointers") {
        const std::string out = cuda_to_cpp(
            "void k(const float* __restrict__ a) {\n"
            "  const float4* __restrict__ p = reinterpret_cast<const float4*>(a);\n"
            "  float4 v = reinterpret_cast< float4 const * >(&t[4])[0];\n"
            "  float2 *q = reinterpret_cast<float2*>(b); float4 w = v; int n = sizeof(float4) * 2;\n}\n");
        CHECK(has(out, "::tilelab::cpu::VectorPointer<const float4>  p = ::tilelab::cpu::vector_cast<const float4>(a);"));
        CHECK(has(out, "float4 v = ::tilelab::cpu::vector_cast<const float4>(&t[4])[0];"));
        CHECK(has(out, "::tilelab::cpu::VectorPointer<float2> q = ::tilelab::cpu::vector_cast<float2>(b);"));
        CHECK(has(out, "float4 w = v; int n = sizeof(float4) * 2;"));
        CHECK(has(out, "const float* __restrict__ a"));
    }

    TEST_CASE("drops #pragma unroll, keeping the line, and the alignment of a shared array") {
        const std::string in = "void k() {\n#pragma unroll\n  for (;;) {}\n    #  pragma unroll 4\n#pragma once\n"
                               "  __shared__ __align__(16) float t[8];\n}\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK_FALSE(has(out, "unroll"));
        CHECK(has(out, "#pragma once"));
        CHECK(has(out, "::tilelab::cpu::Shared<float> (&t)[8]"));
    }

    TEST_CASE("says which line a launch it cannot read is on") {
        CHECK_THROWS_WITH_AS(cuda_to_cpp("a;\nb;\nkernel<<<grid, block>>>;\n"), doctest::Contains("line 3"),
                             std::runtime_error);
        CHECK_THROWS_WITH_AS(cuda_to_cpp("kernel<<<grid, block(a, b);\n"), doctest::Contains("'>>>'"),
                             std::runtime_error);
    }

    TEST_CASE("pointer variables take their initialiser's type, so a pointer into shared memory stays checked") {
        const std::string in =
            "__global__ void k(float* A) {\n"
            "    extern __shared__ float shared[];\n"
            "    float* M_tile = shared;  // the first tile\n"
            "    const float* __restrict__ N_tile = shared + 256;\n"
            "    unsigned int* u = nullptr;\n"
            "    for (const float* p = A; p != A + 4; ++p) {}\n"
            "    float *x = A, *y = A;\n"
            "    float* later;\n"
            "}\n"
            "struct S { float* member = nullptr; };\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "auto M_tile = ::tilelab::cpu::as_pointer<float>( shared);  // the first tile"));
        CHECK(has(out, "auto N_tile = ::tilelab::cpu::as_pointer<const float>( shared + 256);"));
        CHECK(has(out, "auto u = ::tilelab::cpu::as_pointer<unsigned int>( nullptr);"));
        CHECK(has(out, "for (auto p = ::tilelab::cpu::as_pointer<const float>( A); p != A + 4; ++p)"));
        CHECK(has(out, "float *x = A, *y = A;"));        // two declarators: left alone
        // No initialiser, in device code: a checked pointer, so that what is assigned later (a tile, P) stays seen.
        CHECK(has(out, "::tilelab::cpu::DevicePointer<float> later;"));
        // A class member cannot be auto; one of a struct no device code names stays a plain pointer.
        CHECK(has(out, "struct S { float* member = nullptr; };"));
    }

    TEST_CASE("casts to types the rewrite cannot read are checked: an alias's, a template parameter's, decltype") {
        const std::string in =
            "typedef float* fptr;\nusing cfptr = const float*;\n"
            "template <class Ptr> __device__ Ptr at(unsigned long long a) { return (Ptr)a + Ptr(0) - Ptr(0); }\n"
            "__global__ void k(const float* M, float* P) {\n"
            "    float a = ((fptr)(unsigned long long)P)[0] + fptr(0)[0] + (decltype(M))0 + s.fptr(1);\n"
            "    auto b = reinterpret_cast<cfptr>(M) + reinterpret_cast<volatile float&>(P[0]);\n"
            "    auto c = static_cast<fptr>(static_cast<void*>(0)) + static_cast<long long>(1) + static_cast<int>(a);\n"
            "}\n"
            "void host(float* P) { fptr p = (fptr)P; }\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "return (::tilelab::cpu::CheckedCast<Ptr>)a + ::tilelab::cpu::CheckedCast<Ptr>(0)"));
        CHECK(has(out, "((::tilelab::cpu::CheckedCast<fptr>)(unsigned long long)P)[0] + ::tilelab::cpu::CheckedCast<fptr>(0)[0]"));
        CHECK(has(out, "(::tilelab::cpu::CheckedCast<decltype(M)>)0 + s.fptr(1);"));  // a member is no cast
        CHECK(has(out, "auto b = ::tilelab::cpu::address_cast<cfptr>(M) + ::tilelab::cpu::checked_reinterpret<volatile float&>(P[0]);"));
        CHECK(has(out, "auto c = ::tilelab::cpu::checked_static<fptr>(static_cast<void*>(0)) + static_cast<long long>(1) + "
                       "static_cast<int>(a);"));
        CHECK(has(out, "void host(float* P) { fptr p = (fptr)P; }"));  // host code: as it was
    }

    TEST_CASE("a copy of P is a checked pointer: locals assigned later and struct members, not host code's") {
        const std::string in =
            "typedef struct { int width; float* elements; const float* source; } Matrix;\n"
            "class View { public: float *data; float* get() const { return data; } };\n"
            "union Bits { float* p; const int* q; unsigned long long a; };\n"
            "template <class T> struct Box { T* p; };\n"
            "enum class Kind { a, b };\n"
            "__device__ float first(float* p) { const float* q; q = p; return q[0]; }\n"
            "struct Buffers { float* d_P = nullptr; };\n"
            "void host(float* P) { float* d; d = P; Buffers b; }\n"
            "__global__ void k(Matrix m, View v, Bits b, Box<float> x) {}\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "typedef struct { int width; ::tilelab::cpu::DevicePointer<float> elements; ::tilelab::cpu::DevicePointer<const float> source; } Matrix;"));
        CHECK(has(out, "public: ::tilelab::cpu::DevicePointer<float> data; float* get() const"));  // a function is no member
        CHECK(has(out, "union Bits { ::tilelab::cpu::DevicePointer<float> p; ::tilelab::cpu::DevicePointer<const int> q;"));
        CHECK(has(out, "template <class T> struct Box { T* p; };"));  // not a scalar: left alone
        CHECK(has(out, "::tilelab::cpu::DevicePointer<const float> q; q = p;"));
        CHECK(has(out, "void host(float* P) { float* d; d = P; Buffers b; }"));  // host code: left alone
        CHECK(has(out, "struct Buffers { float* d_P = nullptr; };"));  // no device code names it: left alone
    }

    TEST_CASE("a __device__ function's pointer parameters may point into global or shared memory") {
        const std::string out = cuda_to_cpp(
            "__device__ __forceinline__ float dot(const float* __restrict__ a, float* b, int n);\n"
            "__global__ void k(float* A, const float* B) {}\n"
            "__device__ float4 load(const float* row) { return *reinterpret_cast<const float4*>(row); }\n");
        CHECK(has(out, "float dot(::tilelab::cpu::DevicePointer<const float> a, ::tilelab::cpu::DevicePointer<float> b, int n);"));
        CHECK(has(out, "__global__ void k(float* tilelab_raw_A, const float* tilelab_raw_B) {"));  // its signature kept
        CHECK(has(out, "load(::tilelab::cpu::DevicePointer<const float> row)"));
    }

    TEST_CASE("a kernel's pointer parameters become checked pointers, its signature kept") {
        const std::string out = cuda_to_cpp(
            "__global__ void __launch_bounds__(256) k(const float* M, float* __restrict__ P, int n) /* c */ {\n"
            "    P[n] = M[n];\n}\n"
            "__global__ void declared(float* P);\n");
        CHECK(has(out, "k(const float* tilelab_raw_M, float* tilelab_raw_P, int n) /* c */ { "
                       "::tilelab::cpu::KernelPointer<const float> M(tilelab_raw_M); "
                       "::tilelab::cpu::KernelPointer<float> P(tilelab_raw_P);"));
        CHECK(has(out, "__launch_bounds__(256)"));
        CHECK(has(out, "__global__ void declared(float* P);"));  // a declaration: the definition is rewritten
    }

    TEST_CASE("a lambda's pointer parameters in device code take the kernel's checked pointers") {
        const std::string out = cuda_to_cpp(
            "__global__ void k(const float* M, float* P) {\n"
            "    auto load = [&](auto to, const float* from, int n) { to[0] = from[n]; };\n"
            "    auto store = [=] __device__ (float* out) { out[0] = 1.f; };\n"
            "    float a[2]; a[0] = 0.f; int b[1] = {0}; (void)b[0];\n"
            "}\n"
            "void host() { auto f = [](float* h) { h[0] = 0.f; }; }\n");
        CHECK(has(out, "[&](auto to, ::tilelab::cpu::DevicePointer<const float> from, int n)"));
        CHECK(has(out, "[=] __device__ (::tilelab::cpu::DevicePointer<float> out)"));
        CHECK(has(out, "float a[2]; a[0] = 0.f;"));  // subscripts are no lambdas
        CHECK(has(out, "[](float* h)"));  // host code: left alone
    }

    TEST_CASE("a function marked __device__ by a macro is device code") {
        const std::string out = cuda_to_cpp(
            "#define HD __forceinline__ __device__ // as CUTLASS_DEVICE\n"
            "#define WIDTH 16\n"
            "struct Iterator {\n"
            "    const float* pointer;\n"
            "    HD Iterator(const float* A) : pointer(A) {}\n"
            "};\n"
            "__global__ void k(const float* M) { Iterator it(M); (void)WIDTH; }\n");
        CHECK(has(out, "#define HD __forceinline__ __device__"));  // its definition kept
        CHECK(has(out, "__forceinline__ __device__ Iterator(::tilelab::cpu::DevicePointer<const float> A)"));
        CHECK(has(out, "::tilelab::cpu::DevicePointer<const float> pointer;"));  // a const member too
        CHECK(has(out, "(void)WIDTH;"));  // other macros stay
        CHECK(std::count(out.begin(), out.end(), '\n') == 7);  // each line where it was
    }

    TEST_CASE("a const_cast in device code makes a checked pointer") {
        const std::string out = cuda_to_cpp(
            "__global__ void k(const float* M) { float* m = const_cast<float*>(M); m[0] = 0.f; }\n");
        CHECK(has(out, "::tilelab::cpu::CastPointer<float>(M)"));
    }

    TEST_CASE("a reinterpret_cast to an integer takes the emulator's pointers too, its type kept as written") {
        const std::string in =
            "__device__ bool aligned(const float* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }\n"
            "void f(float* q) { auto a = reinterpret_cast< std::uintptr_t\n>(q); auto v = reinterpret_cast<const float4*>(q);\n"
            "  auto r = reinterpret_cast<float&>(a); auto s = reinterpret_cast<Pair<int, int>>(a); }\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "return ::tilelab::cpu::address_cast<uintptr_t>(p) % 16 == 0;"));
        CHECK(has(out, "auto a = ::tilelab::cpu::address_cast< std::uintptr_t\n>(q);"));
        CHECK(has(out, "::tilelab::cpu::vector_cast<const float4>(q)"));  // a vector cast stays one
        CHECK(has(out, "reinterpret_cast<float&>(a)"));                   // references and templates are left alone
        CHECK(has(out, "reinterpret_cast<Pair<int, int>>(a)"));
    }

    TEST_CASE("drops the cast to void* of cudaLaunchKernel's kernel, which the CPU backend's launch needs typed") {
        const std::string out = cuda_to_cpp(
            "void f(void** a) {\n"
            "  cudaLaunchKernel((void*)k, g, b, a, 0, 0);\n"
            "  cudaLaunchKernel( ( const void * ) &k, g, b, a);\n"
            "  cudaLaunchKernel(reinterpret_cast<const void*>(k), g, b, a);\n"
            "  cudaLaunchKernel((void**)k, g, b, a);\n"
            "  cudaLaunchKernelExC(&c, (void*)k, a);\n"
            "}\n");
        CHECK(has(out, "  cudaLaunchKernel(k, g, b, a, 0, 0);\n"));
        CHECK(has(out, "  cudaLaunchKernel(  &k, g, b, a);\n"));
        CHECK(has(out, "  cudaLaunchKernel((k), g, b, a);\n"));
        CHECK(has(out, "  cudaLaunchKernel((void**)k, g, b, a);\n"));  // not a cast to void*: left alone
        CHECK(has(out, "  cudaLaunchKernelExC(&c, (void*)k, a);\n"));  // another function
    }

    TEST_CASE("pointer casts in device code become checked pointers, so no plain pointer reads a tile unseen") {
        const std::string in =
            "__global__ void k(const float* A) {\n"
            "    extern __shared__ unsigned char bytes[];\n"
            "    float* tile = reinterpret_cast<float*>(bytes);\n"
            "    float v = *(const float*)&tile[1] + sizeof(float*) + f(A)[0];\n"
            "    int4* q = (int4\n *) tile; auto z = static_cast<float const*>(nullptr);\n"
            "    if ((float*)A == nullptr) return; float4 w = *(float4*)A; void* u = (void*)A;\n"
            "}\n"
            "__device__ float g(float* p);\n"
            "void host() { float* h = (float*)malloc(4); auto c = reinterpret_cast<float*>(h); }\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "as_pointer<float>( ::tilelab::cpu::CastPointer<float>(bytes));"));
        CHECK(has(out, "*(::tilelab::cpu::CastPointer<const float>)&tile[1] + sizeof(float*) + f(A)[0]"));
        CHECK(has(out, "int4* q = (::tilelab::cpu::CastPointer<int4>)\n tile;"));  // the line kept
        CHECK(has(out, "::tilelab::cpu::CastPointer<const float>(nullptr)"));
        CHECK(has(out, "if ((::tilelab::cpu::CastPointer<float>)A == nullptr)"));
        CHECK(has(out, "(::tilelab::cpu::VectorPointer<float4> )A"));  // vector casts keep their own rewrite
        CHECK(has(out, "(void*)A"));                                    // void* is no element type
        CHECK(has(out, "(float*)malloc(4)"));                           // host code is left alone
        CHECK(has(out, "reinterpret_cast<float*>(h)"));
    }

    TEST_CASE("memcpy in device code moves shared memory as element reads and stores, host code keeps its own") {
        const std::string out = cuda_to_cpp(
            "__device__ void f(float* d, const float* s) { memcpy(d, s, 16); std::memcpy(d, s, 4); __builtin_memcpy (d, s, 4); }\n"
            "void host(float* d, float* s) { std::memcpy(d, s, 4); cuda::memcpy_async(d, s, 4); }\n");
        CHECK(has(out, "{ ::tilelab::cpu::device_memcpy(d, s, 16); ::tilelab::cpu::device_memcpy(d, s, 4); "
                       "::tilelab::cpu::device_memcpy (d, s, 4); }"));
        CHECK(has(out, "void host(float* d, float* s) { std::memcpy(d, s, 4); cuda::memcpy_async(d, s, 4); }"));
    }

    TEST_CASE("a __shared__ struct is declared as its twin, whose members are shared elements") {
        const std::string in =
            "struct Tiles {\n  float m[T][T]; // M\n  float n[T][T], s;\n  int* p;\n  float f() { return 0; }\n};\n"
            "struct Outer { Tiles inner; int count; };\n"
            "__global__ void k() {\n  __shared__ Tiles tiles;\n  __shared__ Outer outer[2];\n  tiles.m[0][0] = 1;\n}\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "};\nstruct Outer"));  // the struct itself is left as written, its twin after it on its line
        CHECK(has(out, "}; struct tilelab_shared_Tiles { ::tilelab::cpu::Shared<float> m[T][T]; "
                       "::tilelab::cpu::Shared<float> n[T][T]; ::tilelab::cpu::Shared<float> s; "
                       "::tilelab::cpu::Shared<int*> p; static const ::tilelab::cpu::SharedMember* "));
        CHECK(has(out, "::tilelab::cpu::shared_member<decltype(m)>(\"m\", offsetof(tilelab_shared_Tiles, m))"));
        CHECK(has(out, "struct tilelab_shared_Outer { tilelab_shared_Tiles inner; ::tilelab::cpu::Shared<int> count;"));
        CHECK(has(out, "tilelab_shared_Tiles& tiles = ::tilelab::cpu::block_shared<tilelab_shared_Tiles>([] {}, \"tiles\");"));
        CHECK(has(out, "tilelab_shared_Outer (&outer)[2] = ::tilelab::cpu::block_shared<tilelab_shared_Outer[2]>("));
        CHECK(has(out, "tiles.m[0][0] = 1;"));
    }

    TEST_CASE("a struct defined in its __shared__ declaration gets its twin there, keeping the lines") {
        const std::string in = "__global__ void k() {\n  __shared__ struct {\n    float M[T][T];\n    float N[T][T];\n"
                               "  } tiles, more;\n  __shared__ struct Named { int c; } named;\n  __syncthreads();\n}\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "struct tilelab_shared_tiles { ::tilelab::cpu::Shared<float> M[T][T]; ::tilelab::cpu::Shared<float> N[T][T];"));
        CHECK(has(out, "tilelab_shared_tiles& tiles = ::tilelab::cpu::block_shared<tilelab_shared_tiles>([] {}, \"tiles\"); "
                       "tilelab_shared_tiles& more = "));
        CHECK(has(out, "struct Named { int c; }; struct tilelab_shared_Named { ::tilelab::cpu::Shared<int> c;"));
        CHECK(has(out, "tilelab_shared_Named& named = "));
    }

    TEST_CASE("casts to array views become views of shared elements, and so do the variables declared as views") {
        const std::string in =
            "using Tile = float[T][T];\ntypedef float Row[T];\n"
            "__global__ void k(float* g) {\n"
            "    extern __shared__ float smem[];\n"
            "    float (&a)[T][T] = *reinterpret_cast<float (*)[T][T]>(smem);\n"
            "    Tile& b = *reinterpret_cast<Tile*>(smem + T * T);\n"
            "    const float (*c)[T] = (const float (*)[T])smem;\n"
            "    Row& d = reinterpret_cast<Row&>(smem[0]);\n"
            "    float4 (&e)[4] = reinterpret_cast<float4 (&)[4]>(smem[0]);\n"
            "    auto f = static_cast<float (*)[T]>(static_cast<void*>(g));\n"
            "    float x = (a)[0][0] + b[0][0]; float& r = reinterpret_cast<float&>(x);\n"
            "}\n"
            "void host(float* h) { float (*v)[4] = (float (*)[4])h; }\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "decltype(auto) a = ::tilelab::cpu::as_view<float (&)[T][T]>( *::tilelab::cpu::CastPointer<float[T][T]>(smem));"));
        CHECK(has(out, "decltype(auto) b = ::tilelab::cpu::as_view<Tile&>( *::tilelab::cpu::CastPointer<Tile>(smem + T * T));"));
        CHECK(has(out, "decltype(auto) c = ::tilelab::cpu::as_view<const float (*)[T]>( (::tilelab::cpu::CastPointer<const float[T]>)smem);"));
        CHECK(has(out, "decltype(auto) d = ::tilelab::cpu::as_view<Row&>( ::tilelab::cpu::CastReference<Row>(smem[0]));"));
        CHECK(has(out, "as_view<float4 (&)[4]>( ::tilelab::cpu::CastReference<float4[4]>(smem[0]));"));
        CHECK(has(out, "auto f = ::tilelab::cpu::CastPointer<float[T]>(static_cast<void*>(g));"));
        // No view: a checked cast, whose reference may not be into shared memory or P (address_cast.hpp).
        CHECK(has(out, "float x = (a)[0][0] + b[0][0]; float& r = ::tilelab::cpu::checked_reinterpret<float&>(x);"));
        CHECK(has(out, "void host(float* h) { float (*v)[4] = (float (*)[4])h; }"));                // host code: as it was
    }
    TEST_CASE("a __device__ function's array, alias and struct parameters take shared tiles, deduced at each call") {
        const std::string in =
            "#include <x.h>\nusing Tile = float[T][T];\nstruct Tiles { float M[T][T]; };\n"
            "template <int R, int C>\n__device__ void load(float (&tile)[R][C], const float* g) { tile[0][0] = g[0]; }\n"
            "static __device__ __forceinline__ float rows(const float (*t)[C], float flat[], const unsigned int u[][C]);\n"
            "__device__ void both(Tile& a, const Tiles& s, struct Tiles* p, int n, float (&)[4]) {}\n"
            "template <>\n__device__ void load<1, 1>(float (&tile)[1][1], const float* g) {}\n"
            "__device__ float v;\n"
            "__global__ void k(float* g) {\n"
            "    __shared__ Tiles tiles;\n"
            "    auto f = [&](float (&t)[T][T], Tiles& u) { t[0][0] = u.M[0][0]; };\n"
            "    float x = g[1](2);\n"
            "}\n";
        const std::string out = cuda_to_cpp(in);
        CHECK(lines(out) == lines(in));
        CHECK(has(out, "template <int R, int C, class tilelab_E0>\n__device__ void load(tilelab_E0 (&tile)[R][C], "
                       "::tilelab::cpu::DevicePointer<const float> g)"));
        CHECK(has(out, "template <class tilelab_E0, class tilelab_E2> static __device__ __forceinline__ float rows("
                       "const tilelab_E0 (*t)[C], ::tilelab::cpu::DevicePointer<float> flat, const tilelab_E2 u[][C]);"));
        CHECK(has(out, "template <class tilelab_E0, class tilelab_E1, class tilelab_E2, class tilelab_E4> __device__ "
                       "void both(tilelab_E0& a, const tilelab_E1& s, tilelab_E2* p, int n, tilelab_E4 (&)[4]) {}"));
        CHECK(has(out, "template <>\n__device__ void load<1, 1>(float (&tile)[1][1],"));  // a specialisation: as it was
        CHECK(has(out, "__device__ float v;"));
        CHECK(has(out, "auto f = [&](auto (&t)[T][T], auto& u) {"));
        CHECK(has(out, "float x = g[1](2);"));
    }
}

