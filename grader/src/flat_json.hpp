/// @file flat_json.hpp
/// @brief A JSON object of named strings, numbers and booleans (and, when written, arrays of numbers): the gate's
/// records (its verdict for grade.cmake, the calibration cache). Written by the kit; read back strictly, since a
/// file on disk may have been cut short or changed: anything else than such an object is refused, never guessed at.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::grader {

/// A flat JSON object: each member a string, a finite number or a boolean.
class FlatJson {
public:
    /// Sets member @p key to the string @p value.
    FlatJson& set(const std::string& key, const std::string& value);
    /// Sets member @p key to the string @p value.
    FlatJson& set(const std::string& key, const char* value) { return set(key, std::string(value)); }
    /// Sets member @p key to the number @p value (written with 17 significant digits, so it reads back exactly).
    FlatJson& set(const std::string& key, double value);
    /// Sets member @p key to the number @p value.
    FlatJson& set(const std::string& key, int value) { return set(key, static_cast<double>(value)); }
    /// Sets member @p key to the boolean @p value.
    FlatJson& set(const std::string& key, bool value);
    /// Sets member @p key to an array of the numbers @p values (written only: parse() refuses arrays).
    FlatJson& set(const std::string& key, const std::vector<double>& values);

    /// Member @p key when it is a string, else nothing.
    std::optional<std::string> text(const std::string& key) const;
    /// Member @p key when it is a number, else nothing.
    std::optional<double> number(const std::string& key) const;
    /// Member @p key when it is a boolean, else nothing.
    std::optional<bool> boolean(const std::string& key) const;

    /// The object as one line of JSON, members in key order.
    std::string dump() const;

    /// @p text parsed as one flat object (strings with the escapes dump() writes, numbers, true, false), or nothing
    /// when it is anything else: cut short, nested, a duplicate key, text after the object.
    static std::optional<FlatJson> parse(const std::string& text);

private:
    std::map<std::string, std::string> members_;  // key -> the value as written in JSON
};

}  // namespace tilelab::grader
