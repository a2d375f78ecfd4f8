// Which labs are the kit's stubs as given (grader/report/stub_files.hpp): against the kit's own labs/ and
// solutions/, and a copy with only a comment added.
#include "stub_files.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace {

const std::filesystem::path kit = std::filesystem::path(TILELAB_REGISTRY_JSON).parent_path().parent_path();

std::string text_of(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    return all.str();
}

}  // namespace

TEST_SUITE("stub_files") {
    TEST_CASE("a stub stays one with comments, blank lines and indentation changed; a line of code makes it work") {
        const std::string stub = text_of(kit / "labs/02_tiled/kernel.cu");
        CHECK(tilelab::report::same_as_stub(stub, stub));
        CHECK(tilelab::report::same_as_stub("// Ana Ruiz, 100\n\n" + stub + "\r\n  // done?\n", stub));
        CHECK_FALSE(tilelab::report::same_as_stub(stub + "int x;\n", stub));
        CHECK_FALSE(tilelab::report::same_as_stub(text_of(kit / "solutions/02_tiled/kernel.cu"), stub));
    }

    TEST_CASE("the kit's labs/ are all stubs, its solutions/ none, a missing file none") {
        const auto registry = tilelab::report::load_registry(TILELAB_REGISTRY_JSON);
        CHECK(tilelab::report::stub_labs(registry, kit / "labs", kit / "labs") == registry.lab_ids);
        CHECK(tilelab::report::stub_labs(registry, kit / "solutions", kit / "labs").empty());
        tilelab::unit::TempFolder copy;
        std::filesystem::create_directories(copy.path / "02_tiled");
        std::ofstream(copy.path / "02_tiled/kernel.cu") << "// mine\n" << text_of(kit / "labs/02_tiled/kernel.cu");
        CHECK(tilelab::report::stub_labs(registry, copy.path, kit / "labs") == std::vector<std::string>{"lab02"});
    }
}
