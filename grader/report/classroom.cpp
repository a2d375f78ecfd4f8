#include "classroom.hpp"

#include <cctype>
#include <sstream>
#include <stdexcept>

namespace tilelab::report {

namespace {

/// @p text as a YAML single-quoted scalar.
std::string quoted(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

}  // namespace

std::string classroom_workflow(const Registry& registry, const std::vector<std::string>& labs) {
    std::string numbers;  // grade.cmake's LABS: "02;03"
    for (const auto& lab : labs) {
        const std::string& folder = registry.folders.at(lab);
        numbers += (numbers.empty() ? "" : ";") + folder.substr(0, folder.find('_'));
    }
    std::ostringstream out;
    out << "# GitHub Classroom's autograding of TileLab (" << (labs.size() == registry.lab_ids.size() ? "every lab" : "labs " + numbers)
        << ", CPU backend), written by\n"
           "#   tilelab-report classroom --registry grader/labs.json [--labs 02]\n"
           "# from the lab registry: regenerate it, do not edit the points by hand. It lives in the student's repository\n"
           "# (.github/workflows/classroom.yml), where the student can edit it: a grade from it is the student's own claim\n"
           "# until regraded from clean clones (docs/instructors.md, \"GitHub Classroom\").\n"
           "name: Autograding Tests\n"
           "'on': [push, repository_dispatch]\n"
           "permissions:\n  checks: write\n  actions: read\n  contents: read\n"
           "jobs:\n  run-autograding-tests:\n    runs-on: ubuntu-latest\n"
           "    if: github.actor != 'github-classroom[bot]'\n"
           "    steps:\n"
           "    - name: Checkout code\n      uses: actions/checkout@v4\n"
           "    - name: Tools (CMake, Ninja, g++, doctest, Boost.Context, nlohmann/json)\n"
           "      run: sudo bash grader/packages.sh\n"
           "    # The kit once (CPU backend), then the labs' checks against it; each test below reads its points from\n"
           "    # build/classroom/summary.json. A failed step still lets the tests run: they say what is missing.\n"
           "    - name: Kit\n"
           "      run: cmake --preset grade -B build/kit -DTILELAB_BACKENDS=cpu && cmake --build build/kit\n"
           "      timeout-minutes: 30\n"
           "      continue-on-error: true\n"
           "    - name: Grade\n"
           "      run: cmake -DSUBMISSION=labs -DKIT=build/kit " << quoted("-DLABS=" + numbers)
        << " -DBUILD=build/classroom -DSUMMARY=build/classroom/summary.json -P grader/grade.cmake\n"
           "      timeout-minutes: 30\n"
           "      continue-on-error: true\n";
    std::string runners, reporter_env;
    for (const auto& lab : labs) {
        int index = 0;
        for (const auto& check : registry.checks) {
            if (check.lab != lab) continue;
            ++index;
            if (!graded_on_cpu(registry, check)) continue;  // a GPU-only check: no points without a GPU
            const std::string id = lab + "-" + std::to_string(index);
            const std::string name = quoted(lab + ": " + check.name);
            out << "    - name: " << name << "\n      id: " << id
                << "\n      uses: classroom-resources/autograding-command-grader@v1\n      with:\n        test-name: " << name
                << "\n        command: build/kit/grader/tilelab-report check --summary build/classroom/summary.json"
                   " --registry grader/labs.json --lab " << lab << " --check " << index
                << "\n        timeout: 1\n        max-score: " << check.points << "\n";
            runners += (runners.empty() ? "" : ",") + id;
            std::string upper = id;
            for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            reporter_env += "        " + upper + "_RESULTS: \"${{steps." + id + ".outputs.result}}\"\n";
        }
    }
    out << "    - name: Autograding Reporter\n      uses: classroom-resources/autograding-grading-reporter@v1\n"
           "      env:\n" << reporter_env << "      with:\n        runners: " << runners << "\n";
    return out.str();
}

CheckOutcome classroom_check(const nlohmann::json& summary, const std::string& lab, const std::string& name) {
    int earned = 0, possible = 0, seen = 0;
    bool none_failed = true;
    std::string lines;
    for (const auto& check : summary.at("checks")) {
        if (check.at("lab").get<std::string>() != lab) continue;
        const std::string state = check.at("state").get<std::string>(), reason = check.at("reason").get<std::string>();
        std::string line = lab + ": " + check.at("name").get<std::string>() + ": " +
                                 std::to_string(check.at("earned").get<int>()) + "/" +
                                 std::to_string(check.at("max").get<int>()) + " " + state +
                                 (reason.empty() ? "" : ": " + reason);
        const std::string details = check.value("details", std::string());
        if (!details.empty()) line += "\n" + details;  // the compiler's errors, the wrong elements, the fault
        if (!name.empty() && check.at("name").get<std::string>() == name) return {state == "passed", line};
        ++seen;
        earned += check.at("earned").get<int>();
        possible += check.at("max").get<int>();
        none_failed = none_failed && state != "failed";
        lines += (lines.empty() ? "" : "\n") + line;
    }
    if (name.empty() && seen > 0) return {none_failed && earned == possible, lines};
    return {false, lab + ": " + (name.empty() ? "no check of this lab" : "the check \"" + name + "\"") +
                       " is not in the grading's summary: its lab was not graded (see the Grade step's log), or the "
                       "workflow was written for another version of the kit (regenerate it)"};
}

std::string check_name(const Registry& registry, const std::string& lab, int index) {
    int seen = 0;
    for (const auto& check : registry.checks)
        if (check.lab == lab && ++seen == index) return check.name;
    throw std::runtime_error(lab + " has no check number " + std::to_string(index) + " in the registry");
}

}  // namespace tilelab::report
