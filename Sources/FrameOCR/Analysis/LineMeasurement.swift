/// A line of large text that the shim found and drew alone, black on white: the dominant line
/// (`focr_dominant_line`) or one of the lines of large text (`focr_text_lines`), both in
/// `include/focr_lines.h`. Pixels of the searched image.
///
/// A Swift mirror of the shim's `focr_text_line` and `focr_line_box`, made in
/// `Bridge/Shim+Analysis.swift`; the scalar types are the shim's.
struct LineMeasurement: Hashable, Sendable {
    /// The bounding box of what was drawn.
    var box: PixelRect
    /// Character components it holds (0: no line was found).
    var characters: Int
    /// Their height: the mean for the dominant line, the median for a text line.
    var characterHeight: Float
    /// Their median width / height (text lines only; nil for the dominant line).
    var characterAspect: Float?
    /// Whether the characters are light on a darker background (the dominant line only).
    var inverted = false
    /// Ink of the line's polarity left out, per pixel of ink drawn: 0 when the line is all there
    /// is (the dominant line only).
    var clutter: Float = 0
}
