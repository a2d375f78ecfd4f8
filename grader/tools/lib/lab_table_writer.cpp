#include "lab_table_writer.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <stdexcept>

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
        std::string gate = "{\"\", \"\", \"\", 0.0}";
        if (lab.contains("gate")) {
            const std::string reference = r.text(lab["gate"], "reference", "gate");
            if (!folder_of.count(reference))
                r.fail("gate races \"" + reference + "\", which is no lab of the registry");
            const json& fraction = r.at(lab["gate"], "fraction", "gate");
            if (!fraction.is_number()) r.fail("gate fraction is a number, not " + fraction.dump());
            gate = "{" + literal(reference) + ", " + literal(folder_of[reference]) + ", " +
                   literal(r.text(lab["gate"], "reference_name", "gate")) + ", " + fraction.dump() + "}";
        }
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
                measure != "async_in_flight" && measure != "tensor_cores")
                r.fail("technique measure \"" + measure + "\" is none of global_reads, shared_reads, "
                       "vector_accesses, async_in_flight, tensor_cores");
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
    return "// Generated from " + source + " by grader/tools/tilelab_lab_table.cpp at build time: edit the registry, "
           "not this.\n#ifdef TILELAB_LAB_ENTRY\n" + entries + "#endif\n#ifdef TILELAB_KERNEL_LAB\n" + kernels +
           "#endif\n";
}

}  // namespace tilelab::grader
