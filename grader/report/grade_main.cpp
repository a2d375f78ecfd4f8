// The `grade` and `labs` subcommands: command lines and files around the library (grade.hpp).
#include "check_details.hpp"
#include "grade.hpp"
#include "options.hpp"
#include "stub_files.hpp"
#include "subcommands.hpp"

#include <filesystem>
#include <iostream>
#include <stdexcept>

int tilelab::report::grade_main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv, {"--build", "--registry", "--tests", "--results", "--summary",
                                                   "--submission", "--note", "--timing", "--labs", "--output"});
        Registry registry = load_registry(required(options, "--registry"));
        // An assignment of some labs (grade.cmake -DLABS): only their checks and points count, nothing of the rest.
        if (options.values.count("--labs")) registry = only_labs(registry, split_list(options.values.at("--labs")));
        const std::string build = required(options, "--build");
        const std::vector<ListedTest> tests = read_test_list(load_json(required(options, "--tests")));
        GradeContext context;
        context.build = build;
        context.results = required(options, "--results");
        context.submission = options.values.count("--submission") ? options.values.at("--submission") : build;
        context.notes = options.notes;
        context.timings = options.timings;
        // "brief": a student's grade, the points alone (tilelab-grade without --verbose); "full" (default): every table.
        const std::string output = optional(options, "--output", "full");
        if (output != "brief" && output != "full") throw std::runtime_error("--output: brief or full, not " + output);
        context.brief = output == "brief";
        // The labs left as the kit's stubs: the kit's own labs/ graded, or a submission's copy in the build.
        const std::filesystem::path root = std::filesystem::path(required(options, "--registry")).parent_path().parent_path();
        const std::string graded = context.submission;
        // Graded as it is, labs/ is the stubs' own folder: compared with itself, every lab would look untouched.
        if (graded != "labs")
            context.stubs = stub_labs(registry, graded == "solutions" ? root / graded
                                                                      : std::filesystem::path(build) / "submission",
                                      root / "labs");
        std::vector<TestResult> results = read_results(build + "/verdicts", tests, registry);
        attach_details(results, build + "/verdicts", build);  // what the platforms show of each failure
        const Grade grade = score(registry, std::move(results));
        std::cout << render_report(grade, context) << std::flush;
        write_json(context.results, results_json(grade, context));
        write_json(required(options, "--summary"), summary_json(grade, context));
        if (grade.failed > 0) {
            if (!context.brief) std::cerr << grade.failed << " checks failed\n";
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
