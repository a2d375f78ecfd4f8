// Device memory on the CPU backend: each cudaMalloc gets its own mapping, between two inaccessible pages, filled
// with a garbage pattern. A buffer starts 256-byte aligned, as cudaMalloc's do (kernels that test addresses to
// pick vector accesses then choose as on a GPU), at the highest such address that still ends in its last page:
// less than 256 bytes separate its end from the page after it, which no access may touch. A buffer whose size is
// a multiple of 256 bytes ends against that page, so a kernel touching even one element past its end faults, and
// the fault handler says which buffer it was. The slack between a shorter buffer's end and the page (and the
// bytes before its start) holds a signalling-NaN pattern: a read there feeds NaN into the result, and a write
// there is found when the kernel ends (check_buffer_slack) and reported as the fault would be. The buffers' own
// pages are inaccessible too while host code runs (a GPU's memory is not the host's): they open while kernels
// run (DeviceMemoryOpen) and inside the runtime's copies, fills and the allocator's poisoning (OpenBuffer).
#include "runtime_state.hpp"

#include <tilelab/cpu/named_matrices.hpp>
#include <tilelab/matrix_element.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <string>

namespace tilelab::cpu::detail {
namespace {

struct Allocation {
    unsigned char* mapping;     // first guard page
    std::size_t mapping_bytes;  // guard + payload pages + guard
    std::size_t bytes;          // what cudaMalloc was asked for
    // The kit's matrix inside the buffer (tilelab::cpu::name_device_matrix): its first element, shape and name; an
    // empty name where none was given.
    const unsigned char* matrix_first = nullptr;
    std::size_t matrix_rows = 0, matrix_cols = 0;
    char matrix_name[8] = {};
};

std::mutex registry_mutex;
int allocations_until_failure = 0;  // fail_nth_allocation(): 0, none; 1, the next cudaMalloc; ... (lock held)
std::map<const unsigned char*, Allocation> registry;  // by payload start
std::size_t allocated_bytes = 0;
int open_depth = 0;  // DeviceMemoryOpen objects alive: every buffer is open while it is above 0 (lock held)

// Opens (@p open) or closes a buffer's pages to the process. Failing would leave the emulator unable to tell
// device memory from host memory: that ends the program rather than grade on.
void set_access(const Allocation& a, bool open) {
    const std::size_t page = page_bytes();
    if (mprotect(a.mapping + page, a.mapping_bytes - 2 * page, open ? PROT_READ | PROT_WRITE : PROT_NONE) != 0) {
        std::perror("tilelab CPU backend: mprotect of a device buffer");
        std::abort();
    }
}

// The emulated device's memory: half the machine's, which is what an allocation may not exceed.
std::size_t total_device_bytes() {
    static const std::size_t total =
        static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * page_bytes() / 2;
    return total;
}

// True when an allocation of @p bytes must fail: the one the runner made to fail (fail_nth_allocation, which counts
// cudaMalloc and cudaMallocManaged alike), or one larger than the device's memory left. Lock held.
bool refuses(std::size_t bytes) {
    if (allocations_until_failure > 0 && --allocations_until_failure == 0) return true;
    return bytes > total_device_bytes() - allocated_bytes;
}

// Bits every byte of fresh device memory gets: as floats, NaN; as ints, -1.
constexpr int garbage_byte = tilelab::cpu::fresh_memory_byte;

// A buffer's first byte is aligned to this, as cudaMalloc's are.
constexpr std::size_t buffer_alignment = 256;

// The slack's byte at @p address: the poison's bytes in memory order, aligned to 4-byte words, so that every
// whole float of the slack reads as past_end_poison_bits.
unsigned char poison_byte(const unsigned char* address) {
    const auto lane = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(address) % 4);
    return static_cast<unsigned char>(past_end_poison_bits >> (8 * lane));
}

// The bytes of an allocation's payload pages outside its buffer: before its start, and after its end.
struct Slack {
    unsigned char* before_begin;
    unsigned char* before_end;
    unsigned char* after_begin;
    unsigned char* after_end;
};
Slack slack_of(unsigned char* start, const Allocation& a) {
    const std::size_t page = page_bytes();
    return Slack{a.mapping + page, start, start + a.bytes, a.mapping + a.mapping_bytes - page};
}

void poison(unsigned char* begin, unsigned char* end) {
    for (unsigned char* byte = begin; byte < end; ++byte) *byte = poison_byte(byte);
}

// The first byte of [begin, end) that is not the poison; end when none.
const unsigned char* first_changed(const unsigned char* begin, const unsigned char* end) {
    for (const unsigned char* byte = begin; byte < end; ++byte)
        if (*byte != poison_byte(byte)) return byte;
    return end;
}

// The allocation whose mapping (guards included) holds address; registry.end() when none. Lock held or in the
// fault handler.
std::map<const unsigned char*, Allocation>::const_iterator find_mapping(const unsigned char* address) {
    auto after = registry.upper_bound(address);
    // The payload at or before the address, and the one after (whose front guard may hold it).
    for (auto it : {after, after == registry.begin() ? registry.end() : std::prev(after)}) {
        if (it == registry.end()) continue;
        const Allocation& a = it->second;
        if (address >= a.mapping && address < a.mapping + a.mapping_bytes) return it;
    }
    return registry.end();
}

// The allocation that ends below address, at most 1 MiB below it, where address is in no mapping: a read or write
// that ran past a buffer's end and its guard page (a row index past the last row) and faulted in whatever lies
// beyond. registry.end() when none. Lock held or in the fault handler.
std::map<const unsigned char*, Allocation>::const_iterator overrun_of(const unsigned char* address) {
    constexpr std::size_t far_past = std::size_t{1} << 20;
    const auto after = registry.upper_bound(address);
    if (after == registry.begin()) return registry.end();
    const auto below = std::prev(after);
    const unsigned char* end = below->first + below->second.bytes;
    return address >= end && static_cast<std::size_t>(address - end) <= far_past ? below : registry.end();
}

// The element of @p a's named matrix at @p byte (negative: before its first), rounded down to whole floats.
long long matrix_element_of(const Allocation& a, const unsigned char* byte) {
    const std::ptrdiff_t from = byte - a.matrix_first;
    return static_cast<long long>(from >= 0 ? from / 4 : -((-from + 3) / 4));
}

// Where @p byte lies in @p a's named matrix, in words (tilelab/matrix_element.hpp); false where it has no name.
// Lock held or in the fault handler: allocates nothing.
bool describe_matrix_element(const Allocation& a, const unsigned char* byte, char* text, std::size_t size) {
    if (a.matrix_name[0] == '\0') return false;
    format_matrix_element(text, size, a.matrix_name, a.matrix_rows, a.matrix_cols, matrix_element_of(a, byte));
    return true;
}

// The first out-of-bounds access reported since the runner last took it (tilelab::cpu::take_fault_site).
std::atomic<bool> fault_site_noted{false};
tilelab::cpu::FaultSite noted_fault_site;

// Notes the access at @p byte in @p a (null: in no device buffer) as the fault site, unless one is noted already:
// the first error of a launch is the one reported. @p access: 1 a write, 0 a read, -1 not known. Lock held or in
// the fault handler.
void note_site(const Allocation* a, const unsigned char* byte, int access, bool host_code) {
    if (fault_site_noted.exchange(true)) return;
    tilelab::cpu::FaultSite site;
    site.access = access == 1   ? tilelab::cpu::FaultSite::Access::write
                  : access == 0 ? tilelab::cpu::FaultSite::Access::read
                                : tilelab::cpu::FaultSite::Access::unknown;
    site.host_code = host_code;
    if (a != nullptr && a->matrix_name[0] != '\0') {
        std::memcpy(site.matrix, a->matrix_name, sizeof site.matrix);
        site.element = matrix_element_of(*a, byte);
    }
    noted_fault_site = site;
}

// One buffer opened to host code for a copy or fill (when kernels are not running, which opens them all): the
// buffer holding @p pointer, if any; closed again when the object goes.
class OpenBuffer {
public:
    explicit OpenBuffer(const void* pointer) {
        std::lock_guard<std::mutex> lock(registry_mutex);
        const auto found = find_mapping(static_cast<const unsigned char*>(pointer));
        if (found == registry.end() || open_depth > 0) return;
        allocation_ = found->second;
        set_access(allocation_, true);
        opened_ = true;
    }
    ~OpenBuffer() {
        if (!opened_) return;
        std::lock_guard<std::mutex> lock(registry_mutex);
        if (open_depth == 0) set_access(allocation_, false);
    }
    OpenBuffer(const OpenBuffer&) = delete;
    OpenBuffer& operator=(const OpenBuffer&) = delete;

private:
    Allocation allocation_{};
    bool opened_ = false;
};

}  // namespace

DeviceMemoryOpen::DeviceMemoryOpen() {
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (open_depth++ > 0) return;
    for (const auto& entry : registry) set_access(entry.second, true);
}

DeviceMemoryOpen::~DeviceMemoryOpen() {
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (--open_depth > 0) return;
    for (const auto& entry : registry) set_access(entry.second, false);
}

bool describe_host_access(const void* address, int access, char* text, std::size_t size) {
    const auto* byte = static_cast<const unsigned char*>(address);
    const auto found = find_mapping(byte);
    if (found == registry.end()) return false;
    const Allocation& a = found->second;
    const std::size_t page = page_bytes();
    if (byte < a.mapping + page || byte >= a.mapping + a.mapping_bytes - page) return false;  // a guard page
    const unsigned char* start = found->first;
    note_site(&a, byte, access, true);
    if (describe_matrix_element(a, byte, text, size)) return true;
    if (byte >= start && byte < start + a.bytes)
        std::snprintf(text, size, "float index %zu of a device buffer of %zu floats (%zu bytes, from cudaMalloc)",
                      static_cast<std::size_t>(byte - start) / 4, a.bytes / 4, a.bytes);
    else if (byte >= start + a.bytes)
        std::snprintf(text, size, "%zu bytes past the end of a %zu-byte device buffer (from cudaMalloc)",
                      static_cast<std::size_t>(byte - (start + a.bytes)), a.bytes);
    else
        std::snprintf(text, size, "%zu bytes before the start of a %zu-byte device buffer (from cudaMalloc)",
                      static_cast<std::size_t>(start - byte), a.bytes);
    return true;
}

bool is_device_pointer(const void* pointer) {
    if (pointer == nullptr || is_kernel_reachable_host_memory(pointer)) return true;
    std::lock_guard<std::mutex> lock(registry_mutex);
    return find_mapping(static_cast<const unsigned char*>(pointer)) != registry.end();
}

std::size_t page_bytes() {
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

bool describe_device_address(const void* address, int access, char* text, std::size_t size) {
    const auto* byte = static_cast<const unsigned char*>(address);
    auto found = find_mapping(byte);
    if (found == registry.end()) found = overrun_of(byte);
    note_site(found == registry.end() ? nullptr : &found->second, byte, access, false);
    if (found == registry.end()) return false;
    if (describe_matrix_element(found->second, byte, text, size)) return true;
    const unsigned char* start = found->first;
    const std::size_t bytes = found->second.bytes;
    if (byte >= start + bytes) {
        const std::size_t past = static_cast<std::size_t>(byte - (start + bytes));
        std::snprintf(text, size,
                      "float index %zu of a device buffer of %zu floats, %zu past its last element (index %zu)",
                      (bytes + past) / 4, bytes / 4, past / 4 + 1, bytes / 4 - 1);
    } else if (byte < start) {
        std::snprintf(text, size, "%zu bytes before the start of a %zu-byte device buffer (a negative index)",
                      static_cast<std::size_t>(start - byte), bytes);
    } else {
        std::snprintf(text, size, "inside a %zu-byte device buffer", bytes);
    }
    return true;
}

bool device_allocation_of(const void* address, const unsigned char** start, std::size_t* bytes) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto found = find_mapping(static_cast<const unsigned char*>(address));
    if (found == registry.end()) return false;
    *start = found->first;
    *bytes = found->second.bytes;
    return true;
}

bool describe_named_element(const void* address, char* text, std::size_t size) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto* byte = static_cast<const unsigned char*>(address);
    const auto found = find_mapping(byte);
    return found != registry.end() && describe_matrix_element(found->second, byte, text, size);
}

bool in_kit_operand(const void* address, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto* byte = static_cast<const unsigned char*>(address);
    const auto found = find_mapping(byte);
    if (found == registry.end()) return false;
    const Allocation& a = found->second;
    if (a.matrix_name[0] == '\0') return true;  // a buffer nobody named (the emulator's own tests): as before
    const bool operand = std::strcmp(a.matrix_name, "M") == 0 || std::strcmp(a.matrix_name, "N") == 0;
    const std::size_t matrix_bytes = a.matrix_rows * a.matrix_cols * sizeof(float);
    return operand && byte >= a.matrix_first && byte + bytes <= a.matrix_first + matrix_bytes;
}

void note_fault_site(const void* address, bool write) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto* byte = static_cast<const unsigned char*>(address);
    const auto found = find_mapping(byte);
    note_site(found == registry.end() ? nullptr : &found->second, byte, write ? 1 : 0, false);
}

void check_buffer_slack(const LaunchSite& site) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    for (const auto& [start, allocation] : registry) {
        const Slack slack = slack_of(const_cast<unsigned char*>(start), allocation);
        const unsigned char* after = first_changed(slack.after_begin, slack.after_end);
        const unsigned char* before = first_changed(slack.before_begin, slack.before_end);
        if (after == slack.after_end && before == slack.before_end) continue;
        const std::size_t floats = allocation.bytes / 4;
        char place[256];
        const unsigned char* changed = after != slack.after_end ? after : before;
        note_site(&allocation, changed, 1, false);
        // The kit's matrix, where the runner named it ("P[1], past the end of P (...)"); else counted from the buffer.
        const bool named = describe_matrix_element(allocation, changed, place, sizeof place);
        if (!named && after != slack.after_end) {
            const auto past = static_cast<std::size_t>(after - slack.after_begin);
            std::snprintf(place, sizeof place, "float index %zu of a device buffer of %zu floats, %zu past its last element (index %zu)",
                          (allocation.bytes + past) / 4, floats, past / 4 + 1, floats - 1);
        } else if (!named) {
            std::snprintf(place, sizeof place, "%zu bytes before the start of a %zu-byte device buffer (a negative index)",
                          static_cast<std::size_t>(start - before), allocation.bytes);
        }
        char address[32];
        std::snprintf(address, sizeof address, "%p", static_cast<const void*>(after != slack.after_end ? after : before));
        // Whichever thread wrote it, the launch has failed: the whole buffer is poisoned again for the next one.
        poison(slack.before_begin, slack.before_end);
        poison(slack.after_begin, slack.after_end);
        set_kernel_error(cudaErrorIllegalAddress,
                         std::string("illegal memory access in the kernel ") + site.kernel_name + " launched at " +
                             site.file + ":" + std::to_string(site.line) + ": a write at " + address + ", " + place +
                             " (cudaErrorIllegalAddress: an illegal memory access was encountered; out-of-bounds "
                             "write). The CPU backend finds such a write in the bytes next to the buffer when the kernel "
                             "ends, so it cannot say which thread made it.\n  hint: the kernel wrote memory outside "
                             "its buffers: check the bounds tests and the index arithmetic (row * width + col)");
        return;  // the first error of a launch says it all
    }
}

bool is_device_range(const void* pointer, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto* byte = static_cast<const unsigned char*>(pointer);
    auto after = registry.upper_bound(byte);
    if (after == registry.begin()) return false;
    const auto& [start, allocation] = *std::prev(after);
    return byte >= start && byte + bytes <= start + allocation.bytes;
}

cudaError_t reserve_device_bytes(std::size_t bytes) {
    if (const cudaError_t lost = sticky_error(); lost != cudaSuccess) return record_error(lost);
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (refuses(bytes)) return record_error(cudaErrorMemoryAllocation);
    allocated_bytes += bytes;
    return cudaSuccess;
}

void release_device_bytes(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    allocated_bytes -= bytes < allocated_bytes ? bytes : allocated_bytes;
}

}  // namespace tilelab::cpu::detail

namespace tilelab::cpu {

void name_device_matrix(const float* first, std::size_t rows, std::size_t cols, const char* name) noexcept {
    std::lock_guard<std::mutex> lock(detail::registry_mutex);
    const auto* byte = reinterpret_cast<const unsigned char*>(first);
    const auto found = detail::find_mapping(byte);
    if (found == detail::registry.end() || name == nullptr) return;
    detail::Allocation& a = detail::registry[found->first];
    a.matrix_first = byte;
    a.matrix_rows = rows;
    a.matrix_cols = cols;
    std::snprintf(a.matrix_name, sizeof a.matrix_name, "%s", name);
}

FaultSite take_fault_site() noexcept {
    if (!detail::fault_site_noted.load()) return FaultSite{};
    const FaultSite site = detail::noted_fault_site;
    detail::fault_site_noted.store(false);
    return site;
}

void fail_nth_allocation(int nth) noexcept {
    std::lock_guard<std::mutex> lock(detail::registry_mutex);
    detail::allocations_until_failure = nth > 0 ? nth : 0;
}

}  // namespace tilelab::cpu

using namespace tilelab::cpu::detail;

namespace {
cudaError_t allocate(void** pointer, std::size_t bytes);
}

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
    const cudaError_t result = allocate(pointer, bytes);
    if (pointer != nullptr) trace_allocation(*pointer, bytes);
    return result;
}

namespace {
cudaError_t allocate(void** pointer, std::size_t bytes) {
    if (pointer == nullptr) return cudaErrorInvalidValue;
    *pointer = nullptr;
    if (bytes == 0) return cudaSuccess;
    install_fault_handler();
    if (const cudaError_t lost = sticky_error(); lost != cudaSuccess) return record_error(lost);
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (refuses(bytes)) return record_error(cudaErrorMemoryAllocation);
    const std::size_t page = page_bytes();
    const std::size_t payload_pages = (bytes + page - 1) / page;
    const std::size_t mapping_bytes = (payload_pages + 2) * page;
    void* mapping = mmap(nullptr, mapping_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) {
        return record_error(cudaErrorMemoryAllocation);
    }
    auto* base = static_cast<unsigned char*>(mapping);
    if (mprotect(base + page, payload_pages * page, PROT_READ | PROT_WRITE) != 0) {
        munmap(mapping, mapping_bytes);
        return record_error(cudaErrorMemoryAllocation);
    }
    // The highest 256-byte aligned start from which the buffer ends in its last page: a size that is a multiple
    // of 256 bytes ends against the back guard page.
    const auto end = reinterpret_cast<std::uintptr_t>(base + page + payload_pages * page);
    auto* start = reinterpret_cast<unsigned char*>((end - bytes) / buffer_alignment * buffer_alignment);
    std::memset(start, garbage_byte, bytes);
    registry[start] = Allocation{base, mapping_bytes, bytes};
    const Slack slack = slack_of(start, registry[start]);
    poison(slack.before_begin, slack.before_end);
    poison(slack.after_begin, slack.after_end);
    if (open_depth == 0) set_access(registry[start], false);  // closed to host code until a kernel or copy opens it
    allocated_bytes += bytes;
    *pointer = start;
    return cudaSuccess;
}
}  // namespace

cudaError_t cudaFree(void* pointer) {
    if (pointer != nullptr && free_host_allocation(pointer)) return cudaSuccess;  // cudaMallocManaged's (streams.cpp)
    drain_queue();  // cudaFree waits for the device, so a kernel still queued never runs on freed memory
    if (pointer == nullptr) return cudaSuccess;
    trace_release(pointer);
    std::lock_guard<std::mutex> lock(registry_mutex);
    const auto found = registry.find(static_cast<unsigned char*>(pointer));
    if (found == registry.end()) {
        return record_error(cudaErrorInvalidValue);
    }
    munmap(found->second.mapping, found->second.mapping_bytes);
    allocated_bytes -= found->second.bytes;
    registry.erase(found);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
    if (free == nullptr || total == nullptr) return cudaErrorInvalidValue;
    std::lock_guard<std::mutex> lock(registry_mutex);
    *total = total_device_bytes();
    *free = *total - allocated_bytes;
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind) {
    drain_queue();  // a copy waits for the kernels before it, as on a GPU
    const cudaError_t pending = take_kernel_error();
    if (pending != cudaSuccess) return pending;
    if (bytes == 0) return cudaSuccess;
    if (const cudaError_t refused = check_copy(destination, source, bytes, kind); refused != cudaSuccess)
        return record_error(refused);
    copy_now(destination, source, bytes, kind);
    return cudaSuccess;
}

namespace tilelab::cpu::detail {

cudaError_t copy_symbol(void* symbol, std::size_t symbol_bytes, void* other, std::size_t bytes, std::size_t offset,
                        cudaMemcpyKind kind, bool into_symbol) {
    if (offset > symbol_bytes || bytes > symbol_bytes - offset) return record_error(cudaErrorInvalidValue);
    const cudaMemcpyKind from_host = into_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != from_host && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return record_error(cudaErrorInvalidMemcpyDirection);
    void* at = static_cast<unsigned char*>(symbol) + offset;
    const bool other_on_device =
        kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && is_device_range(other, bytes));
    // The symbol is host memory here: a device buffer on the other side goes through cudaMemcpy's checks.
    if (other_on_device)
        return into_symbol ? cudaMemcpy(at, other, bytes, cudaMemcpyDeviceToHost)
                           : cudaMemcpy(other, at, bytes, cudaMemcpyHostToDevice);
    drain_queue();  // a copy waits for the kernels before it, as on a GPU
    if (const cudaError_t pending = take_kernel_error(); pending != cudaSuccess) return pending;
    if (bytes > 0) std::memmove(into_symbol ? at : other, into_symbol ? other : at, bytes);
    return cudaSuccess;
}

cudaError_t check_copy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind) {
    const bool destination_on_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool source_on_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    // A host pointer where a device one belongs, or a copy running past the end of a buffer: CUDA says
    // "invalid argument" too. Managed and pinned memory may stand on the device side, as on a GPU.
    auto device_side = [bytes](const void* pointer) {
        return is_device_range(pointer, bytes) || is_kernel_reachable_host_range(pointer, bytes);
    };
    if ((destination_on_device && !device_side(destination)) || (source_on_device && !device_side(source)) ||
        kind > cudaMemcpyDefault)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

void copy_now(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind kind) {
    const OpenBuffer open_destination(destination), open_source(source);
    std::memmove(destination, source, bytes);
    trace_copy(tilelab::cpu::TraceEntry::Kind::copy, destination, source, bytes, static_cast<std::uint32_t>(kind));
}

}  // namespace tilelab::cpu::detail

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
    drain_queue();  // in stream order, after the kernels before it
    if (const cudaError_t lost = sticky_error(); lost != cudaSuccess) return record_error(lost);
    if (bytes == 0) return cudaSuccess;
    if (!is_device_range(pointer, bytes) && !is_kernel_reachable_host_range(pointer, bytes)) {
        return record_error(cudaErrorInvalidValue);  // managed memory may be set, as on a GPU
    }
    const OpenBuffer open(pointer);
    std::memset(pointer, value, bytes);
    trace_copy(tilelab::cpu::TraceEntry::Kind::memset, pointer, nullptr, bytes, 0);
    return cudaSuccess;
}
