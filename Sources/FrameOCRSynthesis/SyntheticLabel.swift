import Foundation
import FrameOCR
import FrameOCREvaluation

/// A label scanner's camera frame, drawn: a two-line printed label turned 3° on a dark desk's
/// clutter, lit from the left. The frame the document-crop tests read (`DocumentCropTests`) and
/// the benchmark's label row (`label-auto`) times, so that both see the same pixels; and the
/// cluttered ground and the placing the scene-text tests draw their scenes with.
package enum SyntheticLabel {
    /// DejaVu Sans Bold (Debian's `fonts-dejavu-core`): the labels' and the test scenes' font.
    package static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    /// The label's two lines.
    package static let lines = ["LOT 4711-B", "EXP 2027-03"]

    /// A `width`×`height` gray street-like texture from `seed`: a wave pattern at about 110, 60
    /// blocks of 10–129 × 10–99 pixels at 20–219 with a fine ripple, Gaussian noise of σ 12. No
    /// print in it.
    package static func clutter(width w: Int, height h: Int, seed: UInt64) throws(FrameOCRError) -> PixelBuffer {
        var random = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: w * h)
        var blocks: [(Int, Int, Int, Int, UInt8)] = []
        for _ in 0..<60 {
            let bw = Int(random.next() % 120) + 10
            let bh = Int(random.next() % 90) + 10
            blocks.append(
                (
                    Int(random.next() % UInt64(w)), Int(random.next() % UInt64(h)), bw, bh,
                    UInt8(random.next() % 200 + 20)
                ))
        }
        for y in 0..<h {
            for x in 0..<w {
                var v = 110.0 + 40 * sin(Double(x) / 9) * cos(Double(y) / 23)
                for (bx, by, bw, bh, g) in blocks where x >= bx && x < bx + bw && y >= by && y < by + bh {
                    v = Double(g) + 25 * sin(Double(x + y) / 3)
                }
                v += 12 * random.nextGaussian()
                pixels[y * w + x] = UInt8(min(max(v.rounded(), 0), 255))
            }
        }
        return try PixelBuffer(packed: pixels, width: w, height: h, pixelFormat: .gray8)
    }

    /// Draws `card` on `canvas` turned by `degrees` (clockwise in pixel coordinates) about its
    /// centre, placed at `center`.
    package static func place(
        _ card: PixelBuffer, on canvas: PixelBuffer, center: Point, degrees: Double
    ) throws(FrameOCRError) {
        let t = degrees * .pi / 180
        let (c, sn) = (cos(t), sin(t))
        let (cx, cy) = (Double(card.width) / 2, Double(card.height) / 2)
        try canvas.draw(card, affine: [c, -sn, center.x - c * cx + sn * cy, sn, c, center.y - sn * cx - c * cy])
    }

    /// A two-line printed label (DejaVu Sans Bold, 26 px) on its own paper, 300×104, gray.
    package static func label(_ lines: [String] = lines) throws(FrameOCRError) -> PixelBuffer {
        let paper = try PixelBuffer(
            packed: [UInt8](repeating: 232, count: 300 * 104), width: 300, height: 104, pixelFormat: .gray8)
        for (i, line) in lines.enumerated() {
            let text = try PixelBuffer.rendering(line, fontPath: font, height: 26, margin: 2, ink: 28, paper: 232)
            try paper.draw(text, affine: [1, 0, 16, 0, 1, Double(14 + 44 * i)])
        }
        return paper
    }

    /// A 640×480 camera frame: ``label(_:)`` turned 3° and centred at (380, 250) on a dark desk's
    /// clutter (``clutter(width:height:seed:)`` at 0.45 of its brightness, seed 7: no print in it),
    /// lit from the left (the gray multiplied by a ramp from 1 to 0.55 across); `sign`: a printed
    /// sign, "PLATFORM 9", drawn on the desk as well, at the top left.
    package static func frame(sign: Bool = false) throws(FrameOCRError) -> PixelBuffer {
        let street = try clutter(width: 640, height: 480, seed: 7)
        let canvas = try PixelBuffer(
            packed: street.packedBytes().map { UInt8((Double($0) * 0.45).rounded()) }, width: 640, height: 480,
            pixelFormat: .gray8)
        try place(try label(), on: canvas, center: Point(x: 380, y: 250), degrees: 3)
        if sign {
            let card = try PixelBuffer.rendering(
                "PLATFORM 9", fontPath: font, height: 24, margin: 8, ink: 25, paper: 225)
            try place(card, on: canvas, center: Point(x: 130, y: 60), degrees: 0)
        }
        let w = canvas.width
        let lit = canvas.packedBytes().enumerated().map { i, v in
            UInt8((Double(v) * (1 - 0.45 * Double(i % w) / Double(w - 1))).rounded())
        }
        return try PixelBuffer(packed: lit, width: w, height: canvas.height, pixelFormat: .gray8)
    }
}
