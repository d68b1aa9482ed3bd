// The dominant line of large text (focr_auto.h: focr_dominant_line): character-like components
// of both polarities grouped into lines, the line with the most height
// drawn alone with the rest of its band.
#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/descriptor.hpp"
#include "common/status.hpp"
#include "focr_auto.h"

using namespace focr;

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
