// Measurements for automatic preprocessing: per-region polarity, text size and skew, and the
// small rotation that corrects the skew (focr_auto.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <allheaders.h>  // Leptonica: pixFindSkewSweepAndSearch

#include "analysis/histogram.hpp"
#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "focr_auto.h"

using namespace focr;

namespace {

/// Whether the pixels of `window` at or above `level` look like strokes of text: at least two
/// 8-connected pieces that lie inside the window (not touching its border) and at least 3 pixels
/// tall, holding at least half of those pixels. Light areas entering from outside (a lit
/// object's edge, a highlight) touch the border and do not count. The window is a region with a
/// margin of half a region around it, so that letters cut by the region's edge are whole.
bool light_strokes(const cv::Mat &window, int level) {
    cv::Mat light, labels, stats, centroids;
    cv::compare(window, level, light, cv::CMP_GE);
    const int n = cv::connectedComponentsWithStats(light, labels, stats, centroids, 8, CV_32S);
    int pieces = 0;
    long inside = 0, total = 0;
    for (int i = 1; i < n; ++i) {
        const int x = stats.at<int>(i, cv::CC_STAT_LEFT), y = stats.at<int>(i, cv::CC_STAT_TOP);
        const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        const int area = stats.at<int>(i, cv::CC_STAT_AREA);
        total += area;
        if (x == 0 || y == 0 || x + w == window.cols || y + h == window.rows || h < 3) continue;
        ++pieces;
        inside += area;
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

        cv::Mat labels, stats, centroids;
        const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
        std::vector<int> heights;
        std::vector<std::pair<int, float>> shapes;  // (height, width / height)
        for (int i = 1; i < n; ++i) {
            const int x = stats.at<int>(i, cv::CC_STAT_LEFT), y = stats.at<int>(i, cv::CC_STAT_TOP);
            const int cw = stats.at<int>(i, cv::CC_STAT_WIDTH), ch = stats.at<int>(i, cv::CC_STAT_HEIGHT);
            const int area = stats.at<int>(i, cv::CC_STAT_AREA);
            if (ch < 3 || ch > 0.9 * h || cw > 3 * ch + 2 || ch > 12 * cw || area * 10 < cw * ch) continue;
            heights.push_back(ch);
            shapes.emplace_back(ch, (float)cw / ch);
            if (x == 0 || y == 0 || x + cw == w || y + ch == h) ++out->edge_components;
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
            std::nth_element(aspects.begin(), aspects.begin() + aspects.size() / 2, aspects.end());
            out->text_aspect = aspects[aspects.size() / 2];
        }
        return FOCR_OK;
    });
}

extern "C" focr_status focr_pad(const focr_image *src, int32_t border, uint8_t value, focr_image *dst) {
    return guarded("pad", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "pad");
        if (s != FOCR_OK) return s;
        if (border < 0 || border > 4096) return fail(FOCR_E_INVALID_ARGUMENT, "pad: border not in 0…4096");
        if (dst->width != src->width + 2 * border || dst->height != src->height + 2 * border)
            return fail(FOCR_E_INVALID_ARGUMENT, "pad: destination must have the padded size");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::copyMakeBorder(in, out, border, border, border, border, cv::BORDER_CONSTANT, cv::Scalar::all(value));
        if (out.data != before) return fail(FOCR_E_INTERNAL, "pad: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}

extern "C" focr_status focr_dominant_line(const focr_image *src, focr_image *dst, focr_text_line *out) {
    return guarded("dominant_line", [&]() -> focr_status {
        if (out == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "dominant_line: no output");
        focr_status s = validate_gray_pair(src, dst, "dominant_line");
        if (s != FOCR_OK) return s;
        if (src->planes[0].data == dst->planes[0].data) return fail(FOCR_E_INVALID_ARGUMENT, "dominant_line: dst aliases src");
        *out = focr_text_line{};
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat result = wrap_plane0(*dst);
        result.setTo(255);
        const int H = in.rows;
        struct Best { double score = 0; std::vector<int> members; cv::Mat labels; cv::Mat stats; bool inverted = false; } best;
        for (const bool inverted : {false, true}) {
            cv::Mat ink, labels, stats, centroids;
            cv::threshold(in, ink, 0, 255, (inverted ? cv::THRESH_BINARY : cv::THRESH_BINARY_INV) | cv::THRESH_OTSU);
            const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
            std::vector<int> characters;
            for (int i = 1; i < n; ++i) {
                const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
                const int area = stats.at<int>(i, cv::CC_STAT_AREA);
                if (h >= 0.25 * H && h <= 0.95 * H && w <= 1.2 * h && w >= 0.08 * h && area >= 0.1 * w * h) characters.push_back(i);
            }
            // Tallest first; each joins the first line whose first member it matches.
            std::sort(characters.begin(), characters.end(),
                      [&](int a, int b) { return stats.at<int>(a, cv::CC_STAT_HEIGHT) > stats.at<int>(b, cv::CC_STAT_HEIGHT); });
            std::vector<std::vector<int>> lines;
            auto centre = [&](int i) { return stats.at<int>(i, cv::CC_STAT_TOP) + stats.at<int>(i, cv::CC_STAT_HEIGHT) / 2.0; };
            for (int i : characters) {
                const int h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
                auto line = std::find_if(lines.begin(), lines.end(), [&](const std::vector<int> &l) {
                    const int lh = stats.at<int>(l[0], cv::CC_STAT_HEIGHT);
                    return std::abs(h - lh) <= 0.2 * lh && std::abs(centre(i) - centre(l[0])) <= 0.25 * lh;
                });
                if (line == lines.end()) lines.push_back({i}); else line->push_back(i);
            }
            for (const auto &l : lines) {
                if (l.size() < 3) continue;
                double total = 0;
                for (int i : l) total += stats.at<int>(i, cv::CC_STAT_HEIGHT);
                if (total > best.score) best = Best{total, l, labels, stats, inverted};
            }
        }
        if (best.members.empty()) return FOCR_OK;
        auto boxOf = [&](int i) {
            return cv::Rect(best.stats.at<int>(i, cv::CC_STAT_LEFT), best.stats.at<int>(i, cv::CC_STAT_TOP),
                            best.stats.at<int>(i, cv::CC_STAT_WIDTH), best.stats.at<int>(i, cv::CC_STAT_HEIGHT));
        };
        cv::Rect line;
        double heights = 0;
        for (int i : best.members) {
            line = line.empty() ? boxOf(i) : (line | boxOf(i));
            heights += boxOf(i).height;
        }
        // Every component inside the line's band (60 % of its height above and below, the
        // image's width) with at least half of its height within the line's own rows and at most
        // three heights wide belongs to it: capitals, ascenders, descenders, punctuation, the
        // rest of the line — not smaller lines of text above or below it, nor frames and rules.
        const double h = heights / best.members.size();
        const cv::Rect band(0, int(line.y - 0.6 * h), in.cols, int(line.height + 1.2 * h));
        cv::Rect box;
        std::vector<uint8_t> keep(best.stats.rows, 0);
        for (int i = 1; i < best.stats.rows; ++i) {
            const cv::Rect r = boxOf(i);
            const int overlap = std::min(r.y + r.height, line.y + line.height) - std::max(r.y, line.y);
            if ((r & band) != r || 2 * overlap < r.height || r.width > 3 * h) continue;
            keep[i] = 1;
            box = box.empty() ? r : (box | r);
        }
        for (int y = box.y; y < box.y + box.height; ++y) {
            const int *l = best.labels.ptr<int>(y);
            uint8_t *o = result.ptr<uint8_t>(y);
            for (int x = box.x; x < box.x + box.width; ++x) if (keep[l[x]]) o[x] = 0;
        }
        long drawn = 0, all = 0;
        for (int i = 1; i < best.stats.rows; ++i) {
            all += best.stats.at<int>(i, cv::CC_STAT_AREA);
            if (keep[i]) drawn += best.stats.at<int>(i, cv::CC_STAT_AREA);
        }
        *out = focr_text_line{box.x, box.y, box.width, box.height, int32_t(best.members.size()), float(h), best.inverted ? 1 : 0,
                              float(all - drawn) / float(std::max(1L, drawn))};
        return FOCR_OK;
    });
}

namespace {

struct PixDeleter {
    void operator()(PIX *p) const { pixDestroy(&p); }
};
using PixPtr = std::unique_ptr<PIX, PixDeleter>;

/// A 1 bpp Leptonica image of `ink` (nonzero = 1, foreground). Leptonica keeps 1 bpp pixels in
/// native-endian 32-bit words, the leftmost pixel in the most significant bit (GET_DATA_BIT), so
/// whole words are composed here and no byte swapping is needed on either endianness.
PixPtr pix_from_mask(const cv::Mat &ink) {
    PixPtr pix(pixCreate(ink.cols, ink.rows, 1));
    if (!pix) throw std::bad_alloc();
    l_uint32 *data = pixGetData(pix.get());
    const int wpl = pixGetWpl(pix.get());
    for (int y = 0; y < ink.rows; ++y) {
        const uint8_t *row = ink.ptr<uint8_t>(y);
        l_uint32 *line = data + (size_t)y * wpl;
        for (int x0 = 0; x0 < ink.cols; x0 += 32) {
            l_uint32 word = 0;
            const int n = std::min(32, ink.cols - x0);
            for (int b = 0; b < n; ++b)
                if (row[x0 + b]) word |= 0x80000000u >> b;
            line[x0 >> 5] = word;
        }
    }
    return pix;
}

}  // namespace

extern "C" focr_status focr_find_skew(const focr_image *gray, float max_degrees, float *angle_degrees, float *confidence) {
    return guarded("find_skew", [&]() -> focr_status {
        if (angle_degrees == nullptr || confidence == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "find_skew: an output is NULL");
        *angle_degrees = 0;
        *confidence = 0;
        focr_status s = validate(gray, "gray");
        if (s != FOCR_OK) return s;
        if (gray->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "find_skew: gray must be GRAY8");
        if (!(max_degrees >= 1 && max_degrees <= 45)) return fail(FOCR_E_INVALID_ARGUMENT, "find_skew: max_degrees not in 1…45");
        const cv::Mat in = wrap_plane0(*gray);
        cv::Mat ink;
        cv::threshold(in, ink, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
        PixPtr pix = pix_from_mask(ink);
        const bool large = (long)in.cols * in.rows >= 1000000;
        setMsgSeverity(L_SEVERITY_NONE);  // "max found at sweep edge" and the like go to stderr otherwise
        l_float32 angle = 0, conf = 0;
        if (pixFindSkewSweepAndSearch(pix.get(), &angle, &conf, large ? 4 : 2, large ? 2 : 1, max_degrees, 1.0f, 0.01f) != 0)
            return FOCR_OK;  // no ink, or no valid measurement: 0 and 0
        // Leptonica's angle is the clockwise rotation that deskews: the lines are turned the other way.
        *angle_degrees = conf > 0 ? -angle : 0;
        *confidence = conf;
        return FOCR_OK;
    });
}

extern "C" focr_status focr_rotate_small(const focr_image *src, float degrees, uint8_t fill, focr_image *dst) {
    return guarded("rotate_small", [&]() -> focr_status {
        focr_status s = validate_packed_pair(src, dst, "rotate_small");
        if (s != FOCR_OK) return s;
        if (!(degrees >= -45 && degrees <= 45)) return fail(FOCR_E_INVALID_ARGUMENT, "rotate_small: degrees not in -45…45");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        // Forward map in pixel indices (pixel centers): d = R·(s − c_src) + c_dst; the same map in
        // continuous coordinates, since both centers move by the same half pixel.
        const double t = (double)degrees * CV_PI / 180, c = std::cos(t), sn = std::sin(t);
        const double sx = (in.cols - 1) / 2.0, sy = (in.rows - 1) / 2.0;
        const double dx = (out.cols - 1) / 2.0, dy = (out.rows - 1) / 2.0;
        const cv::Matx23d m(c, -sn, dx - (c * sx - sn * sy), sn, c, dy - (sn * sx + c * sy));
        cv::warpAffine(in, out, m, out.size(), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(fill));
        if (out.data != before) return fail(FOCR_E_INTERNAL, "rotate_small: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}

extern "C" focr_status focr_smooth(const focr_image *src, float sigma, focr_image *dst) {
    return guarded("smooth", [&]() -> focr_status {
        focr_status s = validate_gray_pair(src, dst, "smooth");
        if (s != FOCR_OK) return s;
        if (!(sigma >= 0.1f && sigma <= 10.0f)) return fail(FOCR_E_INVALID_ARGUMENT, "smooth: sigma not in 0.1…10");
        const cv::Mat in = wrap_plane0(*src);
        cv::Mat out = wrap_plane0(*dst);
        const uchar *before = out.data;
        cv::GaussianBlur(in, out, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        if (out.data != before) return fail(FOCR_E_INTERNAL, "smooth: OpenCV reallocated the destination");
        return FOCR_OK;
    });
}
