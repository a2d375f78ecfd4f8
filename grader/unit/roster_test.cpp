// Who each submission is, from Gradescope's export (grader/report/roster.hpp): its submission_metadata.yml as
// Gradescope writes it (symbol keys, quoted ids, a group submission), and one of another shape.
#include "roster.hpp"

#include <doctest/doctest.h>

TEST_SUITE("roster") {
    TEST_CASE("Gradescope's submission_metadata.yml: each folder's submitters, a group's joined") {
        const std::string yaml =
            "submission_1001:\n"
            "  :submitters:\n"
            "  - :name: Ana Ruiz\n"
            "    :sid: '100'\n"
            "    :email: ana@example.edu\n"
            "  :created_at: 2026-03-01 10:00:00.000000000 -08:00\n"
            "  :score: 9.0\n"
            "submission_1002:\n"
            "  :submitters:\n"
            "  - :name: \"Ben \\\"B\\\" Ng\"\n"
            "    :sid: '200'\n"
            "  - :name: 'Chloe O''Hara'\n"
            "    :email: chloe@example.edu\n"
            "  :history: []\n";
        const auto roster = tilelab::report::read_gradescope_metadata(yaml);
        REQUIRE(roster.size() == 2);
        CHECK(roster.at("submission_1001").name == "Ana Ruiz");
        CHECK(roster.at("submission_1001").sid == "100");
        CHECK(roster.at("submission_1001").email == "ana@example.edu");
        CHECK(roster.at("submission_1002").name == "Ben \"B\" Ng; Chloe O'Hara");
        CHECK(roster.at("submission_1002").sid == "200");
        CHECK(roster.at("submission_1002").email == "chloe@example.edu");
        // Through class.json and back.
        const nlohmann::json record = {{"class", 1}, {"roster", tilelab::report::roster_json(roster)}};
        CHECK(tilelab::report::roster_from_json(record).at("submission_1002").name == "Ben \"B\" Ng; Chloe O'Hara");
    }

    TEST_CASE("a file of another shape gives what it can, never a throw") {
        CHECK(tilelab::report::read_gradescope_metadata("").empty());
        CHECK(tilelab::report::read_gradescope_metadata("- just\n- a list\n").empty());
        const auto odd = tilelab::report::read_gradescope_metadata("submission_7:\n  :status: processed\n");
        CHECK(odd.at("submission_7").name.empty());
        CHECK(tilelab::report::roster_from_json(nlohmann::json::array()).empty());
    }
}
