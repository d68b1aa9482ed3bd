import Foundation
import FrameOCREvaluation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Skew correction in the automatic mode: the shim's angle and rotation (signs pinned down), the
/// decision on turned and straight pages, boxes back on the skewed words, and the transform.
@Suite("Skew correction", .tags(.tesseract))
struct SkewCorrectionTests {
    static let automatic = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())
    /// White pixels added on every side when a fixture is turned, so no text is cut.
    static let margin = 40

    /// phototest.tif as gray8 (640×480, nine lines of 12 point text).
    static func page() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif")).convertedToGray().copy()
    }

    /// `image` turned `degrees` clockwise about its center into a buffer `margin` pixels larger on
    /// every side: upright point s lands at R(degrees)·(s − c) + c + margin.
    static func turned(_ image: PixelBuffer, _ degrees: Double) throws -> PixelBuffer {
        try image.rotated(byDegrees: degrees, width: image.width + 2 * margin, height: image.height + 2 * margin)
    }

    /// Where a point of the upright page lands in `turned(page, degrees)`.
    static func turnedPoint(_ p: Point, _ degrees: Double, width: Int, height: Int) -> Point {
        let t = degrees * .pi / 180
        let cx = Double(width) / 2
        let cy = Double(height) / 2
        let dx = p.x - cx
        let dy = p.y - cy
        return Point(
            x: cx + cos(t) * dx - sin(t) * dy + Double(margin), y: cy + sin(t) * dx + cos(t) * dy + Double(margin))
    }

    static func center(_ q: Quad) -> Point {
        Point(
            x: (q.topLeft.x + q.topRight.x + q.bottomRight.x + q.bottomLeft.x) / 4,
            y: (q.topLeft.y + q.topRight.y + q.bottomRight.y + q.bottomLeft.y) / 4)
    }

    // MARK: The shim

    @Test("rotated(byDegrees:) turns clockwise as displayed: a dot right of the center goes down-right by +30°")
    func rotationDirection() throws {
        // 201×201 white, a 5×5 black dot centred 60 px right of the center (100.5, 100.5).
        var bytes = [UInt8](repeating: 255, count: 201 * 201)
        for y in 98...102 { for x in 158...162 { bytes[y * 201 + x] = 0 } }
        let image = try PixelBuffer(packed: bytes, width: 201, height: 201, pixelFormat: .gray8)
        for degrees in [30.0, -30.0] {
            let out = try image.rotated(byDegrees: degrees).packedBytes()
            var sx = 0.0
            var sy = 0.0
            var n = 0.0
            for y in 0..<201 {
                for x in 0..<201 where out[y * 201 + x] < 128 {
                    sx += Double(x)
                    sy += Double(y)
                    n += 1
                }
            }
            let t = degrees * .pi / 180
            // Pixel centers: the dot's center is pixel (160, 100), the image's (100, 100).
            #expect(
                abs(sx / n - (100 + 60 * cos(t))) < 0.5 && abs(sy / n - (100 + 60 * sin(t))) < 0.5,
                "\(degrees)°: \(sx / n), \(sy / n)")
        }
        // A larger destination keeps the centers together: +m on every side.
        let bigger = try image.rotated(byDegrees: 0, width: 221, height: 241).packedBytes()
        #expect(bigger[(100 + 20) * 221 + 160 + 10] == 0 && bigger[0] == 255)
    }

    @Test(
        "Lines turned clockwise give a positive angle, counter-clockwise a negative one (within 0.3°)",
        arguments: [3.0, -3.0, 1.5, -6.0])
    func angleSign(_ degrees: Double) throws {
        let (found, confidence) = try Self.turned(Self.page(), degrees).textSkew(maximumDegrees: 10)
        #expect(abs(found - degrees) < 0.3, "turned \(degrees)°, found \(found)° (confidence \(confidence))")
        #expect(confidence >= 3)
    }

    @Test("No ink, or a range outside 1…45: angle 0 and confidence 0, or an error")
    func noInk() throws {
        let white = try PixelBuffer(
            packed: [UInt8](repeating: 255, count: 300 * 200), width: 300, height: 200, pixelFormat: .gray8)
        let (angle, confidence) = try white.textSkew(maximumDegrees: 10)
        #expect(angle == 0 && confidence == 0)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in _ = try white.textSkew(maximumDegrees: 60)
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in _ = try white.rotated(byDegrees: 50) }
    }

    // MARK: The automatic decision

    @Test(
        "phototest turned ±3°: the skew is found and turned back, the text read, the boxes on the turned words",
        arguments: [3.0, -3.0])
    func turnedPage(_ degrees: Double) throws {
        let page = try Self.page()
        let upright = try sharedRecognizer.recognize(page)
        let skewed = try Self.turned(page, degrees)
        let result = try sharedRecognizer.recognize(skewed, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        let found = try #require(d.skewDegrees, "\(d.reasons)")
        #expect(abs(found - degrees) < 0.3, "found \(found)°")
        #expect(result.transform.skewDegrees == found)
        #expect(
            d.reasons.contains {
                $0.hasPrefix("skew: text is turned") && $0.contains(degrees > 0 ? " clockwise" : "counter-clockwise")
            })
        let reference = try OCRFixture.text("phototest.gt.txt")
        #expect(TextMetrics.characterErrorRate(hypothesis: result.text, reference: reference) < 0.02)
        // Each word's quad lies where the word of the upright page went, and turns with it.
        var compared = 0
        for word in result.words where ["lot", "format.", "lazy", "jumped"].contains(word.text) {
            let candidates = upright.words.filter { $0.text == word.text }
            let expected = candidates.map {
                Self.turnedPoint(Self.center($0.box.quad), degrees, width: page.width, height: page.height)
            }
            let c = Self.center(word.box.quad)
            let nearest = try #require(expected.min { distance($0, c) < distance($1, c) })
            #expect(distance(nearest, c) < 3, "\(word.text): \(c) vs \(nearest)")
            let q = word.box.quad
            let tilt = atan2(q.topRight.y - q.topLeft.y, q.topRight.x - q.topLeft.x) * 180 / .pi
            #expect(abs(tilt - found) < 1e-6, "\(word.text): the quad is turned \(tilt)°")
            let r = word.box.rect
            #expect(r.x >= 0 && r.y >= 0 && r.maxX <= Double(skewed.width) && r.maxY <= Double(skewed.height))
            compared += 1
        }
        #expect(compared >= 8)
    }

    @Test("The generated receipt (6 lines turned 2.5° clockwise by OpenCV in Python) is straightened and read")
    func generatedFixture() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("skew-lines-cw2.5.png"))
        let result = try sharedRecognizer.recognize(image, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        let found = try #require(d.skewDegrees, "\(d.reasons)")
        #expect(abs(found - 2.5) < 0.3, "found \(found)°")
        let reference = try OCRFixture.text("skew-lines.gt.txt")
        #expect(TextMetrics.characterErrorRate(hypothesis: result.text, reference: reference) < 0.02, "\(result.text)")
        // "TOTAL" was drawn with its baseline's left end at (60, 330) of the 720×460 upright card
        // (then turned 2.5° clockwise about the center and padded by 40 px): its quad's
        // bottom-left corner lands there, within the letter's side bearing.
        let total = try #require(result.words.first { $0.text == "TOTAL" })
        let t = 2.5 * .pi / 180
        let dx = 60 - 360.0
        let dy = 330 - 230.0
        let expected = Point(x: 360 + cos(t) * dx - sin(t) * dy + 40, y: 230 + sin(t) * dx + cos(t) * dy + 40)
        #expect(distance(total.box.quad.bottomLeft, expected) < 5, "\(total.box.quad.bottomLeft) vs \(expected)")
    }

    @Test("Straight text is not turned: phototest as scanned measures below 0.4°")
    func straightPage() throws {
        let result = try sharedRecognizer.recognize(Self.page(), pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.skewDegrees == nil && result.transform.skewDegrees == 0 && result.transform.padding == 0)
        #expect(d.reasons.contains { $0.hasPrefix("skew:") && $0.hasSuffix("left") }, "\(d.reasons)")
    }

    @Test(
        "A slight skew needs a clear measurement: with slightSkewDegrees 3 the 2.5° card (confidence about 4) is left")
    func slightSkew() throws {
        var strict = AutomaticPreprocessing()
        strict.slightSkewDegrees = 3
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("skew-lines-cw2.5.png"))
        let d = try #require(
            sharedRecognizer.recognize(image, pipeline: Pipeline(orientation: .fromFrame, automatic: strict))
                .preprocessing)
        #expect(d.skewDegrees == nil)
        #expect(
            d.reasons.contains { $0.hasPrefix("skew:") && $0.contains("below 10.0 for a turn under 3.0°: left") },
            "\(d.reasons)")
    }

    @Test("Skew correction off, or a single line: not measured")
    func notMeasured() throws {
        var off = AutomaticPreprocessing()
        off.skew = false
        let page = try Self.turned(Self.page(), 3)
        let result = try sharedRecognizer.recognize(page, pipeline: Pipeline(orientation: .fromFrame, automatic: off))
        #expect(
            result.preprocessing?.skewDegrees == nil
                && result.preprocessing?.reasons.contains { $0.hasPrefix("skew:") } == false)
        // The first line of phototest, cut at its ink (found with the recognizer's own box).
        let first = try #require(sharedRecognizer.recognize(Self.page()).blocks.first?.lines.first).box.rect
        let line = try Self.page().cropped(to: PixelRect(enclosing: first, padding: 4)).copy()
        let d = try #require(sharedRecognizer.recognize(line, pipeline: Self.automatic).preprocessing)
        #expect(d.singleLine && d.skewDegrees == nil && !d.reasons.contains { $0.hasPrefix("skew:") })
    }

    // MARK: FrameTransform

    @Test(
        "With skew, output → upright → raw → upright → output round-trips within 1e-9",
        arguments: [Orientation.up, .right, .leftMirrored])
    func transformRoundTrip(orientation: Orientation) {
        let t = FrameTransform(
            orientation: orientation, rawWidth: 640, rawHeight: 480,
            region: PixelRect(x: 37, y: 53, width: 101, height: 77), scaleX: 1.7, scaleY: 1.3, padding: 11,
            skewDegrees: -4.25)
        for i in 0...10 {
            for j in 0...10 {
                let output = Point(
                    x: Double(t.outputWidth) * Double(i) / 10, y: Double(t.outputHeight) * Double(j) / 10 + 0.123)
                let upright = t.uprightPoint(fromOutput: output)
                #expect(distance(t.outputPoint(fromUpright: upright), output) < 1e-9)
                #expect(distance(t.outputPoint(fromRaw: t.rawPoint(fromOutput: output)), output) < 1e-9)
            }
        }
        // The scaled region's center is fixed; a point right of it moves down for a clockwise skew.
        let center = Point(x: 11 + 172 / 2.0, y: 11 + 100 / 2.0)  // scaled 172×100, padding 11
        #expect(distance(t.uprightPoint(fromOutput: center), Point(x: 37 + 86 / 1.7, y: 53 + 50 / 1.3)) < 1e-9)
        let clockwise = FrameTransform(
            orientation: .up, rawWidth: 640, rawHeight: 480, region: PixelRect(x: 0, y: 0, width: 200, height: 100),
            skewDegrees: 90 / 9)
        let p = clockwise.uprightPoint(fromOutput: Point(x: 150, y: 50))
        #expect(abs(p.x - (100 + 50 * cos(.pi / 18))) < 1e-9 && abs(p.y - (50 + 50 * sin(.pi / 18))) < 1e-9)
    }

    @Test("Skew 0 keeps the maps exactly as without it; JSON without skewDegrees decodes as 0")
    func transformUnchanged() throws {
        let plain = FrameTransform(
            orientation: .right, rawWidth: 640, rawHeight: 480, region: PixelRect(x: 3, y: 5, width: 101, height: 77),
            scaleX: 1.7, scaleY: 0.3, padding: 9)
        let p = Point(x: 12.345, y: 6.789)
        #expect(plain.uprightPoint(fromOutput: p) == Point(x: 3 + (12.345 - 9) / 1.7, y: 5 + (6.789 - 9) / 0.3))
        #expect(plain.outputPoint(fromUpright: p) == Point(x: (12.345 - 3) * 1.7 + 9, y: (6.789 - 5) * 0.3 + 9))
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as! [String: Any]
        #expect(json["skewDegrees"] as? Double == 0)
        json["skewDegrees"] = nil
        let decoded = try JSONDecoder().decode(FrameTransform.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(decoded == plain)
        var skewed = plain
        skewed.skewDegrees = 2.5
        #expect(try JSONDecoder().decode(FrameTransform.self, from: JSONEncoder().encode(skewed)) == skewed)
    }
}
