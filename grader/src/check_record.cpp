#include "check_record.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tilelab::grader {
namespace {

/// @p text without the spaces, tabs and carriage returns around it.
std::string trimmed(const std::string& text) {
    const std::size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// A string member of a record; throws when it is missing or not a string.
std::string text_of(const nlohmann::json& json, const char* name) {
    const auto it = json.find(name);
    if (it == json.end() || !it->is_string()) throw std::runtime_error(std::string("no string \"") + name + "\"");
    return it->get<std::string>();
}

}  // namespace

FailureWords split_failure(const std::string& text) {
    FailureWords words;
    std::istringstream lines(text);
    std::string line;
    bool first = true;
    bool continues = false;  // the message's first line ends with ":" and says what follows on the next
    while (std::getline(lines, line)) {
        const std::string bare = trimmed(line);
        if (first) {
            words.message = bare;
            continues = !bare.empty() && bare.back() == ':';
            first = false;
            continue;
        }
        // Lines quoting the lab's program start with "|" after their indent: never the checker's words.
        if (bare.rfind("hint: ", 0) == 0) {
            words.hint = trimmed(bare.substr(6));
            break;
        }
        if (continues && !bare.empty() && bare[0] != '|') words.message += " " + bare;
        continues = false;
    }
    return words;
}

nlohmann::json to_json(const CheckRecord& record) {
    nlohmann::json json = {{"record", check_record_version},
                           {"test", record.test},
                           {"lab", record.lab},
                           {"tile_width", record.tile_width},
                           {"backend", record.backend},
                           {"check", record.check},
                           {"verdict", record.verdict},
                           {"seconds", record.seconds},
                           {"message", record.message},
                           {"hint", record.hint},
                           {"anchor", record.anchor},
                           {"log", record.log}};
    if (record.measures.is_object() && !record.measures.empty()) json["measures"] = record.measures;
    return json;
}

CheckRecord record_from_json(const nlohmann::json& json) {
    if (!json.is_object()) throw std::runtime_error("not a JSON object");
    const auto version = json.find("record");
    if (version == json.end() || !version->is_number_integer() || version->get<int>() != check_record_version)
        throw std::runtime_error("not a record of version " + std::to_string(check_record_version));
    CheckRecord record;
    record.test = text_of(json, "test");
    record.lab = text_of(json, "lab");
    record.backend = text_of(json, "backend");
    record.check = text_of(json, "check");
    record.verdict = text_of(json, "verdict");
    if (record.verdict != "passed" && record.verdict != "failed" && record.verdict != "skipped")
        throw std::runtime_error("verdict \"" + record.verdict + "\" is none of passed, failed, skipped");
    record.message = text_of(json, "message");
    record.hint = text_of(json, "hint");
    record.anchor = text_of(json, "anchor");
    record.log = text_of(json, "log");
    const auto width = json.find("tile_width");
    if (width == json.end() || !width->is_number_integer()) throw std::runtime_error("no integer \"tile_width\"");
    record.tile_width = width->get<int>();
    const auto seconds = json.find("seconds");
    if (seconds == json.end() || !seconds->is_number()) throw std::runtime_error("no number \"seconds\"");
    record.seconds = seconds->get<double>();
    const auto measures = json.find("measures");
    if (measures != json.end()) {
        if (!measures->is_object()) throw std::runtime_error("\"measures\" is not an object");
        record.measures = *measures;
    }
    return record;
}

void write_record(const std::string& path, const CheckRecord& record) {
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary, std::ios::trunc);
        // Replacement characters for invalid UTF-8 (a message may quote a name from the lab's files).
        out << to_json(record).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        out.flush();
        if (!out) throw std::runtime_error("cannot write the check's record " + temporary);
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot write the check's record " + path);
}

CheckRecord read_record(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("no record " + path);
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(in);
        return record_from_json(json);
    } catch (const std::exception& error) {
        throw std::runtime_error("the record " + path + " cannot be read: " + error.what());
    }
}

std::string check_anchor(const std::string& check) {
    std::string label = "check_" + check;
    for (char& c : label)
        if (c == '-') c = '_';
    return label;
}

int verdict_exit_status(const std::string& verdict) {
    if (verdict == "passed") return 0;
    if (verdict == "skipped") return 77;
    return 1;
}

std::string record_path(const std::string& verdict_file) { return verdict_file + ".json"; }

std::string log_path(const std::string& verdict_file) { return verdict_file + ".log"; }

nlohmann::json& current_check_measures() {
    static nlohmann::json measures = nlohmann::json::object();
    return measures;
}

}  // namespace tilelab::grader
