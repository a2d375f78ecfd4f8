// tilelab-report timings: where a class's test-seconds went, per kind of check and backend.
#include "suite_times.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace tilelab::report {
namespace fs = std::filesystem;
using nlohmann::json;

void add_record(const json& record, std::vector<SuiteTime>& times) {
    if (!record.is_object() || !record.contains("check") || !record.contains("backend") ||
        !record.contains("seconds") || !record.at("check").is_string() || !record.at("backend").is_string() ||
        !record.at("seconds").is_number()) {
        return;
    }
    const std::string backend = record.at("backend"), check = record.at("check");
    auto time = std::find_if(times.begin(), times.end(),
                             [&](const SuiteTime& t) { return t.backend == backend && t.check == check; });
    if (time == times.end()) time = times.insert(times.end(), SuiteTime{backend, check, 0, 0});
    time->seconds += record.at("seconds").get<double>();
    ++time->tests;
}

std::string suite_times_table(std::vector<SuiteTime> times) {
    std::stable_sort(times.begin(), times.end(), [](const SuiteTime& a, const SuiteTime& b) { return a.seconds > b.seconds; });
    std::string table;
    for (const SuiteTime& time : times) {
        char line[160];
        std::snprintf(line, sizeof line, "%-28s %8.1f test-s in %5d tests (%.2f s each)\n",
                      (time.backend + " " + time.check).c_str(), time.seconds, time.tests, time.seconds / time.tests);
        table += line;
    }
    return table;
}

int timings_main(int argc, char** argv) {
    if (argc < 1) {
        std::cerr << "usage: tilelab-report timings <verdicts folder>...\n";
        return 2;
    }
    std::vector<SuiteTime> times;
    for (int i = 0; i < argc; ++i) {
        std::error_code error;
        for (const auto& item : fs::directory_iterator(argv[i], error)) {
            if (item.path().extension() != ".json") continue;
            std::ifstream in(item.path());
            add_record(json::parse(in, nullptr, false), times);  // a file that does not parse is no record
        }
    }
    std::cout << suite_times_table(times);
    return 0;
}

}  // namespace tilelab::report
