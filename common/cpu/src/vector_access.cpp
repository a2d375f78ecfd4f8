// Vector accesses (float4, float2) on the CPU backend: checked for alignment and range before they happen, as a
// GPU would fault on them, and tracked like any shared-memory access (see tilelab/cpu/vector_access.hpp).
#include <tilelab/cpu/emulator.hpp>
#include <tilelab/cpu/output_reads.hpp>
#include <tilelab/cpu/vector_access.hpp>

#include "memory_checks.hpp"
#include "runtime_state.hpp"

#include <cstring>

namespace tilelab::cpu::detail {

void vector_access(unsigned char* address, void* value, std::size_t bytes, bool write) {
    check_device_access(address, bytes, bytes, write, bytes == 16 ? "a 16-byte vector (float4)" : "an 8-byte vector (float2)",
                        "a vector access moves aligned bytes: its element index must be a multiple of the vector's "
                        "width (4 floats for a float4), in a row that starts at such a multiple; where a row's length "
                        "is not a multiple of 4, load that row's elements one by one");
    if (write) {
        std::size_t offset = 0;
        if (shared_store_scale != 1.0f && shared_offset_of(address, &offset)) scale_shared_words(value, bytes);
        std::memcpy(address, value, bytes);
    } else {
        std::memcpy(value, address, bytes);
        if (operand_probe_on) probe_vector_load(address, value, bytes);
    }
    if (output_tracked) note_output_access(address, bytes, write ? OutputAccess::write : OutputAccess::read);
}

}  // namespace tilelab::cpu::detail
