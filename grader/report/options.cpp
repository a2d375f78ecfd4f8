#include "options.hpp"

#include <fstream>
#include <stdexcept>

namespace tilelab::report {

Options parse(int argc, char** argv, const std::set<std::string>& known) {
    Options options;
    for (int i = 1; i < argc; i += 2) {
        const std::string name = argv[i];
        if (!known.count(name) || i + 1 >= argc) throw std::runtime_error("unknown option or missing value: " + name);
        const std::string value = argv[i + 1];
        if (name == "--timing") {
            const auto equals = value.find('=');
            if (equals == std::string::npos) throw std::runtime_error("--timing wants name=seconds, got " + value);
            options.timings[value.substr(0, equals)] = std::stod(value.substr(equals + 1));
        } else if (name == "--note") {
            options.notes.push_back(value);
        } else {
            options.values[name] = value;
        }
    }
    return options;
}

const std::string& required(const Options& options, const std::string& name) {
    const auto found = options.values.find(name);
    if (found == options.values.end()) throw std::runtime_error("missing " + name);
    return found->second;
}

std::string optional(const Options& options, const std::string& name, const std::string& fallback) {
    const auto found = options.values.find(name);
    return found == options.values.end() ? fallback : found->second;
}

std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> items;
    std::string item;
    for (char c : list + ",") {
        if (c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\n') {
            if (!item.empty()) items.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    }
    return items;
}

void write_json(const std::string& path, const nlohmann::json& json, int indent) {
    std::ofstream out(path, std::ios::trunc);
    out << json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace tilelab::report
