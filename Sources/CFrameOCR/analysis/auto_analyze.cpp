// Polarity, light and text size for automatic preprocessing (focr_auto.h: focr_auto_analyze):
// per-region medians decide which dark areas hold light text and are inverted, then Otsu's
// threshold of the result is split into components (analysis/components.hpp) whose sizes give
// the text height.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "analysis/components.hpp"
#include "analysis/histogram.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_auto.h"

using namespace focr;

namespace {

/// Whether the pixels of `window` at or above `level` look like strokes of text: at least two
/// 8-connected pieces that lie inside the window (not touching its border) and at least 3 pixels
/// tall, holding at least half of those pixels. Light areas entering from outside (a lit
/// object's edge, a highlight) touch the border and do not count. The window is a region with a
/// margin of half a region around it, so that letters cut by the region's edge are whole.
bool light_strokes(const cv::Mat &window, int level) {
    cv::Mat light;
    cv::compare(window, level, light, cv::CMP_GE);
    const Components c(light);
    int pieces = 0;
    long inside = 0, total = 0;
    for (int i = 1; i < c.count(); ++i) {
        total += c.area(i);
        if (c.touches_border(i, window.cols, window.rows) || c.height(i) < 3) continue;
        ++pieces;
        inside += c.area(i);
    }
    return pieces >= 2 && 2 * inside >= total;
}

}  // namespace

extern "C" focr_status focr_auto_analyze(const focr_image *src, int32_t tile, focr_image *dst, focr_text_analysis *out) {
    return guarded("auto_analyze", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "auto_analyze: out is NULL");
        *out = focr_text_analysis{};
        focr_status s = validate_gray_pair(src, dst, "auto_analyze");
        if (s != FOCR_OK) return s;
        if (src->planes[0].data == dst->planes[0].data) return fail(FOCR_E_INVALID_ARGUMENT, "auto_analyze: dst aliases src");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat o = wrap_plane0(*dst);
        const int w = in.cols, h = in.rows;
        const int t = tile > 0 ? tile : std::max(32, std::min(w, h) / 4);
        out->tiles_x = (w + t - 1) / t;
        out->tiles_y = (h + t - 1) / t;
        const int tx_n = out->tiles_x, ty_n = out->tiles_y;
        const auto rect_of = [&](int i) {
            const int tx = i % tx_n, ty = i / tx_n;
            return cv::Rect(tx * t, ty * t, std::min(t, w - tx * t), std::min(t, h - ty * t));
        };
        // Per region: its median, whether it is dark, whether light strokes of text lie in it.
        std::vector<int> medians((size_t)tx_n * ty_n);
        std::vector<char> dark(medians.size()), strokes(medians.size()), invert(medians.size());
        for (size_t i = 0; i < medians.size(); ++i) {
            const cv::Rect r = rect_of((int)i);
            const std::array<int, 256> hist = histogram(in, r);
            const int n = r.area(), median = percentile(hist, n, 0.5);
            int brighter = 0;
            for (int v = median + 48; v < 256; ++v) brighter += hist[v];
            const double fraction = (double)brighter / n;
            medians[i] = median;
            dark[i] = median < 128;
            if (dark[i] && fraction >= 0.02 && fraction <= 0.45) {
                const int m = t / 2;
                const cv::Rect window = cv::Rect(r.x - m, r.y - m, r.width + 2 * m, r.height + 2 * m) & cv::Rect(0, 0, w, h);
                strokes[i] = light_strokes(in(window), median + 48);
            }
        }
        // A dark area (4-connected dark regions) is inverted as a whole when any of its regions
        // holds light strokes; dark areas without text are left alone.
        std::vector<int> stack;
        for (size_t i = 0; i < medians.size(); ++i) {
            if (!strokes[i] || invert[i]) continue;
            invert[i] = 1;
            stack.push_back((int)i);
            while (!stack.empty()) {
                const int k = stack.back();
                stack.pop_back();
                const int kx = k % tx_n, ky = k / tx_n;
                const int next[4][2] = {{kx - 1, ky}, {kx + 1, ky}, {kx, ky - 1}, {kx, ky + 1}};
                for (const auto &nb : next) {
                    if (nb[0] < 0 || nb[1] < 0 || nb[0] >= tx_n || nb[1] >= ty_n) continue;
                    const int j = nb[1] * tx_n + nb[0];
                    if (dark[j] && !invert[j]) {
                        invert[j] = 1;
                        stack.push_back(j);
                    }
                }
            }
        }
        std::vector<int> paper;  // each region's paper brightness: its median after polarity
        for (size_t i = 0; i < medians.size(); ++i) {
            const cv::Rect r = rect_of((int)i);
            out->dark_tiles += dark[i];
            out->inverted_tiles += invert[i];
            if (invert[i]) {
                // Within an inverted region only its dark parts turn: blocks of a quarter region
                // whose surroundings (the block and half a region around it, so that strokes do
                // not decide) have a median below 128. A region that straddles a light area's edge keeps
                // that area as it is.
                const int b = std::max(8, t / 4);
                for (int y = r.y; y < r.y + r.height; y += b) {
                    for (int x = r.x; x < r.x + r.width; x += b) {
                        const cv::Rect part = cv::Rect(x, y, b, b) & r;
                        const cv::Rect around = cv::Rect(x - t / 2, y - t / 2, b + t, b + t) & cv::Rect(0, 0, w, h);
                        cv::Mat dst = o(part);
                        if (percentile(histogram(in, around), around.area(), 0.5) < 128) cv::bitwise_not(in(part), dst);
                        else in(part).copyTo(dst);
                    }
                }
            } else {
                in(r).copyTo(o(r));
            }
            paper.push_back(invert[i] ? 255 - medians[i] : medians[i]);
        }
        std::sort(paper.begin(), paper.end());
        const auto at = [&](double p) { return paper[(size_t)std::lround(p * (paper.size() - 1))]; };
        out->background_spread = (float)(at(0.9) - at(0.1));

        cv::Mat ink;
        const double otsu = cv::threshold(o, ink, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
        const cv::Scalar inkMean = cv::mean(o, ink), paperMean = cv::mean(o, ~ink);
        out->contrast = (float)std::fabs(paperMean[0] - inkMean[0]);
        out->threshold = (float)otsu;
        // Regions with marks on them (5 % of their pixels 40 levels or more below their paper,
        // the 90th percentile) whose marks and paper lie on the same side of the one threshold:
        // a single threshold turns them all into ink (paper in shadow) or all into paper (faint
        // marks on bright paper).
        for (size_t i = 0; i < medians.size(); ++i) {
            const cv::Rect r = rect_of((int)i);
            const std::array<int, 256> hist = histogram(o, r);
            const int p90 = percentile(hist, r.area(), 0.9), p5 = percentile(hist, r.area(), 0.05);
            if (p90 - p5 < 40) continue;
            ++out->marked_tiles;
            if (p90 <= otsu || p5 > otsu) ++out->lost_tiles;
        }

        // Text-like components: looser than CharacterShape (analysis/components.hpp), since the
        // size of the text is measured on every piece of it, punctuation and broken strokes too.
        const Components c(ink);
        std::vector<int> heights;
        std::vector<std::pair<int, float>> shapes;  // (height, width / height)
        std::vector<std::array<int, 2>> spans;      // (top, bottom + 1) of each kept component
        for (int i = 1; i < c.count(); ++i) {
            const int cw = c.width(i), ch = c.height(i);
            if (ch < 3 || ch > 0.9 * h || cw > 3 * ch + 2 || ch > 12 * cw || c.area(i) * 10 < cw * ch) continue;
            heights.push_back(ch);
            shapes.emplace_back(ch, (float)cw / ch);
            spans.push_back({c.top(i), c.top(i) + ch});
            if (c.touches_border(i, w, h)) ++out->edge_components;
        }
        out->components = (int32_t)heights.size();
        if (!heights.empty()) {
            std::sort(heights.begin(), heights.end());
            const auto quantile = [&](double p) { return heights[std::min(heights.size() - 1, (size_t)std::lround(p * (heights.size() - 1)))]; };
            // Specks, punctuation and broken strokes are many in photos: the median is taken over
            // the components at least half as tall as the 90th percentile.
            const int floor = (quantile(0.9) + 1) / 2;
            const auto first = std::lower_bound(heights.begin(), heights.end(), floor);
            const size_t m = (size_t)(heights.end() - first);
            out->text_height = m % 2 ? (float)first[m / 2] : 0.5f * (first[m / 2 - 1] + first[m / 2]);
            out->text_height_p75 = (float)quantile(0.75);
            std::vector<float> aspects;
            for (const auto &sh : shapes)
                if (sh.first >= floor) aspects.push_back(sh.second);
            // The band the text's ink spans (a single line's height, measured): the 10th
            // percentile of the tops to the 90th of the bottoms of the components counted above,
            // so that a speck or a neighbouring line's descender at the crop's edge does not count.
            std::vector<int> tops, bottoms;
            for (const auto &sp : spans)
                if (sp[1] - sp[0] >= floor) { tops.push_back(sp[0]); bottoms.push_back(sp[1]); }
            std::sort(tops.begin(), tops.end());
            std::sort(bottoms.begin(), bottoms.end());
            const auto at = [](const std::vector<int> &v, double p) { return v[std::min(v.size() - 1, (size_t)std::lround(p * (v.size() - 1)))]; };
            out->ink_band = (float)std::max(at(bottoms, 0.9) - at(tops, 0.1), 1);
            std::nth_element(aspects.begin(), aspects.begin() + aspects.size() / 2, aspects.end());
            out->text_aspect = aspects[aspects.size() / 2];
        }
        return FOCR_OK;
    });
}
