#include "check_shape.hpp"

#include "diagnose.hpp"
#include "guarded_buffer.hpp"

#include <tilelab/compare.hpp>
#include <tilelab/cuda_check.hpp>
#include <tilelab/random.hpp>
#include <tilelab/reference.hpp>

#include <sstream>

namespace tilelab::grader {

namespace {

// Wide enough to catch a kernel that runs a whole tile (up to 32 rows and columns) past the edge.
std::size_t guard_elements(int width) { return 32 * (static_cast<std::size_t>(width) + 32) + 1024; }

std::string describe_position(std::ptrdiff_t offset, const Shape& shape) {
    const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(shape.rows) * shape.cols;
    std::ostringstream out;
    if (offset < 0) {
        out << -offset << " elements before the start of P";
    } else {
        out << offset - count + 1 << " elements past the end of P, where row " << offset / shape.cols << ", col "
            << offset % shape.cols << " would be (P has " << shape.rows << " rows)";
    }
    return out.str();
}

}  // namespace

ShapeVerdict check_shape(const LabUnderTest& lab, const Shape& shape, std::uint64_t seed) {
    const std::string shape_name = to_string(shape);
    HostMatrix M(shape.rows, shape.inner);
    HostMatrix N(shape.inner, shape.cols);
    fill_uniform(M, derive_seed(seed, "M " + shape_name));
    fill_uniform(N, derive_seed(seed, "N " + shape_name));
    std::vector<float> got(static_cast<std::size_t>(shape.rows) * shape.cols, unwritten_value());

    GuardedDeviceArray device_M(M.data(), M.size(), guard_elements(shape.inner));
    GuardedDeviceArray device_N(N.data(), N.size(), guard_elements(shape.cols));
    GuardedDeviceArray device_P(got.data(), got.size(), guard_elements(shape.cols));

    lab.launch(device_M.data(), device_N.data(), device_P.data(), shape.rows, shape.inner, shape.cols);
    // The first check catches a launch the runtime refused (bad grid or block); the second, a fault in the kernel.
    check_cuda(cudaGetLastError(), (std::string(lab.launcher) + "(...) launch").c_str(), __FILE__, __LINE__);
    check_cuda(cudaDeviceSynchronize(), (std::string(lab.launcher) + "(...) kernel").c_str(), __FILE__, __LINE__);
    device_P.download(got.data());
    const GuardDamage damage = device_P.check_guards();

    // Computed only now, after the kernel has finished, so nothing the kernel does can see it.
    const ReferenceProduct reference = reference_matmul(M, N);
    const Comparison comparison = compare(got.data(), reference);

    ShapeVerdict verdict;
    verdict.passed = comparison.passed() && damage.changed == 0;
    if (verdict.passed) return verdict;

    std::ostringstream report;
    report << lab.name << " (" << lab.launcher << "), TILE_WIDTH " << lab.tile_width << ", shape " << shape_name
           << " (rows x inner x cols):";
    if (damage.changed > 0)
        report << "\n  out-of-bounds write: " << damage.changed << " elements outside P were overwritten; the first is "
               << describe_position(damage.first_offset, shape)
               << "\n  hint: a thread outside P stored its result; test row < rows && col < cols before the store";
    if (!comparison.passed()) {
        report << "\n  " << comparison.wrong << " of " << got.size() << " elements wrong, " << comparison.unwritten
               << " never written; the first:";
        for (const Mismatch& bad : comparison.first_bad) {
            report << "\n    P(" << bad.row << ", " << bad.col << ") = ";
            if (is_unwritten(bad.got))
                report << "(never written)";
            else
                report << bad.got;
            report << ", expected " << bad.expected;
        }
        for (const std::string& hint : diagnose({shape, lab.tile_width, M, N, reference, got, comparison}))
            report << "\n  hint: " << hint;
    }
    verdict.report = report.str();
    return verdict;
}

}  // namespace tilelab::grader
