/// @file lab_registry.hpp
/// @brief The labs as the kit's C++ knows them: grader/labs.json, the one place a lab is declared, turned into a
/// table at build time (lab_table_writer.hpp writes lab_table.inc, which lab_registry.cpp includes). The
/// checker, the gate and the GPU requirements take every fact of a lab from here, so no C++ file names a lab.
#pragma once

#include <tilelab/reference.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace tilelab::grader {

/// A lab's own launch (labs.hpp's constants); all 0 for a lab built and graded at every TILE_WIDTH, whose blocks
/// are TILE_WIDTH × TILE_WIDTH threads, one per element of a TILE_WIDTH tile.
struct LabConfiguration {
    int block_tile = 0;   ///< Rows and columns of the (square) tile of P one block computes.
    int phase_depth = 0;  ///< Inner-dimension elements one phase covers.
    int threads = 0;      ///< Threads of one block.
};

/// One rung of a lab's performance gate: a race against one model answer, won at a speedup calibrated on the
/// grading GPU (gate_threshold.hpp). A lab's speed points are split over its rungs, each the points of its own check
/// of the registry, whose suite names the rung (docs/grading.md, the performance gate).
struct GateRung {
    const char* suite = "";             ///< The suite (CTest test <lab>.tw<N>.<suite>) that races it: "perf-rung1".
    const char* reference = "";         ///< The lab whose model answer it races ("lab01").
    const char* reference_folder = "";  ///< That lab's folder in solutions/ ("01_naive"): its gate program's name.
    const char* reference_name = "";    ///< The reference in a student's words, for messages.
    /// How far from 1.0 towards the lab's own model's speedup over this reference the requirement lies
    /// (gate_threshold.hpp); the choice of each is argued in docs/benchmarks.md.
    double fraction = 0;
};

/// A lab's performance gate: its rungs, from the lowest (the easiest to earn) to the top, which races the previous
/// stage's model by the lab's calibrated margin. No rungs: no gate.
struct LabGate {
    std::vector<GateRung> rungs;  ///< Bottom to top; the registry's order.

    /// The top rung (the previous stage's model, by the lab's margin); the lab must have a gate.
    const GateRung& top() const { return rungs.back(); }
};

/// A lab's technique check (CPU backend, grader/checks/technique_check.cpp): the count its technique improves, measured
/// by the emulator's operand probe on the lab's kernel, on its model answer and on a reference lab's model.
struct LabTechnique {
    /// What is counted: "global_reads" (operand elements brought from global memory per multiply-add, the naive
    /// kernel's 2 the baseline), "shared_reads" (shared-memory reads per multiply-add), "vector_accesses" (16-byte
    /// global loads and shared reads that feed P), "async_in_flight" (reads of tiles whose asynchronous copies ran
    /// ahead of the multiply-adds), "tensor_cores" (multiply-adds done by warp matrix operations); "": no check.
    const char* measure = "";
    const char* reference = "";         ///< The lab whose model answer is the baseline ("lab03"); "": the naive rule.
    const char* reference_folder = "";  ///< Its folder in solutions/: its model program's name.
    const char* reference_name = "";    ///< The baseline in a student's words, for messages.
    /// The share of the lab's own model's gain over the baseline that the check requires (as the gate's fraction).
    double fraction = 0;
    /// The registry's calibration: the measure (technique_value) of the lab's model answer and of the reference's,
    /// on the lab's whole-tile shapes, where it does not depend on the shape. The kit's self-test, which has the
    /// model programs, measures both again and fails when they differ; a grading uses these.
    bool calibrated = false;
    double model_value = 0;      ///< The lab's model answer's measure.
    double reference_value = 0;  ///< The reference lab's model's (0 for the naive rule).
};

/// The oldest GPU a lab can be graded on, beyond what the build's architectures allow.
struct LabMinimumCapability {
    int major = 0;         ///< Compute capability, major; 0 with minor 0: any GPU the build has code for.
    int minor = 0;         ///< Compute capability, minor.
    const char* why = "";  ///< Why, in the student's terms (the skip message quotes it).
};

/// One lab of the registry (grader/labs.json: its "about" and docs/contributing.md explain each field).
struct LabEntry {
    const char* id;                    ///< "lab01": the build's and the checker's name for it.
    const char* folder;                ///< "01_naive": its folder in labs/ and solutions/.
    const char* launcher;              ///< The host function the kit calls ("matmul_naive").
    const char* kernel;                ///< Its kernel ("matmul_naive_kernel"); "" for a lab of host code only.
    LabConfiguration configuration;    ///< Its own launch; 0s for a TILE_WIDTH lab.
    bool needs_tile_multiples;         ///< The lab may assume every dimension is a multiple of the tile.
    bool uses_shared_tiles;            ///< The kernel must keep a tile of M and one of N in shared memory.
    LabGate gate;                      ///< Its performance gate; no rungs for none.
    LabMinimumCapability minimum;      ///< The oldest GPU it can be graded on.
    const char* kit_kernel;            ///< The lab whose model kernel the kit builds this lab with; "" for none.
    /// What the kernel may round its inputs to before multiplying ("input_precision", fp32 when left out): the
    /// tolerance allows that rounding (compare.hpp).
    InputPrecision input_precision;
    /// Its technique check; measure "" for none.
    LabTechnique technique;

    /// True when the lab has a performance gate.
    bool has_gate() const noexcept { return !gate.rungs.empty(); }
    /// True when the lab has a configuration of its own (graded at one tile width), not TILE_WIDTH.
    bool has_own_configuration() const noexcept { return configuration.block_tile > 0; }
};

/// One suite of the registry's "suites" (a check's doctest suite), as the checker derives a check's request limits
/// from it (suite_series.hpp).
struct SuiteEntry {
    const char* name;   ///< "tiny", "timing-clock".
    const char* kind;   ///< "correctness", "structure", "timing", "gate", "sanitizer" or "build".
    int time_factor;    ///< Its limit in TILELAB_TEST_TIMEOUTs (1 unless the registry says more).
    bool measures_gpu;  ///< It measures the GPU ("measures_gpu"): on the GPU, it holds it alone.
};

/// The suite called @p name, or nullptr when the registry has none.
const SuiteEntry* find_suite(std::string_view name);

/// Every lab of the registry, in its order.
const std::vector<LabEntry>& all_labs();

/// The lab called @p id ("lab02"), or nullptr when the registry has none.
const LabEntry* find_lab(std::string_view id);

/// The registry's lab ids, for messages: "lab01, lab02, ...".
std::string lab_ids();

/// The rung of @p lab's gate that the suite @p suite races, and its number from the bottom (1 for the lowest) in
/// @p number; nullptr (number 0) when no rung of the lab's is that suite's.
const GateRung* find_rung(const LabEntry& lab, std::string_view suite, int& number);

}  // namespace tilelab::grader
