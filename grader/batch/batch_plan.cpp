// The pure parts of the batch grader (batch_plan.hpp).
#include "batch_plan.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace tilelab::batch {

namespace {

/// A whole number of at least `minimum` from an option's value, or nothing.
std::optional<long> number(const std::string& text, long minimum) {
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), ::isdigit)) return std::nullopt;
    const long value = std::stol(text);
    if (value < minimum) return std::nullopt;
    return value;
}

/// Whether `name` ends with `suffix`.
bool ends_with(const std::string& name, const std::string& suffix) {
    return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string minutes_seconds(long seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%ldm%02lds", seconds / 60, seconds % 60);
    return text;
}

std::optional<Options> parse_options(const std::vector<std::string>& args, int cores, const fs::path& default_out) {
    Options options;
    if (args.empty()) return std::nullopt;
    if (args[0] == "--merge") {
        if (args.size() != 2) return std::nullopt;
        options.merge_only = true;
        options.out = args[1];
        return options;
    }
    options.submissions = args[0];
    options.out = default_out;
    options.jobs = std::max(cores / 2, 1);
    std::size_t i = 1;
    if (i < args.size() && !args[i].empty() && args[i][0] != '-') options.out = args[i++];
    for (; i < args.size(); ++i) {
        const std::string& option = args[i];
        if (option == "--") {
            options.kit_settings.assign(args.begin() + static_cast<long>(i) + 1, args.end());
            break;
        }
        if (option == "--slurm") { options.slurm = true; continue; }
        if (option == "--no-wait") { options.wait = false; continue; }
        if (i + 1 >= args.size()) return std::nullopt;
        const std::string& value = args[++i];
        if (option == "--gres") { options.gres = value; continue; }
        if (option == "--sbatch") { options.sbatch_extra = value; continue; }
        const bool minutes = option == "--task-minutes";
        const std::optional<long> n = number(value, 1);
        if (!n) return std::nullopt;
        if (option == "-j") options.jobs = static_cast<int>(*n);
        else if (option == "-t") options.limit = *n;
        else if (option == "--chunk") options.chunk = static_cast<int>(*n);
        else if (minutes) options.task_minutes = *n;
        else if (option == "--cpus") options.cpus = static_cast<int>(*n);
        else return std::nullopt;
    }
    return options;
}

bool is_archive_name(const std::string& name) {
    return ends_with(name, ".zip") || ends_with(name, ".tar") || ends_with(name, ".tar.gz") || ends_with(name, ".tgz");
}

std::vector<std::string> list_entries(const fs::path& submissions) {
    std::vector<std::string> entries;
    std::error_code error;
    for (const fs::directory_entry& item : fs::directory_iterator(submissions, error)) {
        const std::string name = item.path().filename().string();
        std::error_code status_error;
        const bool folder = item.symlink_status(status_error).type() == fs::file_type::directory;
        if (folder || is_archive_name(name)) entries.push_back(item.path().string());
    }
    std::sort(entries.begin(), entries.end());
    return entries;
}

fs::path lab_root(const fs::path& dir) {
    std::vector<std::string> labs;
    std::error_code error;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error);
    for (const fs::recursive_directory_iterator end; !error && it != end; it.increment(error)) {
        std::error_code status_error;
        if (it->symlink_status(status_error).type() != fs::file_type::directory) continue;
        const std::string name = it->path().filename().string();
        if (name.size() >= 3 && name[0] == '0' && name[1] >= '1' && name[1] <= '9' && name[2] == '_') {
            labs.push_back(it->path().string());
        }
        if (it.depth() >= 2) it.disable_recursion_pending();  // find -maxdepth 3
    }
    if (labs.empty()) return dir;
    return fs::path(*std::min_element(labs.begin(), labs.end())).parent_path();
}

std::string progress_line(int done, int total, long elapsed_seconds, const std::string& line) {
    if (total <= 0) return line;
    done = std::min(std::max(done, 0), total);  // never more done than the class holds, nor a time left below 0
    elapsed_seconds = std::max(elapsed_seconds, 0L);
    const long left = done > 0 ? elapsed_seconds * (total - done) / done : 0;
    return "[" + std::to_string(done) + "/" + std::to_string(total) + ", " + minutes_seconds(elapsed_seconds) +
           " elapsed, about " + minutes_seconds(left) + " left] " + line;
}

std::size_t task_count(std::size_t total, std::size_t chunk) { return (total + chunk - 1) / chunk; }

std::vector<std::string> task_entries(const std::vector<std::string>& entries, std::size_t index, std::size_t chunk) {
    const std::size_t first = std::min(entries.size(), chunk * index);
    const std::size_t last = std::min(entries.size(), chunk * (index + 1));
    return {entries.begin() + static_cast<long>(first), entries.begin() + static_cast<long>(last)};
}

long default_task_minutes(int chunk, long limit) { return chunk * limit / 60 + 10; }

std::string not_graded_json(std::optional<long> seconds, const std::string& note) {
    std::string printable;
    for (const char c : note) {
        if (c >= ' ' && c <= '~') printable += c;
    }
    nlohmann::json record = {{"not_graded", 1}, {"note", printable}};
    record["seconds"] = seconds ? nlohmann::json(*seconds) : nlohmann::json(nullptr);
    return record.dump() + "\n";
}

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::vector<std::string> gpu_lanes(const char* visible_devices, int listed) {
    std::vector<std::string> lanes;
    if (visible_devices != nullptr && *visible_devices != '\0') {
        std::string item;
        for (const char* c = visible_devices;; ++c) {
            if (*c == ',' || *c == '\0') {
                if (!item.empty()) lanes.push_back(item);
                item.clear();
                if (*c == '\0') break;
            } else if (*c != ' ') {
                item += *c;
            }
        }
        return lanes;
    }
    for (int gpu = 0; gpu < listed; ++gpu) lanes.push_back(std::to_string(gpu));
    return lanes;
}

void pin_to_gpu(const std::filesystem::path& out, int slot, const std::vector<std::string>& lanes) {
    if (lanes.empty()) return;
    const std::string& gpu = lanes[static_cast<std::size_t>(slot) % lanes.size()];
    ::setenv("CUDA_VISIBLE_DEVICES", gpu.c_str(), 1);
    ::setenv("TILELAB_GPU_LOCK", (out / "locks" / ("gpu" + gpu)).c_str(), 1);
    ::setenv("TILELAB_GPU_HOLDS_LOG", (out / ("gpu" + gpu + "-holds.csv")).c_str(), 1);
}

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream stream(text);
    std::vector<std::string> words;
    for (std::string word; stream >> word;) words.push_back(word);
    return words;
}

}  // namespace tilelab::batch

namespace tilelab::batch {

std::string other_class_reason(const std::string& recorded, const std::filesystem::path& submissions,
                               const std::vector<std::string>& reported, const std::vector<std::string>& students,
                               const std::filesystem::path& out) {
    const std::string hint = "; grade into another folder, or remove " + out.string() +
                             " first (its kit/ may stay: grader/batch.sh --kit builds one to share)";
    if (!recorded.empty()) {
        if (recorded == submissions.string()) return "";
        return out.string() + " holds the class graded from " + recorded + ", not " + submissions.string() + hint;
    }
    for (const std::string& student : reported) {
        if (std::find(students.begin(), students.end(), student) == students.end())
            return out.string() + " holds reports of another class (reports/" + student + " is no submission of " +
                   submissions.string() + ")" + hint;
    }
    return "";
}

}  // namespace tilelab::batch
