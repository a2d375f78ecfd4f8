// The subcommands for the platforms other than Gradescope: `prairielearn` (results.json of PrairieLearn's external
// grader) and `classroom` and `check` (GitHub Classroom's workflow and the command each of its tests runs).
#include "classroom.hpp"
#include "options.hpp"
#include "prairielearn.hpp"
#include "subcommands.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

using namespace tilelab::report;

/// A text file's content, "" when it cannot be read.
std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

int tilelab::report::prairielearn_main(int argc, char** argv) {
    try {
        const Options options =
            parse(argc, argv, {"--summary", "--log", "--status", "--time-limit", "--labs", "--out", "--validate",
                               "--partial", "--no-grade"});
        if (options.values.count("--validate")) {  // a results.json checked against PrairieLearn's documentation
            const std::string path = options.values.at("--validate");
            const auto problems = prairielearn_problems(load_json(path), std::filesystem::file_size(path));
            for (const auto& problem : problems) std::cerr << path << ": " << problem << "\n";
            return problems.empty() ? 0 : 1;
        }
        PrairieLearnRun run;
        const std::string summary = required(options, "--summary");
        if (std::filesystem::exists(summary)) run.summary = load_json(summary);
        run.log = read_text(optional(options, "--log"));
        run.status = std::stoi(optional(options, "--status", "0"));
        run.time_limit = std::stoi(optional(options, "--time-limit", "0"));
        run.labs = optional(options, "--labs");
        const std::string partial = optional(options, "--partial");
        if (!partial.empty() && std::filesystem::exists(partial)) run.partial = load_json(partial);
        run.no_grade = read_text(optional(options, "--no-grade"));
        while (!run.no_grade.empty() && std::isspace(static_cast<unsigned char>(run.no_grade.back()))) run.no_grade.pop_back();
        write_json(required(options, "--out"), prairielearn_results(run), -1);
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-report prairielearn: " << error.what() << "\n";
        return 2;
    }
}

int tilelab::report::classroom_main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv, {"--registry", "--labs"});
        const Registry registry = load_registry(required(options, "--registry"));
        std::cout << classroom_workflow(registry, select_labs(registry, split_list(optional(options, "--labs"))));
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-report classroom: " << error.what() << "\n";
        return 2;
    }
}

int tilelab::report::check_main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv, {"--summary", "--registry", "--lab", "--check"});
        const std::string lab = required(options, "--lab"), summary = required(options, "--summary");
        std::string name;
        if (options.values.count("--check"))
            name = check_name(load_registry(required(options, "--registry")), lab, std::stoi(options.values.at("--check")));
        if (!std::filesystem::exists(summary)) {
            std::cout << lab << ": not graded: " << summary << " is missing, so the Grade step stopped before its "
                      << "report (its log says why: most often the kit's tools failed to install or build)\n";
            return 1;
        }
        const CheckOutcome outcome = classroom_check(load_json(summary), lab, name);
        std::cout << outcome.line << "\n";
        return outcome.passed ? 0 : 1;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-report check: " << error.what() << "\n";
        return 2;
    }
}
