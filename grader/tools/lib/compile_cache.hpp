/// @file compile_cache.hpp
/// @brief A batch's cache of compiled lab files (tilelab-sandbox-compile): a compile whose inputs equal an earlier
/// one's (the compiler, its arguments and allowed environment, the lab folder's files with their comments left out)
/// gets that compile's object instead of compiling again. A class is full of such files: stubs left as given,
/// copies of one another, the same code with a student's name in a comment.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilelab::grader {

/// What a compiler command line compiles: one source file (-c) into one object (-o), with its dependency file.
struct CompileRequest {
    std::string source;      ///< The file after -c.
    std::string object;      ///< The file after -o.
    std::string depfile;     ///< The file after -MF ("" without one).
    std::string dep_target;  ///< The target after -MT ("" without one; then the object).
};

/// The compile @p args (compiler first) make, where they compile exactly one file into one object; none otherwise
/// (a link, a preprocessor run, a tool that is no compiler).
std::optional<CompileRequest> compile_request(const std::vector<std::string>& args);

/// @p text as the cache keys it: the lines of "//" comments (and blank ones) at its start made empty, so that every
/// line keeps its number (__LINE__), and those at its end dropped, where a student's name usually is; nothing else
/// changes. Only lines that are comments to the compiler whatever comes before them: none that holds a carriage
/// return, a backslash or "??", and, at the end, none that holds what could close a comment or a string above it.
std::string without_name_comments(const std::string& text);

/// The cache key of the compile: the compiler (its path, size and time), every argument (the source's path as
/// "@source", the build folder in a -fmacro-prefix-map as "@build"), the allowed environment
/// (sandbox_variable_allowed) and every file of the source's folder as without_name_comments() gives it (the build
/// folder in a #line as "@build"). None, with @p why_not, where a cached object might not be what compiling would
/// give: no -fmacro-prefix-map names the build folder; the folder holds a folder or link, or more than 1 MiB; a file
/// holds a carriage return, a backslash at a line's end, "??", "%:" or "@build", or uses __DATE__, __TIME__,
/// __TIMESTAMP__ or __has_include; or an #include (#include_next, #import, #embed) names a file by a macro, an
/// absolute path or a path with "..".
std::optional<std::string> compile_cache_key(const std::vector<std::string>& args, const CompileRequest& request,
                                             std::string& why_not);

/// The cache in a folder that only the grader writes (never a student's program: see tilelab-sandbox-compile).
class CompileCache {
public:
    explicit CompileCache(std::filesystem::path folder) : folder_(std::move(folder)) {}

    /// Writes the object (and the dependency file) of an earlier compile with this very key and returns the
    /// seconds that compile took; none where there is no such compile or its object cannot be written.
    std::optional<double> fetch(const std::string& key, const CompileRequest& request) const;

    /// Keeps the object just compiled under @p key, with the @p seconds it took (call only after a compile that
    /// succeeded and printed nothing: warnings name a student's files). Another process storing the same key at
    /// once is harmless: the first one's entry stays.
    void store(const std::string& key, const CompileRequest& request, double seconds) const;

    /// Claims the compile of @p key for this process, so that others with the same key wait for its object
    /// instead of compiling it too (a class's first submissions all compile the same files at once); false where
    /// another process holds the claim. A claim older than @p stale_seconds (its process was killed) is taken over.
    bool claim(const std::string& key, double stale_seconds = 600) const;

    /// Gives up this process's claim on @p key, after storing (@p kept) or after a compile that is not kept: then
    /// the key is marked, and later compiles with it do not wait for one another.
    void release(const std::string& key, bool kept) const;

    /// Waits while another process of this machine holds the claim on @p key and lives, at most @p seconds, then
    /// fetches as fetch() does: the seconds the other compile took, or none where it kept no object (then compile it
    /// here). No wait where an earlier compile with this key was not kept.
    std::optional<double> wait_and_fetch(const std::string& key, const CompileRequest& request, double seconds) const;

    /// Appends one line, "<event>,<seconds>,<source>,<detail>", to the folder's events.csv (hit, stored,
    /// uncached): how much a batch's cache served.
    void note(const std::string& event, double seconds, const CompileRequest& request, const std::string& detail) const;

private:
    std::filesystem::path entry(const std::string& key) const;
    std::filesystem::path folder_;
};

}  // namespace tilelab::grader
