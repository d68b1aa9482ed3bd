/// An outline with a label, to be drawn onto a frame for a person to look at what was read:
/// a track's box with its id and consensus text, a recognized line with its text.
///
/// Corners are in upright-frame pixels (origin top-left, x right, y down), as every box FrameOCR
/// gives (``TextBox/quad``), so annotations are drawn on the upright image
/// (``PixelBuffer/annotated(with:into:pool:)``). Make them from results with
/// ``init(track:)``, ``init(line:index:)``, ``init(word:index:)`` or
/// ``annotations(for:)-(FrameResult)``, or from your own boxes.
public struct Annotation: Sendable, Hashable {
    /// An 8-bit sRGB colour.
    public struct Color: Sendable, Hashable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Nine colours that stay apart from one another and from grey (the Tableau 10 palette
        /// without its grey), in order: blue, orange, green, red, purple, brown, pink, olive, cyan.
        public static let palette: [Color] = [
            Color(red: 31, green: 119, blue: 180), Color(red: 255, green: 127, blue: 14),
            Color(red: 44, green: 160, blue: 44), Color(red: 214, green: 39, blue: 40),
            Color(red: 148, green: 103, blue: 189), Color(red: 140, green: 86, blue: 75),
            Color(red: 227, green: 119, blue: 194), Color(red: 188, green: 189, blue: 34),
            Color(red: 23, green: 190, blue: 207),
        ]

        /// The palette colour of `key` (a track id, a line index): `palette[key % 9]`, so a
        /// track keeps its colour in every frame.
        public static func palette(_ key: UInt64) -> Color { palette[Int(key % UInt64(palette.count))] }

        /// The grey of what is no longer seen (a ``TextTrack/State/lost`` track): 160, 160, 160.
        public static let lost = Color(red: 160, green: 160, blue: 160)
    }

    /// How the outline is drawn. Widths are `cv::line` thicknesses in units of u = max(1,
    /// round(shorter side of the image / 480)) pixels, so lines on a 4K frame are as visible as
    /// on a VGA one; a thickness t > 1 covers t + 1 pixels across, centred on the edge.
    public enum Stroke: String, Sendable, Hashable, Codable, CaseIterable {
        /// Thickness 2u: 3 pixels across when the shorter side is under 720 pixels (a
        /// confirmed track, a recognized line).
        case solid
        /// Thickness u: 1 pixel when the shorter side is under 720 pixels (a lost track).
        case thin
        /// Thickness u, in dashes of 6u pixels every 10u, counted from each corner (a new track).
        case dashed
    }

    /// The four corners in upright-frame pixels; any finite values (what falls outside the image
    /// is clipped away). Corners are rounded to the nearest pixel.
    public var quad: Quad
    /// The text drawn on a filled box of ``color`` above the outline's top-left (or just inside
    /// it at the top of the image), moved to stay in the image; "" draws none. OpenCV's Hershey
    /// font draws printable ASCII: every other character (a non-ASCII letter, a newline) is
    /// drawn as one `?`, and at most 256 characters are drawn.
    public var label: String
    /// The outline's and the label box's colour (the label's text is black on light colours,
    /// white on dark ones).
    public var color: Color
    public var stroke: Stroke

    public init(quad: Quad, label: String = "", color: Color = Color.palette[0], stroke: Stroke = .solid) {
        self.quad = quad
        self.label = label
        self.color = color
        self.stroke = stroke
    }

    /// An axis-aligned outline through the corners of `rect` (upright-frame pixels).
    public init(rect: Rect, label: String = "", color: Color = Color.palette[0], stroke: Stroke = .solid) {
        self.init(quad: Quad(rect), label: label, color: color, stroke: stroke)
    }

    /// The label as the shim draws it: printable ASCII (U+0020…U+007E), every other character
    /// (a grapheme cluster: "é" written as e + U+0301 is one) one `?`, at most 256 characters.
    var printableLabel: String {
        var out = ""
        for character in label.prefix(256) {
            let scalars = character.unicodeScalars
            let ascii = scalars.count == 1 && (0x20...0x7E).contains(scalars.first!.value)
            out.append(ascii ? character : "?")
        }
        return out
    }
}
