#include "tilelab/reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

namespace tilelab {

namespace {

// Block sizes chosen so that a block of N (and of |N|) in float64 stays in a 256 KiB L2 and a
// row segment of the result stays in L1 while the k loop streams over it.
constexpr int k_block = 64;
constexpr int c_block = 256;

void multiply_rows(const HostMatrix& M, const std::vector<double>& n64, const std::vector<double>& n_abs,
                   ReferenceProduct& out, int row_begin, int row_end) {
    const int inner = out.inner;
    const int cols = out.cols;
    for (int c0 = 0; c0 < cols; c0 += c_block) {
        const int c1 = std::min(cols, c0 + c_block);
        for (int k0 = 0; k0 < inner; k0 += k_block) {
            const int k1 = std::min(inner, k0 + k_block);
            for (int r = row_begin; r < row_end; ++r) {
                double* value = out.value.data() + static_cast<std::size_t>(r) * cols;
                double* magnitude = out.magnitude.data() + static_cast<std::size_t>(r) * cols;
                for (int k = k0; k < k1; ++k) {
                    const double m = M.at(r, k);
                    const double m_abs = std::fabs(m);
                    const double* n_row = n64.data() + static_cast<std::size_t>(k) * cols;
                    const double* n_abs_row = n_abs.data() + static_cast<std::size_t>(k) * cols;
                    for (int c = c0; c < c1; ++c) {
                        value[c] += m * n_row[c];
                        magnitude[c] += m_abs * n_abs_row[c];
                    }
                }
            }
        }
    }
}

}  // namespace

ReferenceProduct reference_matmul(const HostMatrix& M, const HostMatrix& N) {
    if (M.cols() != N.rows())
        throw std::invalid_argument("reference_matmul: M is " + std::to_string(M.rows()) + "x" +
                                    std::to_string(M.cols()) + " but N is " + std::to_string(N.rows()) + "x" +
                                    std::to_string(N.cols()));
    ReferenceProduct out;
    out.rows = M.rows();
    out.inner = M.cols();
    out.cols = N.cols();
    const std::size_t count = static_cast<std::size_t>(out.rows) * out.cols;
    out.value.assign(count, 0.0);
    out.magnitude.assign(count, 0.0);

    std::vector<double> n64(N.data(), N.data() + N.size());
    std::vector<double> n_abs(n64.size());
    std::transform(n64.begin(), n64.end(), n_abs.begin(), [](double x) { return std::fabs(x); });

    // Splitting rows over threads keeps every thread's writes to its own rows: no sharing, no locks.
    const double work = static_cast<double>(count) * out.inner;
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const int threads = work < 1e6 ? 1 : static_cast<int>(std::min<unsigned>(hardware, std::max(out.rows, 1)));
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) {
        const int begin = static_cast<int>(static_cast<long long>(out.rows) * t / threads);
        const int end = static_cast<int>(static_cast<long long>(out.rows) * (t + 1) / threads);
        workers.emplace_back(multiply_rows, std::cref(M), std::cref(n64), std::cref(n_abs), std::ref(out), begin,
                             end);
    }
    multiply_rows(M, n64, n_abs, out, 0, static_cast<int>(static_cast<long long>(out.rows) / threads));
    for (auto& worker : workers) worker.join();
    return out;
}

}  // namespace tilelab
