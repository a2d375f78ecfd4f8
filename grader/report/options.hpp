/// @file options.hpp
/// @brief The command lines of tilelab-report's subcommands ("--name value" pairs) and the JSON files they write.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tilelab::report {

/// The "--name value" options of a command line; "--timing" ("name=seconds") and "--note" may repeat.
struct Options {
    std::map<std::string, std::string> values;  ///< the last value of each option
    std::map<std::string, double> timings;      ///< every --timing, by name
    std::vector<std::string> notes;             ///< every --note, in order
};

/// The options of @p argv (after the subcommand's name); throws std::runtime_error on one it does not know.
Options parse(int argc, char** argv, const std::set<std::string>& known);

/// The value of a required option; throws std::runtime_error naming it.
const std::string& required(const Options& options, const std::string& name);

/// The value of an option, or @p fallback when the command line has none.
std::string optional(const Options& options, const std::string& name, const std::string& fallback = "");

/// The items of a list as grade.cmake and the platforms give it ("lab02,lab03", "02;03", "02 03"), empty ones
/// left out.
std::vector<std::string> split_list(const std::string& list);

/// @p json written to @p path, indented (@p indent, -1: one line), invalid UTF-8 from a program's output replaced;
/// throws std::runtime_error when it cannot be.
void write_json(const std::string& path, const nlohmann::json& json, int indent = 2);

}  // namespace tilelab::report
