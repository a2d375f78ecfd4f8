// The grades-equal check (grader/report/same_grades.hpp): two results.json compared check by check.
#include "same_grades.hpp"

#include <doctest/doctest.h>

namespace {

nlohmann::json results(int shared_memory_score) {
    return nlohmann::json::parse(R"({"score": 3, "tests": [
        {"name": "lab01: builds at every tile width", "score": 1, "max_score": 1, "status": "passed"},
        {"name": "lab02: tiles in shared memory", "score": )" + std::to_string(shared_memory_score) +
                                 R"(, "max_score": 2}]})");
}

}  // namespace

TEST_SUITE("same_grades") {
    TEST_CASE("the same points check by check: no difference") {
        const auto a = tilelab::report::result_checks(results(2));
        CHECK(a == std::vector<std::string>{"lab01: builds at every tile width: 1/1", "lab02: tiles in shared memory: 2/2"});
        CHECK(tilelab::report::grade_differences(a, tilelab::report::result_checks(results(2)), "a", "b").empty());
    }

    TEST_CASE("one check's points differ: a line for each side") {
        const auto differences = tilelab::report::grade_differences(
            tilelab::report::result_checks(results(2)), tilelab::report::result_checks(results(0)), "a", "b");
        CHECK(differences == std::vector<std::string>{"only in a: lab02: tiles in shared memory: 2/2",
                                                      "only in b: lab02: tiles in shared memory: 0/2"});
    }

    TEST_CASE("a check missing on one side is a difference") {
        auto b = tilelab::report::result_checks(results(2));
        b.pop_back();
        CHECK(tilelab::report::grade_differences(tilelab::report::result_checks(results(2)), b, "a", "b").size() == 1);
    }

    TEST_CASE("not a results.json: refused") {
        CHECK_THROWS(tilelab::report::result_checks(nlohmann::json::parse(R"({"score": 1})")));
    }
}
