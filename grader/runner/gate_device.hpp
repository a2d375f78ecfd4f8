/// @file gate_device.hpp
/// @brief The kit's device code for the performance gate's timed requests, in the program that runs the kernel
/// timed (a lab's runner or the gate's reference program): operands drawn from the checker's seed, and the digest
/// of a result (tilelab/gate_data.hpp says how; the checker computes both again on the host to verify). GPU only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilelab::runner {

/// Fills @p M and @p N (n × n each, device memory) with operand set @p set drawn from @p seed, and waits for it.
/// Throws tilelab::CudaError when a CUDA call fails.
void gate_fill(float* M, float* N, int n, std::uint64_t seed, std::uint32_t set);

/// The digests of @p sets consecutive results of @p count floats each in device memory (each the
/// tilelab::gate::result_digest of its values), after the work before them: two kernels and one copy for all, so
/// the time they add to a timed request is small and the same in every program. Throws tilelab::CudaError.
std::vector<std::uint64_t> gate_digests(const float* P, std::size_t count, int sets);

/// The elements at @p places of the @p elements floats at @p P (device memory), after the work before them: the
/// checker's samples of every result of a timed request, gathered on the device (one small kernel, two copies).
/// Throws std::out_of_range for a place past the end, tilelab::CudaError when a CUDA call fails.
std::vector<float> gate_gather(const float* P, std::size_t elements, const std::vector<std::uint64_t>& places);

}  // namespace tilelab::runner
