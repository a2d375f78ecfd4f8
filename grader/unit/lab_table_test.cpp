// The registry as C++ (grader/tools/lib/lab_table_writer.hpp): the kit's labs.json gives one entry per lab, in its
// order, and a registry the kit cannot build from is refused with the lab and the field, before anything compiles it.
#include "lab_registry.hpp"
#include "lab_table_writer.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using tilelab::grader::lab_table_text;

namespace {

// The kit's registry, as the build reads it.
nlohmann::json registry() {
    std::ifstream in(TILELAB_REGISTRY_JSON);
    REQUIRE(in);
    return nlohmann::json::parse(in);
}

// Why lab_table_text() refuses @p broken ("" when it does not).
std::string refusal(const nlohmann::json& broken) {
    try {
        lab_table_text(broken.dump(), "labs.json");
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

// The last lab of the registry with a min_compute_capability (the test needs one: the kit has lab 08's).
nlohmann::json& lab_with_minimum(nlohmann::json& broken) {
    for (auto& lab : broken["labs"])
        if (lab.contains("min_compute_capability")) return lab;
    FAIL("no lab of the registry asks for a compute capability: the version cases test nothing");
    throw;
}

}  // namespace

TEST_SUITE("lab_table") {
    TEST_CASE("the kit's registry gives one entry per lab, in its order, and the kernel list of the labs with a kernel") {
        const std::string text = lab_table_text(registry().dump(), "grader/labs.json");
        CHECK(text.rfind("// Generated from grader/labs.json", 0) == 0);
        std::size_t at = 0;
        for (const auto& lab : tilelab::grader::all_labs()) {  // the table this build compiled, from the same file
            CAPTURE(lab.id);
            at = text.find(std::string("TILELAB_LAB_ENTRY({\"") + lab.id + "\", \"" + lab.folder + "\"", at);
            REQUIRE(at != std::string::npos);
            CHECK((text.find(std::string("TILELAB_KERNEL_LAB(") + lab.id + ",") != std::string::npos) ==
                  (*lab.kernel != '\0'));
        }
    }

    TEST_CASE("a malformed min_compute_capability version is refused, naming the lab and the version") {
        auto broken = registry();
        auto& lab = lab_with_minimum(broken);
        lab["min_compute_capability"]["version"] = "8";
        CHECK(refusal(broken) == "labs.json: " + lab["id"].get<std::string>() +
                                     "'s min_compute_capability version is major.minor, not \"8\"");
    }

    TEST_CASE("a why with a ';' is refused: the skip message's reason ends there") {
        auto broken = registry();
        lab_with_minimum(broken)["min_compute_capability"]["why"] = "cp.async; Ampere";
        CHECK(refusal(broken).find("min_compute_capability why has a ';'") != std::string::npos);
    }

    TEST_CASE("a gate racing no lab of the registry, a bad configuration and a missing field are refused") {
        auto broken = registry();
        for (auto& lab : broken["labs"])
            if (lab.contains("gate")) {
                lab["gate"]["rungs"][0]["reference"] = "lab99";
                CHECK(refusal(broken) == "labs.json: " + lab["id"].get<std::string>() +
                                             "'s gate races \"lab99\", which is no lab of the registry");
                break;
            }
        broken = registry();
        broken["labs"][0]["configuration"] = "TILE";
        CHECK(refusal(broken).find("configuration is \"TILE_WIDTH\" or an object") != std::string::npos);
        broken = registry();
        broken["labs"][0].erase("launcher");
        CHECK(refusal(broken).find("has no \"launcher\"") != std::string::npos);
        CHECK(refusal(nlohmann::json::object()) == "labs.json has no array \"labs\"");
    }

    TEST_CASE("input_precision reaches the table: fp32 when left out, tf32 where the entry says so, else refused") {
        auto given = registry();
        given["labs"][0]["input_precision"] = "tf32";
        given["labs"][1].erase("input_precision");
        const std::string text = lab_table_text(given.dump(), "labs.json");
        const auto entry_of = [&](const nlohmann::json& lab) {  // one entry's text, up to the next
            const std::size_t at = text.find("TILELAB_LAB_ENTRY({\"" + lab["id"].get<std::string>() + "\"");
            REQUIRE(at != std::string::npos);
            return text.substr(at, text.find("})", at) - at);
        };
        CHECK(entry_of(given["labs"][0]).find("tilelab::InputPrecision::tf32") != std::string::npos);
        CHECK(entry_of(given["labs"][1]).find("tilelab::InputPrecision::fp32") != std::string::npos);
        const auto kit = registry();
        for (const auto& lab : tilelab::grader::all_labs()) {  // the kit's own: TF32 exactly where labs.json says
            CAPTURE(std::string(lab.id));
            bool tf32 = false;
            for (const auto& declared : kit["labs"])
                if (declared["id"].get<std::string>() == lab.id) tf32 = declared.value("input_precision", "fp32") == "tf32";
            CHECK((lab.input_precision == tilelab::InputPrecision::tf32) == tf32);
        }
        given["labs"][0]["input_precision"] = "fp16";
        CHECK(refusal(given) == "labs.json: " + given["labs"][0]["id"].get<std::string>() +
                                    "'s input_precision is \"fp32\" or \"tf32\", not \"fp16\"");
    }

    TEST_CASE("a gate's rungs reach the table bottom to top, each with its suite, reference, folder and fraction") {
        const std::string text = lab_table_text(registry().dump(), "labs.json");
        for (const auto& lab : tilelab::grader::all_labs()) {  // the table this build compiled, from the same file
            CAPTURE(std::string(lab.id));
            std::size_t at = text.find(std::string("TILELAB_LAB_ENTRY({\"") + lab.id + "\"");
            REQUIRE(at != std::string::npos);
            const std::size_t next_entry = text.find("TILELAB_LAB_ENTRY", at + 1);
            for (const auto& rung : lab.gate.rungs) {  // in order, within the lab's entry
                at = text.find(std::string("{\"") + rung.suite + "\", \"" + rung.reference + "\", \"" +
                                   rung.reference_folder + "\"", at);
                CHECK(at < next_entry);
            }
        }
        const auto lab09 = tilelab::grader::find_lab("lab09");
        REQUIRE(lab09 != nullptr);
        REQUIRE(lab09->gate.rungs.size() == 3);  // the ladder: lab 06's model, lab 07's, lab 08's by the margin
        CHECK(std::string(lab09->gate.rungs[0].reference) == "lab06");
        CHECK(std::string(lab09->gate.rungs[1].reference) == "lab07");
        CHECK(std::string(lab09->gate.top().reference) == "lab08");
    }

    TEST_CASE("a rung that is no gate suite of the checker's, of no check, twice, or with a fraction past 1 is refused") {
        const auto gated = [](nlohmann::json& broken) -> nlohmann::json& {
            for (auto& lab : broken["labs"])
                if (lab.contains("gate")) return lab;
            FAIL("no lab of the registry has a gate");
            throw;
        };
        auto broken = registry();
        gated(broken)["gate"]["rungs"][0]["suite"] = "tiny";
        CHECK(refusal(broken).find("gate rung \"tiny\" is not a suite of kind \"gate\"") != std::string::npos);
        broken = registry();
        broken["suites"]["perf-rung9"] = broken["suites"]["perf"];
        for (auto& check : gated(broken)["checks"])
            for (auto& suite : check["suites"])
                if (suite == gated(broken)["gate"]["rungs"][0]["suite"]) suite = "perf-rung9";
        gated(broken)["gate"]["rungs"][0]["suite"] = "perf-rung9";
        CHECK(refusal(broken).find("is no suite of the checker's gate") != std::string::npos);
        broken = registry();
        auto& lab = gated(broken);
        lab["gate"]["rungs"].push_back(lab["gate"]["rungs"][0]);
        CHECK(refusal(broken).find("has two rungs of the suite") != std::string::npos);
        broken = registry();
        gated(broken)["gate"]["rungs"][0]["fraction"] = 1.5;
        CHECK(refusal(broken).find("fraction is a number from 0 to 1, not 1.5") != std::string::npos);
        broken = registry();
        gated(broken)["gate"]["rungs"].erase(0);  // its check still names the rung's suite
        CHECK(refusal(broken).find("is a gate's, but no rung of its gate races it") != std::string::npos);
        broken = registry();
        auto& rungs = gated(broken)["gate"]["rungs"];
        rungs[0]["suite"] = "perf-rung2";  // a gate suite that none of the lab's checks names
        CHECK(refusal(broken).find("is not the suite of exactly one of its checks") != std::string::npos);
        broken = registry();
        auto& swapped = gated(broken)["gate"]["rungs"];
        std::swap(swapped[0], swapped[1]);  // its checks still name them bottom to top
        CHECK(refusal(broken).find("in another order than its rungs") != std::string::npos);
        broken = registry();
        gated(broken)["gate"]["rungs"] = nlohmann::json::array();
        CHECK(refusal(broken).find("gate rungs is an array of one rung or more") != std::string::npos);
    }
}
