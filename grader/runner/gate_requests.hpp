/// @file gate_requests.hpp
/// @brief The performance gate's requests, as the runner answers them (gate_requests.cpp): operand sets loaded and
/// drawn from the checker's seed, the timed launches and their digests, and results kept and sent back. The checker
/// times them; nothing is timed here that decides anything.
#pragma once

#include "runner_lab.hpp"

#include <tilelab/wire.hpp>

namespace tilelab::runner {

/// perf_load: buffers for `sets` operand sets of side n; the last gate's go first.
wire::Writer perf_load(wire::Reader& in, const RunnerLab& lab);
/// perf_fill: the first `sets` operand sets drawn afresh from the checker's seed, P poisoned, L2 persistence reset.
wire::Writer perf_fill(wire::Reader& in);
/// perf_launches: one launch of @p lab's kernel on each of the first `sets` operand sets, a wait, each digest.
wire::Writer perf_launches(wire::Reader& in, const RunnerLab& lab);
/// perf_keep: a device copy of one result of the last perf_launches; its number.
wire::Writer perf_keep(wire::Reader& in);
/// perf_kept: a copy perf_keep kept, sent back; its slot is free again.
wire::Writer perf_kept(wire::Reader& in);
/// perf_samples: the elements of the last perf_launches' results at the places asked, from every set.
wire::Writer perf_samples(wire::Reader& in);

}  // namespace tilelab::runner
