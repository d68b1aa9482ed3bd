import Foundation
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

    @Test(
        "LineProfile: the same line moved is the same profile; another text in its place differs by more than 0.4, the value for displays"
    )
    func profile() throws {
        let scene = try LiveScene()
        let frame = try scene.frame(placed: [(0, 40, 60)])
        let moved = try scene.frame(placed: [(0, 43, 61)])
        let box = PixelRect(x: 40, y: 60, width: scene.lines[0].width, height: scene.lines[0].height)
        let a = try LineProfile(frame, box: box, pool: nil)
        let b = try LineProfile(moved, box: PixelRect(x: 43, y: 61, width: box.width, height: box.height), pool: nil)
        #expect(a.difference(from: a) == 0)
        #expect(b.difference(from: a) < 0.4, "\(b.difference(from: a))")
        // The same place with the other line: changed.
        let other = try scene.frame(placed: [(1, 40, 60)])
        #expect(try LineProfile(other, box: box, pool: nil).difference(from: a) > 0.4)
    }
}
