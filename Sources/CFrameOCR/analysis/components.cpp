// The component-and-line model of the analysis room (analysis/components.hpp).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "analysis/components.hpp"

namespace focr {

Components::Components(const cv::Mat &ink) {
    cv::Mat centroids;
    cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
}

double Components::height_sum(const std::vector<int> &members) const {
    double total = 0;
    for (int i : members) total += height(i);
    return total;
}

void Components::measure_contrast(const cv::Mat &gray, const cv::Mat &integral) {
    const int n = count();
    // Each component's gray sum, run by run: a row's pixels of one label are summed in a register
    // and added once (adding pixel by pixel into sums[label] made each add wait for the last one's
    // store). The sums are whole numbers, exact in a double either way. The background's (label 0)
    // is not needed.
    std::vector<double> sums(n, 0.0);
    for (int y = 0; y < gray.rows; ++y) {
        const int *l = labels.ptr<int>(y);
        const uint8_t *g = gray.ptr<uint8_t>(y);
        for (int x = 0; x < gray.cols;) {
            const int label = l[x];
            uint32_t run = 0;
            do run += g[x++];
            while (x < gray.cols && l[x] == label);
            if (label != 0) sums[label] += run;
        }
    }
    contrast.assign(n, 0.0);
    for (int i = 1; i < n; ++i) {
        const cv::Rect r = rect(i);
        const int a = area(i);
        if (a == r.area()) continue;  // a solid block: no contrast within its box
        const double boxSum = integral.at<double>(r.y + r.height, r.x + r.width) - integral.at<double>(r.y, r.x + r.width) -
                              integral.at<double>(r.y + r.height, r.x) + integral.at<double>(r.y, r.x);
        contrast[i] = (boxSum - sums[i]) / (r.area() - a) - sums[i] / a;
    }
}

void Components::draw(const std::vector<uint8_t> &keep, const cv::Rect &box, cv::Mat &out) const {
    for (int y = box.y; y < box.y + box.height; ++y) {
        const int *l = labels.ptr<int>(y);
        uint8_t *o = out.ptr<uint8_t>(y);
        for (int x = box.x; x < box.x + box.width; ++x)
            if (keep[l[x]]) o[x] = 0;
    }
}

std::vector<int> characters(const Components &c, const CharacterShape &shape) {
    std::vector<int> out;
    for (int i = 1; i < c.count(); ++i) {
        const int w = c.width(i), h = c.height(i), area = c.area(i);
        const bool fills = shape.integer_fill ? area * 10 >= w * h : area >= 0.1 * w * h;
        if (h < shape.min_height || h > shape.max_height || w > 1.2 * h || w < 0.08 * h || !fills) continue;
        if (shape.contrasted && (area == w * h || c.contrast[i] < shape.min_contrast)) continue;
        out.push_back(i);
    }
    return out;
}

std::vector<std::vector<int>> group_lines(const Components &c, std::vector<int> characters) {
    std::sort(characters.begin(), characters.end(), [&](int a, int b) { return c.height(a) > c.height(b); });
    std::vector<std::vector<int>> lines;
    for (int i : characters) {
        const int h = c.height(i);
        auto line = std::find_if(lines.begin(), lines.end(), [&](const std::vector<int> &l) {
            const int lh = c.height(l[0]);
            return std::abs(h - lh) <= 0.2 * lh && std::abs(c.centre(i) - c.centre(l[0])) <= 0.25 * lh;
        });
        if (line == lines.end()) lines.push_back({i});
        else line->push_back(i);
    }
    return lines;
}

}  // namespace focr
