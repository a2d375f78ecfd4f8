#include "grading_page.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <set>

namespace tilelab::grader {
namespace {

std::set<std::string> failed_suites;

// A doctest listener that records the suite of every test case that failed.
struct FailedSuites : doctest::IReporter {
    explicit FailedSuites(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData& data) override { suite = data.m_test_suite; }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
        if (stats.failure_flags != 0 && !suite.empty()) failed_suites.insert(suite);
    }
    void test_case_exception(const doctest::TestCaseException&) override {
        if (!suite.empty()) failed_suites.insert(suite);
    }
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}

    std::string suite;
};

}  // namespace

REGISTER_LISTENER("tilelab-failed-suites", 2, FailedSuites);

std::string grading_page_section(const std::string& check) {
    std::string label = "check_" + check;
    std::replace(label.begin(), label.end(), '-', '_');
    return "docs/grading.md#" + label + " (grading.html#" + label + " on the docs site)";
}

void print_grading_page_links(const std::string& sanitizer_tool) {
    if (!sanitizer_tool.empty()) {
        std::printf("see %s\n", grading_page_section(sanitizer_tool).c_str());
        return;
    }
    if (failed_suites.empty()) std::printf("see docs/grading.md (grading.html on the docs site)\n");
    for (const std::string& suite : failed_suites) std::printf("see %s\n", grading_page_section(suite).c_str());
    failed_suites.clear();
}

}  // namespace tilelab::grader
