/// @file launch_record.hpp
/// @brief What the kit's own launch of a lab's kernel takes from the student's launcher: the dynamic shared memory
/// of the launcher's launches of the kernel (the third argument of <<<grid, block, bytes>>>, of cudaLaunchKernel or
/// of cudaLaunchKernelEx), recorded as the launcher launches it, on either backend (launch_record.cpp: the CPU
/// backend's emulator shows every launch to the runner; on a GPU the runner's link wraps CUDA's launch functions).
///
/// The grid and block stay the contract's (labs.hpp): that is the rule of the kit's launch. A kernel that opts in to
/// more than 48 KB, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, n), keeps the
/// launcher's opt-in too: a function's attributes last for the process, on a GPU as on the CPU backend, and the
/// launcher has always run in the runner's process before the kit's launch (launcher_dynamic_shared_bytes runs it
/// when it has not).
#pragma once

#include "runner_lab.hpp"

#include <cstddef>

namespace tilelab::runner {

/// Calls @p launcher on @p M, @p N and @p P, recording for the shape @p rows × @p inner × @p cols the dynamic shared
/// memory its launches of @p kernel asked for: the most, where it launched it more than once; none where it never
/// launched it. The launches run as they would unrecorded.
void call_recording(Launcher launcher, const void* kernel, const float* M, const float* N, float* P, int rows,
                    int inner, int cols);

/// The dynamic shared memory @p launcher's launches of @p kernel asked for on a @p rows × @p inner × @p cols
/// product: what its last call on that shape recorded; where none did, what a call now records, on zeroed scratch
/// buffers of that shape (never the kit's operands) with the launches of @p kernel held back (the kit's launch,
/// not the launcher, runs the kernel). That call's errors are cleared, sticky ones aside (they are the kit's
/// launch's errors too); 0 when the scratch buffers cannot be allocated.
std::size_t launcher_dynamic_shared_bytes(Launcher launcher, const void* kernel, int rows, int inner, int cols);

/// The launch interception's question (launch_record.cpp, either backend): a launch of @p kernel with
/// @p dynamic_shared_bytes is noted where a call of the launcher records @p kernel; returns false for a launch held
/// back (a scratch call of launcher_dynamic_shared_bytes), true for one that runs.
bool note_launch(const void* kernel, std::size_t dynamic_shared_bytes);

}  // namespace tilelab::runner
