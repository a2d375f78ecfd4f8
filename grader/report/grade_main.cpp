// The `grade` and `labs` subcommands: command lines and files around the library (grade.hpp).
#include "grade.hpp"
#include "subcommands.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

namespace {

using namespace tilelab::report;

/// The "--name value" options of a command line; "--timing" ("name=seconds") and "--note" may repeat.
struct Options {
    std::map<std::string, std::string> values;  ///< the last value of each option
    std::map<std::string, double> timings;      ///< every --timing, by name
    std::vector<std::string> notes;             ///< every --note, in order
};

/// The options of @p argv (after the subcommand's name); throws std::runtime_error on one it does not know.
Options parse(int argc, char** argv, const std::set<std::string>& known) {
    Options options;
    for (int i = 1; i < argc; i += 2) {
        const std::string name = argv[i];
        if (!known.count(name) || i + 1 >= argc) throw std::runtime_error("unknown option or missing value: " + name);
        const std::string value = argv[i + 1];
        if (name == "--timing") {
            const auto equals = value.find('=');
            if (equals == std::string::npos) throw std::runtime_error("--timing wants name=seconds, got " + value);
            options.timings[value.substr(0, equals)] = std::stod(value.substr(equals + 1));
        } else if (name == "--note") {
            options.notes.push_back(value);
        } else {
            options.values[name] = value;
        }
    }
    return options;
}

/// The value of a required option; throws std::runtime_error naming it.
const std::string& required(const Options& options, const std::string& name) {
    const auto found = options.values.find(name);
    if (found == options.values.end()) throw std::runtime_error("missing " + name);
    return found->second;
}

/// The items of a ","-separated list ("lab02,lab03"), empty ones left out.
std::vector<std::string> split_commas(const std::string& list) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) items.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

/// @p json written to @p path, indented; throws std::runtime_error when it cannot be.
void write_json(const std::string& path, const nlohmann::json& json) {
    std::ofstream out(path, std::ios::trunc);
    out << json.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

int tilelab::report::grade_main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv, {"--build", "--registry", "--tests", "--results", "--summary",
                                                   "--submission", "--note", "--timing", "--labs"});
        Registry registry = load_registry(required(options, "--registry"));
        // An assignment of some labs (grade.cmake -DLABS): only their checks and points count, nothing of the rest.
        if (options.values.count("--labs")) registry = only_labs(registry, split_commas(options.values.at("--labs")));
        const std::string build = required(options, "--build");
        const std::vector<std::string> tests = read_test_list(load_json(required(options, "--tests")));
        GradeContext context;
        context.build = build;
        context.results = required(options, "--results");
        context.submission = options.values.count("--submission") ? options.values.at("--submission") : build;
        context.notes = options.notes;
        context.timings = options.timings;
        const Grade grade = score(registry, read_results(build + "/verdicts", tests, registry));
        std::cout << render_report(grade, context) << std::flush;
        write_json(context.results, results_json(grade, context));
        write_json(required(options, "--summary"), summary_json(grade, context));
        if (grade.failed > 0) {
            std::cerr << grade.failed << " checks failed\n";
            return 1;
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-report grade: " << error.what() << "\n";
        return 2;
    }
}

int tilelab::report::labs_main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv, {"--registry"});
        for (const auto& id : load_registry(required(options, "--registry")).lab_ids) std::cout << id << "\n";
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "tilelab-report labs: " << error.what() << "\n";
        return 2;
    }
}
