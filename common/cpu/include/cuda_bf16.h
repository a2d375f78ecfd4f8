/// @file cuda_bf16.h
/// @brief The CPU backend's stand-in for CUDA's <cuda_bf16.h>, which it does not emulate: the build fails here, first, with a
/// message that says so (the build check gives it as the reason), before any error the rest of the lab's code would
/// give without it. CUDA's own header, which may be on the host compiler's path, does not compile with the
/// stand-in runtime.
#pragma once

#error "the CPU backend does not emulate <cuda_bf16.h> (bfloat16: __nv_bfloat16, __nv_bfloat162 and their intrinsics)"
