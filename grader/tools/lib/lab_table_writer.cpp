#include "lab_table_writer.hpp"

#include "gate_suites.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::grader {
namespace {

using nlohmann::json;

// A registry string as a C++ string literal (the registry's strings are prose: quotes and backslashes escaped).
std::string literal(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Reads one lab's fields, so that every error names the registry, the lab and the field.
struct LabReader {
    const std::string& source;
    const json& lab;
    std::string id;

    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error(source + ": " + (id.empty() ? "a lab" : id + "'s") + " " + what);
    }
    const json& at(const json& object, const char* key, const std::string& where) const {
        if (!object.is_object() || !object.contains(key)) fail(where + " has no \"" + key + "\"");
        return object.at(key);
    }
    std::string text(const json& object, const char* key, const std::string& where) const {
        const json& value = at(object, key, where);
        if (!value.is_string()) fail(where + " \"" + key + "\" is a string, not " + value.dump());
        return value.get<std::string>();
    }
    // A name the table writes as C++ code, not in quotes: a C++ identifier ("" where @p may_be_empty).
    std::string identifier(const json& object, const char* key, bool may_be_empty = false) const {
        if (may_be_empty && !object.contains(key)) return "";
        std::string value = text(object, key, "entry");
        if (!std::regex_match(value, std::regex("[A-Za-z_][A-Za-z0-9_]*")))
            fail(std::string(key) + " is a C++ identifier, not \"" + value + "\"");
        return value;
    }
    std::string flag(const char* key) const {
        const json& value = at(lab, key, "entry");
        if (!value.is_boolean()) fail(std::string(key) + " is true or false, not " + value.dump());
        return value.get<bool>() ? "true" : "false";
    }
};

// The suites of @p lab's checks, in the registry's order (a suite of two checks twice).
std::vector<std::string> check_suites(const LabReader& r) {
    std::vector<std::string> suites;
    if (!r.lab.contains("checks")) return suites;
    for (const json& check : r.lab["checks"])
        if (check.is_object() && check.contains("suites") && check["suites"].is_array())
            for (const json& suite : check["suites"])
                if (suite.is_string()) suites.push_back(suite.get<std::string>());
    return suites;
}

// The registry's kind of @p suite ("" for a suite it does not declare).
std::string suite_kind(const json& registry, const std::string& suite) {
    if (!registry.contains("suites") || !registry["suites"].contains(suite)) return "";
    return registry["suites"][suite].value("kind", "");
}

// The lab's gate as a LabGate initializer: its rungs, bottom to top, each racing a lab of the registry by a fraction
// in [0, 1], each the suite of a gate kind that exactly one of the lab's checks names; every gate suite of the lab's
// checks is a rung of its gate, and the checks name them bottom to top too (the order the build runs them in, so
// that each rung's line knows the rungs below it). "{{}}" for a lab without a gate, which no gate suite of its
// checks may name.
std::string gate_rungs(const LabReader& r, const json& registry, const std::map<std::string, std::string>& folder_of) {
    const std::vector<std::string> in_checks = check_suites(r);
    std::set<std::string> rung_suites;
    std::string rungs;
    if (r.lab.contains("gate")) {
        const json& gate = r.lab["gate"];
        const json& listed = r.at(gate, "rungs", "gate");
        if (!listed.is_array() || listed.empty()) r.fail("gate rungs is an array of one rung or more, not " + listed.dump());
        for (const json& rung : listed) {
            const std::string suite = r.text(rung, "suite", "gate rung");
            if (suite_kind(registry, suite) != "gate")
                r.fail("gate rung \"" + suite + "\" is not a suite of kind \"gate\" in the registry's \"suites\"");
            if (std::find_if(std::begin(gate_rung_suites), std::end(gate_rung_suites),
                             [&](const char* known) { return suite == known; }) == std::end(gate_rung_suites))
                r.fail("gate rung \"" + suite + "\" is no suite of the checker's gate (grader/gate/gate_suites.hpp)");
            if (!rung_suites.insert(suite).second) r.fail("gate has two rungs of the suite \"" + suite + "\"");
            if (std::count(in_checks.begin(), in_checks.end(), suite) != 1)
                r.fail("gate rung \"" + suite + "\" is not the suite of exactly one of its checks (its points)");
            const std::string reference = r.text(rung, "reference", "gate rung");
            if (!folder_of.count(reference)) r.fail("gate races \"" + reference + "\", which is no lab of the registry");
            const json& fraction = r.at(rung, "fraction", "gate rung");
            if (!fraction.is_number() || fraction.get<double>() < 0 || fraction.get<double>() > 1)
                r.fail("gate rung \"" + suite + "\" fraction is a number from 0 to 1, not " + fraction.dump());
            rungs += std::string(rungs.empty() ? "" : ", ") + "{" + literal(suite) + ", " + literal(reference) + ", " +
                     literal(folder_of.at(reference)) + ", " + literal(r.text(rung, "reference_name", "gate rung")) +
                     ", " + fraction.dump() + "}";
        }
    }
    std::vector<std::string> checked;  // the gate suites in the checks' order: the build runs the rungs so
    for (const std::string& suite : in_checks)
        if (suite_kind(registry, suite) == "gate") {
            if (!rung_suites.count(suite)) r.fail("check suite \"" + suite + "\" is a gate's, but no rung of its gate races it");
            checked.push_back(suite);
        }
    if (r.lab.contains("gate"))
        for (std::size_t i = 0; i < checked.size(); ++i)
            if (checked[i] != r.lab["gate"]["rungs"][i].value("suite", ""))
                r.fail("checks name the gate's rungs in another order than its rungs: bottom to top, as the rungs");
    return "{{" + rungs + "}}";
}

}  // namespace

std::string lab_table_text(const std::string& registry_json, const std::string& source) {
    json registry;
    try {
        registry = json::parse(registry_json);
    } catch (const json::parse_error& e) {
        throw std::runtime_error(source + " is not JSON: " + e.what());
    }
    if (!registry.contains("labs") || !registry["labs"].is_array())
        throw std::runtime_error(source + " has no array \"labs\"");
    std::map<std::string, std::string> folder_of;  // the labs by id, by which they name one another
    for (const json& lab : registry["labs"]) {
        LabReader reader{source, lab, ""};
        reader.id = reader.identifier(lab, "id");
        folder_of[reader.id] = reader.text(lab, "folder", "entry");
    }
    std::string entries;
    std::string kernels;
    for (const json& lab : registry["labs"]) {
        LabReader r{source, lab, ""};
        r.id = r.identifier(lab, "id");
        const std::string launcher = r.identifier(lab, "launcher");
        const std::string kernel = r.identifier(lab, "kernel", true);
        const std::string needs_tile_multiples = r.flag("needs_tile_multiples");
        // A configuration of the lab's own is an object (its labs.hpp constants); else the string "TILE_WIDTH".
        std::string configuration = "0, 0, 0";
        const json& given = r.at(lab, "configuration", "entry");
        if (given.is_object())
            configuration = r.identifier(given, "block_tile") + ", " + r.identifier(given, "phase_depth") + ", " +
                            r.identifier(given, "threads");
        else if (given != "TILE_WIDTH")
            r.fail("configuration is \"TILE_WIDTH\" or an object of labs.hpp constants");
        const std::string gate = gate_rungs(r, registry, folder_of);
        std::string capability = "{0, 0, \"\"}";
        if (lab.contains("min_compute_capability")) {
            const json& minimum = lab["min_compute_capability"];
            const std::string version = r.text(minimum, "version", "min_compute_capability");
            std::smatch m;
            if (!std::regex_match(version, m, std::regex("([0-9]+)[.]([0-9]+)")))
                r.fail("min_compute_capability version is major.minor, not \"" + version + "\"");
            const std::string why = r.text(minimum, "why", "min_compute_capability");
            // The skip message quotes it in "SKIPPED: no usable CUDA GPU (<reason>); ...", whose reason ends at ';'.
            if (why.find(';') != std::string::npos) r.fail("min_compute_capability why has a ';': say it without one");
            capability = "{" + m[1].str() + ", " + m[2].str() + ", " + literal(why) + "}";
        }
        std::string kit_kernel;
        if (lab.contains("kit_kernel")) {
            kit_kernel = r.text(lab, "kit_kernel", "entry");
            if (!folder_of.count(kit_kernel))
                r.fail("kit_kernel is \"" + kit_kernel + "\", which is no lab of the registry");
        }
        // The precision the kernel may round its inputs to: fp32 (the inputs as given) unless the entry says tf32.
        std::string precision = "fp32";
        if (lab.contains("input_precision")) {
            precision = r.text(lab, "input_precision", "entry");
            if (precision != "fp32" && precision != "tf32")
                r.fail("input_precision is \"fp32\" or \"tf32\", not \"" + precision + "\"");
        }
        // The technique check (CPU backend): what it counts, against which lab's model, and the share of the own
        // model's gain it requires.
        std::string technique = "{\"\", \"\", \"\", \"\", 0.0, false, 0.0, 0.0}";
        if (lab.contains("technique")) {
            const json& t = lab["technique"];
            const std::string measure = r.text(t, "measure", "technique");
            if (measure != "global_reads" && measure != "shared_reads" && measure != "vector_accesses" &&
                measure != "async_in_flight" && measure != "tensor_cores" && measure != "mma_sync")
                r.fail("technique measure \"" + measure + "\" is none of global_reads, shared_reads, "
                       "vector_accesses, async_in_flight, tensor_cores, mma_sync");
            std::string reference, reference_name;
            if (t.contains("reference")) {
                reference = r.text(t, "reference", "technique");
                if (!folder_of.count(reference))
                    r.fail("technique compares with \"" + reference + "\", which is no lab of the registry");
                reference_name = r.text(t, "reference_name", "technique");
            } else if (measure != "global_reads") {
                r.fail("technique measure " + measure + " needs a reference lab");
            }
            const json& fraction = r.at(t, "fraction", "technique");
            if (!fraction.is_number() || fraction.get<double>() < 0 || fraction.get<double>() > 1)
                r.fail("technique fraction is a number from 0 to 1, not " + fraction.dump());
            // The calibration: what the model answers measure (the self-test measures them again).
            std::string calibration = "false, 0.0, 0.0";
            if (t.contains("calibration")) {
                const json& values = t["calibration"];
                const json& model = r.at(values, "model", "technique calibration");
                const json& baseline = r.at(values, "reference", "technique calibration");
                if (!model.is_number() || !baseline.is_number())
                    r.fail("technique calibration's model and reference are numbers");
                calibration = "true, " + model.dump() + ", " + baseline.dump();
            }
            technique = "{" + literal(measure) + ", " + literal(reference) + ", " +
                        literal(reference.empty() ? std::string() : folder_of[reference]) + ", " +
                        literal(reference_name) + ", " + fraction.dump() + ", " + calibration + "}";
        }
        entries += "TILELAB_LAB_ENTRY({" + literal(r.id) + ", " + literal(folder_of[r.id]) + ", " + literal(launcher) +
                   ", " + literal(kernel) + ",\n                  {" + configuration + "}, " + needs_tile_multiples +
                   ", " + r.flag("uses_shared_tiles") + ",\n                  " + gate + ",\n                  " +
                   capability + ",\n                  " + literal(kit_kernel) + ", tilelab::InputPrecision::" +
                   precision + ",\n                  " + technique + "})\n";
        if (!kernel.empty())
            kernels += "TILELAB_KERNEL_LAB(" + r.id + ", " + launcher + ", " + kernel + ", " + needs_tile_multiples + ")\n";
    }
    // The suites, whose kind, time factor and use of the GPU give each check's request limits (suite_series.hpp).
    std::string suites;
    if (registry.contains("suites") && registry["suites"].is_object())
        for (const auto& [name, suite] : registry["suites"].items()) {
            const json& factor = suite.value("time_factor", json(1));
            if (!factor.is_number_integer() || factor.get<int>() < 1)
                throw std::runtime_error(source + ": suite " + name + "'s time_factor is a whole number from 1, not " +
                                         factor.dump());
            suites += "TILELAB_SUITE_ENTRY({" + literal(name) + ", " + literal(suite.value("kind", "")) + ", " +
                      factor.dump() + ", " + (suite.value("measures_gpu", false) ? "true" : "false") + "})\n";
        }
    return "// Generated from " + source + " by grader/tools/tilelab_lab_table.cpp at build time: edit the registry, "
           "not this.\n#ifdef TILELAB_LAB_ENTRY\n" + entries + "#endif\n#ifdef TILELAB_KERNEL_LAB\n" + kernels +
           "#endif\n#ifdef TILELAB_SUITE_ENTRY\n" + suites + "#endif\n";
}

}  // namespace tilelab::grader
