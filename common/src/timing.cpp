#include "tilelab/timing.hpp"

#include <algorithm>

namespace tilelab {

float median(std::vector<float> values) {
    if (values.empty()) return 0.0f;
    const std::size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + middle, values.end());
    const float upper = values[middle];
    if (values.size() % 2 == 1) return upper;
    const float lower = *std::max_element(values.begin(), values.begin() + middle);
    return (lower + upper) / 2.0f;
}

}  // namespace tilelab
