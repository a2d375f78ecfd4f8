// The speedup a performance gate requires on this GPU (gate_threshold.hpp).
#include "gate_threshold.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace tilelab::grader {

std::string GateThreshold::explain() const {
    char text[256];
    if (overridden) return "set by TILELAB_MIN_SPEEDUP";
    if (!model_speedup) return "not derived";
    if (capped)
        std::snprintf(text, sizeof text,
                      "%.2f x the lab's model answer's %.2fx on this GPU: its stage gains too little here for "
                      "1 + %.2f x (%.2f - 1)",
                      model_share_cap, *model_speedup, fraction, *model_speedup);
    else
        std::snprintf(text, sizeof text, "1 + %.2f x (%.2f - 1), from the lab's model answer's %.2fx on this GPU",
                      fraction, *model_speedup, *model_speedup);
    return text;
}

bool race_again(int trials_asked, int races_run, double speedup, double required) {
    return trials_asked == 1 && races_run == 1 && speedup < required && speedup >= required * race_again_from;
}

bool race_decided_early(int pairs, double speedup, double required) {
    for (const EarlyStop& stop : early_stops)
        if (pairs == stop.pairs && (speedup >= required * stop.margin || speedup * stop.margin <= required)) return true;
    return false;
}

std::optional<double> speedup_override(const char* text) {
    if (text == nullptr || *text == '\0') return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !std::isfinite(value) || value <= 0)
        throw std::invalid_argument(std::string("TILELAB_MIN_SPEEDUP is '") + text +
                                    "': it must be a speedup above 0, such as 1.25 (or unset, for the speedup "
                                    "calibrated on this GPU)");
    return value;
}

GateThreshold gate_threshold(double fraction, std::optional<double> model_speedup, std::optional<double> override) {
    if (!(fraction >= 0 && fraction <= 1))
        throw std::invalid_argument("a gate's fraction must be between 0 and 1 (its gate.fraction in grader/labs.json)");
    if (model_speedup && !(std::isfinite(*model_speedup) && *model_speedup > 0))
        throw std::invalid_argument("the model answer's measured speedup is not a number above 0");
    GateThreshold threshold;
    threshold.fraction = fraction;
    threshold.model_speedup = model_speedup;
    if (override) {
        threshold.required = *override;
        threshold.overridden = true;
        return threshold;
    }
    if (!model_speedup) throw std::invalid_argument("a gate's requirement needs the model's speedup or an override");
    const double derived = std::max(1.0, 1.0 + fraction * (*model_speedup - 1.0));
    const double cap = model_share_cap * *model_speedup;
    threshold.capped = derived > cap;
    threshold.required = std::min(derived, cap);
    return threshold;
}

}  // namespace tilelab::grader
