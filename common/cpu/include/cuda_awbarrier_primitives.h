/// @file cuda_awbarrier_primitives.h
/// @brief The CPU backend's stand-in for CUDA's <cuda_awbarrier_primitives.h>, which it does not emulate: the build fails here, first, with a
/// message that says so (the build check gives it as the reason), before any error the rest of the lab's code would
/// give without it. CUDA's own header, which may be on the host compiler's path, does not compile with the
/// stand-in runtime.
#pragma once

#error "the CPU backend does not emulate <cuda_awbarrier_primitives.h> (arrive-wait barrier primitives (__awbarrier_*))"
