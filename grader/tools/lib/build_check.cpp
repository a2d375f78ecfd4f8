#include "build_check.hpp"

#include <regex>
#include <sstream>

namespace tilelab::grader {
namespace {

/// The libraries that compute a product for a lab that should compute it itself.
const char* const libraries = "cublas|cublasLt|cusparse|cusolver|cufft|curand|cudnn|cutlass|thrust::|cub::";

/// Why a lab that hands the product to a library is refused (the message of every library rule).
const char* const calls_a_library = "the lab calls a library instead of computing the product itself";

/// What the CPU backend says about correct CUDA it does not emulate.
const char* const not_emulated =
    "This is CUDA that the CPU backend does not emulate (docs/cpu-backend.md lists what it does), not necessarily an "
    "error in the lab: the GPU backend grades it; to be graded on the CPU backend too (Gradescope has no GPU), write "
    "it with what that page lists";

/// @p text without the spaces and tabs around it.
std::string trimmed(const std::string& text) {
    const std::size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// The first line of @p output that is a compiler's or linker's error ("error:", "undefined reference"), else
/// @p otherwise. Not any line with "error" in it: a build tool's progress lines name the submission's folder.
std::string first_error_line(const std::string& output, const std::string& otherwise) {
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (line.find("error:") != std::string::npos || line.find("undefined reference") != std::string::npos)
            return trimmed(line).substr(0, 300);
    return otherwise;
}

/// The first line of @p output that is not blank, else @p otherwise.
std::string first_line(const std::string& output, const std::string& otherwise) {
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (!trimmed(line).empty()) return trimmed(line).substr(0, 300);
    return otherwise;
}

}  // namespace

const char* const build_check_page = "see docs/grading.md#check_build (grading.html#check_build on the docs site)";

BuildRefusal source_check_refusal(const std::string& output) {
    std::smatch m;
    const std::string message = first_line(output, "the source check refused the lab's files");
    // A library's header (cuBLAS, Thrust, ...): the same hint as when the build finds the library.
    if (std::regex_search(output, m, std::regex("the lab calls a library [(]([a-z]+)[.][.][.][)][^\n]*[(]it has (#include [^\n]*)[)]")))
        return {message, "the lab calls a library (" + m[1].str() + "...) instead of computing the product itself: "
                         "write the kernel (it has " + m[2].str() + ")"};
    return {message,
            "the lab's files reach beyond what a lab may (each line above says where and why): a lab includes the "
            "kit's public headers, CUDA's and the C++ standard library's headers and files of its own folder, names "
            "nothing of the kit's but its public helpers and nothing of the system's (files, descriptors, processes, "
            "threads, signals, the environment), and holds plain files only"};
}

BuildRefusal build_failure(const std::string& output, const std::vector<std::string>& sources, bool cpu_backend) {
    std::smatch m;
    // The CPU backend has none of these libraries, so such a lab does not even compile there: say why.
    const std::regex include_line("^[ \t]*#[ \t]*include[ \t]*[<\"](cublas|cusparse|cusolver|cufft|curand|cudnn|cutlass|thrust/|cub/)");
    for (const std::string& source : sources) {
        std::istringstream lines(source);
        for (std::string line; std::getline(lines, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (!std::regex_search(line, include_line)) continue;
            const std::string include = trimmed(line);
            std::smatch name;
            std::regex_search(include, name, std::regex("[<\"]([a-z]+)"));
            return {calls_a_library, "the lab calls a library (" + name[1].str() + "...) instead of computing the "
                                     "product itself: write the kernel (it has " + include + ")"};
        }
    }
    if (std::regex_search(output, m, std::regex("undefined reference to `(tilelab::[^`']*|tilelab_[^`']*)")))
        return {"the lab calls the grader's own code (" + m[1].str() + ")",
                "the lab calls the grader's own code (" + m[1].str() + "), which a lab's program does not have: the "
                "lab's program holds the lab's files and nothing of the grader; compute the product in the kernel"};
    if (std::regex_search(output, m, std::regex(std::string("undefined reference to `(") + libraries + ")")))
        return {calls_a_library, "the lab calls a library (" + m[1].str() + "...) instead of computing the product "
                                 "itself: write the kernel"};
    const std::string message = first_error_line(output, "the lab does not compile or link");
    // Correct CUDA that the CPU backend does not emulate: name it, and say that the GPU backend grades it, so that a
    // student does not hunt for an error in right code.
    if (cpu_backend) {
        // The CPU backend's own word on what it does not emulate (a stand-in header's #error, a warp matrix
        // fragment's static_assert): that error is the message, wherever it comes among the errors it brings.
        if (std::regex_search(output, m, std::regex("[^\n]*(#error|static assertion failed:) \"?the CPU backend does not "
                                                    "emulate ([^\n\"]*)")))
            return {trimmed(output.substr(static_cast<std::size_t>(m.position(0)),
                                          output.find('\n', static_cast<std::size_t>(m.position(0))) -
                                              static_cast<std::size_t>(m.position(0))))
                        .substr(0, 300),
                    "the lab uses " + m[2].str() + ". " + not_emulated};
        // Inline PTX: the host's assembler, not the compiler, refuses it.
        if (std::regex_search(output, std::regex("Assembler messages:|Error: (no such instruction|unknown pseudo-op)")))
            return {first_error_line(output, "the host's assembler refused the lab's inline assembly (asm)"),
                    std::string("the lab has inline PTX (asm(...)), which is GPU machine code. ") + not_emulated};
        if (std::regex_search(output, m, std::regex("fatal error: ([A-Za-z0-9_/.]+[.]h|cuda/[a-z_]+): No such file")))
            return {message, "the lab includes <" + m[1].str() + ">, which the CPU backend does not have. " + not_emulated};
        // GCC quotes names with ‘ ’ in a UTF-8 locale, with ' ' otherwise.
        if (std::regex_search(output, m, std::regex("error: (‘|')(__[A-Za-z0-9_]+|cuda[A-Z][A-Za-z0-9_]*|(tex|surf)[0-9A-Z][A-Za-z0-9_]*)(’|') was not declared")))
            return {message, "the lab calls " + m[2].str() + ". " + not_emulated};
        if (std::regex_search(output, m, std::regex("error: (‘|')([A-Za-z0-9_]+)(’|') is not a member of (‘|')(cooperative_groups|cg|nvcuda|wmma|cuda)")))
            return {message, "the lab uses " + m[5].str() + "::" + m[2].str() + ". " + not_emulated};
        // P's checked pointer converts to no plain pointer (shared_pointer.hpp): a copy the CPU backend does not
        // follow would read P unseen.
        if (std::regex_search(output, std::regex("error: [^\n]*tilelab::cpu::KernelPointer")))
            return {message,
                    std::string("the CPU backend cannot follow this copy of P (the first error above gives its line). "
                    "It sees every access to P, to check that a thread reads only the elements of P it stored itself "
                    "(a kernel that reads P otherwise reads what the timing of the run gives on a GPU), so a copy of "
                    "the kernel's float* P must be a pointer it follows: a local float* (declared with its value or "
                    "assigned later), a struct's float* member, or a __device__ function's float* parameter; an array "
                    "of pointers, a member or local declared with others (float *a, *b;), a pointer to volatile, and "
                    "a pointer type under another name (typedef, template) are not. ") + not_emulated};
        if (std::regex_search(output, std::regex("error: [^\n]*tilelab::cpu::(Shared|DevicePointer)")))
            return {message,
                    std::string("the CPU backend cannot follow this use of shared memory (the first error above gives "
                    "its line). It checks every access to a __shared__ array for races, so a pointer into one must be "
                    "one it knows: a local float* (float* tile = shared + n; float* p; p = &tile[0][0];), a struct's "
                    "float* member, or a __device__ function's float*, float (&)[R][C], float (*)[C] or Tiles& "
                    "parameter; a pointer declared with others (float *a, *b;), an element copied into auto (or "
                    "returned by a lambda without -> float), or a tile passed to an explicit specialisation (template "
                    "<>) are not followed. ") + not_emulated};
    }
    return {message, "the lab does not compile or link: fix the first error above (file and line are at its start)"};
}

BuildRefusal library_symbol(const std::string& symbols) {
    // Symbol lines only ("<address> <type> <name>"): nm's "<object file>:" headers carry paths, which may contain
    // anything, a student's folder name included.
    std::smatch m;
    if (!std::regex_search(symbols, m, std::regex(std::string("(^|\n)[0-9a-fA-F ]* [A-Za-z] ([^\n]*(") + libraries + ")[^\n]*)")))
        return {};
    return {calls_a_library, std::string(calls_a_library) + ": its code refers to " + m[2].str()};
}

BuildRefusal interposed_definition(const std::string& defined, const std::set<std::string>& libc_names,
                                   std::string (*readable)(const std::string&)) {
    // Mangled names are matched, so that nothing in a C++ name (brackets, commas) can confuse the match; weak
    // definitions from headers (inline functions, templates) are left alone.
    const std::regex symbol_line("^[0-9a-fA-F]* [ABCDGRST] (.+)$");
    const std::regex kit_mangled("^_Z(T[VIS]|GV|TH|TW)?N[rVK]*7tilelab");
    const std::regex kit_plain("^_?_?tilelab");
    const std::regex cuda("^(_?_?cuda|cu[A-Z])");
    std::istringstream lines(defined);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, symbol_line)) continue;
        const std::string name = m[1].str();
        std::string owner;
        if (std::regex_search(name, kit_mangled) || std::regex_search(name, kit_plain))
            owner = "the kit's grader and runner";
        else if (std::regex_search(name, cuda))
            owner = "CUDA's runtime";
        else if (name == "main")
            owner = "the runner's harness";
        else if (name.rfind("_Z", 0) != 0 && libc_names.count(name) != 0)
            owner = "the C library";
        if (owner.empty()) continue;
        const std::string shown = readable != nullptr ? readable(name) : name;
        return {"the lab defines " + shown + ", a name that belongs to " + owner,
                "the lab defines " + shown + ", a name that belongs to " + owner + ": a lab may not replace the "
                "kit's, CUDA's or the C library's functions (link-time interposition); rename it"};
    }
    return {};
}

BuildRefusal os_call(const std::string& os_name) {
    return {"the lab's code calls " + os_name + ", a function of the C library or the system",
            "the lab's code calls " + os_name + ", a function of the C library or the system (files, descriptors, "
            "processes, threads, signals, the environment): a lab needs only CUDA and the C++ standard library; its "
            "code runs in the runner's process, next to the channel that carries its results to the checker"};
}

BuildRefusal files_or_threads(const std::string& undefined) {
    std::smatch m;
    if (!std::regex_search(undefined, m, std::regex("(^|\n)[ \t]*U (std::(thread|jthread|filesystem|basic_filebuf|basic_[io]?fstream|this_thread)[^\n]*)")))
        return {};
    return {"the lab's code uses " + m[2].str(),
            "the lab's code uses " + m[2].str() + " (files or threads of its own): a lab needs only CUDA and the C++ "
            "standard library's computing headers; its code runs in the runner's process, next to the channel that "
            "carries its results to the checker"};
}

}  // namespace tilelab::grader
