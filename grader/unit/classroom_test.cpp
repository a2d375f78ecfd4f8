// GitHub Classroom's workflow (grader/report/classroom.hpp), written from the registry whenever an instructor needs
// it (no committed copy to drift from grader/labs.json): each test is worth its check's points, the checks only a
// GPU grades are left out, and `tilelab-report check` passes exactly the checks a summary passed.
#include "classroom.hpp"
#include "registry.hpp"

#include <doctest/doctest.h>

#include <regex>
#include <string>

namespace {

using namespace tilelab::report;

/// The points the CPU backend can give @p lab, read from the registry's JSON here rather than through
/// graded_on_cpu: a check counts unless each of its suites has a "gpu_only" reason or is a sanitizer's.
int cpu_points(const nlohmann::json& registry, const std::string& lab) {
    int points = 0;
    for (const auto& entry : registry["labs"]) {
        if (entry["id"] != lab) continue;
        for (const auto& check : entry["checks"]) {
            bool cpu = false;
            for (const auto& suite : check["suites"]) {
                const auto& policy = registry["suites"][suite.get<std::string>()];
                cpu = cpu || (policy.value("gpu_only", std::string()).empty() && policy.value("kind", std::string()) != "sanitizer");
            }
            if (cpu) points += check["points"].get<int>();
        }
    }
    return points;
}

// Every point of @p lab's rubric.
int all_points(const nlohmann::json& registry, const std::string& lab) {
    int points = 0;
    for (const auto& entry : registry["labs"])
        if (entry["id"] == lab)
            for (const auto& check : entry["checks"]) points += check["points"].get<int>();
    return points;
}

}  // namespace

TEST_SUITE("classroom") {
    TEST_CASE("each lab's tests are worth the points its CPU-graded checks have in the registry, one step each") {
        const nlohmann::json json = load_json(TILELAB_REGISTRY_JSON);
        const Registry registry = read_registry(json);
        for (const auto& lab : registry.lab_ids) {
            CAPTURE(lab);
            const std::string workflow = classroom_workflow(registry, {lab});
            const std::regex step("id: (" + lab + "-[0-9]+)\\n(?:.*\\n){5}        max-score: ([0-9]+)\\n");
            int points = 0;
            std::string runners;
            for (std::sregex_iterator it(workflow.begin(), workflow.end(), step), end; it != end; ++it) {
                points += std::stoi((*it)[2].str());
                runners += (runners.empty() ? "" : ",") + (*it)[1].str();
                std::string upper = (*it)[1].str();
                for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                CHECK(workflow.find(upper + "_RESULTS: \"${{steps." + (*it)[1].str() + ".outputs.result}}\"") != std::string::npos);
            }
            CHECK(points == cpu_points(json, lab));
            CHECK(points > 0);
            CHECK(workflow.find("runners: " + runners + "\n") != std::string::npos);
            // Every check has its CPU backend's part (the technique check joins the speed checks, the emulator's
            // checks compute-sanitizer's): a lab is worth as much on Classroom's runners as on a GPU.
            CHECK(points == all_points(json, lab));
        }
        CHECK(classroom_workflow(registry, {"lab02", "lab03"}).find("'-DLABS=02;03'") != std::string::npos);
    }

    TEST_CASE("labs are named by id, number or folder; an unknown one is refused") {
        const Registry registry = load_registry(TILELAB_REGISTRY_JSON);
        for (const char* item : {"lab02", "02", "2", "02_tiled"})
            CHECK(select_labs(registry, {item}) == std::vector<std::string>{"lab02"});
        CHECK(select_labs(registry, {}) == registry.lab_ids);
        CHECK_THROWS_WITH(select_labs(registry, {"42"}), doctest::Contains("names '42', which is no lab. Name each lab by its number (02), id (lab02) or folder (02_tiled); the labs are lab01 (01_naive), "));
    }

    TEST_CASE("a test's command passes exactly when the summary's check passed") {
        const nlohmann::json ben = load_json(std::string(TILELAB_UNIT_FIXTURES) + "/summaries/reports/ben/summary.json");
        const CheckOutcome failed = classroom_check(ben, "lab02", "tiles in shared memory");
        CHECK_FALSE(failed.passed);
        CHECK(failed.line == "lab02: tiles in shared memory: 0/2 failed: graded.lab02.tw16.shared-memory: the kernel "
                             "reads A and B from global memory only");
        CHECK(classroom_check(ben, "lab01", "builds at every tile width").passed);
        CHECK(classroom_check(ben, "lab01", "").passed);        // the whole lab: full marks
        CHECK_FALSE(classroom_check(ben, "lab02", "").passed);  // the whole lab: one check failed
        CHECK_FALSE(classroom_check(ben, "lab03", "clean under compute-sanitizer").passed);  // skipped is no pass
        const CheckOutcome absent = classroom_check(ben, "lab05", "");
        CHECK_FALSE(absent.passed);
        CHECK(absent.line.find("not in the grading's summary") != std::string::npos);
        const Registry registry = load_registry(TILELAB_REGISTRY_JSON);
        CHECK(check_name(registry, "lab02", 1) == "builds at every tile width");
        CHECK_THROWS(check_name(registry, "lab02", 99));
    }
}
