#include "roster.hpp"

#include <sstream>
#include <vector>

namespace tilelab::report {

namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// A YAML scalar as written on one line: 'single quoted' ('' is a quote), "double quoted" (\" and \\ escaped), or
/// plain.
std::string scalar(const std::string& written) {
    const std::string text = trimmed(written);
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
        std::string out;
        for (std::size_t i = 1; i + 1 < text.size(); ++i) {
            out += text[i];
            if (text[i] == '\'' && text[i + 1] == '\'') ++i;
        }
        return out;
    }
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
        std::string out;
        for (std::size_t i = 1; i + 1 < text.size(); ++i) {
            if (text[i] == '\\' && i + 2 < text.size()) ++i;
            out += text[i];
        }
        return out;
    }
    return text;
}

/// "key" of a line "<indent>[- ]:key: value" or "<indent>[- ]key: value"; @p value gets what follows.
std::string key_of(std::string line, std::string& value) {
    line = trimmed(line);
    if (line.rfind("- ", 0) == 0) line = trimmed(line.substr(2));
    if (!line.empty() && line.front() == ':') line.erase(0, 1);
    const auto colon = line.find(':');
    if (colon == std::string::npos) return "";
    value = line.substr(colon + 1);
    return trimmed(line.substr(0, colon));
}

void append(std::string& list, const std::string& item) {
    if (!item.empty()) list += (list.empty() ? "" : "; ") + item;
}

}  // namespace

std::map<std::string, Submitters> read_gradescope_metadata(const std::string& yaml) {
    std::map<std::string, Submitters> roster;
    std::istringstream in(yaml);
    std::string folder, line;
    std::size_t list_indent = std::string::npos;  // the indentation of the folder's ":submitters:" key
    Submitters* entry = nullptr;
    std::vector<std::string> person(3);  // name, sid, email of the submitter being read
    const auto flush = [&] {
        if (entry == nullptr) return;
        append(entry->name, person[0]);
        append(entry->sid, person[1]);
        append(entry->email, person[2]);
        person.assign(3, "");
    };
    while (std::getline(in, line)) {
        if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
        const std::size_t indent = line.find_first_not_of(' ');
        std::string value;
        const std::string key = key_of(line, value);
        if (indent == 0 && line.rfind("- ", 0) != 0) {  // a folder: "submission_123:"
            flush();
            folder = scalar(key);
            entry = folder.empty() ? nullptr : &roster[folder];
            list_indent = std::string::npos;
            continue;
        }
        if (entry == nullptr) continue;
        if (key == "submitters" && trimmed(value).empty()) {
            flush();
            list_indent = indent;
            continue;
        }
        const bool item = trimmed(line).rfind("- ", 0) == 0;
        if (list_indent == std::string::npos || indent < list_indent || (indent == list_indent && !item)) {
            flush();  // the submitters' list has ended
            list_indent = std::string::npos;
            continue;
        }
        if (item) flush();  // the next submitter
        if (key == "name") person[0] = scalar(value);
        else if (key == "sid") person[1] = scalar(value);
        else if (key == "email") person[2] = scalar(value);
    }
    flush();
    return roster;
}

nlohmann::json roster_json(const std::map<std::string, Submitters>& roster) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [folder, who] : roster) out[folder] = {{"name", who.name}, {"sid", who.sid}, {"email", who.email}};
    return out;
}

std::map<std::string, Submitters> roster_from_json(const nlohmann::json& class_record) {
    std::map<std::string, Submitters> roster;
    if (!class_record.is_object() || !class_record.contains("roster") || !class_record["roster"].is_object())
        return roster;
    for (const auto& [folder, who] : class_record["roster"].items()) {
        if (!who.is_object()) continue;
        const auto text = [&](const char* key) {
            return who.contains(key) && who[key].is_string() ? who[key].get<std::string>() : std::string();
        };
        roster[folder] = {text("name"), text("sid"), text("email")};
    }
    return roster;
}

}  // namespace tilelab::report
