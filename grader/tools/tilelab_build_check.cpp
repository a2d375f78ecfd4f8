// tilelab-build-check: the build check of one lab, and the records of the tests that stand in for a check.
//   tilelab-build-check --record <verdicts/<test>.json> --lab <id> --tile-width <n> --backend <cpu|gpu> <mode>
// Modes:
//   --build-dir <dir> --config <config> --cmake <cmake> --target <t>... --object <o>... --source <file>...
//     [--nm <nm>] [--cxxfilt <c++filt>] [--cxx <C++ compiler>] --source-check <tilelab-source-check>
//     [--source-launcher <sandbox launcher>] --source-root <submission> --source-file <relative path>...
//       the build check: runs the source check (what the lab's files may include and name, no links) as the
//       sandbox's user, builds the lab's targets, says plainly why when they do not build, and refuses a lab that
//       hands the product to a library (cuBLAS and friends, Thrust, CUB, CUTLASS) instead of computing it, one
//       whose files define a name of the kit's, CUDA's or the C library's (link-time interposition), and one whose
//       code calls the system's functions (files, processes, threads, signals, the environment).
//   --fail <message>   fails with the message (a lab with a missing file).
//   --skip <reason>    is skipped (exit 77) with the reason (a check that needs a GPU, on the CPU backend).
// Every option takes the values that follow it up to the next option, each split at "|" (as
// CMake passes a lab's objects, $<JOIN:...,|>). It writes its record (check_record.hpp) and its output beside it
// (<test>.log); without --record it writes neither.
#include "build_check.hpp"
#include "check_record.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using tilelab::grader::BuildRefusal;

/// The command line: each option's values.
using Options = std::map<std::string, std::vector<std::string>>;

Options parse(int argc, char** argv) {
    Options options;
    std::string current;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0) {
            current = arg;
            options[current];
            continue;
        }
        std::size_t start = 0;
        for (;;) {
            const std::size_t bar = arg.find('|', start);
            const std::string value = arg.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
            if (!value.empty()) options[current].push_back(value);
            if (bar == std::string::npos) break;
            start = bar + 1;
        }
    }
    return options;
}

/// An option's first value, or "" when it has none.
std::string one(const Options& options, const std::string& name) {
    const auto it = options.find(name);
    return it == options.end() || it->second.empty() ? std::string() : it->second.front();
}

/// An option's values joined with ";" (a message that CMake split at its semicolons, whole again).
std::string joined(const Options& options, const std::string& name);

/// An option's values.
std::vector<std::string> all(const Options& options, const std::string& name) {
    const auto it = options.find(name);
    return it == options.end() ? std::vector<std::string>() : it->second;
}

std::string joined(const Options& options, const std::string& name) {
    std::string text;
    for (const std::string& value : all(options, name)) text += (text.empty() ? "" : ";") + value;
    return text;
}

/// What this program printed, for its log.
std::string printed;

void say(const std::string& text) {
    std::string line = text;
    if (line.empty() || line.back() != '\n') line += '\n';
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
    printed += line;
}

/// A program's exit status (-1: it could not be started or was killed) and its output (standard output and error
/// together).
struct Ran {
    int status = -1;
    std::string output;
};

Ran run(const std::vector<std::string>& command) {
    Ran ran;
    int out[2];
    if (command.empty() || pipe(out) != 0) return ran;
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        std::vector<char*> args;
        for (const std::string& arg : command) args.push_back(const_cast<char*>(arg.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        std::fprintf(stderr, "cannot run %s\n", args[0]);
        _exit(127);
    }
    close(out[1]);
    char buffer[65536];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        ran.output.append(buffer, static_cast<std::size_t>(n));
    }
    close(out[0]);
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) ran.status = WEXITSTATUS(status);
    return ran;
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The name as the student wrote it (c++filt), or as it is.
std::string cxxfilt_path;
std::string demangled(const std::string& name) {
    if (cxxfilt_path.empty()) return name;
    const Ran ran = run({cxxfilt_path, name});
    std::string text = ran.output;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return ran.status == 0 && !text.empty() ? text : name;
}

/// The names the C library exports (those a lab's files may not define: their definitions would replace what the
/// runner's harness calls), as `nm -D --defined-only` lists them in the library that @p cxx links; none where either
/// cannot say. Kept in @p build_dir once found, for the build's other labs.
std::set<std::string> c_library_names(const std::string& cxx, const std::string& nm, const std::string& build_dir) {
    const std::filesystem::path kept = std::filesystem::path(build_dir) / "tilelab_libc_symbols.txt";
    std::string names = file_text(kept.string());
    if (names.empty() && !cxx.empty()) {
        Ran library = run({cxx, "-print-file-name=libc.so.6"});
        while (!library.output.empty() && library.output.back() == '\n') library.output.pop_back();
        const Ran listed = library.status == 0 && std::filesystem::exists(library.output)
                               ? run({nm, "-D", "--defined-only", library.output}) : Ran{};
        std::istringstream lines(listed.status == 0 ? listed.output : "");
        for (std::string address, kind, name; lines >> address >> kind >> name;)  // "<address> <kind> name@version"
            names += name.substr(0, name.find('@')) + "\n";
        const std::filesystem::path partial = kept.string() + "." + std::to_string(::getpid());
        std::ofstream(partial, std::ios::trunc) << names;
        std::error_code ignored;
        std::filesystem::rename(partial, kept, ignored);  // whole or not at all, for builds of labs at once
    }
    std::set<std::string> out;
    std::istringstream lines(names);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) out.insert(line);
    return out;
}

/// The build check proper: the refusal, if any (with what it printed on the way).
BuildRefusal build_check(const Options& options, bool& could_not_check) {
    // First what the lab's files may include and name, and that they are plain files (tilelab-source-check, as the
    // sandbox's user): before the build, which would otherwise show a compiler's view of whatever a link or an
    // include reached.
    const std::string source_check = one(options, "--source-check");
    if (!source_check.empty()) {
        std::vector<std::string> command;
        if (!one(options, "--source-launcher").empty()) command.push_back(one(options, "--source-launcher"));
        command.push_back(source_check);
        command.push_back(one(options, "--source-root"));
        for (const std::string& file : all(options, "--source-file")) command.push_back(file);
        const Ran ran = run(command);
        if (ran.status != 0) {
            say(ran.output);
            return tilelab::grader::source_check_refusal(ran.output);
        }
    }
    std::vector<std::string> build = {one(options, "--cmake"), "--build", one(options, "--build-dir"), "--target"};
    const std::vector<std::string> targets = all(options, "--target");
    build.insert(build.end(), targets.begin(), targets.end());
    build.insert(build.end(), {"--config", one(options, "--config")});
    const Ran built = run(build);
    say(built.output);
    if (built.status != 0) {
        std::vector<std::string> sources;
        for (const std::string& source : all(options, "--source")) sources.push_back(file_text(source));
        return tilelab::grader::build_failure(built.output, sources, one(options, "--backend") == "cpu");
    }
    const std::string nm = one(options, "--nm");
    if (nm.empty()) return {};
    const std::vector<std::string> objects = all(options, "--object");
    auto nm_of = [&](std::vector<std::string> flags) {
        flags.insert(flags.begin(), nm);
        flags.insert(flags.end(), objects.begin(), objects.end());
        return run(flags).output;
    };
    BuildRefusal refusal = tilelab::grader::library_symbol(nm_of({"-C"}));
    if (refusal.refused()) return refusal;
    // Names a lab's files may not define: the kit's (namespace tilelab, tilelab_*), CUDA's runtime and driver
    // (cuda*, __cuda*, cu[A-Z]*), main, and what the C library exports.
    const std::set<std::string> libc_names = c_library_names(one(options, "--cxx"), nm, one(options, "--build-dir"));
    cxxfilt_path = one(options, "--cxxfilt");
    refusal = tilelab::grader::interposed_definition(nm_of({"-g", "--defined-only"}), libc_names, demangled);
    if (refusal.refused()) return refusal;
    // What the lab's code refers to and does not define: none of the C library's or the system's functions that
    // open, duplicate, read or write files or descriptors, start processes or threads, or change signals, memory
    // protection or the environment. The source check refuses these names as written; this looks at the objects
    // the compiler made, which no spelling, overload or pointer to a function hides from. Both use one list
    // (grader/tools/lib/source_policy.cpp, first_os_symbol).
    const std::string undefined_file = one(options, "--build-dir") + "/" + targets.front() + ".undefined-symbols";
    std::ofstream(undefined_file, std::ios::trunc) << nm_of({"-u"});
    const Ran os = run({source_check, "--undefined-symbols", undefined_file});
    if (os.status == 1) {
        std::string name = os.output;
        while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
        return tilelab::grader::os_call(name);
    }
    if (os.status != 0) {
        could_not_check = true;
        return {"the build check could not read the lab's objects' symbols (" + std::to_string(os.status) + ")", ""};
    }
    return tilelab::grader::files_or_threads(nm_of({"-u", "-C"}));
}

}  // namespace

int main(int argc, char** argv) {
    const auto started = std::chrono::steady_clock::now();
    const Options options = parse(argc, argv);
    tilelab::grader::CheckRecord record;
    std::string check = "build";
    int status = 0;
    if (options.count("--skip")) {
        record.message = "GPU only: " + joined(options, "--skip");
        say("SKIPPED: " + record.message);
        status = 77;
        check = std::filesystem::path(one(options, "--record")).stem().extension().string();
        if (!check.empty()) check.erase(0, 1);
    } else if (options.count("--fail")) {
        record.message = joined(options, "--fail");
        say(record.message);
        status = 1;
    } else if (options.count("--build-dir") && !all(options, "--target").empty()) {
        bool could_not_check = false;
        const BuildRefusal refusal = build_check(options, could_not_check);
        if (could_not_check) {
            say(refusal.message);
            record.message = refusal.message;
            status = 1;
        } else if (refusal.refused()) {
            say("hint: " + refusal.hint + "\n" + tilelab::grader::build_check_page);
            record.message = refusal.message;
            record.hint = refusal.hint;
            status = 1;
        } else {
            std::string targets;
            for (const std::string& target : all(options, "--target")) targets += (targets.empty() ? "" : "|") + target;
            say("built " + targets);
        }
    } else {
        say("usage: tilelab-build-check --record <file> --lab <id> --tile-width <n> --backend <cpu|gpu> "
            "(--build-dir ... | --fail <message> | --skip <reason>)");
        return 2;
    }
    const std::string record_file = one(options, "--record");
    if (record_file.empty()) return status;
    const std::filesystem::path path(record_file);
    record.test = path.stem().string();
    record.lab = one(options, "--lab");
    record.tile_width = std::atoi(one(options, "--tile-width").c_str());
    record.backend = one(options, "--backend");
    record.check = check;
    record.verdict = status == 0 ? "passed" : status == 77 ? "skipped" : "failed";
    record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    record.anchor = tilelab::grader::check_anchor(check);
    record.log = record.test + ".log";
    try {
        std::ofstream log((path.parent_path() / record.log).string(), std::ios::trunc | std::ios::binary);
        log << printed;
        tilelab::grader::write_record(record_file, record);
    } catch (const std::exception& error) {
        std::printf("error: %s\n", error.what());
        return 1;
    }
    return status;
}
