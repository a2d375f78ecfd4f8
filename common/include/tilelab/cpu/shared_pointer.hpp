/// @file shared_pointer.hpp
/// @brief Pointers into shared memory on the CPU backend: `float* tile = shared + n;`, `float* p =
/// &tile[0][0];`, and a pointer to shared memory passed to a `__device__` function taking `float*`.
///
/// A `__shared__` array's elements are Shared<T> (kernel_language.hpp), so that each access is checked for
/// races; a plain T* cannot hold one. The build therefore rewrites (tools/tilelab_cuda_to_cpp):
/// - a pointer variable declared with an initialiser in a function body, `[const] T* p = init;`, into
///   `auto p = as_pointer<[const] T>(init);`: it takes the initialiser's type, a checked Shared<T>* when the
///   initialiser points into a shared array, the plain T* otherwise (so global memory costs nothing more);
/// - a `__device__` function's pointer parameter, `[const] T* p`, into DevicePointer<[const] T> p, which holds
///   either kind of address and checks each access (an access to global memory only tests the address range).
/// T is a scalar: float, double, int, unsigned, short, char, long, bool (vectors have vector_access.hpp).
#pragma once

#include <tilelab/cpu/vector_access.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace tilelab::cpu {

template <class T>
class Shared;

template <class T>
struct is_shared : std::false_type {};
template <class T>
struct is_shared<Shared<T>> : std::true_type {};

/// A pointer parameter of a __device__ function: into global or shared memory. @p T may be const.
template <class T>
class DevicePointer {
public:
    using Value = std::remove_const_t<T>;
    using Element = std::conditional_t<std::is_const_v<T>, const Shared<Value>, Shared<Value>>;

    DevicePointer() noexcept = default;
    DevicePointer(std::nullptr_t) noexcept {}           // NOLINT: as a T* takes nullptr
    DevicePointer(T* global) noexcept                   // NOLINT: a global (or host) pointer
        : element_(reinterpret_cast<Element*>(global)) {}
    DevicePointer(Element* shared) noexcept : element_(shared) {}  // NOLINT: a shared array's element
    template <class U, class = std::enable_if_t<std::is_const_v<T> && std::is_same_v<U, Value>>>
    DevicePointer(Shared<U>* shared) noexcept : element_(shared) {}  // NOLINT: to const from non-const
    template <class U, class = std::enable_if_t<std::is_const_v<T> && std::is_same_v<U, Value>>>
    DevicePointer(DevicePointer<U> other) noexcept : element_(other.element()) {}  // NOLINT

    /// A rewritten cast in device code, `(float*)x` or `reinterpret_cast<float*>(x)` (address_cast.hpp's
    /// CastPointer): whatever @p any points to, shared memory of another element type included (an
    /// `extern __shared__ unsigned char` array carved into floats), each access stays checked and seen.
    template <class U, std::enable_if_t<!std::is_same_v<std::remove_cv_t<U>, Value>, int> = 0>
    explicit DevicePointer(U* any) noexcept
        : element_(static_cast<Element*>(const_cast<void*>(static_cast<const void*>(any)))) {}
    /// ... of a pointer to const elements (the cast takes const away, as a C-style cast may).
    template <class C = T, std::enable_if_t<!std::is_const_v<C>, long> = 0>
    explicit DevicePointer(const Value* any) noexcept
        : element_(reinterpret_cast<Element*>(const_cast<Value*>(any))) {}
    /// ... of a `__device__` function's pointer parameter of another element type (or to const).
    template <class U, std::enable_if_t<!std::is_same_v<U, T> && !(std::is_const_v<T> && std::is_same_v<U, Value>), int> = 0>
    explicit DevicePointer(DevicePointer<U> other) noexcept
        : element_(static_cast<Element*>(const_cast<void*>(static_cast<const void*>(other.element())))) {}
    /// ... of an integer holding an address (`(float*)(base + offset)` after a `(uintptr_t)` cast).
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, unsigned> = 0>
    explicit DevicePointer(I address) noexcept
        : element_(reinterpret_cast<Element*>(static_cast<std::uintptr_t>(address))) {}

    /// Element @p i: reads and writes go through the race tracking when it is in shared memory.
    Element& operator[](std::ptrdiff_t i) const noexcept { return element_[i]; }
    Element& operator*() const noexcept { return *element_; }

    DevicePointer operator+(std::ptrdiff_t n) const noexcept { return DevicePointer(element_ + n); }
    DevicePointer operator-(std::ptrdiff_t n) const noexcept { return DevicePointer(element_ - n); }
    DevicePointer& operator+=(std::ptrdiff_t n) noexcept { element_ += n; return *this; }
    DevicePointer& operator-=(std::ptrdiff_t n) noexcept { element_ -= n; return *this; }
    DevicePointer& operator++() noexcept { ++element_; return *this; }
    DevicePointer& operator--() noexcept { --element_; return *this; }
    DevicePointer operator++(int) noexcept { DevicePointer old = *this; ++element_; return old; }
    DevicePointer operator--(int) noexcept { DevicePointer old = *this; --element_; return old; }
    std::ptrdiff_t operator-(const DevicePointer& other) const noexcept { return element_ - other.element_; }
    explicit operator bool() const noexcept { return element_ != nullptr; }
    /// The address as an integer wide enough to hold it: an alignment test's `(uintptr_t)p` or `(size_t)p`.
    template <class I, class = std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> &&
                                                sizeof(I) >= sizeof(void*)>>
    explicit operator I() const noexcept {
        return reinterpret_cast<I>(element_);
    }
    /// The address as a pointer to arrays of its elements: a rewritten cast of it to a view, `(float (*)[T])p`
    /// (shared_view.hpp), whose elements stay checked.
    template <class P, std::enable_if_t<std::is_pointer_v<P> && std::is_array_v<std::remove_pointer_t<P>>, int> = 0>
    explicit operator P() const noexcept {
        return reinterpret_cast<P>(const_cast<std::remove_const_t<Element>*>(element_));
    }
    bool operator==(const DevicePointer& other) const noexcept { return element_ == other.element_; }
    bool operator!=(const DevicePointer& other) const noexcept { return element_ != other.element_; }
    bool operator<(const DevicePointer& other) const noexcept { return element_ < other.element_; }

    /// The address, as the element type.
    Element* element() const noexcept { return element_; }

private:
    Element* element_ = nullptr;
};

/// A kernel's pointer parameter (tools/tilelab_cuda_to_cpp gives the kernel one in its place): each access through it
/// is seen (tilelab/cpu/output_reads.hpp follows P; the technique check counts the reads of M and N). It has no
/// conversion to the plain pointer: a copy of it is a checked pointer too (a DevicePointer: a local `float* p;`, a
/// struct's `float* elements;` and a __device__ function's parameter are rewritten into one), and any other copy
/// would read memory unseen, so that it does not compile (the build check names the rule).
template <class T>
class KernelPointer : public DevicePointer<T> {
public:
    using typename DevicePointer<T>::Element;
    explicit KernelPointer(T* global) noexcept : DevicePointer<T>(global) {}
    /// An element's address, `&M[i]`, as the other operand of `c ? &M[i] : M` asks (a checked pointer too).
    KernelPointer(Element* element) noexcept : DevicePointer<T>(element) {}  // NOLINT: as T* converts
    bool operator==(std::nullptr_t) const noexcept { return this->element() == nullptr; }
    bool operator!=(std::nullptr_t) const noexcept { return this->element() != nullptr; }
    using DevicePointer<T>::operator==;
    using DevicePointer<T>::operator!=;
};

template <class T>
DevicePointer<T> operator+(std::ptrdiff_t n, DevicePointer<T> p) noexcept {
    return p + n;
}

/// A rewritten `T* p = init;`: a pointer to a shared array's elements stays one (const added as @p T asks).
template <class T, class U>
auto as_pointer(U* pointer) noexcept {
    using Bare = std::remove_cv_t<U>;
    if constexpr (is_shared<Bare>::value) {
        static_assert(std::is_same_v<Shared<std::remove_const_t<T>>, Bare>,
                      "a pointer into a __shared__ array must have the array's element type");
        using Element = std::conditional_t<std::is_const_v<T> || std::is_const_v<U>, const Bare, Bare>;
        return static_cast<Element*>(pointer);
    } else {
        return static_cast<T*>(pointer);
    }
}
/// From a __device__ function's pointer parameter: stays a DevicePointer.
template <class T, class U>
DevicePointer<T> as_pointer(DevicePointer<U> pointer) noexcept {
    return pointer;
}
/// `T* p = nullptr;` (or 0, NULL): a null T*.
template <class T>
T* as_pointer(std::nullptr_t) noexcept {
    return nullptr;
}
template <class T, class I, class = std::enable_if_t<std::is_integral_v<I>>>
T* as_pointer(I) noexcept {
    return nullptr;
}

/// A rewritten `reinterpret_cast<const float4*>(p)` of a __device__ function's pointer parameter.
template <class V, class T>
VectorPointer<V> vector_cast(DevicePointer<T> pointer) noexcept {
    return VectorPointer<V>::from(pointer.element());
}

}  // namespace tilelab::cpu

/// `__ldg(p + i)` through a __device__ function's pointer parameter.
template <class T>
inline std::remove_const_t<T> __ldg(::tilelab::cpu::DevicePointer<T> p) {
    return static_cast<std::remove_const_t<T>>(p[0]);
}
