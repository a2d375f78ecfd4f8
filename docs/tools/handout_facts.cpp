#include "handout_facts.hpp"

#include "records.hpp"

#include <algorithm>
#include <regex>
#include <set>

namespace tilelab::docs {

std::map<std::string, int> count_facts(const report::Registry& registry, const std::vector<report::ListedTest>& tests) {
    std::set<std::string> sanitizer_suites;  // an optional check's: compute-sanitizer's, where it is installed
    for (const auto& check : registry.checks)
        if (check.optional)
            for (const auto& suite : check.suites)
                if (registry.gpu_only_suites.count(suite)) sanitizer_suites.insert(suite);  // not the CPU's own
    std::map<std::string, int> cpu, gpu, sanitizer;
    for (const auto& test : tests) {
        const auto id = report::graded_identity(test, registry);
        if (!id) continue;
        if (id->cpu) {
            ++cpu[id->lab];
            if (sanitizer_suites.count(id->suite)) ++sanitizer[id->lab];
        } else if (!sanitizer_suites.count(id->suite)) {
            ++gpu[id->lab];
        }
    }
    std::map<std::string, int> facts;
    for (const auto& lab : registry.lab_ids) {
        if (cpu.count(lab)) {
            facts[lab + ".tests-cpu"] = cpu[lab];
            facts[lab + ".sanitizer-tests"] = sanitizer[lab];
        }
        // The GPU's with compute-sanitizer's, whether or not this machine has it: one per suite the CPU backend
        // registers (as skipped) for it.
        if (gpu.count(lab) && cpu.count(lab)) {
            facts[lab + ".tests-gpu"] = gpu[lab] + sanitizer[lab];
            facts[lab + ".tests"] = cpu[lab] + gpu[lab] + sanitizer[lab];
        }
    }
    return facts;
}

std::vector<FactSpan> fact_spans(const std::string& text) {
    static const std::regex span(R"(<!-- fact: ([A-Za-z0-9_.-]+) -->([^<]*)<!-- /fact -->)");
    std::vector<FactSpan> spans;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), span); it != std::sregex_iterator(); ++it) {
        const std::smatch& match = *it;
        const auto begin = static_cast<std::size_t>(match.position(2));
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(begin), '\n'));
        spans.push_back({match[1].str(), match[2].str(), begin, begin + match[2].str().size(), line});
    }
    return spans;
}

std::string with_facts(const std::string& text, const std::map<std::string, int>& facts) {
    std::string out;
    std::size_t at = 0;
    for (const auto& span : fact_spans(text)) {
        const auto fact = facts.find(span.name);
        if (fact == facts.end()) continue;
        out += text.substr(at, span.begin - at) + std::to_string(fact->second);
        at = span.end;
    }
    return out + text.substr(at);
}

}  // namespace tilelab::docs
