// tilelab-report same: two results.json compared check by check (name, score, possible).
#include "same_grades.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>

namespace tilelab::report {
using nlohmann::json;

std::vector<std::string> result_checks(const json& results) {
    std::vector<std::string> checks;
    for (const json& test : results.at("tests")) {
        checks.push_back(test.at("name").get<std::string>() + ": " + test.at("score").dump() + "/" +
                         test.at("max_score").dump());
    }
    return checks;
}

std::vector<std::string> grade_differences(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                           const std::string& a_name, const std::string& b_name) {
    std::vector<std::string> differences;
    const auto only_in = [&](const std::vector<std::string>& these, const std::vector<std::string>& those,
                             const std::string& name) {
        for (const std::string& check : these) {
            if (std::find(those.begin(), those.end(), check) == those.end()) {
                differences.push_back("only in " + name + ": " + check);
            }
        }
    };
    only_in(a, b, a_name);
    only_in(b, a, b_name);
    return differences;
}

int same_main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: tilelab-report same <a/results.json> <b/results.json>\n";
        return 2;
    }
    std::vector<std::string> checks[2];
    for (int i = 0; i < 2; ++i) {
        try {
            std::ifstream in(argv[i]);
            if (!in) throw std::runtime_error("no such file");
            checks[i] = result_checks(json::parse(in));
        } catch (const std::exception& error) {
            std::cerr << argv[i] << " is not a results.json: " << error.what() << "\n";
            return 2;
        }
    }
    const std::vector<std::string> differences = grade_differences(checks[0], checks[1], argv[0], argv[1]);
    if (differences.empty()) {
        std::cout << "same grades: " << checks[0].size() << " checks\n";
        return 0;
    }
    std::cout << "different grades:\n";
    for (const std::string& line : differences) std::cout << "  " << line << "\n";
    return 1;
}

}  // namespace tilelab::report
