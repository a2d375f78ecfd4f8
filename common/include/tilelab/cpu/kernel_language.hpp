/// @file kernel_language.hpp
/// @brief CUDA's kernel language on the CPU backend: what a lab's source uses, in plain C++.
///
/// The build rewrites a few things before compiling a lab (tools/tilelab_cuda_to_cpp): launches
/// `kernel<<<grid, block>>>(args)` become tilelab::cpu::launch(...)(args); `__shared__` declarations become
/// references into the block's shared memory, with elements of type tilelab::cpu::Shared<T> so that every access
/// is checked for races; vector pointers (`float4*`, `reinterpret_cast<const float4*>`) become checked
/// tilelab::cpu::VectorPointer (vector_access.hpp); and `#pragma unroll`, which a C++ compiler does not know, is
/// dropped. Everything else is here, and in the headers it includes: device_functions.hpp (__ldg, intrinsics,
/// fences), atomics.hpp, warp.hpp (__syncwarp, shuffles, votes); cooperative groups are in <cooperative_groups.h>.
#pragma once

#include <tilelab/cpu/atomics.hpp>
#include <tilelab/cpu/device_functions.hpp>
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/vector_access.hpp>
#include <tilelab/cpu/warp.hpp>

#include <math.h>  // ceilf, fmaf and the rest in the global namespace, as in CUDA

#include <cmath>
#include <cstddef>
#include <tuple>
#include <typeinfo>
#include <type_traits>
#include <utility>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
/// Shared arrays are 16-byte aligned anyway (enough for float4); other variables take the alignment asked for.
#define __align__(n) alignas(n)
/// A `__shared__` the rewriting did not reach (in a header, say): one copy per worker thread, unchecked.
#define __shared__ static thread_local
#define __constant__

#define threadIdx (::tilelab::cpu::thread_index())
#define blockIdx (::tilelab::cpu::block_index())
namespace tilelab::cpu::detail {
/// The running launch's block and grid, set on each worker thread as it joins the launch (scheduler.cpp).
extern thread_local dim3 launch_block_dim;
extern thread_local dim3 launch_grid_dim;
}  // namespace tilelab::cpu::detail
/// blockDim and gridDim are read-only names of the launch's shape, not macros as threadIdx and blockIdx are: they
/// are the same for every thread of a launch, and host code may declare a `dim3 gridDim(...)` of its own, as
/// siboehm's SGEMM_CUDA does, which shadows them here as it does under nvcc.
static thread_local const dim3& blockDim = ::tilelab::cpu::detail::launch_block_dim;
static thread_local const dim3& gridDim = ::tilelab::cpu::detail::launch_grid_dim;
#define __syncthreads() ::tilelab::cpu::sync_threads(__FILE__, __LINE__)

/// A __syncthreads() that returns how many threads of the block gave a nonzero @p predicate.
inline int __syncthreads_count(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::tilelab::cpu::sync_threads_reduce(predicate, ::tilelab::cpu::BarrierReduction::count,
                                               "__syncthreads_count()", file, line);
}
/// A __syncthreads() that returns nonzero when every thread of the block gave a nonzero @p predicate.
inline int __syncthreads_and(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::tilelab::cpu::sync_threads_reduce(predicate, ::tilelab::cpu::BarrierReduction::all,
                                               "__syncthreads_and()", file, line);
}
/// A __syncthreads() that returns nonzero when some thread of the block gave a nonzero @p predicate.
inline int __syncthreads_or(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return ::tilelab::cpu::sync_threads_reduce(predicate, ::tilelab::cpu::BarrierReduction::any,
                                               "__syncthreads_or()", file, line);
}

/// CUDA's warp size, which the labs do not depend on.
constexpr int warpSize = 32;

/// @name min and max, with CUDA's overloads (crt/math_functions.hpp): one per integer width, signed, unsigned and
/// mixed (a mixed pair compares as the unsigned type, as CUDA's does), and float and double (fminf, fmin), so that
/// `min(std::size_t, std::size_t)` or `max(0.0f, x)` picks the overload nvcc picks instead of being ambiguous.
/// @{
#define TILELAB_CPU_MIN_MAX(R, A, B)                                                  \
    inline R min(A a, B b) {                                                          \
        return static_cast<R>(b) < static_cast<R>(a) ? static_cast<R>(b) : static_cast<R>(a); \
    }                                                                                 \
    inline R max(A a, B b) {                                                          \
        return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a); \
    }
TILELAB_CPU_MIN_MAX(int, int, int)
TILELAB_CPU_MIN_MAX(unsigned int, unsigned int, unsigned int)
TILELAB_CPU_MIN_MAX(unsigned int, int, unsigned int)
TILELAB_CPU_MIN_MAX(unsigned int, unsigned int, int)
TILELAB_CPU_MIN_MAX(long int, long int, long int)
TILELAB_CPU_MIN_MAX(unsigned long int, unsigned long int, unsigned long int)
TILELAB_CPU_MIN_MAX(unsigned long int, long int, unsigned long int)
TILELAB_CPU_MIN_MAX(unsigned long int, unsigned long int, long int)
TILELAB_CPU_MIN_MAX(long long int, long long int, long long int)
TILELAB_CPU_MIN_MAX(unsigned long long int, unsigned long long int, unsigned long long int)
TILELAB_CPU_MIN_MAX(unsigned long long int, long long int, unsigned long long int)
TILELAB_CPU_MIN_MAX(unsigned long long int, unsigned long long int, long long int)
#undef TILELAB_CPU_MIN_MAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double min(float a, double b) { return fmin(a, b); }
inline double max(float a, double b) { return fmax(a, b); }
inline double min(double a, float b) { return fmin(a, b); }
inline double max(double a, float b) { return fmax(a, b); }
/// @}

namespace tilelab::cpu {

/// One element of shared memory: reads and writes go through the emulator's race tracking.
template <class T>
class Shared {
public:
    Shared() = delete;  // lives only in a block's shared memory, never constructed
    Shared(const Shared&) = delete;

    operator T() const noexcept {
        note_shared_access(this, sizeof(T), false);
        if (detail::operand_probe_on) detail::probe_shared_read(this, sizeof(T));
        return value_;
    }
    Shared& operator=(const T& value) noexcept {
        note_shared_access(this, sizeof(T), true);
        // A DevicePointer's elements are Shared<T> whatever they point to: a __device__ helper's pointer parameter
        // may hold P (global memory), whose stores the shared-memory check must see unscaled.
        value_ = detail::shared_store_scale == 1.0f || !is_block_shared_address(this) ? value
                                                                                      : detail::scaled_for_shared(value);
        return *this;
    }
    Shared& operator=(const Shared& other) noexcept { return *this = static_cast<T>(other); }
    /// A volatile variable's value (`out[i] = flag;` through a kernel's checked pointer parameter).
    Shared& operator=(const volatile T& value) noexcept { return *this = static_cast<T>(value); }
    template <class U>
    Shared& operator+=(const U& value) noexcept { return *this = static_cast<T>(static_cast<T>(*this) + value); }
    template <class U>
    Shared& operator-=(const U& value) noexcept { return *this = static_cast<T>(static_cast<T>(*this) - value); }
    template <class U>
    Shared& operator*=(const U& value) noexcept { return *this = static_cast<T>(static_cast<T>(*this) * value); }
    template <class U>
    Shared& operator/=(const U& value) noexcept { return *this = static_cast<T>(static_cast<T>(*this) / value); }
    Shared& operator++() noexcept { return *this += 1; }
    Shared& operator--() noexcept { return *this -= 1; }

private:
    T value_;
};

namespace detail {
/// The extents of array type @p A, outermost first, into @p extents (0 past the last).
template <class A>
void extents_of(std::size_t (&extents)[4]) noexcept {
    if constexpr (std::rank_v<A> >= 1) extents[0] = std::extent_v<A, 0>;
    if constexpr (std::rank_v<A> >= 2) extents[1] = std::extent_v<A, 1>;
    if constexpr (std::rank_v<A> >= 3) extents[2] = std::extent_v<A, 2>;
    if constexpr (std::rank_v<A> >= 4) extents[3] = std::extent_v<A, 3>;
}

/// Whether @p E is a struct's twin (struct_twins.cpp of the build step), which lists its members.
template <class E, class = void>
struct lists_members : std::false_type {};
template <class E>
struct lists_members<E, std::void_t<decltype(E::tilelab_members(std::declval<std::size_t&>()))>> : std::true_type {};

template <class A>
SharedDeclaration describe(const char* name) {
    using Element = std::remove_all_extents_t<A>;
    SharedDeclaration declaration{name, sizeof(Element), {0, 0, 0, 0}};
    extents_of<A>(declaration.extents);
    if constexpr (lists_members<Element>::value) declaration.members = Element::tilelab_members(declaration.member_count);
    return declaration;
}
}  // namespace detail

namespace detail {
template <class T>
constexpr bool always_false_v = false;
/// A `__shared__` struct converted to its own type (passed by value, or copied into a variable of it): not
/// emulated, said by the build (the twin's conversion operator, struct_twins.cpp of the build step, calls this).
template <class S>
S copied_shared_struct() {
    static_assert(always_false_v<S>,
                  "the CPU backend does not emulate a __shared__ struct copied whole (passed by value, or into a "
                  "variable of its type): take it by reference (Tiles& t), or copy the members you need");
    return *static_cast<S*>(nullptr);
}
}  // namespace detail

/// A data member @p name of type @p M at @p offset of a `__shared__` struct's twin, as the twin's member list (which
/// the build writes) gives it.
template <class M>
SharedMember shared_member(const char* name, std::size_t offset) noexcept {
    SharedMember member{name, offset, sizeof(M), sizeof(std::remove_all_extents_t<M>), {0, 0, 0, 0}};
    detail::extents_of<M>(member.extents);
    return member;
}

/// A rewritten `__shared__ T name[...]`: the block's copy of it. @p Site is a lambda's type, unique to the
/// declaration, so that each declaration has its own key.
template <class A, class Site>
A& block_shared(Site, const char* name) {
    static const char key = 0;
    static const SharedDeclaration declaration = detail::describe<A>(name);
    return *static_cast<A*>(block_shared_storage(&key, sizeof(A), alignof(A), declaration));
}

/// A rewritten `extern __shared__ T name[]`: the launch's dynamic shared memory.
template <class T>
Shared<T>* dynamic_shared() {
    return static_cast<Shared<T>*>(dynamic_shared_storage(sizeof(T)));
}
/// A rewritten `extern __shared__ S name[]` of a struct type: the launch's dynamic shared memory as @p S's twin.
template <class Twin>
Twin* dynamic_shared_as() {
    return static_cast<Twin*>(dynamic_shared_storage(sizeof(Twin)));
}

namespace detail {
/// Whether a kernel parameter of type @p T is a pointer to data (checked at launch to be device memory), and its
/// address.
template <class T>
struct PointerArgument {
    static constexpr bool is = std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>;
    static const void* address(const T& value) noexcept {
        if constexpr (is) return static_cast<const void*>(value);
        else return nullptr;
    }
};
/// A float4* parameter, rewritten as a checked vector pointer.
template <class V>
struct PointerArgument<VectorPointer<V>> {
    static constexpr bool is = true;
    static const void* address(const VectorPointer<V>& value) noexcept { return value.address(); }
};

/// The index of the first pointer argument in @p values that is not device memory; sizeof...(T) when none.
template <class... T, std::size_t... I>
std::size_t first_host_pointer(const std::tuple<T...>& values, std::index_sequence<I...>, const void** pointer) {
    std::size_t found = sizeof...(T);
    auto visit = [&](std::size_t index, const auto& value) {
        using V = std::decay_t<decltype(value)>;
        if constexpr (PointerArgument<V>::is) {
            const void* address = PointerArgument<V>::address(value);
            if (found == sizeof...(T) && !points_to_device_memory(address)) {
                found = index;
                *pointer = address;
            }
        }
    };
    (visit(I, std::get<I>(values)), ...);
    return found;
}
}  // namespace detail

/// A rewritten launch `kernel<<<grid, block, shared, stream>>>(args)`: launch(kernel, ...)(args).
template <class... P>
class Launch {
public:
    Launch(void (*kernel)(P...), const char* name, const char* file, int line, dim3 grid, dim3 block,
           std::size_t dynamic_shared_bytes)
        : kernel_(kernel), site_{reinterpret_cast<const void*>(kernel), name, file, line}, grid_(grid),
          block_(block), dynamic_shared_bytes_(dynamic_shared_bytes) {}

    /// Converts the arguments to the kernel's parameter types once, as a launch does, and runs the kernel.
    template <class... A>
    void operator()(A&&... arguments) const {
        static_assert(sizeof...(A) == sizeof...(P), "the launch passes a different number of arguments than the kernel takes");
        const std::tuple<std::decay_t<P>...> parameters(std::forward<A>(arguments)...);
        // A kernel reaches device memory only: a host array passed to it faults on a GPU, and fails here too.
        if constexpr (sizeof...(P) > 0) {
            const void* pointer = nullptr;
            const std::size_t bad = detail::first_host_pointer(parameters, std::index_sequence_for<P...>{}, &pointer);
            if (bad < sizeof...(P)) {
                const char* types[] = {typeid(std::decay_t<P>).name()...};
                refuse_host_pointer(site_, grid_, block_, dynamic_shared_bytes_, bad, sizeof...(P), types[bad], pointer,
                                    arguments_);
                return;
            }
        }
        // The kernel runs later, when the host waits for it: the body keeps its own copy of the arguments.
        run_kernel(site_, grid_, block_, dynamic_shared_bytes_,
                   [kernel = kernel_, parameters] { std::apply(kernel, parameters); });
    }

    /// The launch's arguments as written in the source (the rewrite passes them), for messages that name one.
    Launch& written_as(const char* arguments) noexcept {
        arguments_ = arguments;
        return *this;
    }

private:
    void (*kernel_)(P...);
    const char* arguments_ = nullptr;
    LaunchSite site_;
    dim3 grid_;
    dim3 block_;
    std::size_t dynamic_shared_bytes_;
};

template <class... P, class Stream = std::nullptr_t>
Launch<P...> launch(void (*kernel)(P...), const char* name, const char* file, int line, dim3 grid, dim3 block,
                    std::size_t dynamic_shared_bytes = 0, Stream = nullptr) {
    return Launch<P...>(kernel, name, file, line, grid, block, dynamic_shared_bytes);
}

namespace detail {
template <class... P, std::size_t... I>
cudaError_t launch_from_arguments(void (*kernel)(P...), dim3 grid, dim3 block, void** arguments,
                                  std::size_t dynamic_shared_bytes, std::index_sequence<I...>) {
    if (sizeof...(P) > 0 && arguments == nullptr) return cudaErrorInvalidValue;
    launch(kernel, "cudaLaunchKernel", __FILE__, __LINE__, grid, block, dynamic_shared_bytes)(
        *static_cast<std::decay_t<P>*>(arguments[I])...);
    return cudaPeekAtLastError();
}
}  // namespace detail

}  // namespace tilelab::cpu

/// cudaLaunchKernel(kernel, grid, block, args, shared, stream): args[i] points to the i-th argument.
template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** arguments,
                             std::size_t dynamic_shared_bytes = 0, cudaStream_t = nullptr) {
    return ::tilelab::cpu::detail::launch_from_arguments(kernel, grid, block, arguments, dynamic_shared_bytes,
                                                         std::index_sequence_for<P...>{});
}

/// cudaLaunchKernelEx(&config, kernel, args...): the same launch as `kernel<<<config.gridDim, config.blockDim,
/// config.dynamicSmemBytes, config.stream>>>(args...)`. Its attributes are not read: the only ones declared here
/// change nothing a kernel computes (cudaLaunchAttributeID).
template <class... P, class... A>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(P...), A&&... arguments) {
    if (config == nullptr) return cudaErrorInvalidValue;
    ::tilelab::cpu::launch(kernel, "cudaLaunchKernelEx", __FILE__, __LINE__, config->gridDim, config->blockDim,
                           config->dynamicSmemBytes)(std::forward<A>(arguments)...);
    return cudaPeekAtLastError();
}

#include <tilelab/cpu/shared_pointer.hpp>
#include <tilelab/cpu/shared_view.hpp>
#include <tilelab/cpu/address_cast.hpp>
#include <tilelab/cpu/device_memcpy.hpp>
