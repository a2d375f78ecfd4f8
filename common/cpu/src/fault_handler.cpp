// A kernel that reads or writes where it may not, on the CPU backend: the access faults (device buffers end
// against an inaccessible page) and this handler says what was touched, by which kernel thread, with the error
// CUDA would give, then ends the process, as a fault ends a CUDA context. One check fails; CTest runs the rest.
// Host code that touches device memory faults too (device buffers are closed to it outside kernels and copies).
#include "runtime_state.hpp"

#include <tilelab/cpu/named_matrices.hpp>

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

namespace tilelab::cpu::detail {
namespace {

// Sees each fault before the program ends (tilelab::cpu::observe_faults): the kit's runner, which answers its
// request with the error.
std::atomic<FaultObserver> fault_observer{nullptr};

void write_text(const char* text) {
    const std::size_t length = std::strlen(text);
    ssize_t ignored = write(STDOUT_FILENO, text, length);
    static_cast<void>(ignored);
}

// True for a write, false for a read, where the CPU says which it was.
int access_kind(void* context) {
#if defined(__x86_64__) && defined(REG_ERR)
    const auto* uc = static_cast<const ucontext_t*>(context);
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
    static_cast<void>(context);
    return -1;
#endif
}

// The stack pointer at the fault, where the platform says (null elsewhere).
const void* stack_pointer_at(void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__) && defined(REG_RSP)
    return reinterpret_cast<const void*>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(uc->uc_mcontext.sp);
#else
    static_cast<void>(uc);
    return nullptr;
#endif
}

void on_fault(int signal_number, siginfo_t* info, void* context) {
    static char text[2048];
    static char thread[256];
    static char buffer[512];
    std::fflush(stdout);
    const void* address = info->si_addr;
    const int kind = access_kind(context);
    const char* access = kind == 1 ? "a write" : kind == 0 ? "a read" : "an access";
    const bool in_kernel = describe_running_thread(thread, sizeof thread) > 0;
    bool host_access = false;
    if (is_stack_overflow(address, stack_pointer_at(context))) {
        std::snprintf(text, sizeof text,
                      "\nerror: stack overflow %s: a CUDA thread has 64 KiB of stack on the CPU backend "
                      "(cudaErrorIllegalAddress)\n  hint: look for recursion or a large local array in the kernel\n",
                      in_kernel ? thread : "in a kernel");
    } else if (!in_kernel && describe_host_access(address, kind, buffer, sizeof buffer)) {
        host_access = true;
        std::snprintf(text, sizeof text,
                      "\nerror: host code %s device memory: %s at %p, %s (a device pointer dereferenced on the "
                      "host; copy it with cudaMemcpy)\n  hint: memory from cudaMalloc belongs to the GPU, and host "
                      "code cannot %s it (on a GPU machine this is a segmentation fault): cudaMemcpy the data %s, "
                      "and keep host and device pointers apart (name device ones d_M, or device_M)\n",
                      kind == 1 ? "wrote" : kind == 0 ? "read" : "touched", access, address, buffer,
                      kind == 1 ? "write" : kind == 0 ? "read" : "touch",
                      kind == 1 ? "into it from a host array (cudaMemcpyHostToDevice)"
                                : "back into a host array (cudaMemcpyDeviceToHost) and read that");
    } else if (describe_device_address(address, kind, buffer, sizeof buffer)) {
        std::snprintf(text, sizeof text,
                      "\nerror: illegal memory access %s: %s at %p, %s (cudaErrorIllegalAddress: an illegal memory "
                      "access was encountered; out-of-bounds %s)\n  hint: the kernel %s memory outside its buffers: "
                      "check the bounds tests and the index arithmetic (row * width + col)\n",
                      in_kernel ? thread : "in host code", access, address, buffer,
                      kind == 1 ? "write" : kind == 0 ? "read" : "access", kind == 1 ? "wrote" : "read");
    } else {
        std::snprintf(text, sizeof text,
                      "\nerror: illegal memory access %s: %s at %p, which is in no device buffer "
                      "(cudaErrorIllegalAddress: an illegal memory access was encountered)\n  hint: %s\n",
                      in_kernel ? thread : "outside any kernel", access, address,
                      in_kernel ? "check the index arithmetic (row * width + col) and the bounds tests"
                                : "a null or freed pointer, or a device pointer used where a host one belongs");
    }
    write_text(text);
    if (const FaultObserver observer = fault_observer.load(); observer != nullptr)
        observer(take_fault_site(), text + 1);  // without the blank line before it
    write_text(host_access ? "The CPU backend stops the program here, as the fault ends the host program on a GPU machine.\n"
                           : "The CPU backend stops the program here, as a fault ends the CUDA context on a GPU.\n");
    _exit(128 + signal_number);
}

}  // namespace

void install_fault_handler() {
    static std::atomic<bool> installed{false};
    if (installed.exchange(true)) return;
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, nullptr);
    sigaction(SIGBUS, &action, nullptr);
    prepare_thread_for_faults();
}

}  // namespace tilelab::cpu::detail

void tilelab::cpu::observe_faults(FaultObserver observer) noexcept {
    detail::install_fault_handler();
    detail::fault_observer.store(observer);
}
