// Lines of large text for automatic preprocessing's second reading (focr_auto.h,
// focr_text_lines): background normalization, rule removal, character-like components grouped
// into lines, each line drawn alone.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "focr_auto.h"

using namespace focr;

namespace {

/// Ink of `gray` (dark text on light) after dividing out the background: the background is a
/// morphological closing with a `k`×`k` square (strokes narrower than k vanish into it), so a
/// shadow or a gradient across the image no longer decides which pixels are ink.
cv::Mat normalized_ink(const cv::Mat &gray, int k) {
    cv::Mat background, normalized, ink;
    cv::morphologyEx(gray, background, cv::MORPH_CLOSE, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(k, k)));
    cv::divide(gray, background, normalized, 255.0);
    cv::threshold(normalized, ink, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
    return ink;
}

struct Components {
    cv::Mat labels, stats;
    std::vector<double> contrast;  // mean gray of the rest of the box − mean gray of the component
    std::vector<int> characters;   // character-like labels
    int box(int i, int what) const { return stats.at<int>(i, what); }
    cv::Rect rect(int i) const {
        return cv::Rect(box(i, cv::CC_STAT_LEFT), box(i, cv::CC_STAT_TOP), box(i, cv::CC_STAT_WIDTH), box(i, cv::CC_STAT_HEIGHT));
    }
};

/// 8-connected components of `ink` with their contrast against the rest of their box in
/// `gray`, and those that look like characters: min_height ≤ height ≤ 0.95 × the image's
/// height, 0.08…1.2 times as wide as tall, filling ≥ 10 % of their box, and darker than the rest
/// of it by at least `min_contrast` levels.
Components components(const cv::Mat &ink, const cv::Mat &gray, const cv::Mat &integral, int min_height, double min_contrast) {
    Components c;
    cv::Mat centroids;
    const int n = cv::connectedComponentsWithStats(ink, c.labels, c.stats, centroids, 8, CV_32S);
    std::vector<double> sums(n, 0.0);
    for (int y = 0; y < gray.rows; ++y) {
        const int *l = c.labels.ptr<int>(y);
        const uint8_t *g = gray.ptr<uint8_t>(y);
        for (int x = 0; x < gray.cols; ++x) sums[l[x]] += g[x];
    }
    c.contrast.assign(n, 0.0);
    for (int i = 1; i < n; ++i) {
        const cv::Rect r = c.rect(i);
        const int area = c.box(i, cv::CC_STAT_AREA);
        if (area == r.area()) continue;  // a solid block: no contrast within its box, no character
        const double boxSum = integral.at<double>(r.y + r.height, r.x + r.width) - integral.at<double>(r.y, r.x + r.width) -
                              integral.at<double>(r.y + r.height, r.x) + integral.at<double>(r.y, r.x);
        c.contrast[i] = (boxSum - sums[i]) / (r.area() - area) - sums[i] / area;
        if (r.height < min_height || r.height > 0.95 * gray.rows || r.width > 1.2 * r.height || r.width < 0.08 * r.height ||
            area * 10 < r.area() || c.contrast[i] < min_contrast)
            continue;
        c.characters.push_back(i);
    }
    return c;
}

template <typename T>
T median(std::vector<T> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

}  // namespace

extern "C" focr_status focr_text_lines(const focr_image *src, int32_t min_height, int32_t max_lines, focr_image *dst,
                                       focr_line_box *lines, int32_t *count) {
    return guarded("text_lines", [&]() -> focr_status {
        if (count == nullptr || lines == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "text_lines: an output is NULL");
        *count = 0;
        focr_status s = validate_gray_pair(src, dst, "text_lines");
        if (s != FOCR_OK) return s;
        if (src->planes[0].data == dst->planes[0].data) return fail(FOCR_E_INVALID_ARGUMENT, "text_lines: dst aliases src");
        if (min_height < 3) return fail(FOCR_E_INVALID_ARGUMENT, "text_lines: min_height below 3");
        if (max_lines < 1 || max_lines > 64) return fail(FOCR_E_INVALID_ARGUMENT, "text_lines: max_lines not in 1…64");
        const cv::Mat gray = wrap_plane0(*src);
        cv::Mat drawn = wrap_plane0(*dst);
        drawn.setTo(255);
        const int W = gray.cols, H = gray.rows;
        cv::Mat integral;
        cv::integral(gray, integral, CV_64F);

        // 1. Ink, with the background (closing by a tenth of the smaller side) divided out.
        const int k = std::max(15, std::min(W, H) / 10) | 1;
        cv::Mat ink = normalized_ink(gray, k);
        const double minContrast = 32;
        Components c = components(ink, gray, integral, min_height, minContrast);
        if (c.characters.size() < 3) return FOCR_OK;

        // 2. Rules: horizontal runs of ink at least twice the median character height long (a
        //    sign's rails, underlines, a shadow's edge) are removed, so letters touching them
        //    become components of their own; strokes of letters are shorter.
        std::vector<int> heights;
        for (int i : c.characters) heights.push_back(c.box(i, cv::CC_STAT_HEIGHT));
        const int run = 2 * median(heights);
        if (run < W) {
            cv::Mat rules;
            cv::morphologyEx(ink, rules, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(run, 1)));
            if (cv::countNonZero(rules) > 0) {
                ink -= rules;
                c = components(ink, gray, integral, min_height, minContrast);
            }
        }

        // 3. Lines: tallest first, each character joins the first line whose first member it
        //    matches (height within 20 %, centre within a quarter of the height); a line is cut
        //    where two neighbours are more than two heights apart (another sign, a column).
        std::vector<int> order = c.characters;
        std::sort(order.begin(), order.end(),
                  [&](int a, int b) { return c.box(a, cv::CC_STAT_HEIGHT) > c.box(b, cv::CC_STAT_HEIGHT); });
        const auto centre = [&](int i) { return c.box(i, cv::CC_STAT_TOP) + c.box(i, cv::CC_STAT_HEIGHT) / 2.0; };
        std::vector<std::vector<int>> groups;
        for (int i : order) {
            const int h = c.box(i, cv::CC_STAT_HEIGHT);
            auto g = std::find_if(groups.begin(), groups.end(), [&](const std::vector<int> &l) {
                const int lh = c.box(l[0], cv::CC_STAT_HEIGHT);
                return std::abs(h - lh) <= 0.2 * lh && std::abs(centre(i) - centre(l[0])) <= 0.25 * lh;
            });
            if (g == groups.end()) groups.push_back({i}); else g->push_back(i);
        }
        struct Line { std::vector<int> members; double height = 0, score = 0, contrast = 0; };
        std::vector<Line> candidates;
        for (auto &g : groups) {
            // Members much fainter than the line's own characters (texture, a hand) are not text.
            std::vector<double> contrasts;
            for (int i : g) contrasts.push_back(c.contrast[i]);
            const double typical = median(contrasts);
            g.erase(std::remove_if(g.begin(), g.end(), [&](int i) { return c.contrast[i] < 0.5 * typical; }), g.end());
            std::sort(g.begin(), g.end(), [&](int a, int b) { return c.box(a, cv::CC_STAT_LEFT) < c.box(b, cv::CC_STAT_LEFT); });
            double mean = 0;
            for (int i : g) mean += c.box(i, cv::CC_STAT_HEIGHT);
            mean /= std::max<size_t>(1, g.size());
            Line segment;
            int end = -1;
            const auto close = [&]() {
                if (segment.members.size() >= 3) {
                    double total = 0;
                    for (int i : segment.members) total += c.box(i, cv::CC_STAT_HEIGHT);
                    segment.height = total / segment.members.size();
                    segment.score = total;
                    segment.contrast = typical;
                    candidates.push_back(segment);
                }
                segment = Line{};
            };
            for (int i : g) {
                if (!segment.members.empty() && c.box(i, cv::CC_STAT_LEFT) - end > 2 * mean) close();
                segment.members.push_back(i);
                end = std::max(end, c.box(i, cv::CC_STAT_LEFT) + c.box(i, cv::CC_STAT_WIDTH));
            }
            close();
        }
        std::sort(candidates.begin(), candidates.end(), [](const Line &a, const Line &b) { return a.score > b.score; });

        // 4. Each line, most ink first, takes the components of its band (60 % of its height
        //    above and below) that have at least half their height within its rows, are at most
        //    three heights wide, at least half as contrasted as its characters (not a hand or a
        //    texture beside it) and lie within 0.6 heights of it horizontally, following the
        //    line (capitals, lower case, punctuation), and is drawn unless it overlaps a line taken.
        std::vector<uint8_t> taken(c.stats.rows, 0);
        std::vector<cv::Rect> boxes;
        for (const Line &line : candidates) {
            if (*count >= max_lines) break;
            const double h = line.height;
            cv::Rect rows;
            for (int i : line.members) rows = rows.empty() ? c.rect(i) : (rows | c.rect(i));
            int x0 = rows.x, x1 = rows.x + rows.width;
            std::vector<int> band;
            for (int i = 1; i < c.stats.rows; ++i) {
                const cv::Rect r = c.rect(i);
                const int overlap = std::min(r.y + r.height, rows.y + rows.height) - std::max(r.y, rows.y);
                if (taken[i] || r.y < rows.y - 0.6 * h || r.y + r.height > rows.y + rows.height + 0.6 * h || 2 * overlap < r.height ||
                    r.width > 3 * h || c.contrast[i] < 0.5 * line.contrast)
                    continue;
                band.push_back(i);
            }
            std::vector<uint8_t> keep(c.stats.rows, 0);
            for (bool grew = true; grew;) {
                grew = false;
                for (int i : band) {
                    const cv::Rect r = c.rect(i);
                    if (keep[i] || r.x > x1 + 0.6 * h || r.x + r.width < x0 - 0.6 * h) continue;
                    keep[i] = 1;
                    x0 = std::min(x0, r.x);
                    x1 = std::max(x1, r.x + r.width);
                    grew = true;
                }
            }
            cv::Rect box;
            for (int i : band)
                if (keep[i]) box = box.empty() ? c.rect(i) : (box | c.rect(i));
            // Characters already drawn with a line taken before do not count again.
            const long members = std::count_if(line.members.begin(), line.members.end(), [&](int i) { return keep[i] != 0; });
            if (members < 3 || box.empty()) continue;
            if (std::any_of(boxes.begin(), boxes.end(), [&](const cv::Rect &b) { return !(b & box).empty(); })) continue;
            boxes.push_back(box);
            for (int i : band) taken[i] |= keep[i];
            for (int y = box.y; y < box.y + box.height; ++y) {
                const int *l = c.labels.ptr<int>(y);
                uint8_t *o = drawn.ptr<uint8_t>(y);
                for (int x = box.x; x < box.x + box.width; ++x)
                    if (keep[l[x]]) o[x] = 0;
            }
            std::vector<float> hs, aspects;
            for (int i : line.members) {
                hs.push_back((float)c.box(i, cv::CC_STAT_HEIGHT));
                aspects.push_back((float)c.box(i, cv::CC_STAT_WIDTH) / c.box(i, cv::CC_STAT_HEIGHT));
            }
            lines[*count] = focr_line_box{box.x, box.y, box.width, box.height, (int32_t)line.members.size(), median(hs),
                                          median(aspects)};
            ++*count;
        }
        return FOCR_OK;
    });
}
