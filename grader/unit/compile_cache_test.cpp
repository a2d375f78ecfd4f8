// The batch's compile cache (grader/tools/lib/compile_cache.hpp): what counts as the same compile, what is never
// cached, and what a hit writes.
#include "compile_cache.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using tilelab::grader::compile_cache_key;
using tilelab::grader::compile_request;
using tilelab::grader::CompileCache;
using tilelab::grader::CompileRequest;
using tilelab::grader::without_name_comments;
using tilelab::unit::TempFolder;
using tilelab::unit::write;

std::string read(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A compile as CMake writes it for a lab's file, of @p source; the compiler is this test's own program (the key
// reads its size and time, nothing runs it).
std::vector<std::string> compile_of(const fs::path& source, const std::string& flag = "-DTILE_WIDTH=16") {
    return {"/proc/self/exe", flag, "-Xcompiler=-fmacro-prefix-map=" + fs::current_path().string() + "/=", "-MD",
            "-MT", "lab.o", "-MF", "lab.o.d", "-x", "cu", "-c", source.string(), "-o", "lab.o"};
}

// The key of compiling @p file, or "" with why_not set.
std::string key_of(const fs::path& file, std::string& why_not, const std::string& flag = "-DTILE_WIDTH=16") {
    const auto args = compile_of(file, flag);
    const auto request = compile_request(args);
    REQUIRE(request);
    return compile_cache_key(args, *request, why_not).value_or("");
}

// Each text, written as @p file, gets no key, and the reason names what its pair says.
void check_refused(const fs::path& file, const std::vector<std::pair<std::string, std::string>>& refused) {
    for (const auto& [text, why] : refused) {
        CAPTURE(text);
        write(file, text);
        std::string why_not;
        CHECK(key_of(file, why_not).empty());
        CHECK(why_not.find(why) != std::string::npos);
    }
}

const char* kernel = "#include <tilelab/labs.hpp>\n"
                     "// Alice's tiled kernel\n"
                     "__global__ void k(float* p) { /* one element */ p[0] = 1.0f; }\n";

}  // namespace

TEST_SUITE("compile_cache") {
    TEST_CASE("a compile is one source into one object; links and response files are none") {
        const auto request = compile_request({"nvcc", "-x", "cu", "-c", "/s/02_tiled/kernel.cu", "-o", "k.o", "-MF",
                                              "k.o.d", "-MT", "k.o"});
        REQUIRE(request);
        CHECK(request->source == "/s/02_tiled/kernel.cu");
        CHECK(request->object == "k.o");
        CHECK(request->depfile == "k.o.d");
        CHECK_FALSE(compile_request({"g++", "a.o", "b.o", "-o", "program"}));
        CHECK_FALSE(compile_request({"g++", "-c", "a.cpp", "-c", "b.cpp", "-o", "x.o"}));
        CHECK_FALSE(compile_request({"g++", "@flags.rsp", "-c", "a.cpp", "-o", "a.o"}));
        CHECK_FALSE(compile_request({"tilelab-source-check", "/s", "02_tiled/kernel.cu"}));
    }

    TEST_CASE("a name in comment lines at the start or the end leaves no trace; every other line stays as written") {
        CHECK(without_name_comments("// Alice\n// CS 4xx\ncode();\n") == "\n\ncode();\n");
        CHECK(without_name_comments("code();\n// student-002-bob\n\n") == "code();\n");
        CHECK(without_name_comments("a = 1; // note\nb = 2;\n") == "a = 1; // note\nb = 2;\n");
        CHECK(without_name_comments("a();\n// mid\nb();\n") == "a();\n// mid\nb();\n");
        // What might close something opened above, or run on, stays.
        CHECK(without_name_comments("/* open\n// */ evil();\n") == "/* open\n// */ evil();\n");
        CHECK(without_name_comments("s = R\"x(\n// )x\";\n") == "s = R\"x(\n// )x\";\n");
        CHECK(without_name_comments("// note \\\nevil();\n") == "// note \\\nevil();\n");
    }

    TEST_CASE("what a line-by-line reading could misread is never cached") {
        TempFolder folder;
        const fs::path file = folder.path / "02_tiled" / "kernel.cu";
        // Each hides code from a reading that ends lines at "\n" only, or spells a directive another way.
        const std::vector<std::pair<std::string, std::string>> refused = {
            {"// TODO\r evil();\ncode();\n", "carriage return"},
            {"/* TODO *\\\n/ evil(); /* */\ncode();\n", "backslash at the end of a line"},
            {"// x \\\r\nevil();\n", "carriage return"},
            {"%:include \"../x.h\"\n", "digraph"},
            {"int a = 1 ?\?/\n;\n", "trigraph"},
            {"#line 1 \"@build/x.cu\"\n", "@build"},
        };
        check_refused(file, refused);
    }

    TEST_CASE("the same code with other comments, in another student's folder, has the same key") {
        TempFolder alice, bob;
        write(alice.path / "02_tiled" / "kernel.cu", kernel);
        write(bob.path / "02_tiled" / "kernel.cu", std::string(kernel) + "// student-002-bob\n");
        std::string why_not;
        const std::string a = key_of(alice.path / "02_tiled" / "kernel.cu", why_not);
        CHECK(why_not.empty());
        REQUIRE_FALSE(a.empty());
        CHECK(a == key_of(bob.path / "02_tiled" / "kernel.cu", why_not));
    }

    TEST_CASE("a change of code, of a flag, or of another file of the lab's folder changes the key") {
        TempFolder folder;
        const fs::path file = folder.path / "02_tiled" / "kernel.cu";
        write(file, kernel);
        std::string why_not;
        const std::string before = key_of(file, why_not);
        CHECK(before != key_of(file, why_not, "-DTILE_WIDTH=32"));
        write(file, std::string(kernel).replace(std::string(kernel).find("1.0f"), 4, "2.0f"));
        CHECK(before != key_of(file, why_not));
        write(file, kernel);
        CHECK(before == key_of(file, why_not));
        write(folder.path / "02_tiled" / "helpers.cuh", "#define SCALE 2\n");
        CHECK(before != key_of(file, why_not));
        // A blank line moves the lines below it (__LINE__ in a message): another key.
        fs::remove(folder.path / "02_tiled" / "helpers.cuh");
        write(file, std::string("\n") + kernel);
        CHECK(before != key_of(file, why_not));
    }

    TEST_CASE("files a key cannot see, and values of the moment, are never cached") {
        TempFolder folder;
        const fs::path file = folder.path / "02_tiled" / "kernel.cu";
        const std::vector<std::pair<std::string, std::string>> refused = {
            {"#include \"/etc/hostname\"\n", "names /etc/hostname"},
            {"#include \"../03_tiled_boundary/kernel.cu\"\n", "names ../03_tiled_boundary/kernel.cu"},
            {"#define F \"x.h\"\n#include F\n", "by a macro"},
            {"  #  include_next <x.h>\n#include F\n", "by a macro"},
            {"const char* when = __TIME__;\n", "uses __TIME__"},
            {"#if __has_include(\"x.h\")\n#endif\n", "uses __has_include"},
        };
        check_refused(file, refused);
        write(file, "// #include \"/etc/hostname\" in a comment, and __TIME__ too\n#include <cstdio>\n");
        std::string why_not;
        CHECK_FALSE(key_of(file, why_not).empty());
        // Without a prefix map naming the build folder, __FILE__ would put the student's path in the object.
        {
            std::vector<std::string> args = compile_of(file);
            args.erase(args.begin() + 2);
            const auto request = compile_request(args);
            REQUIRE(request);
            CHECK_FALSE(compile_cache_key(args, *request, why_not));
            CHECK(why_not.find("-fmacro-prefix-map") != std::string::npos);
        }
        fs::create_directories(folder.path / "02_tiled" / "more");
        CHECK(key_of(file, why_not).empty());
        CHECK(why_not.find("no plain file") != std::string::npos);
    }

    TEST_CASE("a hit writes the object and its dependency file; another key, or another key's text, misses") {
        TempFolder folder;
        const CompileCache cache(folder.path / "cache");
        fs::create_directories(folder.path / "cache");
        CompileRequest request{(folder.path / "kernel.cu").string(), (folder.path / "lab.o").string(),
                               (folder.path / "lab.o.d").string(), "lab.o"};
        write(request.object, "object bytes");
        cache.store("key one", request, 2.5);
        fs::remove(request.object);
        CHECK_FALSE(cache.fetch("key two", request));
        const auto saved = cache.fetch("key one", request);
        REQUIRE(saved);
        CHECK(*saved == doctest::Approx(2.5));
        CHECK(read(request.object) == "object bytes");
        CHECK(read(request.depfile) == "lab.o: " + request.source + "\n");
        // An entry whose key text is not this key's (another key of the same name) is no hit.
        for (const fs::directory_entry& entry : fs::directory_iterator(folder.path / "cache"))
            if (entry.is_directory()) write(entry.path() / "key", "key one, changed");
        CHECK_FALSE(cache.fetch("key one", request));
    }

    TEST_CASE("one process compiles a key at a time; the others wait for its object, or compile when it kept none") {
        TempFolder folder;
        const CompileCache cache(folder.path);
        CompileRequest request{(folder.path / "kernel.cu").string(), (folder.path / "lab.o").string(), "", "lab.o"};
        CHECK(cache.claim("key"));
        CHECK_FALSE(cache.claim("key"));
        CHECK(cache.claim("another key"));
        // The claim's compile kept nothing (it failed, or printed a warning): the wait ends with no object.
        cache.release("key", false);
        CHECK_FALSE(cache.wait_and_fetch("key", request, 5));
        // It kept one: the wait ends with it.
        REQUIRE(cache.claim("key"));
        write(request.object, "compiled once");
        cache.store("key", request, 1.5);
        cache.release("key", true);
        std::filesystem::remove(request.object);
        const auto waited = cache.wait_and_fetch("key", request, 5);
        REQUIRE(waited);
        CHECK(read(request.object) == "compiled once");
        // A claim left by a process that was killed is taken over once it is stale.
        REQUIRE(cache.claim("stale key"));
        CHECK_FALSE(cache.claim("stale key", 600));
        CHECK(cache.claim("stale key", 0));
    }
}
