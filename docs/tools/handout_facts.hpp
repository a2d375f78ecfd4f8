/// @file handout_facts.hpp
/// @brief The facts a handout states that come from the lab registry (how many tests grade a lab, on each backend),
/// counted from CTest's list of a configured build, and the marked spans of a handout that state them:
/// `<!-- fact: lab02.tests-cpu -->30<!-- /fact -->`.
#pragma once

#include "records.hpp"
#include "registry.hpp"

#include <map>
#include <string>
#include <vector>

namespace tilelab::docs {

/// Each fact by name: "<lab>.tests-cpu" (its CPU backend's graded tests), "<lab>.sanitizer-tests" (those of them
/// that stand for compute-sanitizer's checks, skipped there: the GPU has one each where compute-sanitizer is
/// installed), "<lab>.tests-gpu" (the GPU's, with compute-sanitizer's, whether or not this machine has it) and
/// "<lab>.tests" (the two backends together: what a grade of the lab counts on a GPU machine with compute-sanitizer).
/// The tests are those the report counts (tilelab::report::graded_identity); without a GPU backend in @p tests,
/// there are no GPU facts.
std::map<std::string, int> count_facts(const report::Registry& registry, const std::vector<report::ListedTest>& tests);

/// One marked span of a handout.
struct FactSpan {
    std::string name;       ///< the fact, "lab02.tests"
    std::string stated;     ///< what the handout says now, "53"
    std::size_t begin = 0;  ///< where the stated text starts in the handout
    std::size_t end = 0;    ///< one past its end
    int line = 0;           ///< its line, from 1
};

/// The marked spans of @p text, in order.
std::vector<FactSpan> fact_spans(const std::string& text);

/// @p text with every marked span whose fact is in @p facts saying its value.
std::string with_facts(const std::string& text, const std::map<std::string, int>& facts);

}  // namespace tilelab::docs
