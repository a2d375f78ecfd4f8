#include "lab_registry.hpp"

#include <tilelab/labs.hpp>  // the configurations name labs.hpp's constants

namespace tilelab::grader {

const std::vector<LabEntry>& all_labs() {
    static const std::vector<LabEntry> labs{
#define TILELAB_LAB_ENTRY(...) LabEntry __VA_ARGS__,
#include <tilelab/lab_table.inc>
#undef TILELAB_LAB_ENTRY
    };
    return labs;
}

const LabEntry* find_lab(std::string_view id) {
    for (const LabEntry& lab : all_labs())
        if (id == lab.id) return &lab;
    return nullptr;
}

const SuiteEntry* find_suite(std::string_view name) {
    static const std::vector<SuiteEntry> suites{
#define TILELAB_SUITE_ENTRY(...) SuiteEntry __VA_ARGS__,
#include <tilelab/lab_table.inc>
#undef TILELAB_SUITE_ENTRY
    };
    for (const SuiteEntry& suite : suites)
        if (name == suite.name) return &suite;
    return nullptr;
}

std::string lab_ids() {
    std::string ids;
    for (const LabEntry& lab : all_labs()) ids += (ids.empty() ? "" : ", ") + std::string(lab.id);
    return ids;
}

const GateRung* find_rung(const LabEntry& lab, std::string_view suite, int& number) {
    number = 0;
    for (std::size_t i = 0; i < lab.gate.rungs.size(); ++i)
        if (suite == lab.gate.rungs[i].suite) {
            number = static_cast<int>(i) + 1;
            return &lab.gate.rungs[i];
        }
    return nullptr;
}

}  // namespace tilelab::grader
