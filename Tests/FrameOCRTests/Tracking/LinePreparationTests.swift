import Foundation
import FrameOCRSynthesis
import Testing

@testable import FrameOCR

/// The C shim's small steps for live reading, with exact pixel values: the surface beyond a
/// label's edge (`focr_clear_line_edges`), the gate's difference (`focr_frame_difference`) and a
/// line's darkness profile (LineProfile).
@Suite("Live reading: label edges, frame difference, line profile")
struct LinePreparationTests {
    /// A `width`×`height` gray8 image of `fill` with `strokes` (x ranges, rows y0..<y1) set to `ink`.
    static func image(
        width: Int = 40, height: Int = 20, fill: UInt8, ink: UInt8, strokes: [Range<Int>] = [12..<14, 20..<22],
        rows: Range<Int> = 5..<15
    ) throws -> PixelBuffer {
        var p = [UInt8](repeating: fill, count: width * height)
        for y in rows { for r in strokes { for x in r { p[y * width + x] = ink } } }
        return try PixelBuffer(packed: p, width: width, height: height, pixelFormat: .gray8)
    }

    static let text = PixelRect(x: 10, y: 5, width: 20, height: 10)

    @Test(
        "focr_clear_line_edges: the dark surface at the crop's side turns paper, with a 3-px rim; the text's box and inner marks stay"
    )
    func clearEdges() throws {
        var p = try Self.image(fill: 200, ink: 40).packedBytes()
        for y in 0..<20 { for x in 0..<3 { p[y * 40 + x] = 30 } }  // the surface beyond the label's left edge
        for y in 8..<10 { for x in 33..<35 { p[y * 40 + x] = 40 } }  // a mark on the label, touching no side
        let line = try PixelBuffer(packed: p, width: 40, height: 20, pixelFormat: .gray8)
        #expect(try Shim.clearLineEdges(line, keeping: Self.text) == 1)
        var expected = p
        for y in 0..<20 { for x in 0..<6 { expected[y * 40 + x] = 200 } }  // columns 0…2 and the rim 3…5
        #expect(line.packedBytes() == expected)
    }

    @Test("focr_frame_difference: the largest block's mean, so that a small change is not averaged away")
    func frameDifference() throws {
        let a = try PixelBuffer(
            packed: [UInt8](repeating: 100, count: 32 * 16), width: 32, height: 16, pixelFormat: .gray8)
        var changed = [UInt8](repeating: 100, count: 32 * 16)
        for y in 2..<6 { for x in 2..<6 { changed[y * 32 + x] = 180 } }
        let b = try PixelBuffer(packed: changed, width: 32, height: 16, pixelFormat: .gray8)
        #expect(try Shim.frameDifference(a, b, block: 16) == 5)  // 16 pixels × 80 over 256
        #expect(try Shim.frameDifference(a, b, block: 32) == 2.5)  // the whole image: over 512
        #expect(try Shim.frameDifference(a, b, block: 1) == 80)
        #expect(try Shim.frameDifference(a, a, block: 16) == 0)
        #expect(throws: FrameOCRError.self) { try Shim.frameDifference(a, b, block: 0) }
    }

    @Test("focr_frame_difference: blocks that do not divide the image still give exact means")
    func frameDifferenceUneven() throws {
        let a = try PixelBuffer(
            packed: [UInt8](repeating: 100, count: 40 * 20), width: 40, height: 20, pixelFormat: .gray8)
        let b = try PixelBuffer(
            packed: [UInt8](repeating: 110, count: 40 * 20), width: 40, height: 20, pixelFormat: .gray8)
        // 40×20 in blocks of at most 16: 3 × 2 blocks of 13.3 × 10 pixels, each of mean 10.
        #expect(try Shim.frameDifference(a, b, block: 16) == 10)
        #expect(try Shim.frameDifference(a, b, block: Int(Int32.max)) == 10)
    }

    /// "ROOM \(number)" in DejaVu Sans Bold, 24 px, on a 300×40 white gray8 canvas at (x, 8).
    static func label(_ number: String, x: Int) throws -> PixelBuffer {
        let text = try PixelBuffer.rendering(
            "ROOM \(number)", fontPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", height: 24)
        let canvas = try PixelBuffer(
            packed: [UInt8](repeating: 255, count: 300 * 40), width: 300, height: 40, pixelFormat: .gray8)
        try canvas.draw(text, affine: [1, 0, Double(x), 0, 1, 8])
        return canvas
    }

    @Test("LineProfile: a line whose box follows it is the same profile; another number in its place differs")
    func profile() throws {
        let box = PixelRect(x: 10, y: 4, width: 200, height: 32)
        let a = try LineProfile(Self.label("4550", x: 14), box: box, pool: nil)
        #expect(a.difference(from: a) == 0)
        for dx in [1, 2] {
            // The tracker's case: the box found in each frame moves with the text.
            let moved = try LineProfile(
                Self.label("4550", x: 14 + dx),
                box: PixelRect(x: box.x + dx, y: box.y, width: box.width, height: box.height), pool: nil)
            #expect(moved.difference(from: a) == 0)
        }
        let one = try LineProfile(Self.label("4530", x: 14), box: box, pool: nil).difference(from: a)
        let all = try LineProfile(Self.label("6938", x: 14), box: box, pool: nil).difference(from: a)
        #expect(one > 0.1 && all > 0.4 && all > one, "one digit \(one), all four \(all)")
    }
}
