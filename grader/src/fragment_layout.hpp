/// @file fragment_layout.hpp
/// @brief Recognises a tensor-core kernel (mma.sync m16n8k8 with TF32 operands, tilelab/mma.hpp) whose lanes hold their
/// fragments in another layout than the PTX ISA's: a result that equals the product recomputed with that mistake.
#pragma once

#include "diagnose.hpp"

#include <string>

namespace tilelab::grader {

/// A hint naming the fragment layout that @p run's result follows, when it equals M · N recomputed with one of the
/// mistakes a kernel makes with mma.m16n8k8's TF32 fragments (tilelab/mma.hpp's table): A's a[1] and a[2]
/// exchanged; B read with k and n exchanged (each 8 × 8 block of N transposed); the k halves of a step exchanged
/// (a[0], a[1] with a[2], a[3], or b[0] with b[1]); the accumulator's c[1] and c[2] exchanged; its columns taken as
/// t and t + 4 instead of 2t and 2t + 1. The fragments are taken at multiples of 16 rows and 8 columns of M, 8 rows
/// and 8 columns of N, as a kernel's warp tiles and steps place them. Empty for a lab whose inputs are not TF32,
/// for a product larger than 256³ (recomputed five times), and when nothing matches.
std::string fragment_layout_hint(const FailedRun& run);

}  // namespace tilelab::grader
