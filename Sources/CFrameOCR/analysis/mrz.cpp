// Glyph measurements for reading a machine readable zone (focr_mrz.h).
#include <algorithm>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_mrz.h"

using namespace focr;

extern "C" focr_status focr_mrz_chevrons(const focr_image *gray, int32_t x, int32_t y, int32_t width, int32_t height,
                                         int32_t cells, uint8_t *out) {
    return guarded("mrz_chevrons", [&]() -> focr_status {
        focr_status s = validate(gray, "gray");
        if (s != FOCR_OK) return s;
        if (gray->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "mrz_chevrons: image must be GRAY8");
        if (cells < 1 || cells > 256 || out == nullptr)
            return fail(FOCR_E_INVALID_ARGUMENT, "mrz_chevrons: cells must be in 1…256 with an output array");
        const cv::Rect box = cv::Rect(x, y, width, height) & cv::Rect(0, 0, gray->width, gray->height);
        if (box.width < cells || box.height < 4) return fail(FOCR_E_INVALID_ARGUMENT, "mrz_chevrons: box empty or too small");
        const cv::Mat line = wrap_plane0(*gray)(box);
        cv::Mat ink;
        cv::threshold(line, ink, 0, 1, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
        const double pitch = double(box.width) / cells;
        for (int i = 0; i < cells; ++i) {
            out[i] = 0;
            const int c0 = int(i * pitch), c1 = std::min(box.width, int((i + 1) * pitch));
            if (c1 <= c0) continue;
            const cv::Mat cell = ink.colRange(c0, c1);
            // The ink's bounding box inside the cell.
            cv::Mat points;
            cv::findNonZero(cell, points);
            if (points.empty()) continue;
            const cv::Rect r = cv::boundingRect(points);
            if (r.height < 4) continue;
            const int strip = std::max(1, r.width / 4), quarter = std::max(1, r.height / 4);
            auto rowsWithInk = [&](int from, int to) {
                int n = 0;
                for (int yy = from; yy < to; ++yy) {
                    const uint8_t *p = cell.ptr<uint8_t>(r.y + yy) + r.x;
                    n += std::any_of(p, p + strip, [](uint8_t v) { return v != 0; }) ? 1 : 0;
                }
                return double(n) / (to - from);
            };
            out[i] = rowsWithInk(0, quarter) <= 0.3 && rowsWithInk(r.height - quarter, r.height) <= 0.3 ? 1 : 0;
        }
        return FOCR_OK;
    });
}
