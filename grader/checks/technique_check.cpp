// The technique check (CPU backend): the lesson's evidence, from how P was produced. The emulator's operand probe
// (tilelab/cpu/operand_probe.hpp) replaces each element of M and N by a second value where the lab's technique says
// the operands must pass (into shared memory, through 16-byte accesses, by asynchronous copies, into tensor-core
// fragments): P must come out as the product of the second values, which a kernel computing from anywhere else
// cannot produce. The same runs count what the technique improves (global traffic, shared reads, 16-byte accesses,
// copies in flight, tensor-core multiply-adds), compared with the lab's model answer and a reference lab's model:
// the verdict is the same on every machine and for every seed. The GPU's performance gate measures what the same
// technique buys there; a machine with both backends requires both.
#include "technique_evidence.hpp"

#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "probed_run.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/cpu/operand_probe.hpp>
#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::grader {

namespace {

std::string fixed(double x, int digits = 2) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, x);
    return text;
}

std::string percent(double share) { return fixed(100 * share, 0) + "%"; }

// A double as JSON writes it back exactly.
std::string exact(double x) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", x);
    return text;
}

std::uint64_t multiply_adds(const Shape& shape) {
    return static_cast<std::uint64_t>(shape.rows) * shape.inner * shape.cols;
}

std::uint64_t operand_elements(const Shape& shape) {
    return static_cast<std::uint64_t>(shape.inner) * (static_cast<std::uint64_t>(shape.rows) + shape.cols);
}

ReferenceProduct product_of(const HostMatrix& M, const HostMatrix& N, InputPrecision precision) {
    ReferenceProduct reference = reference_matmul(M, N);
    reference.input_precision = precision;
    return reference;
}

// The kernel's counts in words, for the log.
std::string describe(const wire::ProbeCounts& c, const Shape& shape) {
    return "on " + to_string(shape) + " (" + std::to_string(multiply_adds(shape)) + " multiply-adds) the kernel "
           "staged " + std::to_string(c.operand_words_staged) + " elements of M and N into shared memory (" +
           std::to_string(c.async_operand_words) + " by asynchronous copies, " +
           std::to_string(c.vector_global_operand_words) + " loaded 16 bytes at a time) and " +
           std::to_string(c.other_words_staged) + " other values, read " + std::to_string(c.shared_reads) + " words of shared memory (" +
           std::to_string(c.shared_reads_from_others) + " of them stored by another thread; " +
           std::to_string(c.vector_shared_reads) + " 16-byte reads; " + std::to_string(c.in_flight_reads) +
           " words of tiles whose copies ran ahead), read " + std::to_string(c.global_words_read) +
           " words of global memory, and did " + std::to_string(c.tensor_core_multiply_adds) +
           " multiply-adds with warp matrix operations";
}

// The measure's value and its gain, in a sentence: "reads 16.0x less from global memory per multiply-add than the
// naive kernel", "made 94% of its shared reads of tiles copied ahead".
std::string stated(TechniqueMeasure measure, double gain, const std::string& reference_name) {
    switch (measure) {
        case TechniqueMeasure::global_reads:
            return "reads " + fixed(gain, 1) + "x less from global memory per multiply-add than " + reference_name;
        case TechniqueMeasure::shared_reads:
            return "reads shared memory " + fixed(gain, 2) + "x less per multiply-add than " + reference_name;
        case TechniqueMeasure::vector_accesses:
            return "brings " + percent(gain) + " of its operands from global memory by 16-byte loads";
        case TechniqueMeasure::async_in_flight:
            return "makes " + percent(gain) + " of its shared reads from tiles whose asynchronous copies ran ahead of "
                   "the multiply-adds";
        case TechniqueMeasure::tensor_cores:
            return "does " + percent(gain) + " of its multiply-adds with tensor-core operations (mma_sync)";
        case TechniqueMeasure::mma_sync:
            return "does " + percent(gain) + " of its multiply-adds with mma.sync (tilelab::mma_m16n8k8_tf32)";
    }
    return "";
}

std::string stated_level(TechniqueMeasure measure, double gain) {
    return measure == TechniqueMeasure::global_reads || measure == TechniqueMeasure::shared_reads ? fixed(gain, 2) + "x"
                                                                                                   : percent(gain);
}

// What a kernel that falls short should do, per measure.
const char* teaching(TechniqueMeasure measure) {
    switch (measure) {
        case TechniqueMeasure::global_reads:
            return "A tiled kernel brings each element of M and N from global memory into shared memory once per block "
                   "and uses it TILE_WIDTH times from there: each thread loads one element of each tile per phase, "
                   "and every multiply-add takes both operands from the tiles";
        case TechniqueMeasure::shared_reads:
            return "Reuse values from registers: read each tile value a thread needs at step k into a register once "
                   "and use it for all of the thread's outputs that need it (a column of outputs reuses one N_tile "
                   "value; a micro-tile reuses a column of M_tile and a row of N_tile as an outer product)";
        case TechniqueMeasure::vector_accesses:
            return "Load each group of four consecutive elements of M and N with one float4 load where the row "
                   "allows it, store M's tile transposed (and padded), and read a thread's values for step k as "
                   "float4 from both tiles";
        case TechniqueMeasure::async_in_flight:
            return "Issue the copies of a later phase (__pipeline_memcpy_async, then __pipeline_commit) before "
                   "multiplying the current one, and wait for a phase's batch only when it is needed "
                   "(__pipeline_wait_prior(kStages - 2))";
        case TechniqueMeasure::tensor_cores:
            return "Every multiply-add of P goes through the warp matrix functions: load_matrix_sync the fragments, "
                   "mma_sync them into float accumulators, store_matrix_sync the result, partial tiles included "
                   "(stage them through shared memory with zeros outside the matrix)";
        case TechniqueMeasure::mma_sync:
            return "Every multiply-add of P goes through tilelab::mma_m16n8k8_tf32: A and B fragments loaded from the "
                   "shared tiles in the instruction's layout (tilelab::ldmatrix_x4, or plain loads), accumulated in "
                   "float registers, partial tiles included (zeros outside the matrix); wmma fragments are lab 09's";
    }
    return "";
}

// Where the probe must replace operands for the lab's technique, and what that proves, in words.
struct Probe {
    std::uint32_t hooks;
    const char* where;   // "went into shared memory"
    const char* lesson;  // what to do when P did not come out as M2 N2
};

std::vector<Probe> probes_of(TechniqueMeasure measure) {
    switch (measure) {
        case TechniqueMeasure::global_reads:
        case TechniqueMeasure::shared_reads:
            return {{cpu::hook_shared_store, "stored into shared memory",
                     "both operands of every multiply-add come from the tiles in shared memory"}};
        case TechniqueMeasure::vector_accesses:
            // Only the global loads: reads from the tiles as float4 are often the compiler's (four consecutive
            // scalar reads of an aligned row become one LDS.128), which the emulator does not see.
            return {{cpu::hook_vector_global_load, "loaded from global memory by a 16-byte load",
                     "every element of M and N reaches the tiles through a float4 load (the shape's rows are a "
                     "multiple of 4 long)"}};
        case TechniqueMeasure::async_in_flight:
            return {{cpu::hook_async_landing, "landed in shared memory by an asynchronous copy",
                     "the tiles the multiply-adds read arrive by __pipeline_memcpy_async, not by ordinary stores"}};
        case TechniqueMeasure::tensor_cores:
            return {{cpu::hook_mma_operand, "taken by a tensor-core operation (wmma::mma_sync) as its operand",
                     "every multiply-add of P is done by mma_sync, and P is what its accumulators hold (a copy of the "
                     "tiles made through fragments and multiplied by scalar code is not)"}};
        case TechniqueMeasure::mma_sync:
            return {{cpu::hook_mma_operand, "taken by an mma.sync (tilelab::mma_m16n8k8_tf32) as its operand",
                     "every operand of every multiply-add goes through mma.sync"}};
    }
    return {};
}

// The counts a kernel's accesses decide (not the values it computes, nor how many replacements the probe made).
// Whether two runs staged the same words. A value stored into shared memory counts as an operand when its bits are
// an element's (operand_probe.cpp): a sum a kernel stores by hand (an edge's scratch tile) may equal one by chance,
// in one run and not the other (TF32's elements are nearly every TF32 value of their range). So the runs must
// store the same number of words, and which of them read as operands may differ by so few (8, and one in a
// thousand of the other values) that a kernel computing differently has no room to hide in.
bool same_staging(const wire::ProbeCounts& a, const wire::ProbeCounts& b) {
    if (a.operand_words_staged + a.other_words_staged != b.operand_words_staged + b.other_words_staged) return false;
    const std::uint64_t apart = a.operand_words_staged > b.operand_words_staged
                                    ? a.operand_words_staged - b.operand_words_staged
                                    : b.operand_words_staged - a.operand_words_staged;
    return apart <= 8 + std::max(a.other_words_staged, b.other_words_staged) / 1000;
}

bool same_accesses(const wire::ProbeCounts& a, const wire::ProbeCounts& b) {
    return same_staging(a, b) && a.async_operand_words == b.async_operand_words &&
           a.shared_reads == b.shared_reads && a.vector_shared_reads == b.vector_shared_reads &&
           a.shared_reads_from_others == b.shared_reads_from_others &&
           a.vector_global_operand_words == b.vector_global_operand_words &&
           a.global_words_read == b.global_words_read && a.async_word_reads == b.async_word_reads &&
           a.in_flight_reads == b.in_flight_reads && a.tensor_core_multiply_adds == b.tensor_core_multiply_adds &&
           a.mma_sync_multiply_adds == b.mma_sync_multiply_adds;
}

// Whether P, from a run with the probe's replacements, is M2 N2: everywhere, or for 16-byte loads but for one
// element in a hundred (a kernel may load a stray element one by one, a prefetch's edge, say, and still move its
// tiles by float4; a decoy whose float4 loads feed nothing shows everywhere). @p off of @p elements are not.
// A few elements may be off by chance in any lab: a float a kernel computed passes for an operand one time in 2^17
// (tilelab/gate_data.hpp's check bits), and is replaced if the kernel stores it into shared memory (its results,
// staged there before a coalesced store, say). Eight elements are nothing a kernel computing otherwise could use.
constexpr std::uint64_t chance_replacements = 8;
bool second_product(TechniqueMeasure measure, std::uint64_t off, std::uint64_t elements) {
    return off <= chance_replacements || (measure == TechniqueMeasure::vector_accesses && 100 * off <= elements);
}

bool second_product(TechniqueMeasure measure, const Comparison& both, std::size_t elements) {
    return second_product(measure, both.wrong + both.unwritten, elements);
}

// Each element of M and N staged into shared memory must be read from there by threads other than the one that
// stored it at least this often on average (7 times or more in every model answer).
constexpr double least_reads_per_element = 2;

// How often, on average, other threads read each element of M and N that the run staged, counted over
// @p elements at least (every element a tiled kernel needs passes through the tiles once or more, so a kernel that
// stages a few values for all to read, and takes the rest from global memory, shares next to nothing).
double reads_by_others_per_element(const wire::ProbeCounts& counts, std::uint64_t elements) {
    return static_cast<double>(counts.shared_reads_from_others) /
           static_cast<double>(std::max(counts.operand_words_staged, elements));
}

// The reference lab's model as the verdicts name it.
std::string reference_name_of(const LabEntry& entry) {
    return *entry.technique.reference_name != '\0' ? entry.technique.reference_name : "the naive kernel";
}

// Fails the check unless P came out as M2 N2 with the probe at @p probe, making the same accesses as the run without
// it (@p counted); says which operands did not pass there. True when it passed.
bool require_probe(const LabUnderTest& lab, TechniqueMeasure measure, const Probe& probe, const Shape& shape,
                   const ProbeOperands& operands, const wire::ProbeCounts& counted) {
    const auto program = lab_program();
    const ProbedRun run = run_probed(*program, shape, operands, probe.hooks);
    const InputPrecision precision = lab.input_precision;
    const Comparison both = compare(run.P.data(), product_of(operands.M2, operands.N2, precision), 0);
    const std::string how = "the kit multiplied " + to_string(shape) + " again, replacing each element of M and N "
                            "by a second value wherever it was " + probe.where + ": ";
    // A kernel that computes the same way on any values makes the same accesses, every one the probe counts: one
    // that looks at its operands to decide (a run it recognises) does not.
    if (!same_accesses(run.counts, counted)) {
        FAIL_CHECK((how + "the kernel then made other accesses than without the replacements (with them, " +
                    describe(run.counts, shape) + "; without them, " + describe(counted, shape) +
                    "): the kernel works differently depending on the values it reads. A kernel's memory accesses "
                    "depend on the shape, never on the values of M and N"));
        return false;
    }
    if (second_product(measure, both, run.P.size())) {
        const std::size_t off = both.wrong + both.unwritten;
        MESSAGE((how + "P came out as the product of the second values" +
                 (off == 0 ? std::string()
                           : " but for " + std::to_string(off) + " of " + std::to_string(run.P.size()) +
                                 " elements (a computed value that passed for an operand by chance, or, for 16-byte "
                                 "loads, a stray element loaded one by one)") +
                 " (" + std::to_string(run.counts.replaced) + " replacements): " + probe.lesson));
        return true;
    }
    const Comparison neither = compare(run.P.data(), product_of(operands.M, operands.N, precision), 0);
    const Comparison only_M = compare(run.P.data(), product_of(operands.M2, operands.N, precision), 0);
    const Comparison only_N = compare(run.P.data(), product_of(operands.M, operands.N2, precision), 0);
    std::string seen;
    if (neither.passed())
        seen = "P came out unchanged, as if no element had been replaced: the multiply-adds take their operands from "
               "somewhere else (global memory directly, or values that are not elements of M and N, such as sums "
               "stored into the tiles)";
    else if (only_M.passed())
        seen = "only M's elements took effect: N's operands reach the multiply-adds some other way";
    else if (only_N.passed())
        seen = "only N's elements took effect: M's operands reach the multiply-adds some other way";
    else
        seen = std::to_string(both.wrong + both.unwritten) + " of " + std::to_string(run.P.size()) + " elements of P "
               "are not the product of the second values: part of the multiply-adds (some blocks, some phases, the "
               "partial tiles?) take their operands some other way";
    FAIL_CHECK((how + seen + ". The lab's technique needs that " + probe.lesson + ". " + teaching(measure)));
    return false;
}

// What a sample of blocks wrote of P, and how it compares with a product, element by element: only elements the
// blocks run wrote are compared (the others were never computed), each against its own float64 sum.
struct SampledComparison {
    std::uint64_t written = 0;  // elements the blocks run wrote
    std::uint64_t wrong = 0;    // of those, outside tolerance
    std::uint64_t rows = 0;     // distinct rows and columns of P among them
    std::uint64_t cols = 0;
};

// @p written against the product of @p operands drawn by the runner (their second values when @p second) on @p shape.
SampledComparison compare_sampled(const std::vector<wire::WrittenElement>& written, const ProbeOperands& operands,
                                  const Shape& shape, bool second, InputPrecision precision) {
    SampledComparison c;
    const std::size_t rows = static_cast<std::size_t>(shape.rows), inner = static_cast<std::size_t>(shape.inner),
                      cols = static_cast<std::size_t>(shape.cols);
    c.written = written.size();
    // The rows of M and the columns of N that the written elements need, each drawn once and laid out so that every
    // sum reads both in order.
    std::vector<std::size_t> row_slot(rows, SIZE_MAX), column_slot(cols, SIZE_MAX);
    std::vector<float> m_rows, n_columns;
    for (const wire::WrittenElement& element : written) {
        const std::size_t row = element.element / cols, col = element.element % cols;
        if (row_slot[row] == SIZE_MAX) {
            row_slot[row] = m_rows.size() / inner;
            for (std::size_t k = 0; k < inner; ++k) m_rows.push_back(probe_element(operands, gate::Operand::M, row * inner + k, second));
        }
        if (column_slot[col] == SIZE_MAX) {
            column_slot[col] = n_columns.size() / inner;
            for (std::size_t k = 0; k < inner; ++k)
                n_columns.push_back(probe_element(operands, gate::Operand::N, k * cols + col, second));
        }
    }
    c.rows = m_rows.size() / std::max<std::size_t>(1, inner);
    c.cols = n_columns.size() / std::max<std::size_t>(1, inner);
    for (const wire::WrittenElement& element : written) {
        const float* m = m_rows.data() + row_slot[element.element / cols] * inner;
        const float* n = n_columns.data() + column_slot[element.element % cols] * inner;
        double sum = 0, magnitude = 0;
        for (std::size_t k = 0; k < inner; ++k) {
            const double term = static_cast<double>(m[k]) * n[k];
            sum += term;
            magnitude += std::fabs(term);
        }
        if (!(std::fabs(element.value - sum) <= tolerance(static_cast<int>(inner), magnitude, precision))) ++c.wrong;
    }
    return c;
}

// Whether the small shapes' case held in this process: unknown until it ran (a run of the gate shape's case alone
// takes its evidence), and when it failed the gate's shape adds nothing to its verdict but seconds.
enum class SmallShapeVerdict { not_run, held, failed };
SmallShapeVerdict small_shape_verdict = SmallShapeVerdict::not_run;

// Blocks run at the gate's shape: the grid's last and one drawn from the seed. A lab 08 block there is 33 million
// multiply-adds for the emulator, two of them about 3 s of CPU time for the slowest correct style in the self-test
// (sgemm-warptiling), within the CPU backend's 10 s for one request even on a loaded machine.
constexpr unsigned gate_shape_blocks = 2;

}  // namespace

Shape technique_shape(const LabUnderTest& lab, TechniqueMeasure measure, std::uint64_t seed) {
    const int tile = lab.tile(), depth = lab.depth();
    const auto draw = [&](const char* what, int options) {
        return static_cast<int>(derive_seed(seed, std::string("technique shape ") + what) %
                                static_cast<std::uint64_t>(options));
    };
    // Enough phases that the first (which no copy can run ahead of) and the partial last weigh little.
    const int phases = measure == TechniqueMeasure::async_in_flight ? 8 : 3 + draw("phases", 2);
    // Whole phases of the reference lab's model too (the tiled labs' phases are 8 or 16 deep, and their tiles divide
    // every later lab's): on a partial phase of its own the reference stages more per multiply-add than its
    // calibration says, and the verdict would depend on the seed.
    const int unit = std::lcm(depth, 16);
    return Shape{tile * (1 + draw("rows", 2)), unit * phases, tile * (1 + draw("cols", 2))};
}

Shape probe_shape(const LabUnderTest& lab, TechniqueMeasure measure, std::uint64_t seed) {
    Shape shape = technique_shape(lab, measure, seed);
    // 16-byte loads serve whole groups of four inside the matrix: at a partial tile an honest kernel loads the
    // edge one element at a time, so the evidence for them is taken on whole tiles.
    if (measure == TechniqueMeasure::vector_accesses) return shape;
    const int tile = lab.tile(), depth = lab.depth();
    const auto draw = [&](const char* what, int options) {
        return static_cast<int>(derive_seed(seed, std::string("probe shape ") + what) %
                                static_cast<std::uint64_t>(options));
    };
    if (!lab.needs_tile_multiples) {
        shape.rows += 1 + draw("rows past a tile", tile / 2);
        shape.cols += 1 + draw("cols past a tile", tile / 2);
        shape.inner += 1 + draw("inner past a phase", std::max(1, depth / 2));
    }
    // Never square, so that a kernel right only on squares and on the correctness checks' public shapes cannot pass
    // here (grader/selftest/cheats/listed-shapes-only). Still a partial tile (whole ones for a lab of multiples).
    if (shape.rows == shape.cols) shape.cols += lab.needs_tile_multiples ? tile : 1;
    if (measure == TechniqueMeasure::vector_accesses) {  // every row of M and N a whole number of float4
        shape.cols = (shape.cols + 3) / 4 * 4;
        shape.inner = (shape.inner + 3) / 4 * 4;
    }
    return shape;
}

TechniqueComparison compare_technique(const LabUnderTest& lab, const LabEntry& entry, TechniqueMeasure measure,
                                      const Shape& shape, std::uint64_t seed, double fraction) {
    const ProbeOperands operands = probe_operands(shape, derive_seed(seed, "technique operands"));
    TechniqueComparison c;
    // Counted in the run whose P proves where the operands passed (the probe's replacements at the lab's hooks), so
    // that what is measured is what computed P: a kernel that recognises the probe's run can only do the technique
    // in it.
    const Probe probe = probes_of(measure).front();
    const auto program = lab_program();
    const ProbedRun run = run_probed(*program, shape, operands, probe.hooks);
    const Comparison check = compare(run.P.data(), product_of(operands.M2, operands.N2, lab.input_precision), 0);
    if (!second_product(measure, check, run.P.size()))
        throw std::runtime_error("the kit multiplied " + to_string(shape) + " replacing each element of M and N by a "
                                 "second value wherever it was " + probe.where + ", and " +
                                 std::to_string(check.wrong + check.unwritten) + " of " + std::to_string(run.P.size()) +
                                 " elements of P are not the product of the second values: on this shape the "
                                 "multiply-adds take their operands some other way. The lab's technique needs that " +
                                 probe.lesson + ". " + teaching(measure));
    const std::uint64_t n = multiply_adds(shape), elements = operand_elements(shape);
    c.value = technique_value(measure, run.counts, n, elements);
    c.counts = describe(run.counts, shape);
    c.kernel_counts = run.counts;
    // The models' measures: the registry's calibration, and in the kit's own tests (TILELAB_VERIFY_CALIBRATION,
    // with the model programs its self-test builds) measured again on this shape, which must give the same (the
    // counts of whole tiles do not depend on the shape). A grading trusts the registry, which those tests keep true.
    c.model_value = entry.technique.model_value;
    c.reference_value = entry.technique.reference_value;
    if (models_built() && std::getenv("TILELAB_VERIFY_CALIBRATION") != nullptr) {
        const auto model = model_program(entry.folder, "the model answer of " + std::string(entry.id));
        const double model_value =
            technique_value(measure, run_probed(*model, shape, operands, probe.hooks).counts, n, elements);
        double reference_value = 0;
        if (*entry.technique.reference_folder != '\0') {
            const auto reference = model_program(entry.technique.reference_folder, entry.technique.reference_name);
            reference_value =
                technique_value(measure, run_probed(*reference, shape, operands, probe.hooks).counts, n, elements);
        }
        const auto same = [](double a, double b) { return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b)); };
        if (!entry.technique.calibrated || !same(model_value, c.model_value) || !same(reference_value, c.reference_value))
            throw std::runtime_error(
                "the registry's technique calibration of " + std::string(entry.id) + " (grader/labs.json) is not what "
                "the model answers measure on " + to_string(shape) + ": write \"calibration\": {\"model\": " +
                exact(model_value) + ", \"reference\": " + exact(reference_value) + "} in its \"technique\" (a "
                "solution changed, or the kit's counts did)");
    } else if (!entry.technique.calibrated) {
        throw std::runtime_error("the registry gives " + std::string(entry.id) + "'s technique check no calibration "
                                 "(grader/labs.json): the kit's self-test writes it; tell your instructor");
    }
    c.gain = technique_gain(measure, c.value, c.reference_value);
    c.model_gain = technique_gain(measure, c.model_value, c.reference_value);
    c.required = technique_requirement(measure, c.model_gain, fraction);
    return c;
}

TEST_SUITE("technique") {
    TEST_CASE("the lab's technique is what computes P") {
        small_shape_verdict = SmallShapeVerdict::failed;  // until it holds, below
        const LabUnderTest& lab = lab_under_test();
        const LabEntry* entry = find_lab(lab.name);
        if (entry == nullptr || *entry->technique.measure == '\0')
            FAIL(("the registry gives " + std::string(lab.name) + " no technique to check (grader/labs.json)"));
        const TechniqueMeasure measure = technique_measure(entry->technique.measure);
        const std::uint64_t seed = base_seed();
        const Shape shape = technique_shape(lab, measure, seed);
        const std::string reference_name = reference_name_of(*entry);
        // The evidence first: the operands must pass where the technique says, edge blocks included, or the counts
        // prove nothing.
        const Shape probed = probe_shape(lab, measure, seed);
        const ProbeOperands operands = probe_operands(probed, derive_seed(seed, "probe operands"));
        try {
            const ProbedRun counted = run_probed(*lab_program(), probed, operands, 0);
            const Comparison check =
                compare(counted.P.data(), product_of(operands.M, operands.N, lab.input_precision), 0);
            if (!check.passed())
                FAIL(("multiplying " + to_string(probed) + " with the kit's launch of the kernel, P is wrong (" +
                      std::to_string(check.wrong + check.unwritten) + " of " + std::to_string(counted.P.size()) +
                      " elements; the correctness checks show where and why): make the kernel right first"));
            for (const Probe& probe : probes_of(measure))
                if (!require_probe(lab, measure, probe, probed, operands, counted.counts)) return;
        } catch (const std::exception& error) {
            FAIL(std::string(error.what()));
        }
        // Then the measures, counted in a run with the same replacements (compare_technique).
        TechniqueComparison c;
        try {
            c = compare_technique(lab, *entry, measure, shape, seed, entry->technique.fraction);
        } catch (const std::exception& error) {
            FAIL(std::string(error.what()));
        }
        MESSAGE(c.counts);
        bool held = true;  // no FAIL_CHECK below
        // The tiles are shared by the block: a block needs each element of its strips of M and N once per phase
        // (2 / block tile per multiply-add on whole tiles); a kernel whose threads each stage their own operands
        // brings in many times that, however few shared reads it then makes.
        if (measure != TechniqueMeasure::global_reads && measure != TechniqueMeasure::tensor_cores &&
            measure != TechniqueMeasure::mma_sync) {
            const double staged = static_cast<double>(c.kernel_counts.operand_words_staged) /
                                  static_cast<double>(static_cast<std::uint64_t>(shape.rows) * shape.inner * shape.cols);
            const double needed = 2.0 / lab.tile();
            if (staged > 2 * needed) {
                held = false;
                FAIL_CHECK(("the kernel brought " + fixed(staged, 4) + " elements of M and N into shared memory per "
                            "multiply-add on " + to_string(shape) + ", more than twice what a block of " +
                            std::to_string(lab.tile()) + " x " + std::to_string(lab.tile()) + " outputs needs (" +
                            fixed(needed, 4) + ": each element of its strips of M and N once): the block's threads "
                            "do not share their tiles. Each thread loads its part of each tile, and all of them "
                            "compute from the whole tile"));
            }
        }
        // Staged so that it is shared: a tile element is read by the other threads whose outputs need it (the block
        // tile over the thread's micro-tile: 7 or more others in every model answer). Only reads of words another
        // thread stored count: a thread that reads back what it stored itself, however often, shares nothing through
        // the tiles, and its multiply-adds take their operands from somewhere else (shuffles, global memory, P used
        // as scratch), however the counts above look.
        if (measure != TechniqueMeasure::tensor_cores && measure != TechniqueMeasure::mma_sync) {
            const double reads = reads_by_others_per_element(c.kernel_counts, operand_elements(shape));
            if (reads < least_reads_per_element) {
                held = false;
                FAIL_CHECK(("the kernel's threads read each element of M and N staged into shared memory by another "
                            "thread " + fixed(reads, 2) +
                            " times on average on " + to_string(shape) + " (it must be at least " +
                            fixed(least_reads_per_element, 0) + "; in the model answer each is read by 7 threads or "
                            "more besides the one that loaded it): a tile is staged so that the block's threads all "
                            "read from it. Compute every multiply-add from the tiles in shared memory, not from copies "
                            "of them kept elsewhere (a thread's own slots, another thread's registers through "
                            "shuffles, global memory, P)"));
            }
        }
        const std::string verdict = "the kernel " + stated(measure, c.gain, reference_name) + " (the model answer: " +
                                    stated_level(measure, c.model_gain) + "; required " +
                                    stated_level(measure, c.required) + ", " + fixed(entry->technique.fraction) +
                                    " of the model's gain), counted by the CPU backend's emulator on " +
                                    to_string(shape) + " (a shape drawn from the seed; the counts depend on no "
                                    "timing, so the verdict is the same on every machine)";
        if (c.gain >= c.required) {
            MESSAGE(verdict);
            if (held) small_shape_verdict = SmallShapeVerdict::held;
        } else {
            FAIL_CHECK((verdict + ". " + teaching(measure)));
        }
    }

    // The shapes above are small, so that the emulator runs every block; the GPU times a kernel at the gate's
    // square shape. A kernel whose technique is there only at small shapes (grader/selftest/technique/
    // lab03-big-shape-naive) earns nothing from it: the same evidence and the same measure, taken at the gate's
    // shape on two blocks the emulator runs (the others write nothing).
    TEST_CASE("the lab's technique computes P at the performance gate's shape") {
        const LabUnderTest& lab = lab_under_test();
        const LabEntry* entry = find_lab(lab.name);
        if (entry == nullptr || *entry->technique.measure == '\0') return;  // the case above fails it
        if (small_shape_verdict == SmallShapeVerdict::failed)
            FAIL("not taken: the technique's evidence on the small shapes failed already (the case above)");
        // The gate times a lab at one tile width: its speed points are earned there, and so is this evidence.
        if (lab.tile_width != TILELAB_PERF_TILE_WIDTH) {
            MESSAGE(("not needed at TILE_WIDTH " + std::to_string(lab.tile_width) + ": the performance gate times the "
                     "kernel at TILE_WIDTH " + std::to_string(TILELAB_PERF_TILE_WIDTH) + ", where this case runs"));
            return;
        }
        const TechniqueMeasure measure = technique_measure(entry->technique.measure);
        const Probe probe = probes_of(measure).front();
        int side = performance_gate_size();
        if (lab.needs_tile_multiples) side = (side + lab.tile() - 1) / lab.tile() * lab.tile();
        const Shape shape{side, side, side};
        const std::uint64_t seed = derive_seed(base_seed(), "technique at the gate's shape");
        const ProbeOperands operands = probe_operands_drawn_by_runner(shape, derive_seed(seed, "operands"));
        const BlockSample sample{gate_shape_blocks, derive_seed(seed, "blocks")};
        const std::string where = "at the performance gate's shape " + to_string(shape) + " (the emulator ran " +
                                  std::to_string(sample.count) + " of the kit's launch's blocks, the grid's last "
                                  "among them)";
        try {
            const auto program = lab_program();
            const ProbedRun counted = run_probed(*program, shape, operands, 0, sample);
            const ProbedRun probed = run_probed(*program, shape, operands, probe.hooks, sample);
            const SampledComparison plain =
                compare_sampled(counted.written, operands, shape, false, lab.input_precision);
            // Each block of the contract's grid owns its share of P: the blocks run must have written theirs.
            const double share = static_cast<double>(shape.rows) * shape.cols * sample.count /
                                 static_cast<double>(std::max<std::uint64_t>(1, counted.counts.grid_blocks));
            if (plain.written == 0 || static_cast<double>(plain.written) < share / 2)
                FAIL((where + ", they wrote " + std::to_string(plain.written) + " elements of P, fewer than half of "
                     "their share (" + fixed(share, 0) + "): in the contract's launch each block computes its own "
                     "tile of P, at every shape"));
            if (plain.wrong != 0)
                FAIL((where + ", " + std::to_string(plain.wrong) + " of the " + std::to_string(plain.written) +
                     " elements they wrote are wrong: the kernel must be right at every shape, large ones included"));
            if (!same_accesses(probed.counts, counted.counts))
                FAIL((where + ", the kernel made other accesses with the probe's replacements than without them (with "
                     "them, " + describe(probed.counts, shape) + "; without, " + describe(counted.counts, shape) +
                     "): a kernel's memory accesses depend on the shape, never on the values of M and N"));
            const SampledComparison second =
                compare_sampled(probed.written, operands, shape, true, lab.input_precision);
            const std::uint64_t off = second.wrong + (plain.written - std::min(plain.written, second.written));
            if (!second_product(measure, off, plain.written))
                FAIL((where + ", the kit replaced each element of M and N by a second value wherever it was " +
                     probe.where + ", and " + std::to_string(off) + " of the " + std::to_string(plain.written) +
                     " elements of P the blocks wrote are not the product of the second values: at this shape the "
                     "multiply-adds take their operands some other way. The lab's technique needs that " +
                     probe.lesson + ", at every shape (a kernel that changes its method past some size is "
                     "timed at this one). " + teaching(measure)));
            const std::uint64_t n = plain.written * static_cast<std::uint64_t>(shape.inner);
            const std::uint64_t elements = static_cast<std::uint64_t>(shape.inner) * (plain.rows + plain.cols);
            // Shared as on the small shapes (the case above).
            const double reads = reads_by_others_per_element(probed.counts, elements);
            if (measure != TechniqueMeasure::tensor_cores && measure != TechniqueMeasure::mma_sync &&
                reads < least_reads_per_element)
                FAIL((where + ", the kernel's threads read each element of M and N staged into shared memory by "
                      "another thread " + fixed(reads, 2) + " times on average (at least " +
                      fixed(least_reads_per_element, 0) + " on every shape): compute every multiply-add from the "
                      "tiles in shared memory, at every shape, not from copies of them kept elsewhere"));
            const double gain = technique_gain(measure, technique_value(measure, probed.counts, n, elements),
                                               entry->technique.reference_value);
            const double model_gain =
                technique_gain(measure, entry->technique.model_value, entry->technique.reference_value);
            const double required = technique_requirement(measure, model_gain, entry->technique.fraction);
            const std::string reference_name = reference_name_of(*entry);
            const std::string verdict = where + ", the kernel " + stated(measure, gain, reference_name) +
                                        " (required " + stated_level(measure, required) + ", as on the small shape)";
            if (gain >= required)
                MESSAGE(verdict);
            else
                FAIL_CHECK((verdict + ": the technique must hold at the shape the GPU times. " + teaching(measure)));
        } catch (const std::exception& error) {
            FAIL(std::string(error.what()));
        }
    }
}

}  // namespace tilelab::grader
