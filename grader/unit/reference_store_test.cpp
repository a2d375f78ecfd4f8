// The batch's store of large references (grader/src/reference_store.hpp): a product is computed once and read back
// value for value; other operands, an entry cut short or a folder others may reach get no stored product.
#include "reference_store.hpp"
#include "temp_folder.hpp"

#include <tilelab/random.hpp>

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace {

namespace fs = std::filesystem;
using tilelab::HostMatrix;
using tilelab::ReferenceProduct;
using tilelab::grader::ReferenceStore;
using tilelab::unit::TempFolder;

// A store in a fresh folder of this user's alone (0700), and the operands of a product.
struct StoreCase {
    TempFolder folder;
    HostMatrix M{37, 53}, N{53, 29};
    std::atomic<int> computed{0};
    StoreCase() {
        fs::permissions(folder.path, fs::perms::owner_all, fs::perm_options::replace);
        tilelab::fill_uniform(M, 1);
        tilelab::fill_uniform(N, 2);
    }
    // The product as the checker computes it, counted.
    ReferenceProduct compute() {
        ++computed;
        return tilelab::reference_matmul(M, N);
    }
    ReferenceProduct get(const std::string& name = "m1-n2-37x53x29-0") {
        return ReferenceStore(folder.path).get(name, M, N, [this] { return compute(); });
    }
};

bool same_product(const ReferenceProduct& a, const ReferenceProduct& b) {
    return a.rows == b.rows && a.inner == b.inner && a.cols == b.cols && a.value == b.value &&
           a.magnitude == b.magnitude;
}

}  // namespace

TEST_SUITE("reference_store") {
    TEST_CASE("a product is computed once and then read back, value for value") {
        StoreCase c;
        const ReferenceProduct first = c.get();
        const ReferenceProduct second = c.get();  // another store object: another checker of the batch
        CHECK(c.computed == 1);
        CHECK(same_product(first, second));
        CHECK(same_product(second, tilelab::reference_matmul(c.M, c.N)));
    }

    TEST_CASE("other operands under the same name are computed, not served") {
        StoreCase c;
        c.get();
        c.M.at(36, 52) += 1.0f;  // one element of M differs
        const ReferenceProduct changed = c.get();
        CHECK(c.computed == 2);
        CHECK(same_product(changed, tilelab::reference_matmul(c.M, c.N)));
        c.get();  // the entry now holds the new operands' product
        CHECK(c.computed == 2);
    }

    TEST_CASE("an entry cut short is computed again") {
        StoreCase c;
        c.get();
        const fs::path entry = c.folder.path / "m1-n2-37x53x29-0.ref";
        REQUIRE(fs::exists(entry));
        fs::resize_file(entry, fs::file_size(entry) - 8);
        CHECK(same_product(c.get(), tilelab::reference_matmul(c.M, c.N)));
        CHECK(c.computed == 2);
    }

    TEST_CASE("a name that could leave the folder is computed and not kept") {
        StoreCase c;
        c.get("../escaped");
        c.get("../escaped");
        CHECK(c.computed == 2);
        CHECK_FALSE(fs::exists(c.folder.path.parent_path() / "escaped.ref"));
    }

    TEST_CASE("checkers that ask at once compute a product once") {
        StoreCase c;
        const auto slow = [&c] {
            return ReferenceStore(c.folder.path).get("m1-n2-37x53x29-0", c.M, c.N, [&c] {
                std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the others arrive meanwhile
                return c.compute();
            });
        };
        ReferenceProduct results[3];
        std::thread a([&] { results[0] = slow(); }), b([&] { results[1] = slow(); });
        results[2] = slow();
        a.join();
        b.join();
        CHECK(c.computed == 1);
        CHECK(same_product(results[0], results[1]));
        CHECK(same_product(results[1], results[2]));
    }

    TEST_CASE("only a folder of this user's that no other user may reach is used") {
        TempFolder folder;
        fs::permissions(folder.path, fs::perms::owner_all, fs::perm_options::replace);
        CHECK(ReferenceStore::usable(folder.path));
        // A lab's program, another user, could read the products it is asked for, or plant wrong ones.
        fs::permissions(folder.path, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                         fs::perms::others_read | fs::perms::others_exec,
                        fs::perm_options::replace);
        CHECK_FALSE(ReferenceStore::usable(folder.path));
        fs::permissions(folder.path, fs::perms::owner_all, fs::perm_options::replace);
        fs::create_directory_symlink(folder.path, folder.path.string() + "-link");
        CHECK_FALSE(ReferenceStore::usable(folder.path.string() + "-link"));
        fs::remove(folder.path.string() + "-link");
        CHECK_FALSE(ReferenceStore::usable(folder.path / "missing"));
    }
}
