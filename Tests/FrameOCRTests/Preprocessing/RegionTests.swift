import FrameOCRTestSupport
import Testing

@testable import FrameOCR

@Suite("Regions of interest (R17) and FrameTransform")
struct RegionTests {
    // MARK: R17 on a 640×480 upright frame

    @Test("partly-outside regions are clamped to the intersection and flagged")
    func clamps() throws {
        let a = try RegionOfInterest.pixels(PixelRect(x: 600, y: 400, width: 100, height: 100)).resolve(
            width: 640, height: 480)
        #expect(a.rect == PixelRect(x: 600, y: 400, width: 40, height: 80))
        #expect(a.clamped)
        let b = try RegionOfInterest.pixels(PixelRect(x: -10, y: -10, width: 50, height: 50)).resolve(
            width: 640, height: 480)
        #expect(b.rect == PixelRect(x: 0, y: 0, width: 40, height: 40))
        #expect(b.clamped)
        let inside = try RegionOfInterest.pixels(PixelRect(x: 0, y: 0, width: 640, height: 480)).resolve(
            width: 640, height: 480)
        #expect(inside.rect == PixelRect(x: 0, y: 0, width: 640, height: 480))
        #expect(!inside.clamped)
    }

    @Test(
        "negative or zero size and fully-outside regions throw invalidROI (any policy)",
        arguments: [
            PixelRect(x: 100, y: 100, width: -1, height: 313), PixelRect(x: 700, y: 10, width: 20, height: 20),
            PixelRect(x: 0, y: 0, width: 0, height: 10), PixelRect(x: 0, y: 0, width: 10, height: 0),
            PixelRect(x: -50, y: 0, width: 50, height: 10), PixelRect(x: 0, y: 480, width: 10, height: 10),
            PixelRect(x: 640, y: 0, width: 1, height: 1),
        ])
    func invalid(rect: PixelRect) throws {
        for policy in [RegionOfInterest.Policy.clamp, .strict] {
            let error = expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in
                try RegionOfInterest.pixels(rect).resolve(width: 640, height: 480, policy: policy)
            }
            #expect(error?.stage == .crop)
        }
    }

    @Test("strict policy throws invalidROI for partly-outside regions and accepts inside ones")
    func strict() throws {
        for rect in [
            PixelRect(x: 600, y: 400, width: 100, height: 100), PixelRect(x: -10, y: -10, width: 50, height: 50),
            PixelRect(x: 0, y: 0, width: 641, height: 480),
        ] {
            expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in
                try RegionOfInterest.pixels(rect).resolve(width: 640, height: 480, policy: .strict)
            }
        }
        let ok = try RegionOfInterest.pixels(PixelRect(x: 600, y: 400, width: 40, height: 80)).resolve(
            width: 640, height: 480, policy: .strict)
        #expect(ok.rect == PixelRect(x: 600, y: 400, width: 40, height: 80) && !ok.clamped)
    }

    @Test("an upright-space region is checked against the upright size (480×640 for .right)")
    func uprightSpace() throws {
        let roi = RegionOfInterest.pixels(PixelRect(x: 400, y: 500, width: 60, height: 100))
        let r = try roi.resolve(width: 480, height: 640)
        #expect(r.rect == PixelRect(x: 400, y: 500, width: 60, height: 100) && !r.clamped)
        // The same numbers are outside the stored 640×480 frame.
        expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in try roi.resolve(width: 640, height: 480) }
        // Through the pipeline on a stored 640×480 frame with orientation .right.
        let frame = try PaddedFrame(format: .gray8, width: 640, height: 480, padding: 0, orientation: .right) {
            _, x, y, _ in
            UInt8((x + 3 * y) % 200)
        }
        let out = try Pipeline(region: roi).run(frame.buffer)
        #expect(out.image.width == 60 && out.image.height == 100)
        #expect(!out.regionClamped)
        #expect(out.transform.region == PixelRect(x: 400, y: 500, width: 60, height: 100))
        let explicit = try Pipeline(region: roi, orientation: .known(.right)).run(
            try PaddedFrame(format: .gray8, width: 640, height: 480, padding: 0).buffer)
        #expect(explicit.image.width == 60 && explicit.image.height == 100)
    }

    // MARK: Units

    /// Apple Vision measures normalized y from the bottom edge; FrameOCR from the top.
    @Test("Vision's bottom-left origin: regions and boxes convert exactly, corner names kept")
    func bottomLeftOrigin() throws {
        // On a 200×100 upright frame, the pixels (20, 10, 40, 20) are (0.1, 0.1, 0.2, 0.2) from
        // the top-left and (0.1, 0.7, 0.2, 0.2) from the bottom-left.
        let vision = Rect(x: 0.1, y: 0.7, width: 0.2, height: 0.2)
        #expect(
            try RegionOfInterest.normalized(vision, origin: .bottomLeft).resolve(width: 200, height: 100).rect
                == PixelRect(x: 20, y: 10, width: 40, height: 20))
        #expect(RegionOfInterest.normalized(vision, origin: .topLeft) == .normalized(vision))
        #expect(vision.flippedVertically().flippedVertically() == vision)
        // In pixels, within the frame's height: Vision's VNImageRectForNormalizedRect, then flipped.
        #expect(
            Rect(x: 20, y: 70, width: 40, height: 20).flippedVertically(within: 100)
                == Rect(x: 20, y: 10, width: 40, height: 20))
        #expect(Point(x: 3, y: 25).flippedVertically(within: 100) == Point(x: 3, y: 75))
        let transform = FrameTransform(
            orientation: .up, rawWidth: 200, rawHeight: 100, region: PixelRect(x: 0, y: 0, width: 200, height: 100))
        let box = TextBox(outputLeft: 20, top: 10, right: 60, bottom: 30, transform: transform)
        #expect(box.normalizedRect(origin: .topLeft) == box.normalizedRect)
        let r = box.normalizedRect(origin: .bottomLeft)
        #expect(
            abs(r.x - 0.1) < 1e-12 && abs(r.y - 0.7) < 1e-12 && abs(r.width - 0.2) < 1e-12
                && abs(r.height - 0.2) < 1e-12)
        let q = box.normalizedQuad(origin: .bottomLeft)
        // The text's top-left corner is still `topLeft`, now the higher y of the two.
        #expect(abs(q.topLeft.x - 0.1) < 1e-12 && abs(q.topLeft.y - 0.9) < 1e-12)
        #expect(abs(q.bottomRight.x - 0.3) < 1e-12 && abs(q.bottomRight.y - 0.7) < 1e-12)
        #expect(q.topLeft.y > q.bottomLeft.y)
    }

    @Test("normalized and scanRegion (percent) forms resolve to the same pixels as the pixel form")
    func equivalentForms() throws {
        let pixels = try RegionOfInterest.pixels(PixelRect(x: 64, y: 96, width: 320, height: 144)).resolve(
            width: 640, height: 480)
        let normalized = try RegionOfInterest.normalized(Rect(x: 0.1, y: 0.2, width: 0.5, height: 0.3)).resolve(
            width: 640, height: 480)
        let percent = try RegionOfInterest.scanRegion(left: 10, top: 20, width: 50, height: 30).resolve(
            width: 640, height: 480)
        #expect(pixels.rect == PixelRect(x: 64, y: 96, width: 320, height: 144))
        #expect(normalized.rect == pixels.rect && percent.rect == pixels.rect)
        #expect(!normalized.clamped && !percent.clamped)
        // On a portrait upright frame (480×640).
        let n2 = try RegionOfInterest.normalized(Rect(x: 0.25, y: 0.5, width: 0.5, height: 0.25)).resolve(
            width: 480, height: 640)
        let p2 = try RegionOfInterest.scanRegion(left: 25, top: 50, width: 50, height: 25).resolve(
            width: 480, height: 640)
        #expect(n2.rect == PixelRect(x: 120, y: 320, width: 240, height: 160) && p2.rect == n2.rect)
    }

    @Test("fractional edges round to the nearest pixel; partly-outside normalized regions clamp")
    func roundingAndClamping() throws {
        // 0.101·640 = 64.64 → 65; (0.101+0.2)·640 = 192.64 → 193.
        let r = try RegionOfInterest.normalized(Rect(x: 0.101, y: 0, width: 0.2, height: 1)).resolve(
            width: 640, height: 480)
        #expect(r.rect == PixelRect(x: 65, y: 0, width: 128, height: 480))
        let c = try RegionOfInterest.normalized(Rect(x: 0.9, y: -0.1, width: 0.2, height: 0.5)).resolve(
            width: 640, height: 480)
        #expect(c.rect == PixelRect(x: 576, y: 0, width: 64, height: 192) && c.clamped)
        let s = try RegionOfInterest.scanRegion(left: 90, top: 90, width: 20, height: 20).resolve(
            width: 640, height: 480)
        #expect(s.rect == PixelRect(x: 576, y: 432, width: 64, height: 48) && s.clamped)
        expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in
            try RegionOfInterest.scanRegion(left: 90, top: 90, width: 20, height: 20).resolve(
                width: 640, height: 480, policy: .strict)
        }
    }

    @Test(
        "degenerate normalized and percent regions throw invalidROI",
        arguments: [
            RegionOfInterest.normalized(Rect(x: 0, y: 0, width: 0, height: 0.5)),
            .normalized(Rect(x: 0.2, y: 0.2, width: -0.1, height: 0.5)),
            .normalized(Rect(x: .nan, y: 0, width: 0.5, height: 0.5)),
            .normalized(Rect(x: 0, y: 0, width: .infinity, height: 0.5)),
            .normalized(Rect(x: 1.5, y: 0, width: 0.5, height: 0.5)),
            .normalized(Rect(x: 0, y: 0, width: 0.0001, height: 0.5)),  // rounds to 0 pixels
            .scanRegion(left: 0, top: 0, width: 0, height: 50),
            .scanRegion(left: 0, top: 0, width: 50, height: -5),
            .scanRegion(left: 120, top: 0, width: 10, height: 10),
            .scanRegion(left: .nan, top: 0, width: 10, height: 10),
        ])
    func degenerate(region: RegionOfInterest) throws {
        expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in try region.resolve(width: 640, height: 480) }
    }

    // MARK: FrameTransform

    @Test("output → upright → raw → upright → output round-trips within 1e-9", arguments: Orientation.allCases)
    func roundTrips(orientation: Orientation) {
        let t = FrameTransform(
            orientation: orientation, rawWidth: 640, rawHeight: 480,
            region: PixelRect(x: 37, y: 53, width: 101, height: 77), scaleX: 1.7, scaleY: 0.3)
        #expect(t.uprightWidth == (orientation.swapsDimensions ? 480 : 640))
        #expect(t.uprightHeight == (orientation.swapsDimensions ? 640 : 480))
        #expect(t.outputWidth == 172 && t.outputHeight == 23)  // round(101·1.7), round(77·0.3)
        for i in 0...10 {
            for j in 0...10 {
                let output = Point(
                    x: Double(t.outputWidth) * Double(i) / 10, y: Double(t.outputHeight) * Double(j) / 10 + 0.123)
                let upright = t.uprightPoint(fromOutput: output)
                let raw = t.rawPoint(fromUpright: upright)
                #expect(distance(t.rawPoint(fromOutput: output), raw) < 1e-9)
                #expect((-1e-9...640 + 1e-9).contains(raw.x) && (-1e-9...480 + 1e-9).contains(raw.y))
                let upright2 = t.uprightPoint(fromRaw: raw)
                #expect(distance(upright2, upright) < 1e-9)
                #expect(distance(t.outputPoint(fromUpright: upright2), output) < 1e-9)
                #expect(distance(t.outputPoint(fromRaw: raw), output) < 1e-9)
            }
        }
        // The output origin is the region's upright origin.
        #expect(t.uprightPoint(fromOutput: Point(x: 0, y: 0)) == Point(x: 37, y: 53))
        #expect(t.uprightPoint(fromOutput: Point(x: 172, y: 23)).x == 37 + 172 / 1.7)
    }

    @Test("rawRect(fromUpright:) gives the stored rectangle of an upright region")
    func rawRects() {
        let region = PixelRect(x: 400, y: 500, width: 60, height: 100)
        let expected: [Orientation: PixelRect] = [
            // Upright 480×640 (orientations 5…8) from a stored 640×480 frame.
            .right: PixelRect(x: 500, y: 20, width: 100, height: 60),
            .left: PixelRect(x: 40, y: 400, width: 100, height: 60),
            .leftMirrored: PixelRect(x: 500, y: 400, width: 100, height: 60),
            .rightMirrored: PixelRect(x: 40, y: 20, width: 100, height: 60),
        ]
        for (o, want) in expected {
            let t = FrameTransform(orientation: o, rawWidth: 640, rawHeight: 480, region: region)
            #expect(t.rawRect(fromUpright: region) == want, "\(o)")
        }
        let small = PixelRect(x: 10, y: 20, width: 30, height: 40)
        let flat: [Orientation: PixelRect] = [
            .up: small, .upMirrored: PixelRect(x: 600, y: 20, width: 30, height: 40),
            .down: PixelRect(x: 600, y: 420, width: 30, height: 40),
            .downMirrored: PixelRect(x: 10, y: 420, width: 30, height: 40),
        ]
        for (o, want) in flat {
            #expect(
                FrameTransform(orientation: o, rawWidth: 640, rawHeight: 480, region: small).rawRect(fromUpright: small)
                    == want, "\(o)")
        }
    }

    @Test("normalized upright points divide by the upright size")
    func normalizedPoints() {
        let t = FrameTransform(
            orientation: .right, rawWidth: 640, rawHeight: 480, region: PixelRect(x: 0, y: 0, width: 480, height: 640))
        #expect(t.normalizedPoint(fromUpright: Point(x: 240, y: 160)) == Point(x: 0.5, y: 0.25))
        #expect(t.outputWidth == 480 && t.outputHeight == 640)
    }

    @Test("PixelRect(enclosing:padding:) rounds outwards and pads every side")
    func enclosingRect() {
        #expect(
            PixelRect(enclosing: Rect(x: 10.2, y: 5.9, width: 3.5, height: 2.0))
                == PixelRect(x: 10, y: 5, width: 4, height: 3))
        #expect(
            PixelRect(enclosing: Rect(x: 4, y: 6, width: 10, height: 2), padding: 3)
                == PixelRect(x: 1, y: 3, width: 16, height: 8))
    }
}
