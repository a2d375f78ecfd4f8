/// @file gate_l2.hpp
/// @brief The performance gate's reset of the L2 cache's persistence controls before each timed run (gate_l2.cpp),
/// in the program that runs the kernel timed (a lab's runner or the gate's reference program). GPU only.
#pragma once

namespace tilelab::runner {

/// Undoes whatever a program's code left in the L2 cache's persistence controls, so that no kernel is timed with
/// part of L2 kept for its own data: the lines marked persisting go back to normal (cudaCtxResetPersistingL2Cache),
/// the set-aside for persisting accesses to none (cudaLimitPersistingL2CacheSize 0), and the access policy windows
/// of the default streams, legacy and per thread, are cleared. Nothing to do on a GPU without persisting L2.
/// Throws tilelab::CudaError when a CUDA call fails.
void gate_reset_persisting_l2();

}  // namespace tilelab::runner
