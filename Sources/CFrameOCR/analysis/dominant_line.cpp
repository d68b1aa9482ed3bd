// The dominant line of large text (focr_lines.h: focr_dominant_line): character-like components
// of both polarities grouped into lines (analysis/components.hpp), the line with the most height
// drawn alone with the rest of its band.
#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "analysis/components.hpp"
#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_lines.h"

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
        // Character-like components: a quarter to 95 % of the image's height (the fill test in
        // double arithmetic, as it has always been here; see CharacterShape).
        CharacterShape shape;
        shape.min_height = 0.25 * in.rows;
        shape.max_height = 0.95 * in.rows;
        shape.integer_fill = false;
        struct Best { double score = 0; std::vector<int> members; Components components; bool inverted = false; } best;
        for (const bool inverted : {false, true}) {
            cv::Mat ink;
            cv::threshold(in, ink, 0, 255, (inverted ? cv::THRESH_BINARY : cv::THRESH_BINARY_INV) | cv::THRESH_OTSU);
            const Components c(ink);
            for (const auto &l : group_lines(c, characters(c, shape))) {
                if (l.size() < 3) continue;
                const double total = c.height_sum(l);
                if (total > best.score) best = Best{total, l, c, inverted};
            }
        }
        if (best.members.empty()) return FOCR_OK;
        const Components &c = best.components;
        cv::Rect line;
        for (int i : best.members) include_rect(line, c.rect(i));
        // Every component inside the line's band (60 % of its height above and below, the
        // image's width) with at least half of its height within the line's own rows and at most
        // three heights wide belongs to it: capitals, ascenders, descenders, punctuation, the
        // rest of the line — not smaller lines of text above or below it, nor frames and rules.
        const double h = c.height_sum(best.members) / best.members.size();
        const cv::Rect band(0, int(line.y - 0.6 * h), in.cols, int(line.height + 1.2 * h));
        cv::Rect box;
        std::vector<uint8_t> keep(c.count(), 0);
        for (int i = 1; i < c.count(); ++i) {
            const cv::Rect r = c.rect(i);
            if ((r & band) != r || 2 * rows_shared(r, line) < r.height || r.width > 3 * h) continue;
            keep[i] = 1;
            include_rect(box, r);
        }
        c.draw(keep, box, result);
        long drawn = 0, all = 0;
        for (int i = 1; i < c.count(); ++i) {
            all += c.area(i);
            if (keep[i]) drawn += c.area(i);
        }
        *out = focr_text_line{box.x, box.y, box.width, box.height, int32_t(best.members.size()), float(h), best.inverted ? 1 : 0,
                              float(all - drawn) / float(std::max(1L, drawn))};
        return FOCR_OK;
    });
}
