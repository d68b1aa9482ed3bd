// Gray-level histograms and their quantiles (analysis/histogram.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include <opencv2/core.hpp>

#include "analysis/histogram.hpp"

namespace focr {

std::array<int, 256> histogram(const cv::Mat &image, const cv::Rect &r) {
    std::array<int, 256> hist{};
    for (int y = r.y; y < r.y + r.height; ++y) {
        const uint8_t *p = image.ptr<uint8_t>(y);
        for (int x = r.x; x < r.x + r.width; ++x) ++hist[p[x]];
    }
    return hist;
}

int percentile(const std::array<int, 256> &hist, int n, double p) {
    const long target = std::max(1L, (long)std::ceil(p * n));
    long seen = 0;
    for (int v = 0; v < 256; ++v) {
        seen += hist[v];
        if (seen >= target) return v;
    }
    return 255;
}

}  // namespace focr
