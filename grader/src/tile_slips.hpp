/// @file tile_slips.hpp
/// @brief Recognises a tiled kernel's index slips (a tile loaded with tx where ty belongs, a tile transposed, a phase
/// left out...): a result that equals M · N recomputed in float64 with that slip, said in the lab's own terms.
#pragma once

#include "diagnose.hpp"

#include <string>

namespace tilelab::grader {

/// A hint naming the index slip that @p run's result follows, with the load, read or store to look at, when the
/// result equals M · N recomputed with one of the slips a tiled kernel makes. For the TILE_WIDTH labs with shared
/// tiles (labs 02 and 03): the M tile's column taken from ty, the N tile's row from tx, either tile transposed,
/// either load without the phase's offset, each TILE_WIDTH × TILE_WIDTH tile of P transposed. For the labs with a
/// configuration of their own (05 on): either load without the phase's offset, M_tile[k][r] read where M_tile[r][k]
/// belongs, each square micro-tile of P transposed (a thread's share of its block tile, where it is square). For
/// both: the sums reset every phase, the last phase left out (a partial one, even where it is the only one). Partial tiles are taken as zero-filled, as the labs
/// ask. When a few slips give the same P on this shape (a single row, a single term), the hint names them all;
/// empty when none matches, when more than three do, for a lab without tiles (run.lab null, lab 01), and for a
/// product larger than 256³ (each slip is one product more).
std::string tile_slip_hint(const FailedRun& run);

}  // namespace tilelab::grader
