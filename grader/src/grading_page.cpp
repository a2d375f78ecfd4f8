#include "grading_page.hpp"

#include "check_record.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <sstream>

namespace tilelab::grader {
namespace {

std::set<std::string> failed_suites;
std::string first_failure;  // see take_first_failure()

// Keeps @p text as the first failure, unless one is kept already.
void keep_failure(const std::string& text) {
    if (first_failure.empty()) first_failure = text.empty() ? "a check failed" : text;
}

// A failed assertion's words: its message (CHECK_MESSAGE's, kept by doctest as an active context), else the
// exception it met, else the expression as doctest decomposed it.
std::string assert_words(const doctest::AssertData& data) {
    std::string words;
    const int contexts = doctest::IReporter::get_num_active_contexts();
    const doctest::IContextScope* const* active = doctest::IReporter::get_active_contexts();
    for (int i = 0; i < contexts; ++i) {
        std::ostringstream text;
        active[i]->stringify(&text);
        if (!words.empty()) words += "\n";
        words += text.str();
    }
    if (!words.empty()) return words;
    if (data.m_threw) return std::string("threw: ") + data.m_exception.c_str();
    return std::string(data.m_expr) + " is " + data.m_decomp.c_str();
}

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
    void test_case_exception(const doctest::TestCaseException& exception) override {
        if (!suite.empty()) failed_suites.insert(suite);
        keep_failure(exception.error_string.c_str());
    }
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData& data) override {
        if (data.m_failed) keep_failure(assert_words(data));
    }
    void log_message(const doctest::MessageData& data) override {
        // MESSAGE() is a note (a warning's severity); FAIL_CHECK() and FAIL() are failures.
        if ((data.m_severity & doctest::assertType::is_warn) == 0) keep_failure(data.m_string.c_str());
    }
    void test_case_skipped(const doctest::TestCaseData&) override {}

    std::string suite;
};

}  // namespace

REGISTER_LISTENER("tilelab-failed-suites", 2, FailedSuites);

std::string grading_page_anchor(const std::string& check) { return check_anchor(check); }

std::string take_first_failure() {
    std::string text;
    text.swap(first_failure);
    return text;
}

std::string grading_page_section(const std::string& check) {
    const std::string label = grading_page_anchor(check);
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
