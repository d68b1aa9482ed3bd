// Lines of large text for automatic preprocessing's second reading (focr_lines.h,
// focr_text_lines): background normalization, rule removal, character-like components grouped
// into lines (analysis/components.hpp), each line drawn alone.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "analysis/components.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_lines.h"

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
        // Characters: min_height to 95 % of the image's height, darker than the rest of their
        // box by 32 gray levels or more (the fill test in integers; see CharacterShape).
        CharacterShape shape;
        shape.min_height = min_height;
        shape.max_height = 0.95 * H;
        shape.integer_fill = true;
        shape.contrasted = true;
        shape.min_contrast = 32;
        const auto label = [&](const cv::Mat &mask) {
            Components found(mask);
            found.measure_contrast(gray, integral);
            return found;
        };
        Components c = label(ink);
        std::vector<int> characters = focr::characters(c, shape);
        if (characters.size() < 3) return FOCR_OK;

        // 2. Rules: horizontal runs of ink at least twice the median character height long (a
        //    sign's rails, underlines, a shadow's edge) are removed, so letters touching them
        //    become components of their own; strokes of letters are shorter.
        std::vector<int> heights;
        for (int i : characters) heights.push_back(c.height(i));
        const int run = 2 * median(heights);
        if (run < W) {
            cv::Mat rules;
            cv::morphologyEx(ink, rules, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(run, 1)));
            if (cv::countNonZero(rules) > 0) {
                ink -= rules;
                c = label(ink);
                characters = focr::characters(c, shape);
            }
        }

        // 3. Lines: tallest first, each character joins the first line whose first member it
        //    matches (height within 20 %, centre within a quarter of the height); a line is cut
        //    where two neighbours are more than two heights apart (another sign, a column).
        std::vector<std::vector<int>> groups = group_lines(c, characters);
        struct Line { std::vector<int> members; double height = 0, score = 0, contrast = 0; };
        std::vector<Line> candidates;
        for (auto &g : groups) {
            // Members much fainter than the line's own characters (texture, a hand) are not text.
            std::vector<double> contrasts;
            for (int i : g) contrasts.push_back(c.contrast[i]);
            const double typical = median(contrasts);
            g.erase(std::remove_if(g.begin(), g.end(), [&](int i) { return c.contrast[i] < 0.5 * typical; }), g.end());
            std::sort(g.begin(), g.end(), [&](int a, int b) { return c.left(a) < c.left(b); });
            double mean = c.height_sum(g);
            mean /= std::max<size_t>(1, g.size());
            Line segment;
            int end = -1;
            const auto close = [&]() {
                if (segment.members.size() >= 3) {
                    const double total = c.height_sum(segment.members);
                    segment.height = total / segment.members.size();
                    segment.score = total;
                    segment.contrast = typical;
                    candidates.push_back(segment);
                }
                segment = Line{};
            };
            for (int i : g) {
                if (!segment.members.empty() && c.left(i) - end > 2 * mean) close();
                segment.members.push_back(i);
                end = std::max(end, c.left(i) + c.width(i));
            }
            close();
        }
        std::sort(candidates.begin(), candidates.end(), [](const Line &a, const Line &b) { return a.score > b.score; });

        // 4. Each line, most ink first, takes the components of its band (60 % of its height
        //    above and below) that have at least half their height within its rows, are at most
        //    three heights wide (or letters that touch: 0.75–1.3 of the line's height, at most 60 %
        //    of their box inked), at least half as contrasted as its characters (not a hand or a
        //    texture beside it), not an edge that outreaches the line above and below, and
        //    lie within 1.2 heights of it horizontally (a word space of a monospaced font is
        //    about 0.8), following the line (capitals, lower case, punctuation), and is drawn
        //    unless it overlaps a line taken.
        constexpr double kGrowth = 1.2;
        constexpr double kJoinedFill = 0.6;
        std::vector<uint8_t> taken(c.count(), 0);
        std::vector<cv::Rect> boxes;
        for (const Line &line : candidates) {
            if (*count >= max_lines) break;
            const double h = line.height;
            cv::Rect rows;
            for (int i : line.members) include_rect(rows, c.rect(i));
            int x0 = rows.x, x1 = rows.x + rows.width;
            std::vector<int> band;
            for (int i = 1; i < c.count(); ++i) {
                const cv::Rect r = c.rect(i);
                // Wider than three heights is a bar or a block, unless it is letters that touch
                // (bold type, blur, a low resolution): 0.75 to 1.3 of the line's height, and no
                // more than kJoinedFill of its box inked (a solid block fills all of it).
                const bool joined =
                    r.height >= 0.75 * h && r.height <= 1.3 * h && c.area(i) <= kJoinedFill * r.area();
                if (taken[i] || r.y < rows.y - 0.6 * h || r.y + r.height > rows.y + rows.height + 0.6 * h || 2 * rows_shared(r, rows) < r.height ||
                    (r.width > 3 * h && !joined) || c.contrast[i] < 0.5 * line.contrast)
                    continue;
                // A component reaching well beyond the line both above and below is the edge of the
                // label or sign the text is on (the background beside a light card turns to ink
                // when the background is divided out), not a character: the line's rows already
                // hold its ascenders and descenders, and brackets reach past them a little.
                if (r.y < rows.y - 0.3 * h && r.y + r.height > rows.y + rows.height + 0.3 * h) continue;
                band.push_back(i);
            }
            std::vector<uint8_t> keep(c.count(), 0);
            for (bool grew = true; grew;) {
                grew = false;
                for (int i : band) {
                    const cv::Rect r = c.rect(i);
                    if (keep[i] || r.x > x1 + kGrowth * h || r.x + r.width < x0 - kGrowth * h) continue;
                    keep[i] = 1;
                    x0 = std::min(x0, r.x);
                    x1 = std::max(x1, r.x + r.width);
                    grew = true;
                }
            }
            cv::Rect box;
            for (int i : band)
                if (keep[i]) include_rect(box, c.rect(i));
            // Characters already drawn with a line taken before do not count again.
            const long members = std::count_if(line.members.begin(), line.members.end(), [&](int i) { return keep[i] != 0; });
            if (members < 3 || box.empty()) continue;
            if (std::any_of(boxes.begin(), boxes.end(), [&](const cv::Rect &b) { return !(b & box).empty(); })) continue;
            boxes.push_back(box);
            for (int i : band) taken[i] |= keep[i];
            c.draw(keep, box, drawn);
            std::vector<float> hs, aspects;
            for (int i : line.members) {
                hs.push_back((float)c.height(i));
                aspects.push_back((float)c.width(i) / c.height(i));
            }
            lines[*count] = focr_line_box{box.x, box.y, box.width, box.height, (int32_t)line.members.size(), median(hs),
                                          median(aspects)};
            ++*count;
        }
        return FOCR_OK;
    });
}

/// focr_clear_line_edges: a pixel darker than the paper by this share of the text's contrast
/// (paper − ink) is not paper.
constexpr double kSurfaceContrast = 0.15;

extern "C" focr_status focr_clear_line_edges(focr_image *line, int32_t text_x, int32_t text_y, int32_t text_width,
                                             int32_t text_height, int32_t *cleared) {
    return guarded("clear_line_edges", [&]() -> focr_status {
        if (cleared == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "clear_line_edges: cleared is NULL");
        *cleared = 0;
        focr_status s = validate(line, "line");
        if (s != FOCR_OK) return s;
        if (line->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "clear_line_edges: line must be GRAY8");
        if (text_width < 0 || text_height < 0) return fail(FOCR_E_INVALID_ARGUMENT, "clear_line_edges: negative text size");
        cv::Mat m = wrap_plane0(*line);
        if (m.cols < 4 || m.rows < 4) return FOCR_OK;
        // The text's box, clipped to the crop: never cleared.
        const cv::Rect text = cv::Rect(text_x, text_y, text_width, text_height) & cv::Rect(0, 0, m.cols, m.rows);
        // The paper's and the ink's levels: the medians of the text box's pixels above and below
        // its Otsu threshold (cv::threshold THRESH_OTSU; the whole crop when the box is empty).
        // Whatever is darker than the paper by 15 % of the text's contrast is not paper — a
        // surface lighter than the ink is still the surface.
        const cv::Mat inside = text.empty() ? m : cv::Mat(m(text));
        cv::Mat ignored;
        const double t = cv::threshold(inside, ignored, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
        std::vector<uint8_t> light, ink;
        light.reserve(inside.total());
        for (int y = 0; y < inside.rows; ++y) {
            const uint8_t *row = inside.ptr<uint8_t>(y);
            for (int x = 0; x < inside.cols; ++x) (row[x] > t ? light : ink).push_back(row[x]);
        }
        if (light.empty() || ink.empty()) return FOCR_OK;
        const uint8_t paper = median(light);
        const double level = paper - kSurfaceContrast * (paper - median(ink));
        cv::Mat dark;
        cv::threshold(m, dark, level, 255, cv::THRESH_BINARY_INV);
        if (!text.empty()) dark(text).setTo(0);
        cv::Mat labels, stats, centroids;
        const int n = cv::connectedComponentsWithStats(dark, labels, stats, centroids, 8, CV_32S);
        std::vector<uint8_t> edge(n, 0);
        int found = 0;
        for (int i = 1; i < n; ++i) {
            const int x = stats.at<int>(i, cv::CC_STAT_LEFT), y = stats.at<int>(i, cv::CC_STAT_TOP);
            const int w = stats.at<int>(i, cv::CC_STAT_WIDTH), h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
            if (x == 0 || y == 0 || x + w == m.cols || y + h == m.rows) {
                edge[i] = 1;
                ++found;
            }
        }
        if (found == 0) return FOCR_OK;
        cv::Mat surface(m.size(), CV_8U, cv::Scalar(0));
        for (int y = 0; y < m.rows; ++y) {
            const int *l = labels.ptr<int>(y);
            uint8_t *k = surface.ptr<uint8_t>(y);
            for (int x = 0; x < m.cols; ++x)
                if (edge[l[x]]) k[x] = 255;
        }
        // Three pixels more all round: the edge's rim, between the surface's level and the
        // paper's (antialiasing, blur, interpolation), which would still read as a stroke.
        cv::dilate(surface, surface, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(7, 7)));
        if (!text.empty()) surface(text).setTo(0);
        m.setTo(paper, surface);
        *cleared = found;
        return FOCR_OK;
    });
}
