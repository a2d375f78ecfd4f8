#include "tilelab/cuda_check.hpp"

namespace tilelab {

namespace {
std::string describe(cudaError_t code, const char* expression, const char* file, int line) {
    std::string message = std::string(expression) + " failed at " + file + ":" + std::to_string(line) + ": " +
                          cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
    const std::string hint = hint_for(code);
    if (!hint.empty()) message += "\n  hint: " + hint;
    return message;
}
}  // namespace

CudaError::CudaError(cudaError_t code, const char* expression, const char* file, int line)
    : std::runtime_error(describe(code, expression, file, line)), code_(code) {}

void check_cuda(cudaError_t code, const char* expression, const char* file, int line) {
    if (code != cudaSuccess) throw CudaError(code, expression, file, line);
}

std::string hint_for(cudaError_t code) {
    switch (code) {
        case cudaErrorIllegalAddress:
        case cudaErrorMisalignedAddress:
            return "the kernel read or wrote memory outside its buffers (check the bounds tests and the index "
                   "arithmetic, row * width + col), or was given a host pointer instead of one from cudaMalloc";
        case cudaErrorInvalidValue:
            return "a launch or call was refused: a block may have at most 1024 threads (TILE_WIDTH * TILE_WIDTH); "
                   "a copy needs device pointers on its device side and a size within the buffers";
        case cudaErrorInvalidConfiguration:
            return "the launch configuration is invalid: a block may have at most 1024 threads and no grid or "
                   "block dimension may be 0";
        case cudaErrorLaunchTimeout:
            return "the kernel ran too long: check the loop bounds";
        case cudaErrorLaunchOutOfResources:
            return "the block asks for more registers or shared memory than a multiprocessor has";
        case cudaErrorMemoryAllocation:
            return "the GPU does not have that much free memory: check the sizes passed to cudaMalloc (use size_t)";
        case cudaErrorNotReady:
            return "the work was not finished yet: wait for it (cudaEventSynchronize, cudaDeviceSynchronize) first";
        case cudaErrorNoKernelImageForDevice:
            return "the program was not built for this GPU: configure with -DCMAKE_CUDA_ARCHITECTURES=<its compute "
                   "capability without the dot, 86 for 8.6> (nvidia-smi --query-gpu=compute_cap --format=csv)";
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
            return "no usable NVIDIA GPU or driver on this machine";
#ifdef TILELAB_CPU_BACKEND
        case cudaErrorTileLabSharedMemoryRace:
            return "two threads used one shared-memory element between the same two barriers, one of them writing: "
                   "a __syncthreads() is missing (the message says which)";
        case cudaErrorTileLabBarrierDivergence:
            return "not every thread of the block reached the same __syncthreads(): never put a barrier inside a "
                   "bounds test or an early return";
        case cudaErrorTileLabKernelException:
            return "the kernel threw an exception";
        case cudaErrorTileLabOutputAccess:
            return "a thread read an element of P it had not stored itself: keep each sum in a register and store it "
                   "once (the message says which element, and who stored it)";
#endif
        default:
            return {};
    }
}

}  // namespace tilelab
