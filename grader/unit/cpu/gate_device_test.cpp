// The performance gate's digest on the device (grader/runner/gate_device.cu), run by the CPU backend's emulator:
// the same value as the checker's (tilelab/gate_data.hpp's result_digest) for every result of a request, through
// its leaves and every level of its tree, with the emulator checking the kernels' barriers and shared memory.
#include "gate_device.hpp"

#include <tilelab/device_buffer.hpp>
#include <tilelab/gate_data.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

TEST_SUITE("cpu-gate-digest") {
    TEST_CASE("the device's digest of each result is the checker's") {
        // One leaf; five, the last short; 69, so that the tree has three levels, the last node with one child.
        for (const std::size_t count : {std::size_t{700}, std::size_t{5000}, std::size_t{70000}}) {
            const int sets = 3;
            std::vector<float> host(count * sets);
            for (std::size_t i = 0; i < host.size(); ++i)
                host[i] = tilelab::gate::operand_value(7, 0, tilelab::gate::Operand::M, i, 100);
            tilelab::DeviceBuffer<float> device(host.size());
            device.copy_from_host(host.data(), host.size());
            const std::vector<std::uint64_t> digests = tilelab::runner::gate_digests(device.data(), count, sets);
            REQUIRE(digests.size() == static_cast<std::size_t>(sets));
            for (int set = 0; set < sets; ++set)
                CHECK(digests[set] == tilelab::gate::result_digest(host.data() + set * count, count));
            CHECK(digests[0] != digests[1]);
        }
    }

    TEST_CASE("the device gathers the checker's samples from every result, and refuses a place past the end") {
        std::vector<float> host(3000);
        for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i) * 0.5f;
        tilelab::DeviceBuffer<float> device(host.size());
        device.copy_from_host(host.data(), host.size());
        const std::vector<std::uint64_t> places = {0, 2999, 1000, 1000, 17};
        const std::vector<float> values = tilelab::runner::gate_gather(device.data(), host.size(), places);
        REQUIRE(values.size() == places.size());
        for (std::size_t i = 0; i < places.size(); ++i) CHECK(values[i] == host[places[i]]);
        CHECK_THROWS_AS(tilelab::runner::gate_gather(device.data(), host.size(), {3000}), std::out_of_range);
    }
}
