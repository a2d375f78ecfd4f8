// tilelab-bench: times the kernels of one submission, every lab of the registry (grader/labs.json) with a kernel of
// its own whose files the build linked in, against cuBLAS over a range of square sizes (tile multiples and not):
// SGEMM in FP32 ("cublas") and the same product on TF32 tensor cores ("cublas-tf32", cublasGemmEx with
// CUBLAS_COMPUTE_32F_FAST_TF32: FP32 in and out, inputs rounded to TF32, which the tensor-core labs' kernels (09,
// 10) are measured against).
// Writes a table, a CSV file and, with gnuplot, a plot.
#include <tilelab/device_buffer.hpp>
#include <tilelab/labs.hpp>
#include <tilelab/random.hpp>
#include <tilelab/timing.hpp>

#include <cublas_v2.h>

// Each lab's launcher, declared weak: a lab whose files the build left out (a class may stop at any lab) has none,
// its address is null, and it is not timed. The list is the registry's (grader/tools/lib/lab_table_writer.hpp).
#define TILELAB_KERNEL_LAB(id, launcher, kernel, needs_tile_multiples) \
    extern void launcher(const float* M, const float* N, float* P, int rows, int inner, int cols) __attribute__((weak));
#include <tilelab/lab_table.inc>
#undef TILELAB_KERNEL_LAB

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
    std::vector<int> sizes{256, 512, 1000, 1024, 2000, 2048, 3000, 4096};
    int repeats = 10;
    std::string csv = "tilelab-bench.csv";
    std::string plot = "tilelab-bench.svg";
};

/// A lab the bench can time: the registry's names, and its launcher when the build linked it.
struct BenchLab {
    const char* id;                 ///< "lab01".
    const char* launcher_name;      ///< "matmul_naive".
    bool needs_tile_multiples;      ///< Run only on sizes that are multiples of TILE_WIDTH.
    void (*launcher)(const float*, const float*, float*, int, int, int);  ///< null: not in this build.

    /// The kernel's name in the table, the CSV and the plot: the launcher without "matmul_" ("tiled-boundary").
    std::string label() const {
        std::string name = launcher_name;
        if (name.rfind("matmul_", 0) == 0) name.erase(0, 7);
        for (char& c : name)
            if (c == '_') c = '-';
        return name;
    }
};

const BenchLab bench_labs[] = {
#define TILELAB_KERNEL_LAB(id, launcher, kernel, needs_tile_multiples) {#id, #launcher, needs_tile_multiples, &launcher},
#include <tilelab/lab_table.inc>
#undef TILELAB_KERNEL_LAB
};

struct Row {
    int size;
    std::string kernel;
    float ms;
};

void check_cublas(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "tilelab-bench: %s failed (cuBLAS status %d)\n", what, static_cast<int>(status));
        std::exit(1);
    }
}

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "tilelab-bench: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--sizes") {
            options.sizes.clear();
            std::stringstream list(value());
            for (std::string item; std::getline(list, item, ',');) options.sizes.push_back(std::stoi(item));
        } else if (arg == "--repeats") {
            options.repeats = std::stoi(value());
        } else if (arg == "--csv") {
            options.csv = value();
        } else if (arg == "--plot") {
            options.plot = value();
        } else {
            std::fprintf(stderr,
                         "usage: tilelab-bench [--sizes 256,1000,...] [--repeats N] [--csv FILE] [--plot FILE.svg]\n");
            std::exit(arg == "--help" ? 0 : 2);
        }
    }
    return options;
}

void write_plot(const Options& options, const std::vector<Row>& rows) {
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
        std::printf("plot: gnuplot not found; the table and %s have the same numbers\n", options.csv.c_str());
        return;
    }
    std::map<std::string, std::vector<std::pair<int, double>>> series;
    for (const Row& row : rows)  // TFLOP/s: 2 n^3 flops in row.ms milliseconds
        series[row.kernel].push_back({row.size, 2.0 * row.size * row.size * row.size / (row.ms * 1e9)});
    std::ostringstream script;
    script << "set terminal svg size 800,500\nset output '" << options.plot << "'\n"
           // noenhanced: in gnuplot's enhanced text "TILE_WIDTH" would print WIDTH as a subscript.
           << "set termoption noenhanced\nset title 'TileLab kernels (TILE_WIDTH " << TILE_WIDTH
           << ") against cuBLAS (FP32, and TF32 tensor cores)'\nset xlabel 'n (n x n x n product)'\n"
           << "set ylabel 'TFLOP/s (log scale)'\nset logscale xy 2\nset xtics (256, 512, 1024, 2048, 4096)\n"
           << "set key left top\nset grid\nplot ";
    bool first = true;
    for (const auto& entry : series) {
        script << (first ? "" : ", ") << "'-' with linespoints linewidth 2 title '" << entry.first << "'";
        first = false;
    }
    script << "\n";
    for (const auto& entry : series) {
        for (const auto& point : entry.second) script << point.first << " " << point.second << "\n";
        script << "e\n";
    }
    FILE* gnuplot = popen("gnuplot", "w");
    if (gnuplot == nullptr) return;
    std::fputs(script.str().c_str(), gnuplot);
    if (pclose(gnuplot) == 0) std::printf("plot: %s\n", options.plot.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    const Options options = parse(argc, argv);
    cudaDeviceProp properties{};
    TILELAB_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    cublasHandle_t handle = nullptr;
    check_cublas(cublasCreate(&handle), "cublasCreate");
    // Plain FP32: the default math mode never uses TF32 tensor cores for SGEMM; set it explicitly all the same.
    check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    std::printf("GPU: %s; TILE_WIDTH %d; median of %d interleaved runs after warm-up; cublas: SGEMM in FP32 "
                "(CUBLAS_DEFAULT_MATH, no TF32); cublas-tf32: cublasGemmEx on TF32 tensor cores "
                "(CUBLAS_COMPUTE_32F_FAST_TF32, FP32 in and out)\n",
                properties.name, TILE_WIDTH, options.repeats);

    std::vector<Row> rows;
    for (std::size_t s = 0; s < options.sizes.size(); ++s) {
        const int n = options.sizes[s];
        std::fprintf(stderr, "\r[%zu/%zu] n = %d      ", s + 1, options.sizes.size(), n);
        const std::size_t count = static_cast<std::size_t>(n) * n;
        tilelab::HostMatrix host(n, n);
        tilelab::fill_uniform(host, tilelab::derive_seed(tilelab::base_seed(), "bench " + std::to_string(n)));
        tilelab::DeviceBuffer<float> M(count), N(count), P(count);
        M.copy_from_host(host.data(), count);
        N.copy_from_host(host.data(), count);

        const float one = 1.0f, zero = 0.0f;
        std::vector<std::pair<std::string, std::function<void()>>> kernels;
        for (const BenchLab& lab : bench_labs)
            if (lab.launcher != nullptr && (!lab.needs_tile_multiples || n % TILE_WIDTH == 0))
                kernels.push_back({lab.label(), [&, run = lab.launcher] { run(M.data(), N.data(), P.data(), n, n, n); }});
        // Row-major P = M N is column-major Pᵀ = Nᵀ Mᵀ: swap the operands instead of transposing.
        kernels.push_back({"cublas", [&] {
                               check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, N.data(), n,
                                                        M.data(), n, &zero, P.data(), n),
                                            "cublasSgemm");
                           }});
        // The same product on tensor cores: FP32 operands rounded to TF32, FP32 accumulation (lab 09's arithmetic).
        kernels.push_back({"cublas-tf32", [&] {
                               check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, N.data(),
                                                         CUDA_R_32F, n, M.data(), CUDA_R_32F, n, &zero, P.data(),
                                                         CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                                         CUBLAS_GEMM_DEFAULT),
                                            "cublasGemmEx (TF32)");
                           }});

        std::map<std::string, std::vector<float>> times;
        for (int warm_up = 0; warm_up < 2; ++warm_up)
            for (auto& kernel : kernels) tilelab::time_ms(kernel.second);
        for (int r = 0; r < options.repeats; ++r)
            for (auto& kernel : kernels) times[kernel.first].push_back(tilelab::time_ms(kernel.second));
        for (auto& kernel : kernels) rows.push_back({n, kernel.first, tilelab::median(times[kernel.first])});
    }
    std::fprintf(stderr, "\r%40s\r", "");
    cublasDestroy(handle);

    std::ofstream csv(options.csv);
    // Speedups are over the registry's first lab (the naive kernel), the course's starting point.
    const std::string baseline = bench_labs[0].label();
    // percent_of_cublas is of the FP32 SGEMM, as before; percent_of_cublas_tf32 of the TF32 one (the last column, so
    // that readers of the earlier columns are unchanged).
    csv << "size,kernel,median_ms,gflops,percent_of_cublas,speedup_over_" << baseline << ",percent_of_cublas_tf32\n";
    std::printf("%6s  %-14s %10s %10s %10s %10s %10s\n", "n", "kernel", "ms", "GFLOP/s", "% FP32", "% TF32",
                ("x " + baseline).c_str());
    for (const Row& row : rows) {
        float naive_ms = 0.0f, cublas_ms = 0.0f, tf32_ms = 0.0f;
        for (const Row& other : rows)
            if (other.size == row.size) {
                if (other.kernel == baseline) naive_ms = other.ms;
                if (other.kernel == "cublas") cublas_ms = other.ms;
                if (other.kernel == "cublas-tf32") tf32_ms = other.ms;
            }
        const double gflops = 2.0 * row.size * row.size * row.size / (row.ms * 1e6);
        const double percent = 100.0 * cublas_ms / row.ms;
        const double percent_tf32 = 100.0 * tf32_ms / row.ms;
        const double speedup = naive_ms / row.ms;
        std::printf("%6d  %-14s %10.3f %10.1f %9.1f%% %9.1f%% %9.2fx\n", row.size, row.kernel.c_str(), row.ms, gflops,
                    percent, percent_tf32, speedup);
        csv << row.size << "," << row.kernel << "," << row.ms << "," << gflops << "," << percent << "," << speedup << ","
            << percent_tf32 << "\n";
    }
    std::printf("csv: %s\n", options.csv.c_str());
    write_plot(options, rows);
    return 0;
}
