// Internal to the shim: 256-bin gray-level histograms and their quantiles, for the analysis
// room's measurements (polarity and light in auto_analyze.cpp, the document's medians in
// document.cpp). Implemented in analysis/histogram.cpp.
#pragma once

#include <array>

#include <opencv2/core.hpp>

namespace focr {

/// The 256-bin histogram of `image`'s pixels (GRAY8) inside `r`.
std::array<int, 256> histogram(const cv::Mat &image, const cv::Rect &r);

/// The p-quantile (0…1) of a 256-bin histogram of gray levels holding `n` samples (the least
/// level with at least ⌈p·n⌉ samples at or below it; 255 when `n` is 0).
int percentile(const std::array<int, 256> &hist, int n, double p);

}  // namespace focr
