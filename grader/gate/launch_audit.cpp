// The performance gate's audit of every timed launch (launch_audit.hpp).
#include "launch_audit.hpp"

#include "lab_runner.hpp"

#include <tilelab/gate_data.hpp>

#include <cstdio>
#include <map>

namespace tilelab::grader {

SampledRequest sample_every_result(Side& lab, const Timed& timed, std::uint64_t seed, int n, std::mt19937_64& pick) {
    SampledRequest sampled;
    sampled.seed = seed;
    sampled.digests = timed.digests;
    std::vector<std::uint64_t> places;
    for (std::size_t set = 0; set < timed.digests.size(); ++set) {
        sampled.grids.push_back(draw_sample_grid(n, sample_grid_side, pick));
        const std::vector<std::uint64_t> more = grid_places(sampled.grids.back(), n, static_cast<int>(set));
        places.insert(places.end(), more.begin(), more.end());
    }
    wire::Writer request;
    request.put(wire::Op::perf_samples).put_records(places);
    const Reply reply = lab.ask(request, "sampling every result of the timed runs", GpuUse::timing);
    wire::Reader in = body(reply);
    const std::vector<float> values = in.get_floats();
    require_complete(in, "sampling every result of the timed runs");
    if (values.size() != places.size())
        throw RunnerGone(std::string(lab.who) + " sent back the wrong number of sampled elements");
    for (std::size_t set = 0, at = 0; set < sampled.grids.size(); ++set) {
        const std::size_t count = sampled.grids[set].size();
        sampled.values.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(at),
                                    values.begin() + static_cast<std::ptrdiff_t>(at + count));
        at += count;
    }
    return sampled;
}

std::uint64_t poisoned_digest_of(int n) {
    static std::map<int, std::uint64_t> known;
    const auto found = known.find(n);
    if (found != known.end()) return found->second;
    return known[n] = poisoned_digest(n);
}

void audit_samples(std::vector<SampledRequest>& sampled, int n, InputPrecision precision, Audit& found) {
    const std::uint64_t poison = poisoned_digest_of(n);
    for (const SampledRequest& request : sampled)
        for (std::size_t set = 0; set < request.grids.size(); ++set) {
            ++found.results;
            if (request.digests[set] == poison) ++found.unwritten_results;
            judge_samples(request.values[set],
                          sampled_reference(request.seed, static_cast<int>(set), n, request.grids[set]), n, precision,
                          found.samples);
        }
    sampled.clear();
}

KeptResult keep_result(Side& lab, const SampledRequest& sampled, std::mt19937_64& pick) {
    const int set = std::uniform_int_distribution<int>(0, static_cast<int>(sampled.digests.size()) - 1)(pick);
    wire::Writer request;
    request.put(wire::Op::perf_keep).put<std::int32_t>(set);
    const Reply reply = lab.ask(request, "keeping a result of the timed runs", GpuUse::timing);
    wire::Reader in = body(reply);
    KeptResult result;
    result.number = in.get<std::int32_t>();
    require_complete(in, "keeping a result of the timed runs");
    result.digest = sampled.digests[static_cast<std::size_t>(set)];
    result.set = set;
    result.grid = sampled.grids[static_cast<std::size_t>(set)];
    result.sampled = sampled.values[static_cast<std::size_t>(set)];
    return result;
}

void audit_kept(Side& lab, std::vector<KeptResult>& kept, int n, Audit& found, GpuUse use) {
    for (const KeptResult& result : kept) {
        wire::Writer request;
        request.put(wire::Op::perf_kept).put<std::int32_t>(result.number);
        const Reply reply = lab.ask(request, "reading back a result of the timed runs", use);
        wire::Reader in = body(reply);
        const std::vector<float> P = in.get_floats();
        require_complete(in, "reading back a result of the timed runs");
        if (P.size() != static_cast<std::size_t>(n) * n)
            throw RunnerGone(std::string(lab.who) + " sent back a result of the wrong size");
        ++found.audited;
        bool same = gate::result_digest(P.data(), P.size()) == result.digest;
        const std::vector<std::uint64_t> places = grid_places(result.grid, n, 0);
        for (std::size_t i = 0; i < places.size() && same; ++i)
            same = bits_equal(P[places[i]], result.sampled[i]);
        if (!same) ++found.forged;
    }
    kept.clear();
}

std::string wrong_samples_words(const Audit& found, InputPrecision precision) {
    const SampleFindings& samples = found.samples;
    const char* allows = precision == InputPrecision::fp32 ? "FP32 arithmetic" : "TF32 inputs with FP32 sums";
    std::string said = std::to_string(samples.wrong) + " of " + std::to_string(samples.sampled) +
                       " sampled elements of the lab's results in the timed runs are wrong at this size (in " +
                       std::to_string(samples.results_wrong) + " of " + std::to_string(found.results) + " results, " +
                       std::to_string(sample_grid_side * sample_grid_side) + " elements sampled from every launch's result";
    if (samples.unwritten > 0) said += "; " + std::to_string(samples.unwritten) + " of them never written";
    if (samples.not_finite > 0)
        said += "; " + std::to_string(samples.not_finite) + " of them infinite or NaN";
    if (samples.worst_ratio > 1) {
        char ratio[160];
        std::snprintf(ratio, sizeof ratio, "; the largest error %.1fx what %s allow", samples.worst_ratio, allows);
        said += ratio;
    }
    said += ")";
    // What the wrong elements are, where they are what a narrower path gives: the products of inputs rounded to TF32
    // or BF16, or infinities (FP16 overflows past 65504; the gate's operands reach 2^24).
    const int narrow = samples.like_tf32 + samples.like_bf16 + samples.not_finite;
    if (samples.unwritten > 0 || narrow * 2 < samples.wrong) return said;
    said += ". Of the wrong elements, " + std::to_string(samples.like_tf32) +
            " are what the product of inputs rounded to TF32 (10 fraction bits) gives, " +
            std::to_string(samples.like_bf16) + " what inputs rounded to BF16 (7) give, and " +
            std::to_string(samples.not_finite) + " overflowed as inputs converted to FP16 do";
    if (precision == InputPrecision::fp32)
        said += ". This lab computes in FP32 at every size, the gate's included: its kernel may not round its inputs "
                "to TF32, FP16 or BF16 (tensor cores); the gate's operands are chosen so that such rounding always "
                "shows";
    else
        said += ". This lab rounds its inputs to TF32 and no further, at every size, the gate's included: FP16 or "
                "BF16 inputs are wrong here; the gate's operands are chosen so that such rounding always shows";
    return said;
}

}  // namespace tilelab::grader
