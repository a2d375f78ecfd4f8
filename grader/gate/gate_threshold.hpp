/// @file gate_threshold.hpp
/// @brief The speedup a performance gate requires on the GPU it runs on: a fixed fraction of the way from 1.0
/// (as fast as the reference) to the lab's own model answer's speedup over the same reference, measured on that
/// GPU by the same procedure (gate_calibration.hpp), unless TILELAB_MIN_SPEEDUP sets it.
#pragma once

#include <optional>
#include <string>

namespace tilelab::grader {

/// The required speedup is never above this share of the model answer's own speedup on the GPU: the model must
/// pass with room for run-to-run noise even where its stage gains little (there the gate cannot tell kernels
/// apart, and says so).
inline constexpr double model_share_cap = 0.95;

/// What a performance gate requires, and where it comes from.
struct GateThreshold {
    double required = 1.0;  ///< The speedup over the reference the lab's kernel must reach.
    double fraction = 0;    ///< The lab's fraction f (LabUnderTest::gate_fraction): required = 1 + f (model - 1).
    /// The lab's model answer's speedup over the same reference on this GPU, where it was measured.
    std::optional<double> model_speedup;
    bool overridden = false;  ///< Set by TILELAB_MIN_SPEEDUP, not derived from the model's speedup.
    /// The model answer's speedup is too small on this GPU for the fraction: required was lowered to
    /// model_share_cap of it, so the gate passes the model but cannot tell an improved kernel from the reference.
    bool capped = false;

    /// How the requirement was set, for the gate's messages: "1 + 0.25 x (2.19 - 1), from the lab's model
    /// answer's 2.19x on this GPU", or "set by TILELAB_MIN_SPEEDUP".
    std::string explain() const;
};

/// A point at which a gate's race may stop before its last pair: once it has timed `pairs` pairs, when its speedup so
/// far is `margin` times above the requirement or `margin` times below it. A race's speedup moves by a few
/// hundredths from its first pairs to its last (docs/benchmarks.md#gate_2048: every trial's min..max within 0.04x of
/// its median), so a kernel that far from the line is decided as surely as by every pair; only the kernels near it
/// need them all. The gate's races hold the GPU alone, and in a class they are most of the time it is held so.
struct EarlyStop {
    int pairs;      ///< Timed pairs after which this stop is considered.
    double margin;  ///< How far the speedup must be from the requirement, as a factor, either way.
};

/// The race's early stops: after five pairs, a kernel 1.2 times from the line (a model answer at 2.2x against 1.3x,
/// naive code at 1.0x). A margin must stay wider than a race's spread on either side of every requirement
/// (grader/unit/gate_threshold_test.cpp checks that on the margin data). Stops after two or three pairs, and one
/// 1.06 times from the line after five, were tried in classes on the H100 machine and not kept: honest kernels then
/// failed gates in two runs of three (docs/benchmarks.md#class_early_stops). A median of two or three requests is
/// moved by one request that a loaded machine delays; a median of five is not.
inline constexpr EarlyStop early_stops[] = {{5, 1.20}};

/// A slow race whose speedup is at least this share of the requirement is raced again (race_again): the loaded
/// races that failed honest kernels read 0.80x to 1.03x against requirements of 1.00x to 1.26x, while a kernel far
/// slower than that is slow however busy the machine (one that ran a block's work on one thread, 0.003x, held the
/// GPU alone 11 s for its race, which a second race would double).
inline constexpr double race_again_from = 0.5;

/// Whether the gate races once more after @p races_run races, the last of which measured @p speedup against
/// @p required, when the gate was asked for @p trials_asked races (TILELAB_GATE_TRIALS, 1 when grading). A slow race
/// at least race_again_from of the requirement is raced again once, and the second race decides: a loaded machine
/// delays the programs' answers, which the gate times, and in a class of 64 on the H200 two honest kernels' races of
/// about 440 read 1.00x and 1.03x, one of which graded alone read 1.5x (docs/benchmarks.md#class_hung_kernel). A slow
/// kernel is slow in both races (every untiled kernel of the margin data is slower than its requirement by more than
/// a race's spread). Trials asked for (scripts/gate-margins.sh) are each decided as they are measured.
bool race_again(int trials_asked, int races_run, double speedup, double required);

/// Whether a race that has timed @p pairs pairs, its speedup so far @p speedup, is decided against @p required by
/// one of early_stops (only at a stop's own number of pairs).
bool race_decided_early(int pairs, double speedup, double required);

/// The override in TILELAB_MIN_SPEEDUP's text @p text: nothing when @p text is null or empty; otherwise the
/// number, which must be finite and above 0 (throws std::invalid_argument with a message when it is not: a
/// misspelt override must not let every kernel pass).
std::optional<double> speedup_override(const char* text);

/// The requirement for a lab whose fraction is @p fraction (0 to 1: throws std::invalid_argument otherwise),
/// from its model answer's speedup @p model_speedup on this GPU, or @p override where set (then the model's speedup
/// is only reported). Derived: 1 + fraction x (model - 1), at least 1.0 (not slower than the reference), at most
/// model_share_cap x model. Throws std::invalid_argument when neither is given, or the model's speedup is not a
/// finite number above 0.
GateThreshold gate_threshold(double fraction, std::optional<double> model_speedup, std::optional<double> override);

}  // namespace tilelab::grader
