// Polarity, light and text size for automatic preprocessing (focr_auto.h: focr_auto_analyze):
// per-region medians decide which dark regions hold light text, the background (the image with
// its strokes removed) which dark areas those regions are part of, and which thinner bands hold
// lines of light letters; those areas are inverted pixel by pixel. Otsu's threshold of the result
// is split into components (analysis/components.hpp) whose sizes give the text height.
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

/// Whether the pixels of `window` at or above `level` look like strokes of text in its part
/// `inner` (nonzero pixels of a mask of the window's size: a region, or a dark area): at least
/// two 8-connected pieces that lie inside the window (not touching its border), at least 3
/// pixels tall and reaching into `inner`, holding at least half of the light pixels of `inner`.
/// Light areas entering from outside (a lit object's edge, a highlight, the paper beside a dark
/// band) touch the border and do not count. The window is the part with a margin around it, so
/// that letters cut by its edge are whole. With `lines`, the pieces must also be letters in
/// lines: those of them shaped like characters (CharacterShape) and grouped into lines of three
/// or more (group_lines) hold at least half of the light pixels of `inner` (a dark photo's
/// highlights are pieces too, but not lines of letters).
bool light_strokes(const cv::Mat &window, const cv::Mat &inner, int level, bool lines) {
    cv::Mat light;
    cv::compare(window, level, light, cv::CMP_GE);
    const Components c(light);
    std::vector<long> within(c.count());
    long total = 0;
    for (int y = 0; y < window.rows; ++y) {
        const int32_t *row = c.labels.ptr<int32_t>(y);
        const uint8_t *m = inner.ptr<uint8_t>(y);
        for (int x = 0; x < window.cols; ++x) {
            if (row[x] == 0 || m[x] == 0) continue;
            ++total;
            ++within[row[x]];
        }
    }
    const auto piece = [&](int i) {
        return within[i] > 0 && !c.touches_border(i, window.cols, window.rows) && c.height(i) >= 3;
    };
    int pieces = 0;
    long inside = 0;
    for (int i = 1; i < c.count(); ++i) {
        if (!piece(i)) continue;
        ++pieces;
        inside += within[i];
    }
    if (pieces < 2 || total == 0 || 2 * inside < total) return false;
    if (!lines) return true;
    CharacterShape shape;
    shape.min_height = 3;
    shape.max_height = window.rows;
    std::vector<int> letters;
    for (int i : characters(c, shape))
        if (piece(i)) letters.push_back(i);
    long lettered = 0;
    for (const auto &line : group_lines(c, letters))
        if (line.size() >= 3)
            for (int i : line) lettered += within[i];
    return 2 * lettered >= total;
}

/// Whether the `n` pixels of histogram `hist`, whose median is `median`, are a dark ground
/// (median below 128) that light text may lie on: 2–45 % of them at least 48 levels above it
/// (the level light_strokes then looks at).
bool dark_with_light(const std::array<int, 256> &hist, int n, int median) {
    if (median >= 128 || n <= 0) return false;
    int brighter = 0;
    for (int v = median + 48; v < 256; ++v) brighter += hist[v];
    const double fraction = (double)brighter / n;
    return fraction >= 0.02 && fraction <= 0.45;
}

/// Whether component `i` of `c` (in an image `h` pixels tall) counts for the text's size: looser
/// than CharacterShape (analysis/components.hpp), since the size is measured on every piece of the
/// text, punctuation and broken strokes too: at least 3 pixels tall, at most 0.9 of the image,
/// at most three heights + 2 wide and twelve widths tall, its ink filling a tenth of its box.
bool measurable(const Components &c, int i, int h) {
    const int cw = c.width(i), ch = c.height(i);
    return ch >= 3 && ch <= 0.9 * h && cw <= 3 * ch + 2 && ch <= 12 * cw && c.area(i) * 10 >= cw * ch;
}

/// The text height of `heights` (sorted, not empty): specks, punctuation and broken strokes are
/// many in photos, so the median is taken over those at least half as tall as the 90th percentile.
/// `floor` receives that half.
float text_height_of(const std::vector<int> &heights, int &floor) {
    const auto quantile = [&](double p) { return heights[std::min(heights.size() - 1, (size_t)std::lround(p * (heights.size() - 1)))]; };
    floor = (quantile(0.9) + 1) / 2;
    const auto first = std::lower_bound(heights.begin(), heights.end(), floor);
    const size_t m = (size_t)(heights.end() - first);
    return m % 2 ? (float)first[m / 2] : 0.5f * (first[m / 2 - 1] + first[m / 2]);
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
            const int median = percentile(hist, r.area(), 0.5);
            medians[i] = median;
            dark[i] = median < 128;
            if (dark_with_light(hist, r.area(), median)) {
                const int m = t / 2;
                const cv::Rect window = cv::Rect(r.x - m, r.y - m, r.width + 2 * m, r.height + 2 * m) & cv::Rect(0, 0, w, h);
                strokes[i] = light_strokes(in(window), cv::Mat(window.size(), CV_8U, cv::Scalar(255)), median + 48, false);
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
        // What turns: the dark areas of the background that hold light text. The background is
        // the image with its strokes removed, by a median (`cv::medianBlur`) on a copy shrunk to
        // about 32 pixels a region; its square is a quarter region wide, or twice the height of
        // the text (dark on light or light on dark, whichever is taller, measured on the shrunk
        // copy, where text that matters here is at least 4 pixels tall) when that is more:
        // strokes of text larger than a quarter region (a plate, a word cropped close, a line of
        // bold print) would otherwise leave blots of their ink in it. Its dark areas (below 128,
        // 8-connected) turn within the inverted regions, and whole when they are bands that hold
        // lines of light letters (a band too thin for a region to be dark: one line on a page; a
        // band wider than the regions that found it). The turned pixels are those whose
        // background, enlarged back, is below 128: the
        // line between a band and the paper beside it is the band's own edge within a few
        // pixels, wherever the regions' grid lies (turning blocks of a region by the median of
        // their surroundings put it up to a block away, through the first line beside a band; a
        // median as wide as a region moves it into a band of light text, whose letters are light).
        const int f = std::max(1, t / 32);
        cv::Mat small;
        cv::resize(in, small, cv::Size(std::max(1, w / f), std::max(1, h / f)), 0, 0, cv::INTER_AREA);
        const double sx = (double)small.cols / w, sy = (double)small.rows / h;
        int k = t / 4 / f;
        for (const int polarity : {cv::THRESH_BINARY_INV, cv::THRESH_BINARY}) {
            cv::Mat ink;
            cv::threshold(small, ink, 0, 255, polarity | cv::THRESH_OTSU);
            const Components c(ink);
            std::vector<int> heights;
            for (int i = 1; i < c.count(); ++i)
                if (measurable(c, i, small.rows)) heights.push_back(c.height(i));
            std::sort(heights.begin(), heights.end());
            int floor = 0;
            if (!heights.empty()) k = std::max(k, (int)std::lround(2 * text_height_of(heights, floor)));
        }
        k = std::max(3, k | 1);
        const int ksize = std::min(k, std::max(3, (std::min(small.cols, small.rows) - 1) | 1));
        // The background's dark pixels without the background itself: a pixel's median is below
        // 128 when more than half of the pixels of its window (as cv::medianBlur takes it, the
        // edge repeated) are, counted by a box sum. The median's values are made only where an
        // area turns (below): a large median costs more than all the rest on a strip of a frame.
        cv::Mat darkMask, dark01, counts, labels, stats, centroids;
        cv::compare(small, 128, dark01, cv::CMP_LT);
        dark01 &= 1;
        cv::boxFilter(dark01, counts, CV_32S, cv::Size(ksize, ksize), cv::Point(-1, -1), false, cv::BORDER_REPLICATE);
        cv::compare(counts, (ksize * ksize - 1) / 2, darkMask, cv::CMP_GT);
        const int areas = cv::connectedComponentsWithStats(darkMask, labels, stats, centroids, 8, CV_32S);
        std::vector<char> turn(areas);
        const auto small_rect = [&](const cv::Rect &r) {
            const int x0 = std::min(small.cols - 1, (int)(r.x * sx)), y0 = std::min(small.rows - 1, (int)(r.y * sy));
            const int x1 = std::max(x0 + 1, std::min(small.cols, (int)std::ceil(r.br().x * sx)));
            const int y1 = std::max(y0 + 1, std::min(small.rows, (int)std::ceil(r.br().y * sy)));
            return cv::Rect(x0, y0, x1 - x0, y1 - y0);
        };
        // The inverted regions, on the shrunk copy: an area that is not a band of light lines
        // turns only within them, as the regions decided.
        cv::Mat inverted = cv::Mat::zeros(small.size(), CV_8U);
        for (size_t i = 0; i < medians.size(); ++i)
            if (invert[i]) inverted(small_rect(rect_of((int)i))).setTo(255);
        for (int l = 1; l < areas; ++l) {
            const cv::Rect box = cv::Rect(
                (int)(stats.at<int>(l, cv::CC_STAT_LEFT) / sx), (int)(stats.at<int>(l, cv::CC_STAT_TOP) / sy),
                (int)std::ceil(stats.at<int>(l, cv::CC_STAT_WIDTH) / sx),
                (int)std::ceil(stats.at<int>(l, cv::CC_STAT_HEIGHT) / sy)) & cv::Rect(0, 0, w, h);
            // A band: a quarter of the image's longer side long and the median's square thick at
            // least (a blot of dark text's ink, in a bold word of a line, is neither).
            if (std::max(box.height, box.width) < std::max(w, h) / 4 || std::min(box.height, box.width) < k * f) continue;
            // The area's own pixels, at full size, in a window around it.
            const int m = std::min(box.height, box.width) / 2;
            const cv::Rect window = cv::Rect(box.x - m, box.y - m, box.width + 2 * m, box.height + 2 * m) & cv::Rect(0, 0, w, h);
            const cv::Rect sw = small_rect(window);
            cv::Mat area, mask;
            cv::compare(labels(sw), l, area, cv::CMP_EQ);
            // Less a pixel of the shrunk copy all round: the paper at the area's edge stays out.
            cv::erode(area, area, cv::Mat(), cv::Point(-1, -1), 1, cv::BORDER_CONSTANT, cv::Scalar(0));
            cv::resize(area, mask, window.size(), 0, 0, cv::INTER_NEAREST);
            std::array<int, 256> hist{};
            int n = 0;
            for (int y = 0; y < window.height; ++y) {
                const uint8_t *p = in.ptr<uint8_t>(window.y + y) + window.x, *q = mask.ptr<uint8_t>(y);
                for (int x = 0; x < window.width; ++x) {
                    if (q[x] == 0) continue;
                    ++hist[p[x]];
                    ++n;
                }
            }
            if (n == 0) continue;
            const int median = percentile(hist, n, 0.5);
            if (!dark_with_light(hist, n, median)) continue;
            turn[l] = light_strokes(in(window), mask, median + 48, true);
        }
        // The median where it turns, when anything does.
        bool turns = false;
        for (int y = 0; y < small.rows && !turns; ++y) {
            const int32_t *row = labels.ptr<int32_t>(y);
            const uint8_t *v = inverted.ptr<uint8_t>(y);
            for (int x = 0; x < small.cols; ++x)
                if (row[x] != 0 && (turn[row[x]] || v[x])) {
                    turns = true;
                    break;
                }
        }
        if (turns) cv::medianBlur(small, small, ksize);
        cv::Mat turnedBackground(small.size(), CV_8U);
        for (int y = 0; y < small.rows; ++y) {
            const int32_t *row = labels.ptr<int32_t>(y);
            const uint8_t *b = small.ptr<uint8_t>(y);
            uint8_t *d = turnedBackground.ptr<uint8_t>(y);
            const uint8_t *v = inverted.ptr<uint8_t>(y);
            for (int x = 0; x < small.cols; ++x) d[x] = row[x] != 0 && (turn[row[x]] || v[x]) ? b[x] : 255;
        }
        cv::Mat background, turnedMask;
        cv::resize(turnedBackground, background, cv::Size(w, h), 0, 0, cv::INTER_LINEAR);
        cv::compare(background, 128, turnedMask, cv::CMP_LT);
        if (cv::countNonZero(turnedMask) > 0) {
            // Along a turned area's edge (the enlarged background between 64 and 192: within a
            // pixel or two of the shrunk copy) the dark ground's last rows or columns may be left
            // standing, a dark line along the text beside the band: there a dark pixel turns too
            // when it lies on a run of dark pixels (across or down) at least the median's square
            // long — ground, not a stroke of text.
            cv::Mat edge;
            cv::inRange(background, 64, 192, edge);
            const int run = k * f;
            cv::Mat ground = cv::Mat::zeros(h, w, CV_8U);
            const auto mark = [&](int length, auto at) {
                for (int start = 0, i = 0; i <= length; ++i) {
                    if (i < length && at(i, false)) continue;
                    if (i - start >= run)
                        for (int j = start; j < i; ++j) at(j, true);
                    start = i + 1;
                }
            };
            for (int y = 0; y < h; ++y) {
                const uint8_t *p = in.ptr<uint8_t>(y), *e = edge.ptr<uint8_t>(y);
                uint8_t *g = ground.ptr<uint8_t>(y);
                if (std::find(e, e + w, 255) == e + w) continue;
                mark(w, [&](int x, bool set) { return set ? (g[x] = 255, true) : p[x] < 128; });
            }
            // Down the columns: the same, along the rows of the transposed image (a walk down a
            // column of the image itself misses the cache at every pixel).
            cv::Mat across, groundAcross = cv::Mat::zeros(w, h, CV_8U), down;
            cv::transpose(in, across);
            for (int x = 0; x < w; ++x) {
                const uint8_t *p = across.ptr<uint8_t>(x);
                uint8_t *g = groundAcross.ptr<uint8_t>(x);
                mark(h, [&](int y, bool set) { return set ? (g[y] = 255, true) : p[y] < 128; });
            }
            cv::transpose(groundAcross, down);
            cv::bitwise_or(ground, down, ground);
            cv::bitwise_and(ground, edge, ground);
            cv::bitwise_or(turnedMask, ground, turnedMask);
        }
        in.copyTo(o);
        cv::Mat turned;
        cv::bitwise_not(in, turned);
        turned.copyTo(o, turnedMask);
        std::vector<int> paper;  // each region's paper brightness: its median after polarity
        for (size_t i = 0; i < medians.size(); ++i) {
            const cv::Rect r = rect_of((int)i);
            out->dark_tiles += dark[i];
            // A region counts as inverted when it is dark with light text (or in a dark area with
            // a region that is), or when a fifth of it or more turned (a band through it; the
            // edge of a turned area may reach a few pixels beyond the dark ground).
            const bool band = !invert[i] && 5 * cv::countNonZero(turnedMask(r)) >= r.area();
            out->inverted_tiles += invert[i] || band;
            paper.push_back(invert[i] ? 255 - medians[i] : band ? percentile(histogram(o, r), r.area(), 0.5) : medians[i]);
        }
        std::sort(paper.begin(), paper.end());
        const auto at = [&](double p) { return paper[(size_t)std::lround(p * (paper.size() - 1))]; };
        out->background_spread = (float)(at(0.9) - at(0.1));

        cv::Mat ink;
        const double otsu = cv::threshold(o, ink, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
        // Each region's histogram after polarity; together, the image's: the means of its ink (at
        // or below Otsu's threshold, as THRESH_BINARY_INV keeps it) and of its paper, exact sums.
        std::vector<std::array<int, 256>> hists(medians.size());
        std::array<long, 256> whole{};
        for (size_t i = 0; i < medians.size(); ++i) {
            hists[i] = histogram(o, rect_of((int)i));
            for (int v = 0; v < 256; ++v) whole[v] += hists[i][v];
        }
        double inkSum = 0, paperSum = 0;
        long inkCount = 0, paperCount = 0;
        for (int v = 0; v < 256; ++v) {
            if (v <= otsu) {
                inkSum += (double)v * whole[v];
                inkCount += whole[v];
            } else {
                paperSum += (double)v * whole[v];
                paperCount += whole[v];
            }
        }
        // As cv::mean divides: the sum times the reciprocal of the count.
        const double inkMean = inkSum * (inkCount > 0 ? 1. / inkCount : 0);
        const double paperMean = paperSum * (paperCount > 0 ? 1. / paperCount : 0);
        out->contrast = (float)std::fabs(paperMean - inkMean);
        out->threshold = (float)otsu;
        // Regions with marks on them (5 % of their pixels 40 levels or more below their paper,
        // the 90th percentile) whose marks and paper lie on the same side of the one threshold:
        // a single threshold turns them all into ink (paper in shadow) or all into paper (faint
        // marks on bright paper).
        for (size_t i = 0; i < medians.size(); ++i) {
            const cv::Rect r = rect_of((int)i);
            const std::array<int, 256> &hist = hists[i];
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
            if (!measurable(c, i, h)) continue;
            const int cw = c.width(i), ch = c.height(i);
            heights.push_back(ch);
            shapes.emplace_back(ch, (float)cw / ch);
            spans.push_back({c.top(i), c.top(i) + ch});
            if (c.touches_border(i, w, h)) ++out->edge_components;
        }
        out->components = (int32_t)heights.size();
        if (!heights.empty()) {
            std::sort(heights.begin(), heights.end());
            const auto quantile = [&](double p) { return heights[std::min(heights.size() - 1, (size_t)std::lround(p * (heights.size() - 1)))]; };
            int floor = 0;
            out->text_height = text_height_of(heights, floor);
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
