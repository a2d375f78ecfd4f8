/// @file fault_words.hpp
/// @brief The checker's own diagnosis of an out-of-bounds access that failed a multiply: which matrix, which element,
/// which way, from the numbers of the reply's header (wire::FaultSite) and the shape the checker itself asked for.
/// What the lab's program printed never goes into it.
#pragma once

#include <tilelab/wire.hpp>

#include <string>

namespace tilelab::grader {

/// "the kernel read M[4], past the end of M (M is 1x1, 1 element; index 4 would be row 4, column 0), while
/// multiplying 1x1x1 with matmul_tiled_boundary(...): check the bounds tests and the index arithmetic": @p fault, in
/// a multiply of a @p rows × @p inner × @p cols product (M rows × inner, N inner × cols, P rows × cols), @p doing
/// what the request was. Empty where the fault names none of the kit's matrices.
std::string describe_fault(const wire::FaultSite& fault, int rows, int inner, int cols, const std::string& doing);

/// The checker's words for an illegal address that reached none of M, N and P while @p doing: an index far out of
/// bounds, or a pointer that is not a device buffer (the runner's message says which).
std::string outside_every_matrix(const std::string& doing);

}  // namespace tilelab::grader
