/// @file vector_access.hpp
/// @brief 16- and 8-byte vector accesses (float4, float2) on the CPU backend, checked as a GPU would fault.
///
/// The build rewrites `reinterpret_cast<const float4*>(p)` into vector_cast<const float4>(p) and a pointer type
/// `float4*` into VectorPointer<float4> (tools/tilelab_cuda_to_cpp). Every load or store through such a pointer
/// is checked before it happens: its address must be a multiple of the vector's size (counted from the start of
/// the device buffer, which cudaMalloc aligns to 256 bytes on a GPU, or of shared memory), and all of its bytes
/// must lie inside the buffer. A shared-memory access also goes through the race tracking, as one access of
/// 16 (or 8) bytes. A bad access stops the kernel with cudaErrorMisalignedAddress or cudaErrorIllegalAddress and a
/// message that names the kernel, block, thread and element.
///
/// Reads through a pointer to const give the vector itself (`auto v = p[i]; v.x` works); reads through a pointer
/// to non-const give a reference-like object that converts to the vector (`float4 v = p[i];`) or is assigned to.
#pragma once

#include <cstddef>
#include <type_traits>

namespace tilelab::cpu {

namespace detail {
/// Checks one vector access of @p bytes at @p address (see the file's description), then copies the bytes into
/// @p value (a load) or from it (a store, @p write true). A bad access ends the running CUDA thread.
void vector_access(unsigned char* address, void* value, std::size_t bytes, bool write);
}  // namespace detail

/// What `p[i]` is through a VectorPointer to non-const: loads on conversion, stores on assignment.
template <class V>
class VectorRef {
public:
    /// The vector at @p address (unchecked until it is read or written).
    explicit VectorRef(unsigned char* address) noexcept : address_(address) {}
    /// A checked load.
    operator V() const {
        V value;
        detail::vector_access(address_, &value, sizeof(V), false);
        return value;
    }
    /// A checked store.
    const VectorRef& operator=(const V& value) const {
        V copy = value;
        detail::vector_access(address_, &copy, sizeof(V), true);
        return *this;
    }
    /// A checked load from @p other, then a checked store here.
    const VectorRef& operator=(const VectorRef& other) const { return *this = static_cast<V>(other); }

private:
    unsigned char* address_;
};

/// A pointer to vectors of type @p V (float4, const float4, float2, const float2) whose accesses are checked.
template <class V>
class VectorPointer {
public:
    using Value = std::remove_const_t<V>;  ///< The vector type without const.

    VectorPointer() noexcept = default;
    /// The null pointer.
    VectorPointer(std::nullptr_t) noexcept {}  // NOLINT: a null pointer converts implicitly, as for V*
    /// From a plain pointer to vectors.
    VectorPointer(V* pointer) noexcept  // NOLINT: V* converts implicitly, as in CUDA
        : address_(reinterpret_cast<unsigned char*>(const_cast<Value*>(pointer))) {}
    /// From a pointer to non-const vectors, when this one points to const.
    template <class W, class = std::enable_if_t<std::is_same_v<const W, V> && !std::is_same_v<W, V>>>
    VectorPointer(VectorPointer<W> other) noexcept : address_(other.address()) {}  // NOLINT

    /// The pointer reinterpreted from any other pointer (what reinterpret_cast does).
    template <class T>
    static VectorPointer from(T* pointer) noexcept {
        VectorPointer result;
        result.address_ = reinterpret_cast<unsigned char*>(const_cast<std::remove_cv_t<T>*>(pointer));
        return result;
    }

    /// Element @p i: a checked load through a pointer to const, else a VectorRef.
    auto operator[](std::ptrdiff_t i) const { return at(address_ + i * static_cast<std::ptrdiff_t>(sizeof(Value))); }
    /// Element 0.
    auto operator*() const { return at(address_); }

    VectorPointer operator+(std::ptrdiff_t n) const noexcept { return moved(n); }
    VectorPointer operator-(std::ptrdiff_t n) const noexcept { return moved(-n); }
    VectorPointer& operator+=(std::ptrdiff_t n) noexcept { return *this = moved(n); }
    VectorPointer& operator-=(std::ptrdiff_t n) noexcept { return *this = moved(-n); }
    VectorPointer& operator++() noexcept { return *this += 1; }
    VectorPointer& operator--() noexcept { return *this -= 1; }
    /// Elements between two pointers.
    std::ptrdiff_t operator-(const VectorPointer& other) const noexcept {
        return (address_ - other.address_) / static_cast<std::ptrdiff_t>(sizeof(Value));
    }
    explicit operator bool() const noexcept { return address_ != nullptr; }
    /// The address as an integer wide enough to hold it: an alignment test's `(uintptr_t)p` or `(size_t)p`.
    template <class I, class = std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> &&
                                                sizeof(I) >= sizeof(void*)>>
    explicit operator I() const noexcept {
        return reinterpret_cast<I>(address_);
    }
    bool operator==(const VectorPointer& other) const noexcept { return address_ == other.address_; }
    bool operator!=(const VectorPointer& other) const noexcept { return address_ != other.address_; }

    /// The address, for conversions between vector pointers.
    unsigned char* address() const noexcept { return address_; }

private:
    auto at(unsigned char* address) const {
        if constexpr (std::is_const_v<V>) {
            Value value;
            detail::vector_access(address, &value, sizeof(Value), false);
            return value;
        } else {
            return VectorRef<Value>(address);
        }
    }
    VectorPointer moved(std::ptrdiff_t n) const noexcept {
        VectorPointer result;
        result.address_ = address_ + n * static_cast<std::ptrdiff_t>(sizeof(Value));
        return result;
    }

    unsigned char* address_ = nullptr;
};

/// A rewritten `reinterpret_cast<V*>(pointer)` (V a vector type, possibly const).
template <class V, class T>
VectorPointer<V> vector_cast(T* pointer) noexcept {
    return VectorPointer<V>::from(pointer);
}
/// The same cast applied to a VectorPointer (a vector pointer cast again).
template <class V, class W>
VectorPointer<V> vector_cast(VectorPointer<W> pointer) noexcept {
    return VectorPointer<V>::from(pointer.address());
}

}  // namespace tilelab::cpu
