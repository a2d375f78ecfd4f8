/// @file reduce.h
/// @brief The CPU backend's stand-in for <cooperative_groups/reduce.h>: cg::reduce and its functors are in
/// <cooperative_groups.h> here.
#pragma once

#include <cooperative_groups.h>
