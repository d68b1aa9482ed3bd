// Internal to the shim: the analysis room's one component-and-line model (analysis/components.cpp).
//
//   Components       the 8-connected components of an ink mask: labels, boxes, areas, and on
//                    request each one's contrast against the rest of its box
//   CharacterShape   what makes a component character-like: its height in a range, 0.08…1.2
//                    times as wide as tall, ink filling ≥ 10 % of its box, optionally contrasted
//   group_lines      characters of similar height and centre line grouped into lines
//
// focr_dominant_line (dominant_line.cpp) and focr_text_lines (text_lines.cpp) find characters and
// lines with these; focr_auto_analyze (auto_analyze.cpp) labels its light strokes and its ink with
// Components and keeps a looser size test of its own for measuring the text's size (from 3 px
// tall, up to three heights + 2 wide: whole words and broken strokes count too).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

namespace focr {

/// The 8-connected components of an ink mask (nonzero = ink): cv::connectedComponentsWithStats
/// with CV_32S labels. Label 0 is the background, 1…count() − 1 the components.
struct Components {
    cv::Mat labels;                // CV_32S, the mask's size: each pixel's label
    cv::Mat stats;                 // count() rows of cv::CC_STAT_LEFT, TOP, WIDTH, HEIGHT, AREA
    std::vector<double> contrast;  // per label, filled by measure_contrast (empty until then)

    /// No components (count() 0).
    Components() = default;
    explicit Components(const cv::Mat &ink);

    /// Labels including the background: components are 1…count() − 1.
    int count() const { return stats.rows; }
    int left(int i) const { return stats.at<int>(i, cv::CC_STAT_LEFT); }
    int top(int i) const { return stats.at<int>(i, cv::CC_STAT_TOP); }
    int width(int i) const { return stats.at<int>(i, cv::CC_STAT_WIDTH); }
    int height(int i) const { return stats.at<int>(i, cv::CC_STAT_HEIGHT); }
    /// Ink pixels of component i.
    int area(int i) const { return stats.at<int>(i, cv::CC_STAT_AREA); }
    /// Its bounding box.
    cv::Rect rect(int i) const { return cv::Rect(left(i), top(i), width(i), height(i)); }
    /// The middle of its box, vertically: top + height / 2 (pixels, may be a half).
    double centre(int i) const { return top(i) + height(i) / 2.0; }
    /// Whether it touches the border of a `w` × `h` mask.
    bool touches_border(int i, int w, int h) const {
        return left(i) == 0 || top(i) == 0 || left(i) + width(i) == w || top(i) + height(i) == h;
    }
    /// The heights of `members`, summed in order (double).
    double height_sum(const std::vector<int> &members) const;

    /// Fills `contrast`: for each component, the mean gray level of the rest of its box in `gray`
    /// minus its own mean gray level (positive when it is darker than its surroundings); 0 for a
    /// solid block (ink over its whole box) and the background. `integral` is cv::integral of
    /// `gray` (CV_64F).
    void measure_contrast(const cv::Mat &gray, const cv::Mat &integral);

    /// Writes 0 into `out` (GRAY8, the mask's size) at every pixel of `box` whose component has
    /// keep[label] ≠ 0; other pixels are left as they are.
    void draw(const std::vector<uint8_t> &keep, const cv::Rect &box, cv::Mat &out) const;
};

/// How many rows `a` and `b` share (negative: the gap between them).
inline int rows_shared(const cv::Rect &a, const cv::Rect &b) {
    return std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
}

/// Grows `box` to hold `r` (`box` empty: becomes `r`).
inline void include_rect(cv::Rect &box, const cv::Rect &r) { box = box.empty() ? r : (box | r); }

/// What a character-like component is: min_height ≤ height ≤ max_height (pixels), 0.08…1.2 times
/// as wide as tall, its ink filling at least 10 % of its box; with `contrasted`, also not a solid
/// block and at least `min_contrast` gray levels darker than the rest of its box
/// (Components::measure_contrast first).
struct CharacterShape {
    double min_height = 0, max_height = 0;
    /// How "fills at least 10 %" is computed: exactly in integers (10·area ≥ w·h: focr_text_lines)
    /// or in double (area ≥ 0.1·w·h: focr_dominant_line). 0.1 is not exact in binary, so the two
    /// disagree on some components whose ink is exactly a tenth of their box (w·h = 10·area); each
    /// caller keeps the arithmetic it has always had.
    bool integer_fill = true;
    bool contrasted = false;
    double min_contrast = 0;
};

/// The labels (ascending) of the components of `c` that have `shape`.
std::vector<int> characters(const Components &c, const CharacterShape &shape);

/// `characters` grouped into lines: taken tallest first (std::sort by height, descending), each
/// joins the first line whose first member it matches — height within 20 % of that member's and
/// centre (Components::centre) within a quarter of that member's height — or starts a new line.
/// Lines come in the order they were started, members in the order they joined.
std::vector<std::vector<int>> group_lines(const Components &c, std::vector<int> characters);

}  // namespace focr
