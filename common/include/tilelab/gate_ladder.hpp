/// @file gate_ladder.hpp
/// @brief The performance gate's rungs as a ladder: which rung a lab's kernel reached, which one is next, and the
/// time that rung asks of the kernel. Each rung is a race of its own, and the check of its own in the registry
/// (grader/labs.json) whose points it earns; the checker says where the kernel stands after each rung's race
/// (grader/checks/perf_check.cpp) and the report once per lab (grader/report/grade.cpp), from the same measures.
/// Header-only: the report links nothing of the checker's.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace tilelab::ladder {

/// One rung's race, as measured (the measures of its check's record).
struct RungRace {
    int rung = 0;             ///< Its number, 1 for the lowest.
    bool measured = false;    ///< Its race ran and timed right results (false: not raced, or its results were wrong).
    bool won = false;         ///< It earned the rung: fast enough, every audited result the lab's own and right.
    double speedup = 0;       ///< The lab's kernel's speedup over the rung's reference.
    double required = 0;      ///< The speedup the rung requires on this GPU.
    double lab_ms = 0;        ///< The lab's kernel's median time per launch.
    double reference_ms = 0;  ///< The reference's median time per launch.
    std::string name;         ///< What the rung asks, in words: "beats lab 07's model kernel".
};

/// Where a kernel stands on a ladder.
struct Standing {
    int rungs = 0;    ///< The ladder's rungs.
    int reached = 0;  ///< The highest rung won with every rung below it won; 0: none.
    int next = 0;     ///< The lowest rung not won (reached + 1); 0: every rung was won.
};

/// Where a kernel whose races are @p races (any order; a rung with no race was not won) stands on a ladder of
/// @p rungs rungs. A rung counts as reached only with every rung below it: its points are its own check's either
/// way, but the line names the first rung the kernel still has to climb.
inline Standing standing(const std::vector<RungRace>& races, int rungs) {
    Standing out;
    out.rungs = rungs;
    for (int rung = 1; rung <= rungs; ++rung) {
        bool won = false;
        for (const RungRace& race : races)
            if (race.rung == rung && race.won) won = true;
        if (!won) {
            out.next = rung;
            break;
        }
        out.reached = rung;
    }
    return out;
}

/// The time per launch the lab's kernel needs for @p race's rung: the reference's time over the speedup required;
/// 0 where the race did not time them.
inline double needed_ms(const RungRace& race) {
    return race.measured && race.required > 0 && race.reference_ms > 0 ? race.reference_ms / race.required : 0;
}

/// The ladder's line for @p races on a ladder of @p rungs: "rung 2 of 3 reached (beats lab 07's model kernel);
/// next: rung 3 (beats the previous lab's model kernel), 1.14x required: 0.876 ms or less a launch, the kernel
/// took 1.010 ms". The next rung is "not raced" where @p races has no race of it, "not timed" where its race timed
/// no right results. A rung won above the next one is said too (its points are earned).
inline std::string standing_line(const std::vector<RungRace>& races, int rungs) {
    const Standing where = standing(races, rungs);
    const auto find = [&](int rung) -> const RungRace* {
        for (const RungRace& race : races)
            if (race.rung == rung) return &race;
        return nullptr;
    };
    const auto named = [&](int rung) {
        const RungRace* race = find(rung);
        return race != nullptr && !race->name.empty() ? " (" + race->name + ")" : std::string();
    };
    std::string line;
    if (where.reached == 0) line = "no rung of " + std::to_string(rungs) + " reached";
    else line = "rung " + std::to_string(where.reached) + " of " + std::to_string(rungs) + " reached" + named(where.reached);
    if (where.next == 0) return line + ": the top of the ladder";
    line += "; next: rung " + std::to_string(where.next) + named(where.next);
    const RungRace* next = find(where.next);
    if (next != nullptr && needed_ms(*next) > 0) {
        char text[160];
        std::snprintf(text, sizeof text, ", %.2fx required: %.3f ms or less a launch, the kernel took %.3f ms",
                      next->required, needed_ms(*next), next->lab_ms);
        line += text;
    } else {
        line += next == nullptr ? ", not raced" : ", not timed";
    }
    for (int rung = where.next + 1; rung <= rungs; ++rung) {
        const RungRace* above = find(rung);
        if (above != nullptr && above->won) line += "; rung " + std::to_string(rung) + " won too";
    }
    return line;
}

}  // namespace tilelab::ladder
