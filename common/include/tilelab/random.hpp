/// @file random.hpp
/// @brief Seeded random inputs: the same seed gives the same matrices on every machine.
#pragma once

#include "tilelab/host_matrix.hpp"

#include <cstdint>
#include <string>

namespace tilelab {

/// The seed used when TILELAB_SEED is not set.
inline constexpr std::uint64_t default_seed = 20261122;

/// The run's base seed: TILELAB_SEED from the environment (a decimal number) or default_seed.
/// Throws std::invalid_argument when TILELAB_SEED is set but is not a number.
std::uint64_t base_seed();

/// A seed for one input, mixed from the base seed and a label (e.g. "M 97x61"), so that every
/// input of every test differs while the whole run still follows from one printed number.
std::uint64_t derive_seed(std::uint64_t base, const std::string& label);

/// Fills @p matrix with values drawn uniformly from [-1, 1) by a generator seeded with @p seed.
/// Uses its own generator (splitmix64), not the standard library's distributions, whose output differs
/// between standard libraries.
void fill_uniform(HostMatrix& matrix, std::uint64_t seed);

}  // namespace tilelab
