#include "stub_files.hpp"

#include <fstream>
#include <sstream>

namespace tilelab::report {

namespace {

/// The lines of @p text that hold code, trimmed.
std::vector<std::string> code_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find_first_not_of(" \t\r\f\v");
        if (first == std::string::npos) continue;
        line = line.substr(first, line.find_last_not_of(" \t\r\f\v") - first + 1);
        if (line.rfind("//", 0) == 0) continue;
        lines.push_back(line);
    }
    return lines;
}

/// A file's text; false where it cannot be read (missing, a folder).
bool read(const std::filesystem::path& file, std::string& text) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(file, error))) return false;
    std::ifstream in(file, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    text = all.str();
    return static_cast<bool>(in) || in.eof();
}

}  // namespace

bool same_as_stub(const std::string& submitted, const std::string& stub) {
    return code_lines(submitted) == code_lines(stub);
}

std::vector<std::string> stub_labs(const Registry& registry, const std::filesystem::path& submission,
                                   const std::filesystem::path& stubs) {
    std::vector<std::string> labs;
    for (const std::string& lab : registry.lab_ids) {
        const auto files = registry.files.find(lab);
        if (files == registry.files.end() || files->second.empty()) continue;
        bool all_stubs = true;
        for (const std::string& file : files->second) {
            std::string submitted, stub;
            if (!read(submission / file, submitted) || !read(stubs / file, stub) || !same_as_stub(submitted, stub)) {
                all_stubs = false;
                break;
            }
        }
        if (all_stubs) labs.push_back(lab);
    }
    return labs;
}

}  // namespace tilelab::report
