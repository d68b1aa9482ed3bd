import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// A `gray8` buffer of `width`×`height` filled with `value`.
private func grayImage(_ width: Int, _ height: Int, _ value: UInt8, orientation: Orientation = .up) throws
    -> PixelBuffer
{
    try PixelBuffer(
        packed: [UInt8](repeating: value, count: width * height), width: width, height: height, pixelFormat: .gray8,
        orientation: orientation)
}

/// The B, G, R bytes of pixel (x, y) of a `bgr8` buffer.
private func bgr(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
    buffer.withUnsafePlanes { planes in Array(planes[0].row(y)[(3 * x)..<(3 * x + 3)]) }
}

/// B, G, R of `color`.
private func bgr(_ color: Annotation.Color) -> [UInt8] { [color.blue, color.green, color.red] }

@Suite("Annotation: BGR conversion, outlines and labels")
struct AnnotationTests {
    let blue = Annotation.Color.palette[0]  // (31, 119, 180): a dark colour, so white label text

    // MARK: convertedToBGR

    @Test("packed formats to bgr8: gray replicated, alpha dropped, RGB swapped, BGR copied")
    func packedToBGR() throws {
        let gray = try PixelBuffer(packed: [10, 200], width: 2, height: 1, pixelFormat: .gray8)
        #expect(try gray.convertedToBGR().packedBytes() == [10, 10, 10, 200, 200, 200])
        let rgba = try PixelBuffer(packed: [1, 2, 3, 4, 5, 6, 7, 8], width: 2, height: 1, pixelFormat: .rgba8)
        #expect(try rgba.convertedToBGR().packedBytes() == [3, 2, 1, 7, 6, 5])
        let bgra = try PixelBuffer(packed: [1, 2, 3, 4, 5, 6, 7, 8], width: 2, height: 1, pixelFormat: .bgra8)
        #expect(try bgra.convertedToBGR().packedBytes() == [1, 2, 3, 5, 6, 7])
        let rgb = try PixelBuffer(packed: [1, 2, 3, 4, 5, 6], width: 2, height: 1, pixelFormat: .rgb8)
        #expect(try rgb.convertedToBGR().packedBytes() == [3, 2, 1, 6, 5, 4])
        let bgr8 = try PixelBuffer(packed: [1, 2, 3, 4, 5, 6], width: 2, height: 1, pixelFormat: .bgr8)
        let copy = try bgr8.convertedToBGR()
        #expect(copy.packedBytes() == [1, 2, 3, 4, 5, 6] && !copy.sharesStorage(with: bgr8))
    }

    @Test("padded rows are read as pixels only")
    func paddedSource() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 5, height: 3, padding: 9)
        let out = try frame.buffer.convertedToBGR()
        var expected: [UInt8] = []
        for y in 0..<3 { for x in 0..<5 { expected += frame.pixel(x, y).prefix(3) } }
        #expect(out.packedBytes() == expected)
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("NV12 and I420: BT.601 video range (16 → black, 235 → white), full range for nv12FullRange")
    func yCbCrToBGR() throws {
        // 2×2 NV12: Y 16, 235, 81, 128 with one chroma pair.
        let neutral = try PixelBuffer(packed: [16, 235, 81, 128, 128, 128], width: 2, height: 2, pixelFormat: .nv12)
        #expect(try neutral.convertedToBGR().packedBytes() == [0, 0, 0, 255, 255, 255, 76, 76, 76, 130, 130, 130])
        // BT.601 red: Y 81, Cb 90, Cr 240 → R 1.164383·65 + 1.596027·112 = 254.4, G −0.5, B −1.0.
        let red = try PixelBuffer(packed: [81, 81, 81, 81, 90, 240], width: 2, height: 2, pixelFormat: .nv12)
        #expect(try red.convertedToBGR().packedBytes() == ([0, 0, 254] as [UInt8]).repeated(4))
        let full = try PixelBuffer(
            packed: [0, 255, 128, 128, 128, 128], width: 2, height: 2, pixelFormat: .nv12FullRange)
        #expect(try full.convertedToBGR().packedBytes() == [0, 0, 0, 255, 255, 255, 128, 128, 128, 128, 128, 128])
        // 3×3 I420 (chroma 2×2): pixel (2, 2) takes the last chroma sample (1, 1), half-covered.
        var i420 = [UInt8](repeating: 128, count: 9) + [128, 128, 128, 90] + [128, 128, 128, 240]
        i420[8] = 81
        let odd = try PixelBuffer(packed: i420, width: 3, height: 3, pixelFormat: .i420).convertedToBGR()
        #expect(bgr(odd, 2, 2) == [0, 0, 254])
        #expect(bgr(odd, 0, 0) == [130, 130, 130])
        #expect(bgr(odd, 1, 1) == [130, 130, 130])
    }

    @Test("upright: the stored pixels are turned as the orientation says")
    func uprightBGR() throws {
        // The 3×2 example of applyingOrientation: [[1,2,3],[4,5,6]] with .right → [[4,1],[5,2],[6,3]].
        let stored = try PixelBuffer(
            packed: [1, 2, 3, 4, 5, 6], width: 3, height: 2, pixelFormat: .gray8, orientation: .right)
        let upright = try stored.convertedToBGR(upright: true)
        #expect(upright.width == 2 && upright.height == 3 && upright.orientation == .up)
        #expect(upright.packedBytes() == [4, 1, 5, 2, 6, 3].flatMap { [$0, $0, $0] })
        let kept = try stored.convertedToBGR()
        #expect(kept.width == 3 && kept.height == 2 && kept.orientation == .right)
        #expect(kept.packedBytes() == [1, 2, 3, 4, 5, 6].flatMap { [$0, $0, $0] })
        // NV12 stored .left (90° counter-clockwise): a 2×2 becomes [[235, 128], [16, 81]].
        let nv12 = try PixelBuffer(
            packed: [16, 235, 81, 128, 128, 128], width: 2, height: 2, pixelFormat: .nv12, orientation: .left)
        #expect(
            try nv12.convertedToBGR(upright: true).packedBytes()
                == [255, 255, 255, 130, 130, 130, 0, 0, 0, 76, 76, 76])
    }

    @Test("a destination of the wrong size or format is refused")
    func wrongDestination() throws {
        let image = try grayImage(4, 3, 9, orientation: .right)
        let sameStored = try PixelBuffer(width: 4, height: 3, pixelFormat: .bgr8)
        let e = expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try image.convertedToBGR(upright: true, into: sameStored)
        }
        #expect(e?.stage == .colorConversion)
        let gray = try PixelBuffer(width: 3, height: 4, pixelFormat: .gray8)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try image.convertedToBGR(upright: true, into: gray)
        }
        let right = try PixelBuffer(width: 3, height: 4, pixelFormat: .bgr8)
        let out = try image.convertedToBGR(upright: true, into: right)
        #expect(out.sharesStorage(with: right) && out.packedBytes() == [UInt8](repeating: 9, count: 36))
    }

    // MARK: annotated(with:)

    @Test("a solid outline has exactly its colour on the box's edges; every other pixel is unchanged")
    func solidOutline() throws {
        let image = try grayImage(100, 80, 50)
        let box = Annotation(rect: Rect(x: 20, y: 30, width: 40, height: 20), color: blue, stroke: .solid)
        let out = try image.annotated(with: [box])
        #expect(out.pixelFormat == .bgr8 && out.width == 100 && out.height == 80)
        let colour = bgr(blue)
        for (x, y) in [(40, 30), (20, 40), (60, 40), (40, 50), (20, 30), (60, 50), (21, 30), (59, 50)] {
            #expect(bgr(out, x, y) == colour, "(\(x), \(y))")
        }
        // 2 px wide: nothing 2 px or more off an edge is touched.
        var changed = 0
        for y in 0..<80 {
            for x in 0..<100 where bgr(out, x, y) != [50, 50, 50] {
                let nearEdge =
                    (abs(y - 30) <= 1 || abs(y - 50) <= 1) && (19...61).contains(x)
                    || (abs(x - 20) <= 1 || abs(x - 60) <= 1) && (29...51).contains(y)
                #expect(nearEdge, "(\(x), \(y)) changed")
                #expect(bgr(out, x, y) == colour, "(\(x), \(y)) is not the outline's colour")
                changed += 1
            }
        }
        #expect(changed >= 2 * (41 + 21) - 4)
        // The source is not changed.
        #expect(image.packedBytes().allSatisfy { $0 == 50 })
    }

    @Test("an annotated still written as PNG reads back with the same pixels")
    func pngRoundTrip() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("annotated.png").path
        let frame = try PaddedFrame(format: .bgra8, width: 90, height: 70, padding: 12) { _, _, _, _ in 200 }
        let out = try frame.buffer.annotated(with: [
            Annotation(rect: Rect(x: 10, y: 40, width: 50, height: 20), label: "#7 OPEN 90%", color: blue)
        ])
        try out.write(toFile: file)
        let back = try PixelBuffer(contentsOfFile: file)
        #expect(back.pixelFormat == .bgr8 && back.width == 90 && back.height == 70)
        #expect(back.packedBytes() == out.packedBytes())
        #expect(bgr(back, 35, 40) == bgr(blue) && bgr(back, 10, 50) == bgr(blue) && bgr(back, 35, 60) == bgr(blue))
        #expect(bgr(back, 35, 50) == [200, 200, 200] && bgr(back, 85, 5) == [200, 200, 200])
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("thin is one pixel wide; dashed draws 6 on, 4 off, from each corner")
    func thinAndDashed() throws {
        let image = try grayImage(100, 80, 50)
        let thin = try image.annotated(with: [
            Annotation(rect: Rect(x: 20, y: 30, width: 40, height: 20), color: blue, stroke: .thin)
        ])
        #expect(bgr(thin, 40, 30) == bgr(blue))
        #expect(bgr(thin, 40, 29) == [50, 50, 50] && bgr(thin, 40, 31) == [50, 50, 50])
        let dashed = try image.annotated(with: [
            Annotation(rect: Rect(x: 20, y: 30, width: 40, height: 20), color: blue, stroke: .dashed)
        ])
        let top = (20...60).map { bgr(dashed, $0, 30) == bgr(blue) }
        // x 20…25 on, 26…29 off, 30…35 on, 36…39 off, …
        for (i, on) in top.enumerated() {
            #expect(on == (i % 10 < 6), "x \(20 + i)")
        }
        #expect(bgr(dashed, 40, 29) == [50, 50, 50] && bgr(dashed, 40, 31) == [50, 50, 50])
    }

    @Test("a label sits on a filled box of the outline's colour above its top-left, white text on dark")
    func label() throws {
        let image = try grayImage(160, 80, 50)
        let out = try image.annotated(with: [
            Annotation(rect: Rect(x: 20, y: 40, width: 80, height: 20), label: "AB 97%", color: blue)
        ])
        // The label's bottom row touches the outline's top (y 40); its left column is x 20.
        #expect(bgr(out, 20, 39) == bgr(blue) && bgr(out, 20, 36) == bgr(blue))
        var labelRows = 0
        for y in stride(from: 39, through: 0, by: -1) where bgr(out, 20, y) == bgr(blue) { labelRows += 1 }
        #expect((12...30).contains(labelRows), "\(labelRows) rows")
        let inside = (40 - labelRows..<40).flatMap { y in (20..<100).map { bgr(out, $0, y) } }
        #expect(inside.contains { $0.allSatisfy { $0 > 200 } }, "white text")
        // Light colours get black text.
        let light = try image.annotated(with: [
            Annotation(
                rect: Rect(x: 20, y: 40, width: 80, height: 20), label: "AB",
                color: Annotation.Color(red: 255, green: 255, blue: 0))
        ])
        let lightInside = (20..<40).flatMap { y in (20..<60).map { bgr(light, $0, y) } }
        #expect(lightInside.contains { $0.allSatisfy { $0 < 60 } }, "black text")
        // At the top of the image the label goes just inside the outline.
        let atTop = try image.annotated(with: [
            Annotation(rect: Rect(x: 20, y: 2, width: 80, height: 40), label: "AB", color: blue)
        ])
        #expect(bgr(atTop, 20, 3) == bgr(blue) && bgr(atTop, 20, 8) == bgr(blue))
        #expect(bgr(atTop, 21, 0) == [50, 50, 50])
    }

    @Test("boxes are drawn on the upright image of a turned, planar frame")
    func orientedFrame() throws {
        // Stored 60×100 NV12 .right: upright 100×60. A white marker at stored (0, 99), the
        // bottom-left, is upright (0, 0).
        var luma = [UInt8](repeating: 16, count: 60 * 100)
        luma[99 * 60] = 235
        let chroma = [UInt8](repeating: 128, count: 30 * 50 * 2)
        let frame = try PixelBuffer(
            packed: luma + chroma, width: 60, height: 100, pixelFormat: .nv12, orientation: .right)
        let out = try frame.annotated(with: [
            Annotation(rect: Rect(x: 10, y: 20, width: 30, height: 10), color: blue)
        ])
        #expect(out.width == 100 && out.height == 60 && out.orientation == .up)
        #expect(bgr(out, 0, 0) == [255, 255, 255])
        #expect(bgr(out, 25, 20) == bgr(blue) && bgr(out, 40, 25) == bgr(blue))
        #expect(bgr(out, 25, 25) == [0, 0, 0] && bgr(out, 99, 59) == [0, 0, 0])
    }

    @Test("outlines partly or wholly outside the image are clipped; huge corners are fine")
    func outside() throws {
        let image = try grayImage(50, 40, 50)
        let out = try image.annotated(with: [
            Annotation(rect: Rect(x: -1e12, y: 10, width: 2e12, height: 20), color: blue),
            Annotation(rect: Rect(x: 500, y: 500, width: 10, height: 10), label: "gone", color: blue),
        ])
        #expect(bgr(out, 25, 10) == bgr(blue) && bgr(out, 0, 30) == bgr(blue) && bgr(out, 49, 30) == bgr(blue))
        // Nothing but the two long edges: no label for the outline that is not in the image.
        for y in 0..<40 where !(9...11).contains(y) && !(29...31).contains(y) {
            #expect((0..<50).allSatisfy { bgr(out, $0, y) == [50, 50, 50] }, "row \(y)")
        }
        // Empty: the plain upright image.
        #expect(try image.annotated(with: []).packedBytes() == [UInt8](repeating: 50, count: 50 * 40 * 3))
    }

    @Test("a corner that is not finite is refused before any pixel is converted")
    func notFinite() throws {
        let image = try grayImage(10, 10, 0)
        let e = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try image.annotated(with: [
                Annotation(rect: Rect(x: 1, y: 1, width: 2, height: 2)),
                Annotation(rect: Rect(x: .nan, y: 1, width: 2, height: 2)),
            ])
        }
        #expect(e?.stage == .annotation && e?.message.contains("annotations[1]") == true)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try image.annotated(with: [Annotation(rect: Rect(x: 1, y: .infinity, width: 2, height: 2))])
        }
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try image.annotated(with: [], into: try PixelBuffer(width: 10, height: 10, pixelFormat: .bgra8))
        }
    }

    @Test("the shim draws only bgr8")
    func shimFormat() throws {
        let gray = try grayImage(8, 8, 0)
        let e = expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in
            try gray.drawAnnotations([Annotation(rect: Rect(x: 1, y: 1, width: 2, height: 2))])
        }
        #expect(e?.stage == .annotation)
    }

    @Test("labels: printable ASCII kept, one ? per other character, at most 256")
    func printableLabels() {
        #expect(
            Annotation(quad: Quad(Rect(x: 0, y: 0, width: 1, height: 1)), label: "Zürich 3°C\n").printableLabel
                == "Z?rich 3?C?")
        #expect(Annotation(quad: Quad(Rect(x: 0, y: 0, width: 1, height: 1)), label: "e\u{301}").printableLabel == "?")
        #expect(
            Annotation(quad: Quad(Rect(x: 0, y: 0, width: 1, height: 1)), label: String(repeating: "x", count: 300))
                .printableLabel.count == 256)
    }

    @Test("annotations from tracks (state → stroke and colour) and from recognized lines")
    func fromResults() {
        let box = TextBox(upright: Rect(x: 1, y: 2, width: 30, height: 10), frameWidth: 100, frameHeight: 50)
        func track(_ id: UInt64, _ state: TextTrack.State) -> TextTrack {
            TextTrack(
                id: id, text: "EXIT\nNOW", confidence: 0.874, agreement: 1, readings: 3, state: state, box: box,
                firstSeen: .zero, lastSeen: .zero, firstFrameID: 0, lastFrameID: 0)
        }
        let confirmed = Annotation(track: track(3, .confirmed))
        #expect(confirmed.label == "#3 EXIT NOW 87%" && confirmed.stroke == .solid)
        #expect(confirmed.color == Annotation.Color.palette[3] && confirmed.quad == box.quad)
        #expect(Annotation(track: track(12, .new)).stroke == .dashed)
        #expect(Annotation(track: track(12, .new)).color == Annotation.Color.palette[3])
        let lost = Annotation(track: track(4, .lost))
        #expect(lost.stroke == .thin && lost.color == .lost)

        var result = FrameResult(
            frameID: 0, timestamp: .zero, status: .complete, recognition: nil, error: nil, timings: StageTimings(),
            backend: .cpu)
        #expect(Annotation.annotations(for: result).isEmpty)
        result.tracks = [track(1, .confirmed), track(2, .lost)]
        // Lost tracks first, so tracks in view are drawn over them.
        #expect(Annotation.annotations(for: result).map(\.label) == ["#2 EXIT NOW 87%", "#1 EXIT NOW 87%"])
    }
}

extension Array {
    /// The array repeated `count` times.
    fileprivate func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
