/// @file cuda_runtime_api.h
/// @brief The CPU backend's stand-in for the CUDA runtime API: the part of it the labs and the grader use,
/// implemented by the TileLab emulator (tilelab/cpu/runtime.hpp). Only the CPU build has this folder on its
/// include path; the GPU build gets NVIDIA's header.
#pragma once

#include <cstddef>

/// Defined in the CPU backend's builds only, for the few places where the grader must know.
#define TILELAB_CPU_BACKEND 1

/// The runtime's version, as NVIDIA's cuda_runtime_api.h gives it: the toolkit whose API these stand-ins follow
/// (CUDA 13.0). A lab may not test it (the source check refuses it: a GPU's machine has its own toolkit).
#define CUDART_VERSION 13000

/// The runtime's error codes, with the values CUDA gives them, plus the emulator's own findings.
enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorLaunchFailure = 4,
    cudaErrorLaunchTimeout = 6,
    cudaErrorLaunchOutOfResources = 7,
    cudaErrorInvalidDeviceFunction = 8,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevice = 10,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorMisalignedAddress = 716,
    /// Threads of a block reached different __syncthreads() calls, or some returned while others waited.
    cudaErrorTileLabBarrierDivergence = 10001,
    /// Two threads of a block touched the same shared-memory element, one writing, with no barrier between.
    cudaErrorTileLabSharedMemoryRace = 10002,
    /// The kernel threw a C++ exception (only possible on the CPU backend).
    cudaErrorTileLabKernelException = 10003,
    /// The kernel read an element of P that its thread had not stored (tilelab/cpu/output_reads.hpp).
    cudaErrorTileLabOutputAccess = 10004,
};

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

/// Three unsigned coordinates, as threadIdx and blockIdx are.
struct uint3 {
    unsigned int x, y, z;
};

/// A grid or block size: unset dimensions are 1.
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

/// CUDA's vector types the labs use, with the alignment CUDA gives them (a float4 access moves 16 aligned bytes).
struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) float4 {
    float x, y, z, w;
};
inline float2 make_float2(float x, float y) { return float2{x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }

struct CUstream_st;
typedef CUstream_st* cudaStream_t;
struct CUevent_st;
typedef CUevent_st* cudaEvent_t;

/// What cudaFuncGetAttributes reports; on the CPU backend, from the kernel's last launch.
struct cudaFuncAttributes {
    std::size_t sharedSizeBytes;
    std::size_t constSizeBytes;
    std::size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
};

/// The properties the kit reads, with the limits of the emulated device.
struct cudaDeviceProp {
    char name[256];
    std::size_t totalGlobalMem;
    std::size_t sharedMemPerBlock;
    std::size_t sharedMemPerBlockOptin;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int major;
    int minor;
    int multiProcessorCount;
    int maxThreadsPerMultiProcessor;
    std::size_t sharedMemPerMultiprocessor;
};

const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device);

cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total);

namespace tilelab::cpu::detail {
/// cudaMemcpyToSymbol's (@p into_symbol) and cudaMemcpyFromSymbol's work once the symbol's type is known: @p bytes
/// from @p offset of the @p symbol_bytes at @p symbol, to or from @p other. A `__constant__` or `__device__` variable
/// is an ordinary global on the CPU backend; the other side is host memory, or a device buffer
/// (cudaMemcpyDeviceToDevice, or cudaMemcpyDefault given one).
cudaError_t copy_symbol(void* symbol, std::size_t symbol_bytes, void* other, std::size_t bytes, std::size_t offset,
                        cudaMemcpyKind kind, bool into_symbol);
}  // namespace tilelab::cpu::detail

/// Copies @p bytes from @p source into the `__constant__` (or `__device__`) variable @p symbol, from its byte
/// @p offset on; past the variable's end is cudaErrorInvalidValue, as on a GPU.
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* source, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return tilelab::cpu::detail::copy_symbol(static_cast<void*>(&symbol), sizeof(T), const_cast<void*>(source), bytes,
                                             offset, kind, true);
}
/// Copies @p bytes of the variable @p symbol, from its byte @p offset on, to @p destination.
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* destination, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return tilelab::cpu::detail::copy_symbol(const_cast<void*>(static_cast<const void*>(&symbol)), sizeof(T),
                                             destination, bytes, offset, kind, false);
}

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* kernel);
/// The kernel attributes cudaFuncSetAttribute sets, with CUDA's values; the CPU backend knows these two.
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,     ///< Dynamic shared memory a launch may ask for (bytes).
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,  ///< A hint (percent of L1 as shared memory, -1 to 100).
};
/// Sets @p attribute of @p kernel, as CUDA does: a launch with more than 48 KB of dynamic shared memory needs
/// cudaFuncAttributeMaxDynamicSharedMemorySize raised first (up to 227 KB less the kernel's static shared memory,
/// else cudaErrorInvalidValue).
cudaError_t cudaFuncSetAttribute(const void* kernel, cudaFuncAttribute attribute, int value);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_threads,
                                                          std::size_t dynamic_shared_bytes);

/// Typed overloads, as NVIDIA's cuda_runtime.h has them: device pointers of any type, kernels by name.
template <class T>
cudaError_t cudaMalloc(T** pointer, std::size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(pointer), bytes);
}
template <class... P>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, void (*kernel)(P...)) {
    return cudaFuncGetAttributes(attributes, reinterpret_cast<const void*>(kernel));
}
template <class... P>
cudaError_t cudaFuncSetAttribute(void (*kernel)(P...), cudaFuncAttribute attribute, int value) {
    return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), attribute, value);
}
template <class... P>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void (*kernel)(P...), int block_threads,
                                                          std::size_t dynamic_shared_bytes) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel),
                                                         block_threads, dynamic_shared_bytes);
}

/// The launch attributes (cudaLaunchAttribute's id) the CPU backend knows, with CUDA's values: those that change
/// nothing a kernel computes. Clusters, cooperative launches and the rest are not declared, so that a lab using
/// them fails the build check with a message that names them.
enum cudaLaunchAttributeID {
    cudaLaunchAttributeIgnore = 0,    ///< An entry that is skipped.
    cudaLaunchAttributePriority = 8,  ///< The launch's priority among streams': one queue here, so no effect.
};
/// An attribute's value: the part of CUDA's union the known attributes use.
union cudaLaunchAttributeValue {
    char pad[64];  ///< CUDA's size of the union.
    int priority;  ///< For cudaLaunchAttributePriority.
};
/// One attribute of a cudaLaunchKernelEx launch.
struct cudaLaunchAttribute {
    cudaLaunchAttributeID id;      ///< Which attribute.
    char pad[8 - sizeof(cudaLaunchAttributeID)];  ///< As CUDA lays it out.
    cudaLaunchAttributeValue val;  ///< Its value.
};
/// A launch as cudaLaunchKernelEx takes it (CUDA's cudaLaunchConfig_t): a kernel's configuration in one struct.
struct cudaLaunchConfig_t {
    dim3 gridDim;                   ///< The grid, in blocks.
    dim3 blockDim;                  ///< The block, in threads.
    std::size_t dynamicSmemBytes;   ///< Dynamic shared memory per block, in bytes.
    cudaStream_t stream;            ///< The stream (one queue for all on the CPU backend).
    cudaLaunchAttribute* attrs;     ///< numAttrs attributes; may be null when numAttrs is 0.
    unsigned int numAttrs;          ///< How many attributes attrs holds.
};

/// @name Streams, asynchronous copies, pinned, managed and stream-ordered memory (streams.cpp).
/// The CPU backend runs all streams' work in one order, the order it was issued (which CUDA allows: work in
/// different streams may run in any order, this one included), and an asynchronous copy or memset is done,
/// in that order, before its call returns.
/// @{
enum cudaStreamFlags_ { cudaStreamDefault = 0x0, cudaStreamNonBlocking = 0x1 };
enum cudaEventFlags_ { cudaEventDefault = 0x0, cudaEventBlockingSync = 0x1, cudaEventDisableTiming = 0x2, cudaEventInterprocess = 0x4 };
enum cudaHostAllocFlags_ { cudaHostAllocDefault = 0x0, cudaHostAllocPortable = 0x1, cudaHostAllocMapped = 0x2, cudaHostAllocWriteCombined = 0x4 };
enum cudaMemAttachFlags_ { cudaMemAttachGlobal = 0x1, cudaMemAttachHost = 0x2, cudaMemAttachSingle = 0x4 };
#define cudaStreamLegacy (reinterpret_cast<cudaStream_t>(0x1))
#define cudaStreamPerThread (reinterpret_cast<cudaStream_t>(0x2))

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch, const void* source, std::size_t source_pitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* destination, std::size_t destination_pitch, const void* source,
                              std::size_t source_pitch, std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream = nullptr);
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes);
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int flags);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaHostRegister(void* pointer, std::size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void* pointer);
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t bytes, int device, cudaStream_t stream = nullptr);
/// Kinds of memory location (CUDA 12.2 and newer): CUDA 13's cudaMemPrefetchAsync names its destination with one.
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};
/// A memory location: a device by ordinal, or the host.
struct cudaMemLocation {
    cudaMemLocationType type;  ///< what @ref id names (a device ordinal for cudaMemLocationTypeDevice)
    int id;                    ///< the device's ordinal, or the host NUMA node
};
/// CUDA 13's form (the only one its toolkit declares): the destination as a location, and flags (0). Code written
/// for CUDA 12 (a device ordinal) and for CUDA 13 both build on the CPU backend.
cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t bytes, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream = nullptr);
cudaError_t cudaMallocAsync(void** pointer, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream);

template <class T>
cudaError_t cudaMallocHost(T** pointer, std::size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(pointer), bytes);
}
template <class T>
cudaError_t cudaHostAlloc(T** pointer, std::size_t bytes, unsigned int flags) {
    return cudaHostAlloc(reinterpret_cast<void**>(pointer), bytes, flags);
}
template <class T>
cudaError_t cudaMallocManaged(T** pointer, std::size_t bytes, unsigned int flags = cudaMemAttachGlobal) {
    return cudaMallocManaged(reinterpret_cast<void**>(pointer), bytes, flags);
}
template <class T>
cudaError_t cudaMallocAsync(T** pointer, std::size_t bytes, cudaStream_t stream) {
    return cudaMallocAsync(reinterpret_cast<void**>(pointer), bytes, stream);
}
/// @}
