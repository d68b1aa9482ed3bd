import FrameOCRTestSupport
import Testing

@testable import FrameOCR

@Suite("Orientation: pixels and geometry")
struct OrientationTests {
    /// The 3×2 gray image [[1,2,3],[4,5,6]] at stride 8, padding 0xEE.
    static func small() throws -> PaddedFrame {
        try PaddedFrame(format: .gray8, width: 3, height: 2, bytesPerRow: [8]) { _, x, y, _ in UInt8(1 + x + 3 * y) }
    }

    static let expected: [Orientation: [[UInt8]]] = [
        .up: [[1, 2, 3], [4, 5, 6]],
        .upMirrored: [[3, 2, 1], [6, 5, 4]],
        .down: [[6, 5, 4], [3, 2, 1]],
        .downMirrored: [[4, 5, 6], [1, 2, 3]],
        .leftMirrored: [[1, 4], [2, 5], [3, 6]],
        .right: [[4, 1], [5, 2], [6, 3]],
        .rightMirrored: [[6, 3], [5, 2], [4, 1]],
        .left: [[3, 6], [2, 5], [1, 4]],
    ]

    @Test("R15: 3×2 [[1,2,3],[4,5,6]] at stride 8 in every orientation", arguments: Orientation.allCases)
    func smallImage(orientation: Orientation) throws {
        let frame = try Self.small()
        #expect(frame.buffer.bytesPerRow(ofPlane: 0) == 8)
        let upright = try frame.buffer.applyingOrientation(orientation)
        let want = try #require(Self.expected[orientation])
        #expect(upright.width == want[0].count && upright.height == want.count)
        #expect(rows(upright.packedBytes(), width: upright.width) == want)
        #expect(upright.orientation == .up)
        #expect(upright.pixelFormat == .gray8)
        // The output's stride comes from its own width (64-byte aligned), never the input's 8.
        #expect(upright.bytesPerRow(ofPlane: 0) == 64)
        #expect(!upright.sharesStorage(with: frame.buffer))  // always a new buffer, also for 3×2 → 2×3
        #expect(!upright.packedBytes().contains(sentinel))
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("orienting into a padded destination writes only its pixels", arguments: Orientation.allCases)
    func intoPaddedDestination(orientation: Orientation) throws {
        let frame = try Self.small()
        let want = try #require(Self.expected[orientation])
        let destination = try PaddedFrame(format: .gray8, width: want[0].count, height: want.count, padding: 5) {
            _, _, _, _ in 0
        }
        let upright = try frame.buffer.applyingOrientation(orientation, into: destination.buffer)
        #expect(upright.sharesStorage(with: destination.buffer))
        #expect(rows(destination.pixels(), width: want[0].count) == want)
        #expect(destination.damagedPaddingBytes() == 0)
        #expect(frame.damagedPaddingBytes() == 0)
        // The wrong shape (unswapped for 5…8) is refused.
        if orientation.swapsDimensions {
            let wrong = try PixelBuffer(width: 3, height: 2, pixelFormat: .gray8)
            expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
                try frame.buffer.applyingOrientation(orientation, into: wrong)
            }
        }
    }

    @Test("R15: 641×479 BGRA at stride 2576 rotated .right is 479×641 and bit-exact")
    func largeBGRARight() throws {
        let (w, h) = (641, 479)
        let frame = try PaddedFrame(format: .bgra8, width: w, height: h, bytesPerRow: [2576])
        let upright = try frame.buffer.applyingOrientation(.right)
        #expect(upright.width == 479 && upright.height == 641)
        #expect(upright.bytesPerRow(ofPlane: 0) == aligned64(479 * 4))
        // Rotating 90° clockwise: upright (u, v) is stored (x: v, y: h − 1 − u).
        let source = frame.pixels()
        var reference = [UInt8](repeating: 0, count: 479 * 641 * 4)
        for v in 0..<641 {
            for u in 0..<479 {
                let s = ((h - 1 - u) * w + v) * 4
                let d = (v * 479 + u) * 4
                for c in 0..<4 { reference[d + c] = source[s + c] }
            }
        }
        let bytes = upright.packedBytes()
        expectSameBytes(bytes, reference)
        #expect(!bytes.contains(sentinel))
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test(
        "every orientation of a 641×479 BGR frame at an odd stride matches a per-pixel reference",
        arguments: Orientation.allCases)
    func largeBGRAllOrientations(orientation: Orientation) throws {
        let (w, h) = (641, 479)
        let frame = try PaddedFrame(format: .bgr8, width: w, height: h, padding: 13)
        let upright = try frame.buffer.applyingOrientation(orientation)
        let (uw, uh) = orientation.swapsDimensions ? (h, w) : (w, h)
        #expect(upright.width == uw && upright.height == uh)
        let source = frame.pixels()
        let bytes = upright.packedBytes()
        var mismatches = 0
        for v in 0..<uh {
            for u in 0..<uw {
                let p = orientation.storedPoint(
                    fromUpright: Point(x: Double(u) + 0.5, y: Double(v) + 0.5),
                    storedWidth: Double(w), storedHeight: Double(h))
                let s = (Int(p.y.rounded(.down)) * w + Int(p.x.rounded(.down))) * 3
                let d = (v * uw + u) * 3
                if bytes[d..<d + 3] != source[s..<s + 3] { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test(
        "geometry and pixels agree: upright (u,v) is stored floor(storedPoint(u+½, v+½))",
        arguments: Orientation.allCases)
    func geometryMatchesPixels(orientation: Orientation) throws {
        let (w, h) = (7, 4)
        let frame = try PaddedFrame(format: .gray8, width: w, height: h, padding: 3) { _, x, y, _ in
            UInt8(10 * y + x + 1)
        }
        let upright = try frame.buffer.applyingOrientation(orientation)
        #expect(
            upright.width == frame.buffer.uprightWidth(as: orientation)
                && upright.height == frame.buffer.uprightHeight(as: orientation))
        let bytes = upright.packedBytes()
        for v in 0..<upright.height {
            for u in 0..<upright.width {
                let p = orientation.storedPoint(
                    fromUpright: Point(x: Double(u) + 0.5, y: Double(v) + 0.5),
                    storedWidth: Double(w), storedHeight: Double(h))
                let (x, y) = (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
                #expect((0..<w).contains(x) && (0..<h).contains(y))
                #expect(
                    bytes[v * upright.width + u] == UInt8(10 * y + x + 1), "upright (\(u),\(v)) ← stored (\(x),\(y))")
            }
        }
    }

    @Test("storedPoint and uprightPoint are inverses", arguments: Orientation.allCases)
    func pointMapsAreInverses(orientation: Orientation) {
        let (w, h) = (640.0, 480.0)
        let (uw, uh) = orientation.swapsDimensions ? (h, w) : (w, h)
        for p in [
            Point(x: 0, y: 0), Point(x: uw, y: uh), Point(x: 12.25, y: 400.5), Point(x: uw, y: 0),
            Point(x: 0.125, y: uh),
        ] {
            let stored = orientation.storedPoint(fromUpright: p, storedWidth: w, storedHeight: h)
            #expect((0...w).contains(stored.x) && (0...h).contains(stored.y))
            // Exact for these dyadic coordinates.
            #expect(orientation.uprightPoint(fromStored: stored, storedWidth: w, storedHeight: h) == p)
            let q = Point(x: p.x * w / uw, y: p.y * h / uh)  // a stored point (not dyadic)
            let up = orientation.uprightPoint(fromStored: q, storedWidth: w, storedHeight: h)
            #expect((0...uw).contains(up.x) && (0...uh).contains(up.y))
            #expect(distance(orientation.storedPoint(fromUpright: up, storedWidth: w, storedHeight: h), q) < 1e-9)
        }
    }

    @Test("upright corners map to the stored corners the pixels say")
    func cornerMapping() {
        // The stored top-left pixel (0,0) of a 640×480 frame, per orientation, appears at this upright corner.
        let (w, h) = (640.0, 480.0)
        let origin = Point(x: 0, y: 0)
        let expected: [Orientation: Point] = [
            .up: Point(x: 0, y: 0), .upMirrored: Point(x: 640, y: 0), .down: Point(x: 640, y: 480),
            .downMirrored: Point(x: 0, y: 480), .leftMirrored: Point(x: 0, y: 0), .right: Point(x: 480, y: 0),
            .rightMirrored: Point(x: 480, y: 640), .left: Point(x: 0, y: 640),
        ]
        for o in Orientation.allCases {
            #expect(o.uprightPoint(fromStored: origin, storedWidth: w, storedHeight: h) == expected[o], "\(o)")
        }
    }

    @Test("EXIF numbers, degrees, swaps and parsing")
    func metadata() {
        #expect(Orientation.allCases.map(\.rawValue) == Array(1...8))
        #expect(Orientation.allCases.filter(\.swapsDimensions) == [.leftMirrored, .right, .rightMirrored, .left])
        #expect(Orientation.allCases.map(\.clockwiseDegrees) == [0, 0, 180, 180, 270, 90, 90, 270])
        #expect(Orientation(clockwiseDegrees: 90) == .right)
        #expect(Orientation(clockwiseDegrees: -90) == .left)
        #expect(Orientation(clockwiseDegrees: 540) == .down)
        #expect(Orientation(clockwiseDegrees: 45) == nil)
        #expect(Orientation(parsing: "6") == .right)
        #expect(Orientation(parsing: "270deg") == .left)
        #expect(Orientation(parsing: "RightMirrored") == .rightMirrored)
        #expect(Orientation(parsing: "9") == nil)
        #expect(Orientation(parsing: "sideways") == nil)
    }

    @Test("planar formats are refused by applyingOrientation", arguments: [PixelFormat.nv12, .nv12FullRange, .i420])
    func planarRefused(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 4, height: 2)
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in
            try frame.buffer.applyingOrientation(.right)
        }
        // Its gray view can be oriented.
        let gray = try frame.buffer.convertedToGray().applyingOrientation(.right)
        #expect(gray.width == 2 && gray.height == 4)
    }

    @Test("uprightWidth/Height follow the buffer's own orientation")
    func uprightSize() throws {
        let frame = try PaddedFrame(format: .gray8, width: 640, height: 480, orientation: .right)
        #expect(frame.buffer.uprightWidth == 480 && frame.buffer.uprightHeight == 640)
        var b = frame.buffer
        b.orientation = .down
        #expect(b.uprightWidth == 640 && b.uprightHeight == 480)
    }
}

extension PixelBuffer {
    func uprightWidth(as o: Orientation) -> Int { o.swapsDimensions ? height : width }
    func uprightHeight(as o: Orientation) -> Int { o.swapsDimensions ? width : height }
}
