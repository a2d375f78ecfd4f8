// The emulator's block sample (tilelab/cpu/operand_probe.hpp's sample_next_launch_blocks): what the technique check
// runs at the performance gate's shape.
#include "emulator_kernels.hpp"

#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/operand_probe.hpp>
#include <tilelab/device_buffer.hpp>

#include <doctest/doctest.h>

#include <vector>

namespace {

// The blocks of an 8 x 4 grid that wrote their four slots (fill_grid's kernel), as linear indices.
std::vector<int> blocks_run(unsigned sampled, std::uint64_t seed) {
    const dim3 grid(8, 4);
    tilelab::DeviceBuffer<int> out(8 * 4 * 4);
    const std::vector<int> unwritten(out.size(), -1);
    out.copy_from_host(unwritten.data(), unwritten.size());
    tilelab::cpu::sample_next_launch_blocks(sampled, seed);
    REQUIRE(fill_grid(out.data(), grid) == cudaSuccess);
    std::vector<int> got(out.size());
    out.copy_to_host(got.data(), got.size());
    std::vector<int> blocks;
    for (int block = 0; block < 32; ++block) {
        const int expected = block % 8 + 10 * (block / 8);
        int wrote = 0;
        for (int t = 0; t < 4; ++t) wrote += got[static_cast<std::size_t>(block * 4 + t)] == expected;
        CHECK((wrote == 0 || wrote == 4));  // a block runs whole or not at all
        if (wrote == 4) blocks.push_back(block);
    }
    return blocks;
}

}  // namespace

TEST_SUITE("cpu-emulator") {
    TEST_CASE("a block sample runs that many blocks, the grid's last among them, for one launch") {
        const std::vector<int> sampled = blocks_run(3, 42);
        REQUIRE(sampled.size() == 3);
        CHECK(sampled.back() == 31);
        CHECK(blocks_run(3, 42) == sampled);  // the seed decides which
        CHECK(blocks_run(3, 43) != sampled);
        // The launch took the setting: the next one runs every block, as does a sample as large as the grid.
        tilelab::cpu::sample_next_launch_blocks(3, 42);
        const dim3 grid(8, 4);
        tilelab::DeviceBuffer<int> out(8 * 4 * 4);
        REQUIRE(fill_grid(out.data(), grid) == cudaSuccess);
        CHECK(blocks_run(0, 0).size() == 32);
        CHECK(blocks_run(32, 7).size() == 32);
    }
}
