#include "sass_evidence.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

namespace tilelab::grader {
namespace {

struct Instruction {
    unsigned long address;
    std::string opcode;  // "LDS.128", "FFMA", "BRA"
    std::string operands;
};

// 4-byte elements one load moves: LDS.64 two, LDS.128 four, LDS.U8 etc. one.
int elements_of(const std::string& opcode) {
    if (opcode.find(".128") != std::string::npos) return 4;
    if (opcode.find(".64") != std::string::npos) return 2;
    return 1;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// Bytes one shared store or asynchronous copy moves: .128 sixteen, .64 eight, else four.
int bytes_of(const std::string& opcode) { return 4 * elements_of(opcode); }

// A shared store of the zero register ("STS [R6+0x4], RZ"): the zeros a kernel writes for tile elements outside M
// or N, not a tile's data arriving through registers (a pipelined kernel's copies fill only what lies inside).
bool stores_zero(const Instruction& i) {
    const std::size_t comma = i.operands.rfind(',');
    if (comma == std::string::npos) return false;
    std::string value = i.operands.substr(comma + 1);
    value.erase(std::remove_if(value.begin(), value.end(), [](char c) { return c == ' ' || c == ';'; }), value.end());
    return value == "RZ";
}

// A wait for every batch of asynchronous copies in flight: DEPBAR with no count, or with count 0
// ("DEPBAR.LE SB0, 0x0"). A wait that leaves n >= 1 batches in flight ("DEPBAR.LE SB0, 0x1", a multi-stage
// pipeline's wait for its oldest stage) lets the batch just committed run on through the multiply-adds after it.
bool waits_for_all(const Instruction& i) {
    static const std::regex count(R"(SB[0-9]+\s*,\s*(0x[0-9a-fA-F]+|[0-9]+))");
    std::smatch m;
    if (!std::regex_search(i.operands, m, count)) return true;
    return std::stoul(m[1].str(), nullptr, 0) == 0;
}

// Going round the loop [first, last] of @p code from each asynchronous copy: does a multiply-add come before a wait
// for every batch in flight?
bool copies_run_ahead(const std::vector<Instruction>& code, unsigned long first, unsigned long last) {
    std::vector<char> events;  // 'c' copy, 'w' wait for all, 'f' multiply-add, in address order
    for (const Instruction& i : code) {
        if (i.address < first || i.address > last) continue;
        if (starts_with(i.opcode, "LDGSTS")) events.push_back('c');
        else if (starts_with(i.opcode, "DEPBAR") && waits_for_all(i)) events.push_back('w');
        else if (starts_with(i.opcode, "FFMA")) events.push_back('f');
    }
    const std::size_t n = events.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (events[i] != 'c') continue;
        for (std::size_t step = 1; step < n; ++step) {
            const char next = events[(i + step) % n];
            if (next == 'f') return true;
            if (next == 'w') break;
        }
    }
    return false;
}

SassListing loops_of(const std::string& architecture, const std::vector<Instruction>& code) {
    SassListing listing{architecture, {}};
    static const std::regex target(R"(0x([0-9a-fA-F]+))");
    for (const Instruction& branch : code) {
        if (!starts_with(branch.opcode, "BRA")) continue;
        std::smatch m;
        if (!std::regex_search(branch.operands, m, target)) continue;
        const unsigned long to = std::stoul(m[1].str(), nullptr, 16);
        if (to >= branch.address) continue;  // forward, or the trap at the end (a branch to itself)
        SassLoop loop{to, branch.address, 0, 0, 0};
        for (const Instruction& i : code) {
            if (i.address < to || i.address > branch.address) continue;
            if (starts_with(i.opcode, "FFMA")) ++loop.multiply_adds;
            else if (starts_with(i.opcode, "LDGSTS")) loop.copied_bytes += bytes_of(i.opcode);
            else if (starts_with(i.opcode, "LDGDEPBAR")) continue;  // a commit, not a load
            else if (starts_with(i.opcode, "DEPBAR")) ++loop.waits;
            else if (starts_with(i.opcode, "STS") && !stores_zero(i)) loop.stored_bytes += bytes_of(i.opcode);
            else if (starts_with(i.opcode, "LDS")) loop.shared_elements += elements_of(i.opcode);
            else if (starts_with(i.opcode, "LDG") || starts_with(i.opcode, "LD.")) loop.global_elements += elements_of(i.opcode);
        }
        loop.copies_ahead = copies_run_ahead(code, to, branch.address);
        listing.loops.push_back(loop);
    }
    return listing;
}

}  // namespace

std::vector<SassListing> parse_sass(const std::string& text, const std::string& prefix) {
    // cuobjdump's lines: "code for sm_90", "Function : _Z19...", "/*02d0*/   @!P0 STS [R20], R27 ;  /* ... */".
    static const std::regex arch_line(R"(code for (sm_[0-9a-z]+))");
    static const std::regex function_line(R"(Function : (\S+))");
    static const std::regex instruction_line(R"(^\s*/\*([0-9a-fA-F]+)\*/\s*(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);)");
    std::vector<SassListing> listings;
    std::istringstream lines(text);
    std::string line, architecture;
    bool in_kernel = false;
    std::vector<Instruction> code;
    auto close = [&] {
        if (in_kernel) listings.push_back(loops_of(architecture, code));
        in_kernel = false;
        code.clear();
    };
    while (std::getline(lines, line)) {
        std::smatch m;
        if (std::regex_search(line, m, arch_line)) {
            close();
            architecture = m[1].str();
        } else if (std::regex_search(line, m, function_line)) {
            close();
            in_kernel = starts_with(m[1].str(), prefix.c_str());
        } else if (in_kernel && std::regex_search(line, m, instruction_line)) {
            code.push_back(Instruction{std::stoul(m[1].str(), nullptr, 16), m[3].str(), m[4].str()});
        }
    }
    close();
    return listings;
}

const SassLoop* tiled_inner_product(const SassListing& listing) {
    for (const SassLoop& loop : listing.loops)
        if (loop.multiply_adds > 0 && loop.shared_elements >= 2 * loop.multiply_adds) return &loop;
    return nullptr;
}

const SassLoop* pipelined_loop(const SassListing& listing) {
    int busiest = 0;
    for (const SassLoop& loop : listing.loops) busiest = std::max(busiest, loop.multiply_adds);
    for (const SassLoop& loop : listing.loops)
        if (loop.multiply_adds > 0 && 2 * loop.multiply_adds >= busiest && loop.copies_ahead &&
            loop.copied_bytes > loop.stored_bytes)
            return &loop;
    return nullptr;
}

std::string mangled_prefix(const std::string& name) { return "_Z" + std::to_string(name.size()) + name; }

std::string disassemble(const std::string& cuobjdump, const std::string& program) {
    // Both paths come from the kit's build, never from the submission; quoted for the shell all the same.
    auto quoted = [](const std::string& s) {
        std::string out = "'";
        for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    };
    const std::string command = quoted(cuobjdump) + " -sass " + quoted(program) + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) throw std::runtime_error("could not run " + cuobjdump);
    std::string text;
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) text.append(buffer, n);
    const int status = ::pclose(pipe);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(cuobjdump + " -sass failed on the lab's program: " + text.substr(0, 2000));
    return text;
}

}  // namespace tilelab::grader
