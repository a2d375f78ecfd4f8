/// @file cooperative_groups.h
/// @brief The CPU backend's stand-in for <cooperative_groups.h>: the thread block and its tiles.
///
/// `cg::this_thread_block()` is the running block: `.sync()` is a __syncthreads() (checked the same way, and
/// reported at the caller's line), `.thread_rank()`, `.thread_index()`, `.group_index()`, `.dim_threads()`,
/// `.size()`. `cg::tiled_partition<N>(block)` (N a power of two up to 32) splits each warp into tiles of N
/// lanes: `.sync()` is a __syncwarp() of the tile's lanes, and `.shfl`, `.shfl_up`, `.shfl_down`, `.shfl_xor`,
/// `.ballot`, `.any`, `.all` are the warp functions over those lanes (tilelab/cpu/warp.hpp). Grid-wide groups
/// (`this_grid()`, which needs a cooperative launch) are not emulated: a kernel that uses them is graded on the
/// GPU backend.
#pragma once

#include <cuda_runtime_api.h>
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/warp.hpp>

namespace cooperative_groups {

/// The block of the running thread.
class thread_block {
public:
    /// __syncthreads(), reported at the caller's line.
    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        ::tilelab::cpu::sync_threads(file, line);
    }
    /// The thread's linear index in the block (x fastest), as a GPU numbers lanes.
    static unsigned long long thread_rank() {
        const uint3 t = ::tilelab::cpu::thread_index();
        const dim3 d = ::tilelab::cpu::block_dim();
        return (1ull * t.z * d.y + t.y) * d.x + t.x;
    }
    static dim3 group_index() { return dim3(::tilelab::cpu::block_index()); }
    static dim3 thread_index() { return dim3(::tilelab::cpu::thread_index()); }
    static dim3 dim_threads() { return ::tilelab::cpu::block_dim(); }
    static dim3 group_dim() { return ::tilelab::cpu::block_dim(); }
    static unsigned long long num_threads() {
        const dim3 d = ::tilelab::cpu::block_dim();
        return 1ull * d.x * d.y * d.z;
    }
    static unsigned long long size() { return num_threads(); }
};

/// The running thread's block.
inline thread_block this_thread_block() { return thread_block(); }

/// A tile of @p Size consecutive threads (by thread_rank) inside one warp.
template <unsigned Size, class Parent = void>
class thread_block_tile {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "the CPU backend emulates tiles of 1, 2, 4, 8, 16 or 32 threads");

public:
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    /// The thread's rank in its tile.
    static unsigned thread_rank() { return static_cast<unsigned>(thread_block::thread_rank() % Size); }
    /// Which tile of the block this is, and how many tiles the block has.
    static unsigned meta_group_rank() { return static_cast<unsigned>(thread_block::thread_rank() / Size); }
    static unsigned meta_group_size() { return static_cast<unsigned>((thread_block::num_threads() + Size - 1) / Size); }

    /// The lanes of the warp this tile holds.
    static unsigned mask() {
        const unsigned lane = static_cast<unsigned>(thread_block::thread_rank() % 32);
        const unsigned bits = Size == 32 ? 0xFFFFFFFFu : (1u << Size) - 1u;
        return bits << (lane / Size * Size);
    }
    void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncwarp(mask(), file, line); }
    template <class T>
    T shfl(T var, int src_rank, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __shfl_sync(mask(), var, src_rank, Size, file, line);
    }
    template <class T>
    T shfl_up(T var, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __shfl_up_sync(mask(), var, delta, Size, file, line);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __shfl_down_sync(mask(), var, delta, Size, file, line);
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __shfl_xor_sync(mask(), var, static_cast<int>(lane_mask), Size, file, line);
    }
    /// The tile's votes: ballot gives bits by rank in the tile.
    unsigned ballot(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        const unsigned lane = static_cast<unsigned>(thread_block::thread_rank() % 32);
        return __ballot_sync(mask(), predicate, file, line) >> (lane / Size * Size);
    }
    int any(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __any_sync(mask(), predicate, file, line);
    }
    int all(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
        return __all_sync(mask(), predicate, file, line);
    }
};

/// Splits @p parent (the block, or a larger tile) into tiles of @p Size threads.
template <unsigned Size, class Parent>
thread_block_tile<Size> tiled_partition(const Parent&) {
    return thread_block_tile<Size>();
}

/// `cg::sync(group)`.
template <class Group>
void sync(const Group& group, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    group.sync(file, line);
}

/// The functors cg::reduce takes (<cooperative_groups/reduce.h>).
template <class T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};

/// cg::reduce(tile, value, op): every lane of the tile gets op folded over the tile's values (a butterfly of
/// shuffles, as the GPU's is).
template <unsigned Size, class Parent, class T, class Op>
T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op, const char* file = __builtin_FILE(),
         int line = __builtin_LINE()) {
    for (unsigned offset = Size / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset, file, line));
    return value;
}

}  // namespace cooperative_groups
