// See tile_sources.hpp: P's operands come from the tiles when scaling what the kernel stores into shared memory
// scales P by s².
#include "tile_sources.hpp"

#include "drawn_shapes.hpp"
#include "guarded_buffer.hpp"
#include "lab_runner.hpp"
#include "probed_run.hpp"
#include "shapes.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>

#include <cmath>
#include <sstream>
#include <vector>

namespace tilelab::grader {
namespace {

// One run of the kit's launch: P and the emulator's tile accesses.
struct Run {
    std::vector<float> P;
    bool counted = false;
    std::uint64_t reads = 0, writes = 0, global_reads = 0;
};

// The kit's launch of the kernel on @p shape, with shared stores scaled by @p scale (1: a plain multiply).
Run run_contract(const Shape& shape, const HostMatrix& M, const HostMatrix& N, float scale) {
    wire::Writer request;
    if (scale != 1.0f) request.put(wire::Op::scaled_multiply).put(wire::SharedStoreScale{scale});
    else request.put(wire::Op::multiply);
    request.put(wire::LaunchMode::contract).put<std::int32_t>(shape.rows);
    request.put<std::int32_t>(shape.inner).put<std::int32_t>(shape.cols);
    // No guard zones: the correctness checks look after writes outside P.
    request.put<std::uint64_t>(0).put<std::uint8_t>(0).put(guard_bits).put(unwritten_bits);
    request.put_floats(M.data(), M.size()).put_floats(N.data(), N.size());
    const std::string who = scale != 1.0f ? "the kit's launch of the kernel, with shared-memory stores scaled"
                                          : "the kit's launch of the kernel";
    const std::string doing = "multiplying " + to_string(shape) + " with " + who;
    const Reply reply = ask_runner(request, doing);
    require_ok(reply, who);
    wire::Reader in = body(reply);
    Run run;
    run.P = in.get_floats();
    const auto counts = in.get<wire::LaunchCounts>();
    run.counted = counts.counted != 0;
    run.reads = counts.shared_reads;
    run.writes = counts.shared_writes;
    run.global_reads = counts.global_words_read;
    require_complete(in, doing);
    if (run.P.size() != static_cast<std::size_t>(shape.rows) * shape.cols)
        throw RunnerGone("the lab's program sent back a P of the wrong size while " + doing);
    return run;
}

// A graded shape with at least one whole block tile of rows and of columns and two phases or more along inner,
// chosen by the seed among the shapes the lab's edge and sanitizer draws took (drawn_shapes.hpp), so that the run
// looks like any other of the correctness checks and is none a kernel could list (the sanitizer draw's always fits
// a lab that takes any shape); among the fixed edge shapes where no drawn one fits.
Shape pick_shape(const LabUnderTest& lab, std::uint64_t seed) {
    const auto fits = [&](const Shape& shape) {
        return shape.rows >= lab.tile() && shape.cols >= lab.tile() && shape.inner > lab.depth();
    };
    std::vector<Shape> fit;
    for (ShapeDraw draw : {ShapeDraw::edges, ShapeDraw::sanitizer})
        for (const Shape& shape : drawn_shapes(lab, draw, seed))
            if (fits(shape)) fit.push_back(shape);
    if (fit.empty())
        for (const Shape& shape : edge_shapes(lab))
            if (fits(shape)) fit.push_back(shape);
    if (fit.empty()) return Shape{2 * lab.tile(), 2 * lab.depth(), 2 * lab.tile()};
    return fit[derive_seed(seed, "tile sources shape") % fit.size()];
}

std::string number(double x) {
    std::ostringstream text;
    text.precision(9);
    text << x;
    return text.str();
}

}  // namespace

unsigned scaled_fits(float got, double expected, double magnitude, int inner, double s) {
    if (!std::isfinite(got)) return 0;
    const double bound = s * s * (tolerance(inner, magnitude) + std::ldexp(magnitude, -22));
    unsigned fits = 0;
    double factor = 1;
    for (unsigned k = 0; k <= 2; ++k, factor *= s)
        if (std::fabs(static_cast<double>(got) - factor * expected) <= bound) fits |= 1u << k;
    return fits;
}

TileSources check_tile_sources(const LabUnderTest& lab, std::uint64_t seed) {
    const Shape shape = pick_shape(lab, seed);
    // Operands drawn as the performance gate draws its own (probed_run.hpp): a kernel that computes from its tiles
    // only on operands unlike the gate's (and naively on the gate's, the ones a GPU times) leaves P unscaled here.
    const ProbeOperands operands = probe_operands(shape, derive_seed(seed, "tile sources operands " + to_string(shape)));
    const HostMatrix& M = operands.M;
    const HostMatrix& N = operands.N;
    // s = 1 + 2^-7 + j·2^-10 (exact in float32): far enough from 1 that s·P and s²·P differ by ~2^-7·P, much more
    // than float32 rounding, and not a constant a kernel could test for.
    const float s = 1.0f + 0x1p-7f + static_cast<float>(derive_seed(seed, "tile sources scale") % 8) * 0x1p-10f;

    const Run plain = run_contract(shape, M, N, 1.0f);
    const Run scaled = run_contract(shape, M, N, s);
    const ReferenceProduct reference = reference_matmul(M, N);
    TileSources result;
    const std::string what = to_string(shape) + " (one of the correctness checks' shapes, operands drawn as the performance gate draws its own)";
    const std::string where = "multiplying " + what + " with the kit's launch of the kernel";
    if (plain.counted)
        result.counts = where + ", the kernel wrote its tiles " + std::to_string(plain.writes) + " times and read "
                        "them " + std::to_string(plain.reads) + " times, and read " +
                        std::to_string(plain.global_reads) + " words of global memory (" +
                        std::to_string(static_cast<std::uint64_t>(shape.rows) * shape.inner * shape.cols) +
                        " multiply-adds)";

    const Comparison plain_check = compare(plain.P.data(), reference);
    if (!plain_check.passed()) {
        result.report = where + ", P is wrong (" + std::to_string(plain_check.wrong + plain_check.unwritten) + " of " +
                        std::to_string(plain.P.size()) + " elements; the correctness checks show where and why), so "
                        "the kit cannot tell whether P is computed from the tiles: make the kernel right first";
        return result;
    }

    // Which of s^0, s^1, s^2 each element fits; every element must fit one that all the others fit too.
    // odd: the first element that is not s²·P, for the message when the elements disagree.
    unsigned common = 7;
    std::size_t odd = plain.P.size();
    for (std::size_t i = 0; i < plain.P.size(); ++i) {
        const unsigned fits = scaled_fits(scaled.P[i], reference.value[i], reference.magnitude[i], shape.inner, s);
        if ((fits & 4u) == 0 && odd == plain.P.size()) odd = i;
        common &= fits;
    }
    const std::string how = "the kit multiplied " + what + " twice with its launch of the kernel, the second time with every float the kernel stores "
                            "into shared memory multiplied by s = " + number(s) + ". ";
    const std::string teach = " A tiled kernel loads a tile of M and a tile of N into shared memory in each phase and "
                              "takes both operands of every multiply-add from them (M_tile[ty][k] * N_tile[k][tx]), "
                              "so its P comes back multiplied by s * s";
    // A kernel that computes the same way on any values makes the same accesses in both runs; one that looks at what
    // its tiles hold to decide (a run it recognises by its values) does not, and its P in one run says nothing
    // about the other.
    if (plain.counted && (plain.reads != scaled.reads || plain.writes != scaled.writes ||
                          plain.global_reads != scaled.global_reads)) {
        result.report = how + "With the scaled stores the kernel made other accesses than without them (it read its "
                        "tiles " + std::to_string(scaled.reads) + " times and global memory " +
                        std::to_string(scaled.global_reads) + " words, against " + std::to_string(plain.reads) +
                        " and " + std::to_string(plain.global_reads) + " without; it wrote its tiles " +
                        std::to_string(scaled.writes) + " times, against " + std::to_string(plain.writes) + "): the "
                        "kernel works differently depending on the values it reads. A kernel's memory accesses depend "
                        "on the shape, never on the values of M and N." + teach;
        return result;
    }
    if ((common & 4u) != 0) {
        result.passed = true;
        result.report = how + "P came back multiplied by s * s (within rounding): both operands of every "
                        "multiply-add come from the tiles";
    } else if (common == 2u) {
        result.report = how + "P came back multiplied by s, not s * s: this looks half-tiled, only M's (or N's) values "
                        "go through shared memory and the other operand of each multiply-add is read straight from "
                        "global memory." + teach;
    } else if (common == 1u) {
        result.report = how + "P came back unchanged: the tiles feed nothing, P is computed from global memory (the "
                        "tiles may be filled and read, but their values never reach P)." + teach;
    } else {
        const std::size_t i = odd < plain.P.size() ? odd : 0;
        const int r = static_cast<int>(i / shape.cols), c = static_cast<int>(i % shape.cols);
        result.report = how + "P came back neither multiplied by s * s everywhere nor unchanged: P(" +
                        std::to_string(r) + ", " + std::to_string(c) + ") was " + number(plain.P[i]) + " and became " +
                        number(scaled.P[i]) + " (s * s would give " + number(s * s * reference.value[i]) + "). Part "
                        "of P, or part of each sum, does not come from the tiles: some blocks (the edge blocks?) or "
                        "some phases compute from global memory, or the kernel depends on what its tiles hold beyond "
                        "using them as operands." + teach;
    }
    return result;
}

}  // namespace tilelab::grader
