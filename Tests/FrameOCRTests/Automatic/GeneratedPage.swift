import FrameOCRSynthesis

@testable import FrameOCR

/// A generated page of nine lines of pangrams in a TrueType font, for the tests of classes of
/// pages (mixed polarity, tiny text): the text is known exactly, and every size, font and band is
/// a parameter.
enum GeneratedPage {
    static let lines = [
        "The quick brown fox jumps over the lazy dog while",
        "seven wizards quietly hex the jumbled box of",
        "bright yellow pencils. Pack my box with five dozen",
        "liquor jugs, said the sphinx of black quartz as",
        "the judge vowed to move forty miles by noon.",
        "Grumpy wizards make toxic brew for the evil queen",
        "and jack, who watched the crazy fox jump high.",
        "Amazingly few discotheques provide jukeboxes today",
        "but how vexingly quick daft zebras jump away.",
    ]
    static var text: String { lines.joined(separator: "\n") }
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/"
    static let liberation = "/usr/share/fonts/truetype/liberation2/"
    /// The band's ground and text, and the page's paper and ink (gray levels).
    static let (ground, light, paper, ink): (UInt8, UInt8, UInt8, UInt8) = (30, 235, 255, 0)

    /// A page of ``lines`` in `font` at `em` pixels (the font's pixel height; 12 pt is 50 px at
    /// 300 ppi) on a line pitch of 1.5 em, `width` pixels wide; lines `band` (indices) light on a
    /// dark ground that runs from midway through the gap above its first line to midway through
    /// the gap below its last (or to the page's edge). Returns the page and the band's rows.
    static func make(font: String, em: Int, width: Int, band: ClosedRange<Int>? = nil) throws -> (
        PixelBuffer, top: Int, bottom: Int
    ) {
        let pitch = em * 3 / 2
        let margin = pitch / 2
        let height = 2 * margin + pitch * lines.count
        let top = band.map { $0.lowerBound == 0 ? 0 : margin + pitch * $0.lowerBound } ?? 0
        let bottom = band.map { $0.upperBound == lines.count - 1 ? height : margin + pitch * ($0.upperBound + 1) } ?? 0
        var canvas = [UInt8](repeating: paper, count: width * height)
        for y in top..<bottom {
            for x in 0..<width { canvas[y * width + x] = ground }
        }
        for (i, text) in lines.enumerated() {
            let inBand = band?.contains(i) ?? false
            let r = try PixelBuffer.rendering(
                text, fontPath: font, height: em, ink: inBand ? light : ink, paper: inBand ? ground : paper)
            let src = r.packedBytes()
            let y0 = margin + pitch * i + (pitch - r.height) / 2
            for y in 0..<r.height {
                for x in 0..<min(r.width, width - 2 * em) { canvas[(y0 + y) * width + em + x] = src[y * r.width + x] }
            }
        }
        return (try PixelBuffer(packed: canvas, width: width, height: height, pixelFormat: .gray8), top, bottom)
    }
}
