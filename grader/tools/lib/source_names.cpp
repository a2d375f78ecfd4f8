// The names and headers the source check knows (source_names.hpp): tables only, the rules are source_policy.cpp's.
#include "source_names.hpp"

namespace tilelab::grader::source_names {

/// The kit's headers a lab may include: those written for labs (labs.hpp declares the labs' functions; lab 04's
/// host code uses cuda_check, cuda_event and device_buffer; mma.hpp holds the tensor-core instructions mma.sync and
/// ldmatrix, the inline PTX a lab may not write itself). The rest of common/include/tilelab is the grader's and the emulator's.
extern const std::set<std::string> public_headers;
const std::set<std::string> public_headers = {"tilelab/labs.hpp", "tilelab/cuda_check.hpp", "tilelab/cuda_event.hpp",
                                              "tilelab/device_buffer.hpp", "tilelab/mma.hpp"};

/// Names of namespace tilelab that those headers give a lab (tilelab::<name>).
extern const std::set<std::string> public_names;
const std::set<std::string> public_names = {"CudaError",  "check_cuda",       "hint_for",    "CudaEvent",
                                            "elapsed_ms", "DeviceBuffer",     "to_tf32",     "mma_m16n8k8_tf32",
                                            "ldmatrix_x4", "ldmatrix_x2"};

/// The kit's macros a lab may use.
extern const std::set<std::string> public_macros;
const std::set<std::string> public_macros = {"TILELAB_CUDA_CHECK", "TILELAB_KERNEL"};

/// The emulator's functions (namespace tilelab::cpu, common/include/tilelab/cpu): a lab's code never names them,
/// and a call without the namespace would still find them by argument-dependent lookup from a shared array
/// (its elements are tilelab::cpu::Shared<T> on the CPU backend). Keep in step with those headers.
extern const std::set<std::string> emulator_functions;
const std::set<std::string> emulator_functions = {
    "run_kernel",     "thread_index",       "block_index",           "block_dim",
    "grid_dim",       "sync_threads",       "block_shared_storage",  "dynamic_shared_storage",
    "note_shared_access", "fail_nth_allocation", "stats",            "worker_count",
    "block_shared",   "dynamic_shared",     "pipeline_memcpy_async", "pipeline_commit",
    "pipeline_wait_prior", "vector_access", "note_shared_atomic", "is_block_shared_address", "active_lanes",
    "start_trace",    "stop_trace",         "atomic_update", "scale_shared_stores", "sync_threads_reduce",
    "async_copy",     "async_wait_batch",   "async_batches_committed", "async_copy_misuse", "copy_address",
    "promised_alignment", "is_past_end_poison", "mma_sync_multiply_adds", "ldmatrix_address", "observe_launches",
    "address_cast",   "name_device_matrix", "take_fault_site",     "observe_faults"};

/// Headers of CUDA a lab may include with <...>: the runtime, the device-side libraries the labs' styles use
/// (pipelines, barriers, cooperative groups, warp matrices, half and bfloat16 types). The driver API (<cuda.h>)
/// is not among them: it loads modules and resolves functions by name, and no lab needs it.
extern const std::set<std::string> cuda_headers;
const std::set<std::string> cuda_headers = {
    "cuda_runtime.h", "cuda_runtime_api.h", "device_launch_parameters.h", "device_functions.h", "cuda_pipeline.h",
    "cuda_pipeline_primitives.h", "cuda_awbarrier.h", "cuda_awbarrier_primitives.h", "cuda_fp16.h", "cuda_bf16.h",
    "cuda_fp8.h", "mma.h", "cooperative_groups.h", "vector_types.h", "vector_functions.h", "math_constants.h",
    "cuda/pipeline", "cuda/barrier", "cuda/atomic", "cuda/annotated_ptr"};

/// Folders of CUDA headers a lab may include from (<cooperative_groups/reduce.h>, <cuda/std/array>).
extern const std::vector<std::string> cuda_header_folders;
const std::vector<std::string> cuda_header_folders = {"cooperative_groups/", "cuda/std/"};

/// Headers of the C++ library (and their C forms) a lab may include: they compute, format and hold data; none
/// gives access to files, processes, threads, signals or the environment. <cstdio> and <iostream> are in for
/// printf and std::cout debugging (their file functions are refused by name: os_functions); <fstream>,
/// <filesystem>, <thread>, <future>, <csignal>, <csetjmp> and every POSIX header are not.
extern const std::set<std::string> library_headers;
const std::set<std::string> library_headers = {
    "algorithm", "any", "array", "atomic", "bit", "bitset", "cassert", "cctype", "cerrno", "cfloat", "charconv",
    "chrono", "cinttypes", "climits", "cmath", "compare", "complex", "concepts", "cstdarg", "cstddef", "cstdint",
    "cstdio", "cstdlib", "cstring", "ctime", "deque", "exception", "format", "forward_list", "functional",
    "initializer_list", "iomanip", "ios", "iosfwd", "iostream", "istream", "iterator", "limits", "list", "map",
    "memory", "new", "numbers", "numeric", "optional", "ostream", "queue", "random", "ratio", "set", "span",
    "sstream", "stack", "stdexcept", "string", "string_view", "tuple", "type_traits", "typeinfo",
    "unordered_map", "unordered_set", "utility", "valarray", "variant", "vector", "version",
    "assert.h", "ctype.h", "errno.h", "float.h", "inttypes.h", "limits.h", "math.h", "stdarg.h", "stddef.h",
    "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h", "stdbool.h"};

/// Prefixes of the headers of libraries that would do the lab's work (the build check's library rule says so).
extern const std::vector<std::string> library_prefixes;
const std::vector<std::string> library_prefixes = {"cublas", "cusparse", "cusolver", "cufft", "curand", "cudnn",
                                                   "cutlass/", "thrust/", "cub/", "cute/"};

/// Functions of the C library whose results depend on hidden state kept between calls (and which device code
/// cannot call on a GPU): a kernel's CPU-backend build could pass values from block to block through them.
extern const std::set<std::string> hidden_state_functions;
const std::set<std::string> hidden_state_functions = {"rand", "srand", "rand_r", "random", "srandom", "drand48",
                                                      "erand48", "lrand48", "nrand48", "mrand48", "jrand48",
                                                      "srand48", "seed48", "lcong48", "strtok", "errno"};

/// CUDA's fast-math intrinsics: approximations whose bits only the GPU's hardware gives (the CPU backend computes
/// the exact function), so that comparing one with the exact value would tell the backends apart.
extern const std::set<std::string> approximate_intrinsics;
const std::set<std::string> approximate_intrinsics = {"__fdividef", "__expf", "__exp10f", "__logf", "__log2f",
                                                      "__log10f", "__sinf", "__cosf", "__tanf", "__sincosf",
                                                      "__powf"};

/// Math functions that a GPU computes within a few units in the last place of the exact result (CUDA's
/// programming guide, "Mathematical Functions"), where the CPU backend's C library gives its own last bits: in device
/// code, a comparison with a known value would tell the backends apart, and a matrix product needs none of them.
extern const std::set<std::string> inexact_device_math;
const std::set<std::string> inexact_device_math = {
    "expf", "exp2f", "exp10f", "expm1f", "logf", "log2f", "log10f", "log1pf", "sinf", "cosf", "tanf", "sincosf",
    "sinpif", "cospif", "asinf", "acosf", "atanf", "atan2f", "sinhf", "coshf", "tanhf", "asinhf", "acoshf",
    "atanhf", "powf", "rsqrtf", "cbrtf", "rcbrtf", "erff", "erfcf", "erfinvf", "erfcinvf", "hypotf", "rhypotf",
    "normf", "rnormf", "tgammaf", "lgammaf", "j0f", "j1f", "y0f", "y1f", "exp", "exp2", "exp10", "expm1", "log",
    "log2", "log10", "log1p", "sin", "cos", "tan", "sincos", "asin", "acos", "atan", "atan2", "sinh", "cosh",
    "tanh", "pow", "rsqrt", "cbrt", "erf", "erfc", "hypot", "tgamma", "lgamma"};

/// Functions and objects of the C and POSIX libraries (and the C++ library's wrappers of them) that open,
/// duplicate, read or write files and descriptors, start processes or threads, or change signals, memory
/// protection or the environment. A lab needs none, and with them lab code, which runs in the runner's process,
/// could serve the runner's channel to the checker itself. Standard headers declare many of them transitively,
/// so the names are refused, not only the headers. Left out because the C++ library or a student's class has the
/// same name for something else (std::remove, std::bind, a clone() member): remove, rename, bind, clone, link; the
/// build check's look at the objects (first_os_symbol) refuses the C library's ones.
extern const std::set<std::string> os_functions;
const std::set<std::string> os_functions = {
    "open", "open64", "openat", "openat2", "creat", "read", "readv", "write", "writev", "pread", "pwrite",
    "pread64", "pwrite64", "preadv", "pwritev", "close", "close_range", "dup", "dup2", "dup3", "pipe", "pipe2",
    "fcntl", "ioctl", "socket", "socketpair", "connect", "listen", "accept", "send", "sendto",
    "sendmsg", "recv", "recvfrom", "recvmsg", "splice", "tee", "vmsplice", "sendfile", "copy_file_range",
    "memfd_create", "eventfd", "mkfifo", "mknod", "fork", "vfork", "clone3", "execl", "execlp",
    "execle", "execv", "execvp", "execvpe", "execve", "execveat", "fexecve", "posix_spawn", "posix_spawnp",
    "system", "popen", "pclose", "fopen", "fopen64", "freopen", "freopen64", "fdopen", "fileno", "tmpfile",
    "tmpfile64", "tmpnam", "tempnam", "mkstemp", "mkostemp", "mkdtemp", "renameat", "unlink",
    "unlinkat", "rmdir", "mkdir", "chmod", "chown", "truncate", "ftruncate", "symlink", "opendir",
    "mmap", "mmap64", "mprotect", "munmap", "mremap", "madvise", "ptrace", "process_vm_readv",
    "process_vm_writev", "kill", "tgkill", "raise", "signal", "sigaction", "sigprocmask", "alarm", "setitimer",
    "getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv", "environ", "__environ", "syscall",
    "prctl", "seccomp", "setuid", "setgid", "atexit", "at_quick_exit", "setjmp", "longjmp", "sigsetjmp",
    "siglongjmp", "_setjmp", "_longjmp", "dladdr", "dl_iterate_phdr"};  // dlsym and kin: lookups_by_name

/// What only a compiled object shows of the same functions, for first_os_symbol: the names left out of
/// os_functions above, the C library's 64-bit and internal variants, and the dynamic loader (refused in the source
/// as lookups_by_name). atexit is in os_functions but not refused in objects: the host code nvcc generates calls it.
extern const std::set<std::string> os_object_only_names;
const std::set<std::string> os_object_only_names = {
    "remove", "rename", "bind", "clone", "link", "creat64", "fcntl64", "accept4", "sendfile64", "mkstemp64",
    "__sigsetjmp", "dlsym", "dlvsym", "dlopen", "dlmopen"};
/// Prefixes of families of such functions in objects: pthreads and the C library's internal entry points.
extern const char* const os_object_prefixes[6];
const char* const os_object_prefixes[6] = {"pthread_", "__libc_", "__open", "__read", "__write", "__fcntl"};

/// Types and functions of namespace std that do the same (std::thread, std::ofstream, std::filesystem::...).
extern const std::set<std::string> os_library_names;
const std::set<std::string> os_library_names = {
    "thread", "jthread", "async", "filesystem", "fstream", "ifstream", "ofstream", "basic_fstream",
    "basic_ifstream", "basic_ofstream", "filebuf", "basic_filebuf", "wfstream", "wifstream", "wofstream",
    "wfilebuf", "this_thread"};

/// The builtins that hand code the addresses of stack frames and return addresses.
extern const std::set<std::string> frame_builtins;
const std::set<std::string> frame_builtins = {"__builtin_frame_address", "__builtin_return_address",
                                              "__builtin_extract_return_addr", "__builtin_frob_return_addr",
                                              "__builtin_dwarf_cfa", "__builtin_eh_return", "__builtin_longjmp",
                                              "__builtin_setjmp", "__builtin_apply", "__builtin_apply_args"};

/// Attributes that run a lab's code before or after main, or place or export it where the runner does not
/// expect it.
extern const std::set<std::string> startup_attributes;
const std::set<std::string> startup_attributes = {
    "constructor", "destructor", "init_priority", "section", "weak", "visibility", "used", "retain",
    "externally_visible", "no_reorder", "__constructor__", "__destructor__", "__init_priority__", "__section__",
    "__weak__", "__visibility__", "__used__", "__retain__", "__externally_visible__", "__no_reorder__"};

/// Pragmas a lab may use: loop unrolling, include guards and diagnostics.
bool allowed_pragma(const std::vector<std::string>& words) {
    if (words.empty()) return true;
    static const std::set<std::string> alone = {"unroll", "nounroll", "once", "nv_diag_suppress", "nv_diag_default",
                                                "nv_diag_warning", "diag_suppress", "diag_default"};
    if (alone.count(words[0]) != 0) return true;
    if ((words[0] == "GCC" || words[0] == "clang") && words.size() > 1)
        return words[1] == "unroll" || words[1] == "diagnostic" || words[1] == "ivdep";
    return false;
}

/// Macros that tell one compiler (or compilation pass) from another: a kernel that tests them can be one kernel
/// on the GPU and another on the CPU backend.
bool tests_backend(const std::string& name) {
    return name == "__CUDA_ARCH__" || name == "__CUDA_ARCH_LIST__" || name.rfind("__CUDACC", 0) == 0 ||
           name.rfind("__NVCC", 0) == 0 || name.rfind("__NVCOMPILER", 0) == 0;
}

/// The toolkit's version macros (NVIDIA's cuda_runtime_api.h and cuda.h): the CPU backend's stand-ins define
/// the version whose API they follow, a GPU's machine has its own toolkit.
extern const std::set<std::string> toolkit_version_macros;
const std::set<std::string> toolkit_version_macros = {"CUDART_VERSION", "CUDA_VERSION", "__CUDART_API_VERSION"};

/// Floating types wider than double (GCC's on x86) that a GPU's device code does not have.
extern const std::set<std::string> extended_floating_types;
const std::set<std::string> extended_floating_types = {"__float80", "__float128", "_Float128", "_Float64x",
                                                       "__ibm128", "_Float128x"};

/// Functions that read a float's sign bit or bits: for a NaN the kernel computes, they differ between a GPU
/// (0x7FFFFFFF) and x86 (0xFFC00000).
extern const std::set<std::string> float_sign_functions;
const std::set<std::string> float_sign_functions = {"signbit", "copysign", "copysignf", "copysignl", "bit_cast",
                                                    "__builtin_bit_cast", "__builtin_signbit", "__builtin_signbitf",
                                                    "__builtin_copysign", "__builtin_copysignf"};

/// Macros a lab's conditionals may test besides its own: the tile width the build sets (labs.hpp).
extern const std::set<std::string> lab_macros;
const std::set<std::string> lab_macros = {"TILE_WIDTH"};

/// Attributes that give a declaration another symbol's name, or resolve it at load time.
extern const std::set<std::string> symbol_attributes;
const std::set<std::string> symbol_attributes = {"alias", "__alias__", "weakref", "__weakref__", "ifunc",
                                                 "__ifunc__", "symver", "__symver__", "redefine_extname"};

/// Functions that find code by its symbol's name at run time.
extern const std::set<std::string> lookups_by_name;
const std::set<std::string> lookups_by_name = {"dlsym", "dlvsym", "dlopen", "dlmopen"};

}  // namespace tilelab::grader::source_names
