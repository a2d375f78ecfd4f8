#include "check_shape.hpp"

#include "diagnose.hpp"
#include "fault_words.hpp"
#include "guarded_buffer.hpp"
#include "lab_runner.hpp"
#include "reference_store.hpp"
#include "work_spread.hpp"

#include <tilelab/compare.hpp>
#include <cuda_runtime_api.h>
#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

namespace tilelab::grader {

namespace {

// Wide enough to catch a kernel that runs a whole tile (up to 32 rows and columns) past the edge.
std::size_t guard_elements(int width) { return 32 * (static_cast<std::size_t>(width) + 32) + 1024; }

std::string describe_position(std::ptrdiff_t offset, const Shape& shape) {
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(shape.rows) * shape.cols;
    std::ostringstream out;
    if (offset < 0) {
        out << -offset << " elements before the start of P";
    } else {
        out << offset - count + 1 << " elements past the end of P, where row " << offset / shape.cols << ", col "
            << offset % shape.cols << " would be (P has " << shape.rows << " rows)";
    }
    return out.str();
}

// A float32 one step below a TF32 value: sign and 10 explicit mantissa bits from @p bits, exponent 0 (magnitude in
// [1, 2)), the 13 low mantissa bits all ones (Operands::tf32_steps).
float below_tf32_step(std::uint64_t bits) {
    const std::uint32_t word = (static_cast<std::uint32_t>(bits >> 63) << 31) | (127u << 23) |
                               ((static_cast<std::uint32_t>(bits) & 1023u) << 13) | 0x1FFFu;
    float value;
    std::memcpy(&value, &word, sizeof value);
    return value;
}

// @p x rounded to TF32 to nearest, ties away from zero (PTX cvt.rna.tf32.f32, what wmma::__float_to_tf32 and
// tilelab::to_tf32 compile to), kept in a float. Finite inputs only (the operands here are).
float round_to_tf32(float x) {
    std::uint32_t word;
    std::memcpy(&word, &x, sizeof word);
    word = (word + 0x1000u) & ~0x1FFFu;
    std::memcpy(&x, &word, sizeof x);
    return x;
}

// The power of two that Operands::tf32_steps moves index k of the inner dimension by: M's column k is scaled by its
// inverse and N's row k by it, so that each product M(r, k) N(k, c) keeps its scale while the elements themselves
// span most of float32's exponents (a conversion skipped only for large or small values is caught). Drawn from a
// fixed seed: M's and N's draws, each from its own seed, must agree on it.
std::vector<int> tf32_step_inner_exponents(int inner) {
    std::mt19937_64 bits(derive_seed(0, "tf32 step exponents"));
    std::uniform_int_distribution<int> exponent(-100, 100);
    std::vector<int> exponents(static_cast<std::size_t>(inner));
    for (int& e : exponents) e = exponent(bits);
    return exponents;
}

// Draws @p matrix from @p seed as @p operands says (M when @p is_M, else N).
void draw(HostMatrix& matrix, std::uint64_t seed, Operands operands, bool is_M) {
    if (operands == Operands::tf32_steps) {
        std::mt19937_64 bits(derive_seed(seed, "tf32 steps"));
        // Each element: one float32 step below a TF32 value in [1, 2), times 2^(its row's or column's own exponent,
        // -12 to 12, minus or plus its k's): scaling by a power of two keeps it one step below a TF32 value.
        const int inner = is_M ? matrix.cols() : matrix.rows();
        const std::vector<int> inner_exponent = tf32_step_inner_exponents(inner);
        std::uniform_int_distribution<int> line_exponent(-12, 12);
        std::vector<int> own(static_cast<std::size_t>(is_M ? matrix.rows() : matrix.cols()));
        for (int& e : own) e = line_exponent(bits);
        for (int r = 0; r < matrix.rows(); ++r)
            for (int c = 0; c < matrix.cols(); ++c) {
                const bool banded_out = is_M && c % tf32_step_band != r % tf32_step_band;
                const int exponent = is_M ? own[static_cast<std::size_t>(r)] - inner_exponent[static_cast<std::size_t>(c)]
                                          : own[static_cast<std::size_t>(c)] + inner_exponent[static_cast<std::size_t>(r)];
                matrix.data()[static_cast<std::size_t>(r) * matrix.cols() + c] =
                    banded_out ? 0.0f : std::ldexp(below_tf32_step(bits()), exponent);
            }
        return;
    }
    fill_uniform(matrix, seed);
    if (operands == Operands::uniform) {
        // M's rows and N's columns: the lines a product element takes one each of, so that every element of P has
        // its own mix of magnitudes. From 2^-16 (a fixed-point or absolute grid loses the small ones) to 2^56 (a sum
        // kept scaled up, or in a narrower range, overflows on the large ones: products reach 2^112).
        std::mt19937_64 draw_scale(derive_seed(seed, "magnitudes"));
        const int lines = is_M ? matrix.rows() : matrix.cols();
        std::vector<int> exponent(static_cast<std::size_t>(lines));
        for (int& e : exponent) e = static_cast<int>(draw_scale() % 73) - 16;
        for (int r = 0; r < matrix.rows(); ++r)
            for (int c = 0; c < matrix.cols(); ++c) {
                float& x = matrix.data()[static_cast<std::size_t>(r) * matrix.cols() + c];
                x = std::ldexp(x, exponent[static_cast<std::size_t>(is_M ? r : c)]);
            }
        return;
    }
    for (std::size_t i = 0; i < matrix.size(); ++i)
        matrix.data()[i] = std::ldexp(std::fabs(matrix.data()[i]), is_M ? -24 : 24);
}

// Where M and N of a shape come from: the seeds they are drawn from and how (draw()). They are the same for every
// lab of a checker's run, since the seed is the grading's and the shape's name.
struct OperandsKey {
    std::uint64_t m_seed, n_seed;
    Shape shape;
    Operands operands;
    bool operator==(const OperandsKey& o) const {
        return m_seed == o.m_seed && n_seed == o.n_seed && shape.rows == o.shape.rows &&
               shape.inner == o.shape.inner && shape.cols == o.shape.cols && operands == o.operands;
    }
};

// A reference kept with the very operands it was computed from.
struct KeptReference {
    OperandsKey key;
    std::vector<float> M, N;
    ReferenceProduct reference;
};

bool same_values(const std::vector<float>& kept, const HostMatrix& matrix) {
    return kept.size() == matrix.size() && std::equal(kept.begin(), kept.end(), matrix.data());
}

// The name of @p key's reference in a batch's ReferenceStore.
std::string stored_name(const OperandsKey& key) {
    return "m" + std::to_string(key.m_seed) + "-n" + std::to_string(key.n_seed) + "-" + to_string(key.shape) + "-" +
           std::to_string(static_cast<int>(key.operands)) + "-scaled56";  // rows and columns scaled, to 2^56 (draw())
}

// The float64 reference of M N (drawn as @p key says), with the tolerance's allowance for the lab's input
// precision. A submission's labs at a tile width run in one checker (cmake/TileLab.cmake's shared run) and are each
// asked the same large shapes: their references are kept, the last few, and computed once (each about a second of
// a GPU checker's time per lab at 1024^3). Only large ones, so that a checker never holds more than a few; a kept
// one serves only operands equal to its own, value for value. In a batch, every submission and tile width is asked
// the same ones: the batch's ReferenceStore computes each once for the class. Operands::tf32_steps' reference is
// that of the operands rounded to TF32, at float32's tolerance (check_shape.hpp).
ReferenceProduct lab_reference(const LabUnderTest& lab, const HostMatrix& M, const HostMatrix& N,
                               const OperandsKey& key) {
    constexpr double kept_from_terms = 1e7;  // rows x inner x cols: the large shapes (1024^3; 256^3 on the CPU backend)
    constexpr std::size_t kept_at_most = 4;  // the large suite's two shapes, each for the launcher and the contract
    static std::vector<KeptReference> kept;
    const bool keep = 1.0 * key.shape.rows * key.shape.inner * key.shape.cols >= kept_from_terms;
    const auto found = std::find_if(kept.begin(), kept.end(), [&](const KeptReference& entry) {
        return entry.key == key && same_values(entry.M, M) && same_values(entry.N, N);
    });
    ReferenceProduct reference;
    if (key.operands == Operands::tf32_steps) {
        // What an honest TF32 kernel multiplies: the operands rounded to nearest, whose products float32 holds
        // exactly; float32's tolerance then allows its sums and nothing more (check_shape.hpp).
        HostMatrix rounded_M(M.rows(), M.cols());
        HostMatrix rounded_N(N.rows(), N.cols());
        std::transform(M.data(), M.data() + M.size(), rounded_M.data(), round_to_tf32);
        std::transform(N.data(), N.data() + N.size(), rounded_N.data(), round_to_tf32);
        reference = reference_matmul(rounded_M, rounded_N);
        reference.input_precision = InputPrecision::fp32;
        // M is banded: each element of P sums only the products at its row's k, one k in tf32_step_band, and a
        // product of zero adds nothing and rounds nothing, so float32's bound is that of those terms. Counted over
        // all of inner instead, a deep shape's allowance would grow past the truncation it is there to show. Four
        // terms more: a kernel that multiplies the operands as loaded, in float32 (more exactly than TF32), is one
        // float32 step per input from the reference, 2^-22 of each product, which they allow (2 · 4 · 2^-24); an
        // input left unconverted to the tensor cores is 2^-11 of it off.
        reference.inner = (M.cols() + tf32_step_band - 1) / tf32_step_band + 4;
        return reference;
    }
    if (keep && found != kept.end()) {
        reference = found->reference;
    } else {
        static const std::optional<ReferenceStore> store = ReferenceStore::from_environment();
        reference = keep && store ? store->get(stored_name(key), M, N, [&] { return reference_matmul(M, N); })
                                  : reference_matmul(M, N);
        if (keep) {
            if (kept.size() == kept_at_most) kept.erase(kept.begin());
            kept.push_back({key, std::vector<float>(M.data(), M.data() + M.size()),
                            std::vector<float>(N.data(), N.data() + N.size()), reference});
        }
    }
    reference.input_precision = lab.input_precision;
    return reference;
}

// Why a kernel right on uniform operands fails on Operands::wide_one_signed ones.
std::string precision_hint() {
    return "these operands are of one sign and span float32's range (M's elements below 2^-24, N's up to 2^24): "
           "half precision (FP16) flushes M to zero and takes N to infinity, and a sum kept in half loses its "
           "small terms as it grows; keep the inputs in float32 or TF32 (wmma::__float_to_tf32) and the sums in "
           "float32 accumulators";
}

// Why a TF32 kernel right on uniform operands fails on Operands::tf32_steps ones; @p row is that of a wrong element.
std::string tf32_step_hint(const Shape& shape, int row) {
    std::string ks;
    for (int k = row % tf32_step_band; k < shape.inner; k += tf32_step_band)
        ks += (ks.empty() ? "" : ", ") + std::to_string(k);
    return "these operands are each one float32 step below a TF32 value: rounded to nearest (wmma::__float_to_tf32, "
           "or tilelab::to_tf32 with tilelab/mma.hpp) an element moves by that step, but left as loaded the tensor "
           "cores truncate it by a whole TF32 step; each element of P here sums a few products only (row " +
           std::to_string(row) + "'s come from k = " + ks + "), so one element of M's or N's fragments left "
           "unconverted at any k shows (their magnitudes run from 2^-112 to 2^112, so one skipped for large or small "
           "values shows too): convert every element of every fragment at every step of k, in the first phase, the "
           "later ones and a last partial one alike, whatever its value";
}

// What one launch in the lab's program gave back.
struct DeviceRun {
    std::vector<float> P;
    GuardDamage damage;
    bool counted = false;  // the CPU backend's emulator counted the kernel's threads
    std::uint64_t threads = 0;
    Watched watched;       // a watched run's: who wrote what (work_spread.hpp)
};

// @p launch_rule: the hint for a launch or memory error of this run (LabError), where the launch is the kit's.
// @p watched: the emulator also says which thread wrote each element (the work-spread check, in the same run).
DeviceRun run_in_lab(const Shape& shape, const HostMatrix& M, const HostMatrix& N, wire::LaunchMode mode,
                     const std::string& who, const std::string& launch_rule = "", bool watched = false) {
    const GuardLayout layout{static_cast<std::size_t>(shape.rows) * shape.cols,
                             guard_elements(std::max(shape.inner, shape.cols)), guard_zone_after()};
    wire::Writer request;
    request.put(watched ? wire::Op::watched_multiply : wire::Op::multiply).put(mode);
    request.put<std::int32_t>(shape.rows).put<std::int32_t>(shape.inner);
    request.put<std::int32_t>(shape.cols).put<std::uint64_t>(layout.guard).put<std::uint8_t>(layout.guard_after);
    request.put(guard_bits).put(unwritten_bits).put_floats(M.data(), M.size()).put_floats(N.data(), N.size());
    const std::string doing = "multiplying " + to_string(shape) + " with " + who;
    const Reply reply = ask_runner(request, doing);
    // An access out of bounds in the launcher's run: the checker says which element of which matrix, from the
    // reply's numbers and its own shape. Under the kit's launch the rule of that launch is the likelier cause, and
    // LabError puts it first.
    if (reply.header.status != wire::Status::ok) {
        std::string diagnosis;
        if (launch_rule.empty() && reply.header.status == wire::Status::cuda_error) {
            diagnosis = describe_fault(reply.header.fault, shape.rows, shape.inner, shape.cols, doing);
            if (diagnosis.empty() && reply.header.code == static_cast<int>(cudaErrorIllegalAddress))
                diagnosis = outside_every_matrix(doing);
        }
        throw LabError(reply.header, who, launch_rule, diagnosis);
    }
    wire::Reader in = body(reply);
    const std::vector<float> all = in.get_floats();
    DeviceRun run;
    const auto counts = in.get<wire::LaunchCounts>();  // its shared-memory counts: the shared-memory check's business
    run.counted = counts.counted != 0;
    run.threads = counts.threads;
    if (watched) run.watched = read_watched(in, layout.count, doing);
    require_complete(in, doing);
    if (all.size() != layout.total())
        throw RunnerGone("the lab's program sent back a P of the wrong size while " + doing);
    run.damage = check_guards(all, layout);
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(layout.guard);
    run.P.assign(first, first + static_cast<std::ptrdiff_t>(layout.count));
    return run;
}

// The verdict on one run's P and guard zones, with the report of what is wrong. @p contract: the run was the kit's
// launch of the kernel, after the launcher's P was right; its hints name that launch's causes (diagnose()'s would
// blame the grid, which is the kit's).
ShapeVerdict judge(const LabUnderTest& lab, const Shape& shape, const HostMatrix& M, const HostMatrix& N,
                   const ReferenceProduct& reference, const DeviceRun& run, const std::string& heading,
                   Operands operands, bool contract = false) {
    const Comparison comparison = compare(run.P.data(), reference);
    ShapeVerdict verdict;
    verdict.passed = comparison.passed() && run.damage.changed == 0;
    if (verdict.passed) return verdict;

    std::ostringstream report;
    report << heading;
    if (run.damage.changed > 0)
        report << "\n  out-of-bounds write: " << run.damage.changed
               << " elements outside P were overwritten; the first is "
               << describe_position(run.damage.first_offset, shape) << "\n  hint: "
               << (contract ? contract_launch_rule(lab, shape, "wrote outside P")
                            : "a thread outside P stored its result; test row < rows && col < cols before the store");
    if (!comparison.passed()) {
        report << "\n  " << comparison.wrong << " of " << run.P.size() << " elements wrong, " << comparison.unwritten
               << " never written; the first:";
        for (const Mismatch& bad : comparison.first_bad) {
            report << "\n    P(" << bad.row << ", " << bad.col << ") = ";
            if (is_unwritten(bad.got))
                report << "(never written)";
            else
                report << bad.got;
            report << ", expected " << bad.expected;
        }
        const FailedRun failed{shape, lab.tile(), M, N, reference, run.P, comparison, &lab};
        // These operands pass every other check's kind of kernel: what fails here is the precision kept.
        const std::vector<std::string> hints =
            operands == Operands::wide_one_signed ? std::vector<std::string>{precision_hint()}
            : operands == Operands::tf32_steps
                ? std::vector<std::string>{tf32_step_hint(shape, comparison.first_bad.front().row)}
            : contract ? diagnose_contract_launch(lab, failed)
                       : diagnose(failed);
        for (const std::string& hint : hints) report << "\n  hint: " << hint;
    }
    verdict.report = report.str();
    return verdict;
}

}  // namespace

ShapeVerdict check_shape(const LabUnderTest& lab, const Shape& shape, std::uint64_t seed, Operands operands) {
    const std::string shape_name = to_string(shape);
    HostMatrix M(shape.rows, shape.inner);
    HostMatrix N(shape.inner, shape.cols);
    const OperandsKey key{derive_seed(seed, "M " + shape_name), derive_seed(seed, "N " + shape_name), shape, operands};
    draw(M, key.m_seed, operands, true);
    draw(N, key.n_seed, operands, false);
    const std::string heading = std::string(lab.name) + " (" + lab.launcher + "), TILE_WIDTH " +
                                std::to_string(lab.tile_width) + ", shape " + shape_name + " (rows x inner x cols):";

    const DeviceRun launched =
        run_in_lab(shape, M, N, wire::LaunchMode::launcher, std::string(lab.launcher) + "(...)");
    // The reference exists only in this process, and only once the lab's program has answered (or, kept, once an
    // earlier lab of the same submission, in the same runner, answered this very shape).
    const ReferenceProduct reference = lab_reference(lab, M, N, key);
    ShapeVerdict verdict = judge(lab, shape, M, N, reference, launched, heading, operands);
    if (!verdict.passed) return verdict;

    // The device did the work: the kit launches the student's kernel itself, with the contract's grid and block,
    // so a launcher that computes P on the host (or in some other kernel) earns nothing. It multiplies operands
    // of its own, drawn apart from the launcher's: a launcher that computed P and left it in device memory for
    // the kernel to copy (grader/selftest/cheats/stash-replay) has nothing the kernel can use.
    HostMatrix contract_M(shape.rows, shape.inner);
    HostMatrix contract_N(shape.inner, shape.cols);
    const OperandsKey contract_key{derive_seed(seed, "contract M " + shape_name),
                                   derive_seed(seed, "contract N " + shape_name), shape, operands};
    draw(contract_M, contract_key.m_seed, operands, true);
    draw(contract_N, contract_key.n_seed, operands, false);
    DeviceRun contract;
    try {
        contract = run_in_lab(shape, contract_M, contract_N, wire::LaunchMode::contract,
                              "the kit's launch of the kernel", contract_launch_rule(lab, shape),
                              watches_work_spread(shape));
    } catch (const RunnerGone& gone) {
        // The program ended in the kit's launch (the CPU backend ends it at a fault) where the launcher's run of the
        // same kernel was right: the rule of the kit's launch is the likely cause, not the bounds tests.
        throw RunnerGone(std::string(gone.what()) + "\n  hint: " + contract_launch_rule(lab, shape));
    }
    const ReferenceProduct contract_reference = lab_reference(lab, contract_M, contract_N, contract_key);
    const std::string contract_heading =
        heading + "\n  your launcher's P is right, but the kernel launched by the kit with the contract's " +
        describe_contract_launch(lab, shape) + ", did not compute it:";
    verdict = judge(lab, shape, contract_M, contract_N, contract_reference, contract, contract_heading, operands,
                    true);
    if (!verdict.passed) return verdict;
    const int tile = lab.tile();
    const std::uint64_t blocks = static_cast<std::uint64_t>((shape.rows + tile - 1) / tile) *
                                 static_cast<std::uint64_t>((shape.cols + tile - 1) / tile);
    const std::uint64_t expected_threads = blocks * static_cast<std::uint64_t>(lab.threads_per_block());
    if (contract.counted && contract.threads != expected_threads) {
        verdict.passed = false;
        verdict.report = contract_heading + "\n  the kit launched " + std::to_string(expected_threads) +
                         " threads of the kernel, but the emulator ran " + std::to_string(contract.threads) +
                         "\n  hint: P must be computed by the lab's kernel on the device, not by other code";
    }
    // The kernel's threads each did their own share (CPU backend, small shapes: see work_spread.hpp).
    if (verdict.passed && watches_work_spread(shape))
        verdict = check_work_spread(lab, shape, contract.watched, heading);
    return verdict;
}

}  // namespace tilelab::grader
