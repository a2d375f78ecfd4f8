// The gate's calibration records and their cache (gate_calibration.hpp).
#include "gate_calibration.hpp"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>

namespace tilelab::grader {
namespace fs = std::filesystem;
namespace {

// A record is a few hundred bytes: a larger file is not one of ours.
constexpr std::uintmax_t max_record_bytes = 64 * 1024;

std::string short_number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

}  // namespace

fs::path calibration_dir() {
    const char* dir = std::getenv("TILELAB_CALIBRATION_DIR");
    if (dir != nullptr && *dir != '\0') return fs::absolute(dir);
    return fs::read_symlink("/proc/self/exe").parent_path() / "gate-calibration";
}

fs::path calibration_file(const fs::path& dir, const CalibrationKey& key) {
    std::string name;
    for (const char c : key.gpu) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (plain) name += c;
        else if (!name.empty() && name.back() != '_') name += '_';
        if (name.size() >= 64) break;
    }
    if (name.empty()) name = "gpu";
    std::string cc;
    for (const char c : key.compute_capability)
        if (c >= '0' && c <= '9') cc += c;
    return dir / (name + "-cc" + cc + "-" + key.lab + "-vs-" + key.reference + "-tw" + std::to_string(key.tile_width) +
                  ".json");
}

nlohmann::json calibration_json(const Calibration& c) {
    return {{"gpu", c.key.gpu},
            {"compute_capability", c.key.compute_capability},
            {"lab", c.key.lab},
            {"reference", c.key.reference},
            {"tile_width", c.key.tile_width},
            {"size", c.key.size},
            {"repeats", c.key.repeats},
            {"request_ms", c.key.request_ms},
            {"kit_fingerprint", c.key.kit_fingerprint},
            {"model_speedup", c.model_speedup},
            {"model_speedup_min", c.speedup_min},
            {"model_speedup_max", c.speedup_max},
            {"reference_median_ms", c.reference_median_ms},
            {"model_median_ms", c.model_median_ms},
            {"trials", c.trials},
            {"fraction", c.fraction},
            {"required", c.required},
            {"reference_program", c.reference_program},
            {"model_program", c.model_program},
            {"date", c.date},
            {"kit_version", c.kit_version}};
}

std::optional<nlohmann::json> parse_flat_record(const std::string& text) {
    // nlohmann's parser refuses what is not JSON (cut short, text after it, NaN); what JSON allows but a record
    // never holds (nesting, null, a key twice, which nlohmann would take the last of) is seen as it is parsed.
    bool flat = true;
    std::set<std::string> keys;
    const nlohmann::json::parser_callback_t watch = [&](int depth, nlohmann::json::parse_event_t event,
                                                        nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        if ((event == Event::object_start || event == Event::array_start) && depth > 0) flat = false;
        if (event == Event::key && !keys.insert(parsed.get<std::string>()).second) flat = false;
        if (event == Event::value &&
            (parsed.is_null() || (parsed.is_number_float() && !std::isfinite(parsed.get<double>()))))
            flat = false;
        return true;
    };
    nlohmann::json record = nlohmann::json::parse(text, watch, /*allow_exceptions=*/false);
    if (record.is_discarded() || !record.is_object() || !flat) return std::nullopt;
    return record;
}

std::optional<Calibration> calibration_from_json(const nlohmann::json& record, const CalibrationKey& key,
                                                 std::string& why_not) {
    Calibration c;
    const auto text = [&](const char* name, std::string& out) {
        const auto found = record.find(name);
        if (found == record.end() || !found->is_string()) return false;
        out = found->get<std::string>();
        return true;
    };
    const auto number = [&](const char* name, double& out) {
        const auto found = record.find(name);
        if (found == record.end() || !found->is_number()) return false;
        out = found->get<double>();
        return std::isfinite(out);
    };
    double tile_width = 0, size = 0, repeats = 0, trials = 0;
    if (!text("gpu", c.key.gpu) || !text("compute_capability", c.key.compute_capability) || !text("lab", c.key.lab) ||
        !text("reference", c.key.reference) ||
        !number("tile_width", tile_width) || !number("size", size) || !number("repeats", repeats) ||
        !number("request_ms", c.key.request_ms) || !text("kit_fingerprint", c.key.kit_fingerprint) ||
        !number("model_speedup", c.model_speedup) || !number("model_speedup_min", c.speedup_min) ||
        !number("model_speedup_max", c.speedup_max) || !number("reference_median_ms", c.reference_median_ms) ||
        !number("model_median_ms", c.model_median_ms) || !number("trials", trials) ||
        !number("fraction", c.fraction) || !number("required", c.required) ||
        !text("reference_program", c.reference_program) || !text("model_program", c.model_program) ||
        !text("date", c.date) || !text("kit_version", c.kit_version)) {
        why_not = "the record lacks a field or has one of the wrong type";
        return std::nullopt;
    }
    c.key.tile_width = static_cast<int>(tile_width);
    c.key.size = static_cast<int>(size);
    c.key.repeats = static_cast<int>(repeats);
    c.trials = static_cast<int>(trials);
    if (c.key.gpu != key.gpu || c.key.compute_capability != key.compute_capability) {
        why_not = "the record is another GPU's (" + c.key.gpu + ", compute capability " + c.key.compute_capability + ")";
        return std::nullopt;
    }
    if (c.key.kit_fingerprint != key.kit_fingerprint) {
        why_not = "the record was measured with another build of the kit (fingerprint " + c.key.kit_fingerprint + ")";
        return std::nullopt;
    }
    if (c.key.lab != key.lab || c.key.reference != key.reference || c.key.tile_width != key.tile_width ||
        c.key.size != key.size || c.key.repeats != key.repeats || c.key.request_ms != key.request_ms) {
        why_not = "the record is of another lab or gate setting (" + c.key.lab + " against " + c.key.reference +
                  ", TILE_WIDTH " +
                  std::to_string(c.key.tile_width) + ", size " + std::to_string(c.key.size) + ", repeats " +
                  std::to_string(c.key.repeats) + ", " + short_number(c.key.request_ms) + " ms per request)";
        return std::nullopt;
    }
    const bool sane = c.trials >= 1 && c.speedup_min > 0 && c.speedup_min <= c.model_speedup &&
                      c.model_speedup <= c.speedup_max && c.reference_median_ms > 0 && c.model_median_ms > 0;
    if (!sane) {
        why_not = "the record's measurements are out of range";
        return std::nullopt;
    }
    return c;
}

std::string not_ours_alone(const fs::path& path) {
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) return path.string() + ": " + std::strerror(errno);
    if (S_ISLNK(info.st_mode)) return path.string() + " is a symbolic link";
    if (info.st_uid != geteuid())
        return path.string() + " belongs to user " + std::to_string(info.st_uid) + ", not to the checker's user " +
               std::to_string(geteuid());
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) return path.string() + " is writable by other users";
    return "";
}

std::optional<Calibration> read_calibration(const fs::path& dir, const CalibrationKey& key, std::string& why_not) {
    const fs::path file = calibration_file(dir, key);
    std::error_code error;
    if (!fs::exists(file, error)) {
        why_not = "no calibration of this GPU in " + dir.string() + " yet";
        return std::nullopt;
    }
    for (const fs::path& path : {dir, file}) {
        why_not = not_ours_alone(path);
        if (!why_not.empty()) {
            why_not = "not trusted: " + why_not;
            return std::nullopt;
        }
    }
    if (!fs::is_regular_file(file, error) || fs::file_size(file, error) > max_record_bytes || error) {
        why_not = file.string() + " is not a calibration record";
        return std::nullopt;
    }
    std::ifstream in(file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        why_not = "cannot read " + file.string();
        return std::nullopt;
    }
    const auto record = parse_flat_record(text);
    if (!record) {
        why_not = file.string() + " is not a calibration record (corrupt JSON)";
        return std::nullopt;
    }
    auto calibration = calibration_from_json(*record, key, why_not);
    if (!calibration) why_not = file.string() + ": " + why_not;
    return calibration;
}

void write_calibration(const fs::path& dir, const Calibration& calibration) {
    std::error_code error;
    if (!fs::exists(dir, error)) {
        fs::create_directories(dir.parent_path(), error);
        if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
            throw std::runtime_error("cannot make the calibration folder " + dir.string() + ": " + std::strerror(errno));
    }
    const std::string why_not = not_ours_alone(dir);
    if (!why_not.empty()) throw std::runtime_error("the calibration folder is not the checker's alone: " + why_not);
    std::string temporary = (dir / ".calibration-XXXXXX").string();
    const int fd = mkstemp(temporary.data());  // mode 0600, a name of its own: writers never share a file
    if (fd < 0) throw std::runtime_error("cannot write in " + dir.string() + ": " + std::strerror(errno));
    // Invalid UTF-8 (never in a GPU's name) is written replaced rather than thrown on: the record then matches no
    // GPU and is measured again.
    const std::string text =
        calibration_json(calibration).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n <= 0) break;
        written += static_cast<std::size_t>(n);
    }
    const bool complete = written == text.size() && fsync(fd) == 0;
    close(fd);
    if (!complete || rename(temporary.c_str(), calibration_file(dir, calibration.key).c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        unlink(temporary.c_str());
        throw std::runtime_error("cannot write the calibration record in " + dir.string() + ": " + reason);
    }
}

std::string files_fingerprint(const std::vector<std::string>& paths) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    auto mix = [&hash](const unsigned char* bytes, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
            hash ^= bytes[i];
            hash *= 0x100000001b3ull;
        }
    };
    std::vector<char> buffer(1 << 20);
    for (const std::string& path : paths) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read " + path + " to fingerprint the kit");
        std::uint64_t size = 0;
        while (in) {
            in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            const auto got = static_cast<std::size_t>(in.gcount());
            mix(reinterpret_cast<const unsigned char*>(buffer.data()), got);
            size += got;
        }
        mix(reinterpret_cast<const unsigned char*>(&size), sizeof size);
    }
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

}  // namespace tilelab::grader
