// The performance gate: the lab's kernel, launched by the kit with the contract's grid and block, races the model
// kernel each rung of its registry entry's gate names as its reference (grader/labs.json: for the top rung the
// previous stage's model, for the lower rungs earlier stages' models, at the same TILE_WIDTH for the TILE_WIDTH
// labs), and must beat it by the rung's own margin (its fraction), on a working set larger than L2. Each rung is a
// suite of its own (its check's points) and a race of its own, with every defence of the race; after each, the
// checker says which rung the kernel reached and what the next one needs (tilelab/gate_ladder.hpp).
//
// This checker holds the measurement. The reference runs in a program of the kit's own (gate_reference.hpp), the
// lab's kernel in the lab's program; each is asked the same timed request in turn, interleaved, after warm-up,
// while this checker holds the GPU alone: "launch your kernel once on each of K operand sets, wait, and send back
// each result's digest", and this checker times the round trip with its own steady clock. Both requests pass the
// same harness code and the same kind of pipe, and K makes a request last tens of milliseconds, so the fixed cost
// of a request (tens of microseconds) is well under 1% and the same for both. The operands are drawn afresh for
// every request from a seed this checker picks after the last reply, so no program knows a result before it has
// computed it. After each of the lab's replies this checker audits every launch of it: it draws, for each result,
// 64 elements (8 rows × 8 columns) that the program sends back at once, and has the program keep a copy of one
// result, chosen at random, on the GPU; once it has let go of the GPU it reads that copy back and checks its digest
// (every bit of it) and the elements sent for it, checks that no result's digest is that of the poison perf_fill
// leaves in P (a launch that wrote nothing), and checks every sampled element against float64 at the lab's
// precision (gate_audit.hpp: the gate's operands make TF32, FP16 or BF16 rounding miss an FP32 lab's bound, and
// FP16 or BF16 a TF32 lab's, on every element). A program that replied before its kernels had run, or skipped
// launches, sends digests it cannot know; a kernel that computes on some launches only, or at a lower precision
// at the gate's shape only, leaves results the samples show. Before each timed request (in perf_fill, untimed) the
// program resets the L2 cache's persistence controls (gate_l2.hpp), so that no kernel is timed with L2 kept for its
// own data.
//
// The speedup each rung requires is calibrated on the GPU it runs on (gate_threshold.hpp): the lab's own model answer,
// in a gate program of the kit's, is raced against the rung's reference by the same procedure (race() below), and the
// requirement lies the rung's fraction of the way from 1.0 to the model's speedup. The calibration is cached per
// GPU, lab, reference and kit build (gate_calibration.hpp), and measured while this checker holds the GPU alone.
#include "check_record.hpp"
#include "gate_audit.hpp"
#include "gate_calibration.hpp"
#include "gate_program.hpp"
#include "gate_side.hpp"
#include "gate_suites.hpp"
#include "gate_threshold.hpp"
#include "gpu_lease.hpp"
#include "lab_registry.hpp"
#include "lab_runner.hpp"
#include "lab_under_test.hpp"
#include "launch_audit.hpp"
#include "shapes.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/gate_data.hpp>
#include <tilelab/gate_ladder.hpp>
#include <tilelab/timing.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::grader {
namespace {

double env_number(const char* name, double fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && *text != '\0' ? std::strtod(text, nullptr) : fallback;
}

// Operand sets per request at most (the runner's max_gate_sets): 16 × 3 × 16 MiB at 2048² (64 MiB at 4096²).
constexpr int max_sets = 16;

float min_of(const std::vector<float>& v) { return *std::min_element(v.begin(), v.end()); }
float max_of(const std::vector<float>& v) { return *std::max_element(v.begin(), v.end()); }

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The gate's procedure, the same for the gate and for its calibration.
struct RaceSetting {
    int n;              // n x n x n
    int repeats;        // timed requests of each side, interleaved, after one warm-up pair
    double request_ms;  // each timed request lasts at least this long for the reference
};

// Buffers and warm-up in both programs (module loading, clocks) while the GPU is shared; returns the operand sets
// per request: enough for a request of the reference to last setting.request_ms, so that the fixed cost of a
// request is well under 1% of it.
int prepare_race(Side& reference, Side& contender, const RaceSetting& setting, std::mt19937_64& pick) {
    auto load = [&](int count) {  // device buffers for `count` operand sets in both programs
        wire::Writer request;
        request.put(wire::Op::perf_load).put<std::int32_t>(setting.n).put<std::int32_t>(count);
        for (Side* side : {&reference, &contender}) side->ask(request, "allocating the gate's operands", GpuUse::shared);
    };
    load(1);
    double probe_ms = 0;
    for (int i = 0; i < 2; ++i)
        for (Side* side : {&reference, &contender}) {
            const Timed t = timed_request(*side, pick(), 1, GpuUse::shared);
            if (side == &reference) probe_ms = t.wall_ms;
        }
    const int sets = std::clamp(static_cast<int>(std::ceil(setting.request_ms / std::max(probe_ms, 1e-3))), 1, max_sets);
    if (sets > 1) load(sets);  // only what the requests use: other checkers of a batch share the GPU's memory
    return sets;
}

// One race, with the GPU held alone by the caller: after a warm-up pair, setting.repeats timed requests of each
// side in turn, every result of each of the contender's requests sampled (in @p sampled, for audit_samples) and one
// of them kept whole (in @p kept, for audit_kept); or, where @p required is given, fewer when the race is decided
// early (early_stops, gate_threshold.hpp). Leaves each side's times per launch in wall_ms and event_ms.
void race(Side& reference, Side& contender, const RaceSetting& setting, int sets, std::mt19937_64& pick,
          std::vector<SampledRequest>& sampled, std::vector<KeptResult>& kept,
          std::optional<double> required = std::nullopt) {
    for (Side* side : {&reference, &contender}) {
        side->wall_ms.clear();
        side->event_ms.clear();
    }
    for (int i = -1; i < setting.repeats; ++i) {  // the first pair warms up the GPU held alone
        for (Side* side : {&reference, &contender}) {
            const std::uint64_t seed = pick();
            const Timed t = timed_request(*side, seed, sets, GpuUse::timing);
            if (side == &contender) {
                sampled.push_back(sample_every_result(*side, t, seed, setting.n, pick));
                kept.push_back(keep_result(*side, sampled.back(), pick));
            }
            if (i < 0) continue;
            side->wall_ms.push_back(static_cast<float>(t.wall_ms / sets));
            side->event_ms.push_back(t.event_ms / static_cast<float>(sets));
        }
        if (required && i + 1 < setting.repeats &&
            race_decided_early(i + 1, median(reference.wall_ms) / median(contender.wall_ms), *required))
            return;
    }
}

// This GPU's calibration of the lab's gate, and where it came from.
struct CalibrationOutcome {
    std::optional<Calibration> calibration;  // none only when measuring was not allowed and nothing was cached
    std::string said;                        // lines for the gate's output
};

// The lab's model answer's speedup on this GPU, where the calibration has one.
std::optional<double> model_speedup_of(const CalibrationOutcome& outcome) {
    return outcome.calibration ? std::optional<double>(outcome.calibration->model_speedup) : std::nullopt;
}

// The lab's model answer against @p rung's reference on this GPU: the cached record when one matches (see
// gate_calibration.hpp), else, when @p may_measure, measured now by the gate's own procedure (trials races, the
// GPU held alone), kept in the cache, and returned.
CalibrationOutcome calibrate(const LabUnderTest& lab, const GateRung& rung, GateProgram& reference_program,
                             Side& reference, const RaceSetting& setting, bool may_measure, std::mt19937_64& pick) {
    namespace fs = std::filesystem;
    const GateModels models = gate_models(lab, rung);
    const std::string model_path = gate_program_path(models.own);
    const GpuIdentity& gpu = reference_program.gpu();
    const CalibrationKey key{gpu.name, gpu.compute_capability(), lab.name, rung.reference, lab.tile_width, setting.n,
                             setting.repeats, setting.request_ms,
                             files_fingerprint({"/proc/self/exe", reference_program.path(), model_path})};
    const fs::path dir = calibration_dir();
    CalibrationOutcome outcome;
    std::string why_not;
    outcome.calibration = read_calibration(dir, key, why_not);
    if (outcome.calibration) {
        outcome.said = "calibration of " + outcome.calibration->date + " (kit " + outcome.calibration->kit_version +
                       ") from " + calibration_file(dir, key).string() + "\n";
        return outcome;
    }
    if (!may_measure) {
        outcome.said = "no calibration of this GPU used: " + why_not + "\n";
        return outcome;
    }
    GateProgram model(models.own, lab.tile_width);
    Side own{"the lab's model answer", &model, {}, {}};
    const int sets = prepare_race(reference, own, setting, pick);
    hold_gpu(GpuUse::timing);
    // Another checker of a batch may have measured it while this one waited for the GPU.
    std::string unused;
    outcome.calibration = read_calibration(dir, key, unused);
    if (outcome.calibration) {
        gpu_lease().release();
        outcome.said = "calibration of " + outcome.calibration->date + " from " + calibration_file(dir, key).string() + "\n";
        return outcome;
    }
    const int trials = std::max(1, static_cast<int>(env_number("TILELAB_CALIBRATION_TRIALS", 3)));
    std::vector<double> speedups, reference_ms, model_ms;
    Audit found;
    std::vector<SampledRequest> sampled;  // every trial's, checked once the GPU is the batch's again
    for (int t = 0; t < trials; ++t) {
        std::vector<KeptResult> kept;
        race(reference, own, setting, sets, pick, sampled, kept);
        audit_kept(own, kept, setting.n, found, GpuUse::timing);
        reference_ms.push_back(median(reference.wall_ms));
        model_ms.push_back(median(own.wall_ms));
        speedups.push_back(reference_ms.back() / model_ms.back());
    }
    gpu_lease().release();
    audit_samples(sampled, setting.n, lab.input_precision, found);
    if (found.forged > 0 || found.unwritten_results > 0 || found.samples.wrong > 0)
        throw std::runtime_error("the lab's model answer (" + model_path + ") gave wrong results while the gate "
                                 "calibrated on this GPU: a kit error, not the lab's (" + std::to_string(found.forged) +
                                 " forged, " + std::to_string(found.unwritten_results) + " unwritten of " +
                                 std::to_string(found.results) + " results; " +
                                 wrong_samples_words(found, lab.input_precision) + ")");
    Calibration c;
    c.key = key;
    c.model_speedup = median_of(speedups);
    c.speedup_min = *std::min_element(speedups.begin(), speedups.end());
    c.speedup_max = *std::max_element(speedups.begin(), speedups.end());
    c.reference_median_ms = median_of(reference_ms);
    c.model_median_ms = median_of(model_ms);
    c.trials = trials;
    c.fraction = rung.fraction;
    c.required = gate_threshold(rung.fraction, c.model_speedup, std::nullopt).required;
    c.reference_program = fs::path(reference_program.path()).filename().string();
    c.model_program = fs::path(model_path).filename().string();
    c.date = utc_now();
    c.kit_version = TILELAB_KIT_VERSION;
    outcome.calibration = c;
    char line[400];
    std::snprintf(line, sizeof line,
                  "calibrated now (%s): the lab's model answer (%s) median %.3f ms against the reference's %.3f ms, "
                  "speedup %.2fx (%.2f..%.2f over %d races)\n",
                  why_not.c_str(), c.model_program.c_str(), c.model_median_ms, c.reference_median_ms, c.model_speedup,
                  c.speedup_min, c.speedup_max, trials);
    outcome.said = line;
    try {
        write_calibration(dir, c);
        outcome.said += "kept in " + calibration_file(dir, key).string() + " for the next gates on this GPU\n";
    } catch (const std::exception& error) {
        outcome.said += std::string("not kept: ") + error.what() + "\n";
    }
    return outcome;
}

// One of the gate's races, as measured.
struct Trial {
    double reference_median = 0, lab_median = 0, speedup = 0;
    float reference_min = 0, reference_max = 0, lab_min = 0, lab_max = 0;
    double reference_events = 0, lab_events = 0;
    int pairs = 0;  // timed pairs (race's early stop: fewer than the setting's repeats)
};

// The rung a suite of the gate races, as this checker runs it.
struct RungUnderTest {
    const char* suite = "";
    const GateRung* rung = nullptr;  // the lab's registry entry's
    int number = 0;                  // 1 for the lowest
    int rungs = 0;                   // the lab's ladder's rungs
};

// The rung of the lab under test whose suite is @p suite; throws std::invalid_argument when the lab's gate has none
// (a registry whose checks name a gate suite that no rung races is refused when the kit builds: lab_table_writer).
RungUnderTest rung_of(const LabUnderTest& lab, const char* suite) {
    const LabEntry* entry = find_lab(lab.name);
    RungUnderTest under{suite, nullptr, 0, 0};
    if (entry != nullptr) under.rung = find_rung(*entry, suite, under.number);
    if (under.rung == nullptr)
        throw std::invalid_argument(std::string(lab.name) + "'s gate has no rung raced by the suite " + suite +
                                    " (grader/labs.json, its gate's rungs)");
    under.rungs = static_cast<int>(entry->gate.rungs.size());
    return under;
}

// The rungs this checker raced, per lab and tile width: in a series (grader/src/suite_series.hpp) the rungs run
// bottom to top, so each rung's line can say where the kernel stands on the whole ladder so far.
std::vector<ladder::RungRace>& rungs_raced(const LabUnderTest& lab) {
    static std::map<std::string, std::vector<ladder::RungRace>> raced;
    return raced[std::string(lab.name) + ".tw" + std::to_string(lab.tile_width)];
}

// Keeps @p race as its rung's latest in rungs_raced (a rung raced again replaces its race).
void remember_rung(const LabUnderTest& lab, const ladder::RungRace& race) {
    std::vector<ladder::RungRace>& raced = rungs_raced(lab);
    for (ladder::RungRace& known : raced)
        if (known.rung == race.rung) {
            known = race;
            return;
        }
    raced.push_back(race);
}

// The gate's measures, for the "measures" of the check's record (check_record.hpp; the checker writes it when the
// check ends): what the report shows (the rung, the speedup, the requirement and where it came from, the GPU, the
// rate, the times) and what scripts/gate-margins.sh counts, as data rather than read back from the printed lines.
// @p first is the first trial; with several (TILELAB_GATE_TRIALS), each trial's speedup and whether it was fast
// enough (1 or 0) are in trial_speedups and trial_fast_enough; @p right: every audited result was the lab's own and
// right; @p passed: that, and every trial fast enough; @p gflops: the rate of a right result (0: none).
void record_gate_measures(const RungUnderTest& under, const GpuIdentity& gpu, const GateThreshold& threshold,
                          const CalibrationOutcome& calibration, const Trial& first, const std::vector<double>& speedups,
                          const std::vector<double>& fast, bool right, bool passed, double gflops) {
    nlohmann::json measures = {{"speedup", first.speedup},
                               {"required_speedup", threshold.required},
                               {"required_by", threshold.overridden ? "TILELAB_MIN_SPEEDUP" : "calibration"},
                               {"required_how", threshold.explain()},
                               {"gpu", gpu.name},
                               {"compute_capability", gpu.compute_capability()},
                               {"student_ms", first.lab_median},
                               {"reference_ms", first.reference_median},
                               {"needed_ms", first.reference_median / threshold.required},
                               {"reference", under.rung->reference_name},
                               {"reference_lab", under.rung->reference},
                               {"rung", under.number},
                               {"rungs", under.rungs},
                               {"fraction", threshold.fraction},
                               {"capped", threshold.capped},
                               {"results_right", right},
                               {"passed", passed},
                               {"trial_speedups", speedups},
                               {"trial_fast_enough", fast}};
    if (threshold.model_speedup) measures["model_speedup"] = *threshold.model_speedup;
    if (calibration.calibration) {
        measures["model_speedup_min"] = calibration.calibration->speedup_min;
        measures["model_speedup_max"] = calibration.calibration->speedup_max;
        measures["calibration_date"] = calibration.calibration->date;
    }
    if (gflops > 0) measures["gflops"] = gflops;
    current_check_measures() = measures;
}

// The gate's size and repeats, the same for the gate and for a calibration measured ahead of it.
RaceSetting gate_setting() {
    return {performance_gate_size(),
            std::max(1, static_cast<int>(env_number("TILELAB_PERF_REPEATS", 15))),
            // Each timed request lasts at least this long for the reference: the fixed cost of a request is then
            // well under 1% of it.
            env_number("TILELAB_PERF_REQUEST_MS", 40)};
}

// The race of the rung of the lab's gate whose suite is @p suite (each rung's test case below runs it): the lab's
// kernel against the rung's reference, by the speedup calibrated on this GPU for that reference.
void race_rung(const char* suite) {
    const LabUnderTest& lab = lab_under_test();
    const RaceSetting setting = gate_setting();
    const int n = setting.n;
    // Races of the gate in this one process (scripts/gate-margins.sh): each decided as the gate decides one.
    const int trials = std::max(1, static_cast<int>(env_number("TILELAB_GATE_TRIALS", 1)));
    std::optional<double> override;
    RungUnderTest under;
    try {
        override = speedup_override(std::getenv("TILELAB_MIN_SPEEDUP"));
        under = rung_of(lab, suite);
    } catch (const std::invalid_argument& error) {
        FAIL(std::string(error.what()));
    }
    const GateRung& rung = *under.rung;
    char rung_words[64];  // "rung 2 of 3": how every line of this rung begins
    std::snprintf(rung_words, sizeof rung_words, "rung %d of %d", under.number, under.rungs);
    // Seeds and audit choices nobody can know in advance: not the kit's reproducible base seed.
    std::random_device entropy;
    std::mt19937_64 pick((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());

    int sets = 1;
    Side reference{rung.reference_name, nullptr, {}, {}};
    Side tiled{"the lab's program", nullptr, {}, {}};
    Audit found;
    std::vector<Trial> done;
    GpuIdentity gpu;
    CalibrationOutcome calibration;
    GateThreshold threshold;  // from the calibration, before the races: a race may stop early when it is clear
    try {
        GateProgram program(gate_models(lab, rung).reference, lab.tile_width);
        reference.program = &program;
        gpu = program.gpu();
        calibration = calibrate(lab, rung, program, reference, setting, !override, pick);
        // Buffers and warm-up while the GPU is shared; held alone for the timed runs.
        sets = prepare_race(reference, tiled, setting, pick);
        threshold = gate_threshold(rung.fraction, model_speedup_of(calibration), override);
        for (int t = 0, races = trials; t < races; ++t) {
            std::vector<SampledRequest> sampled;
            std::vector<KeptResult> kept;
            hold_gpu(GpuUse::timing);
            race(reference, tiled, setting, sets, pick, sampled, kept, threshold.required);
            gpu_lease().release();
            audit_kept(tiled, kept, n, found, GpuUse::shared);  // the GPU is the batch's again meanwhile
            audit_samples(sampled, n, lab.input_precision, found);
            Trial trial;
            trial.pairs = static_cast<int>(tiled.wall_ms.size());
            trial.reference_median = median(reference.wall_ms);
            trial.lab_median = median(tiled.wall_ms);
            trial.speedup = trial.reference_median / trial.lab_median;
            trial.reference_min = min_of(reference.wall_ms);
            trial.reference_max = max_of(reference.wall_ms);
            trial.lab_min = min_of(tiled.wall_ms);
            trial.lab_max = max_of(tiled.wall_ms);
            trial.reference_events = median(reference.event_ms);
            trial.lab_events = median(tiled.event_ms);
            done.push_back(trial);
            if (race_again(trials, t + 1, trial.speedup, threshold.required)) ++races;
        }
    } catch (const std::exception& error) {
        gpu_lease().release();
        FAIL(std::string(error.what()));
    }

    const std::optional<double> model_speedup = model_speedup_of(calibration);
    const double required = threshold.required;
    const std::string on_this_gpu = gpu.name + ", compute capability " + gpu.compute_capability();
    std::printf("%s", calibration.said.c_str());
    std::string first_slow;  // the gate's line of the first trial that was not fast enough, and its speedup
    double first_slow_speedup = 0;
    int slow = 0;
    std::vector<double> trial_speedups, trial_fast;
    // The races that decide: the trials asked for, or, when a slow race was raced again (race_again), the last.
    const std::size_t deciding = done.size() - std::min<std::size_t>(done.size(), static_cast<std::size_t>(trials));
    for (std::size_t t = 0; t < done.size(); ++t) {
        const Trial& trial = done[t];
        char line[640];
        std::snprintf(line, sizeof line,
                      "%s at TILE_WIDTH %d, %dx%dx%d, %d interleaved requests of %d launches after warm-up, timed "
                      "by the checker: reference (%s) median %.3f ms (%.3f..%.3f), the lab's kernel median %.3f ms "
                      "(%.3f..%.3f), speedup %.2fx, required %.2fx",
                      lab.name, lab.tile_width, n, n, n, trial.pairs, sets, rung.reference_name,
                      trial.reference_median, trial.reference_min, trial.reference_max, trial.lab_median,
                      trial.lab_min, trial.lab_max, trial.speedup, required);
        if (trials > 1) std::printf("trial %zu of %d: ", t + 1, trials);
        if (t < deciding)
            std::printf("a first race, too slow, raced again (a loaded machine can delay a race's answers; the "
                        "second race decides): ");
        std::printf("%s: %s\n", rung_words, line);
        std::printf("for comparison, each program's own CUDA events around its launches (not used to decide): "
                    "reference %.3f ms, the lab's kernel %.3f ms, events' speedup %.2fx\n",
                    trial.reference_events, trial.lab_events, trial.reference_events / trial.lab_events);
        const bool fast = trial.speedup >= required;
        if (t < deciding) continue;
        trial_speedups.push_back(trial.speedup);
        trial_fast.push_back(fast ? 1 : 0);
        if (!fast && slow++ == 0) {
            first_slow = line;
            first_slow_speedup = trial.speedup;
        }
    }
    std::printf("required %.2fx on this GPU (%s): %s\n", required, on_this_gpu.c_str(), threshold.explain().c_str());
    if (threshold.overridden && model_speedup)
        std::printf("the lab's model answer measured %.2fx over the same reference on this GPU\n", *model_speedup);
    if (threshold.capped)
        std::printf("warning: on this GPU the lab's model answer is only %.2fx as fast as the reference, so the "
                    "gate cannot tell a kernel that does this lab's work from one that does not; the other "
                    "checks still do\n", *model_speedup);
    if (found.forged > 0)
        FAIL_CHECK((std::string(rung_words) + " not reached: " + std::to_string(found.forged) + " of " +
                    std::to_string(found.audited) +
                    " results read back after a timed request are not the results the lab's program reported "
                    "when it answered (their digests, or the elements it sent as samples of them): it answered "
                    "before its kernels had computed them (or changed them after). "
                    "The gate times the kit's own launches of the kernel; nothing else may run or answer for it."));
    const char* flags = std::getenv("TILELAB_GATE_CUDA_FLAGS");
    if (flags != nullptr && *flags != '\0')
        std::printf("both kernels built with %s: global loads are cached in L2 only, so a kernel is fast here "
                    "through what it reuses from shared memory, not through the L1 cache\n", flags);
    const Trial& decided = done[deciding];  // the first race that decides (done holds one at least)
    const double lab_median = decided.lab_median;
    const double needed_ms = decided.reference_median / required;  // the lab's time per launch this rung asks
    // A kernel that computes on some launches only must not pass: every launch's result is checked.
    if (found.unwritten_results > 0)
        FAIL_CHECK((std::string(rung_words) + " not reached: " + std::to_string(found.unwritten_results) + " of " +
                    std::to_string(found.results) +
                    " results of the timed launches were left unwritten: every element still held the poison the "
                    "kit writes over P before each timed request, so those launches computed nothing. The gate "
                    "checks the result of every launch it times: the kernel must compute P on every launch."));
    // A fast wrong kernel must not pass: sampled elements of every result against the float64 reference, at the
    // lab's precision.
    if (found.samples.wrong > 0)
        FAIL_CHECK((std::string(rung_words) + " not reached: " + wrong_samples_words(found, lab.input_precision) +
                    ": fix correctness first (a kernel that skips work when it is launched again on new operands of "
                    "the same size is wrong too)"));
    const bool right = found.forged == 0 && found.unwritten_results == 0 && found.samples.wrong == 0;
    if (right)  // the rate of a right result, for Gradescope's leaderboard (report.cmake reads this line)
        std::printf("leaderboard: %.1f GFLOP/s (%s, %dx%dx%d, median of %d runs)\n",
                    2.0 * n * n * static_cast<double>(n) / (lab_median * 1e6), lab.name, n, n, n,
                    decided.pairs);
    record_gate_measures(under, gpu, threshold, calibration, decided, trial_speedups, trial_fast, right,
                         right && slow == 0, right ? 2.0 * n * n * static_cast<double>(n) / (lab_median * 1e6) : 0);
    if (deciding > 0) current_check_measures()["first_race_speedup"] = done.front().speedup;  // raced again
    // The audit of every launch's result (gate_audit.hpp), for the record.
    current_check_measures()["results_audited"] = found.results;
    current_check_measures()["results_unwritten"] = found.unwritten_results;
    current_check_measures()["results_forged"] = found.forged;
    current_check_measures()["samples"] = found.samples.sampled;
    current_check_measures()["samples_wrong"] = found.samples.wrong;
    current_check_measures()["worst_error_over_bound"] = found.samples.worst_ratio;
    // Where the kernel stands on the ladder, from every rung this checker raced for the lab (all below this one in a
    // series): the rung reached, and the next one with the time it needs.
    ladder::RungRace raced;
    raced.rung = under.number;
    raced.measured = right;
    raced.won = right && slow == 0;
    raced.speedup = decided.speedup;
    raced.required = required;
    raced.lab_ms = lab_median;
    raced.reference_ms = decided.reference_median;
    raced.name = std::string("against ") + rung.reference_name;
    remember_rung(lab, raced);
    if (slow == 0 && right)
        std::printf("%s reached: %.2fx as fast as %s, %.2fx required (%.3f ms or less a launch; the lab's kernel took "
                    "%.3f ms)\n",
                    rung_words, decided.speedup, rung.reference_name, required, needed_ms, lab_median);
    // Where the rungs below were raced by another checker (a test of their own each, outside a series), the report's
    // gate lines say where the kernel stands; this checker knows its rung alone.
    bool below_known = true;
    for (int below = 1; below < under.number; ++below) {
        bool known = false;
        for (const ladder::RungRace& race : rungs_raced(lab)) known = known || race.rung == below;
        below_known = below_known && known;
    }
    if (below_known)
        std::printf("the gate's ladder for %s: %s\n", lab.name,
                    ladder::standing_line(rungs_raced(lab), under.rungs).c_str());
    else
        std::printf("the gate's ladder for %s: %s %s here; the rungs below were raced by their own tests (the report's "
                    "gate lines say where the kernel stands on the whole ladder)\n",
                    lab.name, rung_words, raced.won ? "won" : "not won");
    if (slow == 0) return;
    char summary[800];
    std::snprintf(summary, sizeof summary,
                  "%s not reached: the kernel is not fast enough: %.2fx as fast as %s on this GPU (%s), and this "
                  "rung requires %.2fx here (%s): %.3f ms or less a launch at %dx%dx%d, where it took %.3f ms",
                  rung_words, first_slow_speedup, rung.reference_name, on_this_gpu.c_str(), required,
                  threshold.explain().c_str(), needed_ms, n, n, n, lab_median);
    std::string said = summary;
    if (trials > 1) said += ", in " + std::to_string(slow) + " of " + std::to_string(trials) + " trials";
    const std::string how_required =
        threshold.overridden ? " (TILELAB_MIN_SPEEDUP set the speedup required.)"
                             : " (The requirement is calibrated on each GPU from the lab's own model answer: "
                               "docs/grading.md, the performance gate.)";
    // The top rung races the previous stage's model, whose design this lab improves on; a lower rung an earlier one.
    const std::string compared = under.number == under.rungs
                                     ? "it runs little faster than " + std::string(rung.reference_name) +
                                           ", whose design this lab improves on"
                                     : "it runs no faster than " + std::string(rung.reference_name) +
                                           ", the model of an earlier lab";
    if (lab.block_tile > 0)
        FAIL_CHECK((said + "\n  " + compared + ". Keep each thread's outputs in "
                    "registers, reuse every value read from shared memory for all the outputs it serves, load the "
                    "tiles with consecutive threads on consecutive elements, and unroll the loops over the "
                    "outputs (with constant bounds, so the sums stay in registers)." + how_required + "\n  " +
                    first_slow));
    else
        FAIL_CHECK((said + "\n  the tiled kernel runs like a kernel that "
                    "reads its operands from global memory. Each phase should load each tile element once, wait, "
                    "then compute only from the shared tiles (both operands), and wait again before the next "
                    "loads; the grid is one block per tile of P. The kit measures with global loads cached in L2 "
                    "only, so caches do not hide a kernel that does not reuse its tiles." + how_required + "\n  " +
                    first_slow));
}

}  // namespace

TEST_SUITE("calibration") {
    // Run by tilelab-checker-gpu --calibrate-gates (batch.sh --kit on a machine with a GPU), before a class, while
    // nothing else runs: a calibration measured while a batch keeps the machine busy once set a requirement too low
    // for the rest of that batch (docs/benchmarks.md#class_early_stops). Every rung's reference is calibrated once
    // (rungs that race the same reference share its record).
    TEST_CASE("the gate's calibration on this GPU is measured, or kept from before") {
        const LabUnderTest& lab = lab_under_test();
        std::random_device entropy;
        std::mt19937_64 pick((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
        const LabEntry* entry = find_lab(lab.name);
        REQUIRE(entry != nullptr);
        std::vector<std::string> calibrated;  // the references done
        for (const GateRung& rung : entry->gate.rungs) {
            if (std::find(calibrated.begin(), calibrated.end(), rung.reference) != calibrated.end()) continue;
            calibrated.push_back(rung.reference);
            CalibrationOutcome outcome;
            try {
                GateProgram program(gate_models(lab, rung).reference, lab.tile_width);
                Side reference{rung.reference_name, &program, {}, {}};
                outcome = calibrate(lab, rung, program, reference, gate_setting(), true, pick);
            } catch (const std::exception& error) {
                gpu_lease().release();
                FAIL(std::string(error.what()));
            }
            std::printf("%s at TILE_WIDTH %d against %s: %s", lab.name, lab.tile_width, rung.reference,
                        outcome.said.c_str());
            CHECK_MESSAGE(outcome.calibration.has_value(), "no calibration against " << rung.reference << " was measured");
        }
    }
}

// Each rung of a lab's gate, bottom to top (doctest runs a file's test cases in order: a series of the rungs' suites
// races them in that order too), one suite per name of gate_suites.hpp. A lab's registry entry says which rungs it
// has (grader/labs.json).
static_assert(sizeof gate_rung_suites / sizeof gate_rung_suites[0] == 3, "one test case below per rung suite");

TEST_SUITE(gate_rung_suites[0]) {
    TEST_CASE("the lab's kernel reaches the first rung of its gate's ladder") { race_rung(gate_rung_suites[0]); }
}

TEST_SUITE(gate_rung_suites[1]) {
    TEST_CASE("the lab's kernel reaches the second rung of its gate's ladder") { race_rung(gate_rung_suites[1]); }
}

TEST_SUITE(gate_rung_suites[2]) {
    TEST_CASE("the lab's kernel beats the previous stage's model kernel by the speedup calibrated on this GPU") {
        race_rung(gate_rung_suites[2]);
    }
}

}  // namespace tilelab::grader
