/// @file
/// @brief The performance gate's audit of every launch the lab's program timed (grader/checks/perf_check.cpp): 64
/// elements of every result sampled after its digest came and checked against float64 at the lab's precision
/// (gate_audit.hpp), no result left as the poison, and one result a request kept on the GPU and read back after the
/// hold, its digest and sampled elements compared with what the timed reply sent.
#pragma once

#include "gate_audit.hpp"
#include "gate_side.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tilelab::grader {

/// Rows and columns of each result of every timed request whose crossings are sampled: 8 × 8 = 64 elements of every
/// launch's result, checked against float64 at the lab's precision (gate_audit.hpp).
constexpr int sample_grid_side = 8;

/// What the audits of the lab's results found.
struct Audit {
    int forged = 0;   // kept results whose digest is not the one the timed reply sent, or whose sampled elements
                      // are not the ones perf_samples sent
    int audited = 0;  // results read back whole and checked
    int results = 0;             // results of timed requests checked: every launch's
    int unwritten_results = 0;   // of those, left as perf_fill poisoned them (their digest is the poison's)
    SampleFindings samples;      // the sampled elements of every result against float64
};

/// The elements sampled from every result of one of the lab's timed requests, to check after the hold.
struct SampledRequest {
    std::uint64_t seed = 0;
    std::vector<std::uint64_t> digests;  // the timed reply's, one a result
    std::vector<SampleGrid> grids;       // one a result
    std::vector<std::vector<float>> values;  // the lab's program's, at each grid's elements
};

/// Asks @p lab for the elements of every result of its last timed request (@p timed, operands from @p seed) at a
/// grid drawn now for each, after the digests came: no launch's result goes unchecked.
SampledRequest sample_every_result(Side& lab, const Timed& timed, std::uint64_t seed, int n, std::mt19937_64& pick);

/// The gate's digest of a result that no launch wrote, for side @p n (computed once a side: 16 MiB at 2048²).
std::uint64_t poisoned_digest_of(int n);

/// Checks every result of the requests in @p sampled: none may be left unwritten (a digest that is the poison's), and
/// each one's sampled elements must be within the lab's precision of the float64 product; forgets them.
void audit_samples(std::vector<SampledRequest>& sampled, int n, InputPrecision precision, Audit& found);

/// One of the lab's results, kept in the lab's program's device memory while the GPU is held alone (a copy on the
/// GPU, microseconds) and read back and checked after the hold: reading 16 MiB through the pipe at 2048² (tens of
/// milliseconds a pair, a third of a race's time) and checking its digest would otherwise keep the GPU held alone and
/// idle, with every other check of a batch waiting.
struct KeptResult {
    int number = 0;            // perf_keep's number for it
    std::uint64_t digest = 0;  // the one the timed reply sent
    int set = 0;
    SampleGrid grid;             // where perf_samples sampled it
    std::vector<float> sampled;  // what perf_samples sent for it
};

/// Keeps one of the lab's results of the last timed request, chosen now, for audit_kept() to check against its digest
/// and against the elements @p sampled says it holds.
KeptResult keep_result(Side& lab, const SampledRequest& sampled, std::mt19937_64& pick);

/// Reads back each result @p lab kept and checks it against its digest and against the elements perf_samples sent
/// for it (a program that answered for kernels that had not run cannot send both right); forgets them.
/// @p use: timing while the caller still holds the GPU alone, else shared.
void audit_kept(Side& lab, std::vector<KeptResult>& kept, int n, Audit& found, GpuUse use);

/// "W of S sampled elements ... are wrong at this size (...)": what the samples of every result showed, in the
/// checker's words, with what the lab's precision allows and, where the errors look like rounding, what causes them.
std::string wrong_samples_words(const Audit& found, InputPrecision precision);

}  // namespace tilelab::grader
