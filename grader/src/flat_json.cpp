// Flat JSON objects for the gate's records (flat_json.hpp): written by the kit, read back strictly.
#include "flat_json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tilelab::grader {
namespace {

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", u);
            out += escape;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string number_text(double value) {
    if (!std::isfinite(value)) return "null";  // never written by the kit; refused when read
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// A strict reader of what dump() writes, position by position.
struct Cursor {
    const std::string& s;
    std::size_t at = 0;

    void skip_space() {
        while (at < s.size() && (s[at] == ' ' || s[at] == '\n' || s[at] == '\t' || s[at] == '\r')) ++at;
    }
    bool take(char c) {
        skip_space();
        if (at < s.size() && s[at] == c) {
            ++at;
            return true;
        }
        return false;
    }
    // A string literal; nothing when it is not one (or uses an escape dump() never writes beyond \uXXXX < 0x80).
    std::optional<std::string> string_literal() {
        if (!take('"')) return std::nullopt;
        std::string out;
        while (at < s.size()) {
            const char c = s[at++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) return std::nullopt;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at >= s.size()) return std::nullopt;
            const char e = s[at++];
            if (e == '"' || e == '\\' || e == '/') out += e;
            else if (e == 'n') out += '\n';
            else if (e == 't') out += '\t';
            else if (e == 'u' && at + 4 <= s.size()) {
                char* end = nullptr;
                const std::string hex = s.substr(at, 4);
                const long code = std::strtol(hex.c_str(), &end, 16);
                if (end != hex.c_str() + 4 || code >= 0x80) return std::nullopt;
                out += static_cast<char>(code);
                at += 4;
            } else {
                return std::nullopt;
            }
        }
        return std::nullopt;
    }
    // A value as written in JSON (a string literal, a finite number, true or false), or nothing.
    std::optional<std::string> value() {
        skip_space();
        if (at >= s.size()) return std::nullopt;
        if (s[at] == '"') {
            const std::size_t from = at;
            if (!string_literal()) return std::nullopt;
            return s.substr(from, at - from);
        }
        for (const char* word : {"true", "false"})
            if (s.compare(at, std::string(word).size(), word) == 0) {
                at += std::string(word).size();
                return std::string(word);
            }
        const char* begin = s.c_str() + at;
        char* end = nullptr;
        const double number = std::strtod(begin, &end);
        if (end == begin || !std::isfinite(number) || *begin == '+' || (begin[0] == '0' && (begin[1] == 'x' || begin[1] == 'X')))
            return std::nullopt;
        const std::string text(begin, static_cast<std::size_t>(end - begin));
        if (text.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;  // no inf, nan
        at += text.size();
        return text;
    }
};

}  // namespace

FlatJson& FlatJson::set(const std::string& key, const std::string& value) {
    members_[key] = quoted(value);
    return *this;
}

FlatJson& FlatJson::set(const std::string& key, double value) {
    members_[key] = number_text(value);
    return *this;
}

FlatJson& FlatJson::set(const std::string& key, bool value) {
    members_[key] = value ? "true" : "false";
    return *this;
}

FlatJson& FlatJson::set(const std::string& key, const std::vector<double>& values) {
    std::string array = "[";
    for (std::size_t i = 0; i < values.size(); ++i) array += (i > 0 ? ", " : "") + number_text(values[i]);
    members_[key] = array + "]";
    return *this;
}

std::optional<std::string> FlatJson::text(const std::string& key) const {
    const auto found = members_.find(key);
    if (found == members_.end() || found->second.empty() || found->second[0] != '"') return std::nullopt;
    Cursor cursor{found->second};
    return cursor.string_literal();
}

std::optional<double> FlatJson::number(const std::string& key) const {
    const auto found = members_.find(key);
    if (found == members_.end() || found->second.empty()) return std::nullopt;
    const char first = found->second[0];
    if (first != '-' && (first < '0' || first > '9')) return std::nullopt;
    const double value = std::strtod(found->second.c_str(), nullptr);
    if (!std::isfinite(value)) return std::nullopt;
    return value;
}

std::optional<bool> FlatJson::boolean(const std::string& key) const {
    const auto found = members_.find(key);
    if (found == members_.end() || (found->second != "true" && found->second != "false")) return std::nullopt;
    return found->second == "true";
}

std::string FlatJson::dump() const {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : members_) {
        out += (first ? "" : ", ") + quoted(key) + ": " + value;
        first = false;
    }
    return out + "}";
}

std::optional<FlatJson> FlatJson::parse(const std::string& text) {
    Cursor cursor{text};
    FlatJson object;
    if (!cursor.take('{')) return std::nullopt;
    if (!cursor.take('}')) {
        do {
            const auto key = cursor.string_literal();
            if (!key || !cursor.take(':')) return std::nullopt;
            const auto value = cursor.value();
            if (!value || object.members_.count(*key) != 0) return std::nullopt;
            object.members_[*key] = *value;
        } while (cursor.take(','));
        if (!cursor.take('}')) return std::nullopt;
    }
    cursor.skip_space();
    if (cursor.at != text.size()) return std::nullopt;
    return object;
}

}  // namespace tilelab::grader
