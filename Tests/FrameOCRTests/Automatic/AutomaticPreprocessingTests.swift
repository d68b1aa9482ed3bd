import Foundation
import FrameOCREvaluation
import Testing

@testable import FrameOCR

/// Each automatic decision on an input made for it, with the text that must come out.
@Suite("Automatic preprocessing", .tags(.tesseract))
struct AutomaticPreprocessingTests {
    /// The CLI's default: automatic preprocessing of an image whose orientation nobody knows.
    static let automatic = Pipeline(orientation: .unknown, automatic: AutomaticPreprocessing())

    /// phototest.tif as gray8.
    static func page() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif")).convertedToGray().copy()
    }

    static func inverted(_ b: PixelBuffer) throws -> PixelBuffer {
        try PixelBuffer(packed: b.packedBytes().map { 255 - $0 }, width: b.width, height: b.height, pixelFormat: .gray8)
    }

    @Test("Light text on a dark page is inverted and read; the decision says why")
    func invertedPage() throws {
        let result = try sharedRecognizer.recognize(Self.inverted(Self.page()), pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.invertedRegions > 0 && d.invertedRegions <= d.regions)
        #expect(d.reasons.contains { $0.hasPrefix("polarity:") && $0.contains("inverted") })
        #expect(
            TextMetrics.characterErrorRate(hypothesis: result.text, reference: try OCRFixture.text("phototest.gt.txt"))
                < 0.03)
    }

    @Test("Per region: the top half dark with light text, the bottom half as printed — both read")
    func mixedPolarity() throws {
        let page = try Self.page()
        var bytes = page.packedBytes()
        let half = page.height / 2 - 30  // between the third and the fifth line of text
        for i in 0..<(half * page.width) { bytes[i] = 255 - bytes[i] }
        let mixed = try PixelBuffer(packed: bytes, width: page.width, height: page.height, pixelFormat: .gray8)
        let plain = try sharedRecognizer.recognize(mixed)
        let auto = try sharedRecognizer.recognize(mixed, pipeline: Self.automatic)
        let d = try #require(auto.preprocessing)
        #expect(d.invertedRegions > 0 && d.invertedRegions < d.regions, "\(d.invertedRegions) of \(d.regions)")
        #expect(auto.text.contains("This is a lot of 12 point text"))
        #expect(auto.text.contains("lazy fox"))
        #expect(
            TextMetrics.wordRecall(hypothesis: auto.text, reference: try OCRFixture.text("phototest.gt.txt"))
                >= TextMetrics.wordRecall(hypothesis: plain.text, reference: try OCRFixture.text("phototest.gt.txt")))
    }

    @Test("R01 A: OPEN 24H in 235 on 20 (320×64, caps 28 px) is inverted and read")
    func r01Inverted() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("r01-open24h-inverted.png"))
        let result = try sharedRecognizer.recognize(image, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.invertedRegions == d.regions && d.regions > 0)
        #expect(result.text == "OPEN 24H")
    }

    @Test("R01 B: dark-on-light ABC 123 above light-on-dark XYZ 789 — polarity per region, both lines read")
    func r01Mixed() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("r01-mixed-polarity.png"))
        let plain = try sharedRecognizer.recognize(image)
        let result = try sharedRecognizer.recognize(image, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.invertedRegions * 2 == d.regions, "the bottom half only: \(d.invertedRegions) of \(d.regions)")
        #expect(result.text == "ABC 123\nXYZ 789")
        #expect(plain.text != result.text, "without the automatic mode one line is lost: \(plain.text)")
    }

    @Test("R01 C: a uniformly dark 320×64 frame (15) is not inverted: empty text, nil confidence")
    func r01Guard() throws {
        let dark = try PixelBuffer(
            packed: [UInt8](repeating: 15, count: 320 * 64), width: 320, height: 64, pixelFormat: .gray8)
        let result = try sharedRecognizer.recognize(dark, pipeline: Self.automatic)
        #expect(result.preprocessing?.invertedRegions == 0)
        #expect(result.text.isEmpty && result.confidence == nil)
    }

    @Test("R06 A: a five-line label rotated 270° — OSD has too few characters; the rotation trial reads it")
    func r06Label() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("r06-label-rotated.png"))
        #expect(
            try sharedRecognizer.detectOrientation(image).map { $0.confidence < 2 } ?? true, "OSD is not confident here"
        )
        let result = try sharedRecognizer.recognize(image, pipeline: Self.automatic)
        let d = try #require(result.preprocessing?.orientation)
        #expect(d.orientation == .right && d.method == .confidence)
        #expect(result.text == "SHIP TO 4471\nACME PARTS\nLOT 20931B\nQTY 12 BOXES\nMADE IN USA")
        // The frame's own orientation is metadata: given, nothing is detected.
        var given = try PixelBuffer(contentsOfFile: OCRFixture.path("r06-label-rotated.png"))
        given.orientation = .right
        let known = try sharedRecognizer.recognize(
            given, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        #expect(known.preprocessing?.orientation == nil && known.text == result.text)
        #expect(
            known.preprocessing?.reasons.contains("orientation: right, given by the frame: known, not detected") == true
        )
    }

    @Test("A uniformly dark frame with no text is left alone: nothing inverted, no text")
    func darkFrame() throws {
        let dark = try PixelBuffer(
            packed: [UInt8](repeating: 30, count: 320 * 240), width: 320, height: 240, pixelFormat: .gray8)
        let result = try sharedRecognizer.recognize(dark, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.invertedRegions == 0)
        #expect(d.scale == 1 && d.border == 0)
        #expect(result.text.isEmpty)
        #expect(
            d.orientation?.method == .inconclusive && d.orientation?.orientation == nil,
            "unknown stays unknown, never a fake 0°")
    }

    @Test("The orientation decision's method is the JSON's string: osd, confidence, none (inconclusive)")
    func orientationMethodStrings() throws {
        let methods: [OrientationDecision.Method] = [.osd, .confidence, .inconclusive]
        #expect(methods.map(\.rawValue) == ["osd", "confidence", "none"])
        // Written before the method was an enum: decodes, and encodes back to the same bytes.
        let json = Data(#"{"confidence":0.25,"method":"none"}"#.utf8)
        let decoded = try JSONDecoder().decode(OrientationDecision.self, from: json)
        #expect(decoded.method == .inconclusive && decoded.orientation == nil && decoded.confidence == 0.25)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(decoded) == json)
        let osd = try JSONDecoder().decode(
            OrientationDecision.self, from: Data(#"{"confidence":9,"method":"osd","orientation":8}"#.utf8))
        #expect(osd.method == .osd && osd.orientation == .left)
    }

    @Test("Tiny text (phototest at 40 %) is scaled up and read; boxes come back in the small image's pixels")
    func tinyText() throws {
        let small = try Self.page().scaled(by: 0.4)
        let result = try sharedRecognizer.recognize(small, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.scale > 1.5, "scale \(d.scale), text height \(String(describing: d.textHeight))")
        #expect(d.textHeight.map { $0 < 10 } == true)
        #expect(result.text.contains("lazy fox"))
        #expect(
            TextMetrics.characterErrorRate(hypothesis: result.text, reference: try OCRFixture.text("phototest.gt.txt"))
                < 0.05)
        for w in result.words {
            #expect(w.box.rect.x >= 0 && w.box.rect.y >= 0)
            #expect(w.box.rect.x + w.box.rect.width <= Double(small.width) + 0.5)
            #expect(w.box.rect.y + w.box.rect.height <= Double(small.height) + 0.5)
        }
    }

    @Test("Condensed display text (phototest 2× tall, 0.8× wide: letters 0.3 as wide as tall) is stretched and read")
    func condensed() throws {
        let page = try Self.page()
        let narrow = try page.resized(width: page.width * 8 / 10, height: page.height * 2)
        let result = try sharedRecognizer.recognize(narrow, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.textAspect.map { $0 < 0.37 } == true, "\(String(describing: d.textAspect))")
        #expect(d.stretch > 1.8 && d.stretch <= 2.5)
        #expect(d.reasons.contains { $0.hasPrefix("stretch:") })
        #expect(
            TextMetrics.characterErrorRate(hypothesis: result.text, reference: try OCRFixture.text("phototest.gt.txt"))
                < 0.03)
        // Boxes come back in the narrow image's pixels.
        let fox = try #require(result.words.first { $0.text == "lazy" })
        #expect(fox.box.rect.x + fox.box.rect.width <= Double(narrow.width) + 0.5 && fox.box.rect.width < 60)
    }

    @Test("A tight crop of one line gets a white border and PSM 7, and its box stays inside the crop")
    func tightCrop() throws {
        let page = try Self.page()
        // The first line of phototest, cut at its ink (found with the recognizer's own box).
        let first = try #require(sharedRecognizer.recognize(page).blocks.first?.lines.first)
        let r = first.box.rect
        let crop = try page.cropped(to: PixelRect(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)))
            .copy()
        let result = try sharedRecognizer.recognize(crop, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.singleLine)
        #expect(d.border >= 8)
        #expect(d.pageSegmentationMode == .singleLine)
        #expect(result.text == "This is a lot of 12 point text to test the")
        for w in result.words {
            #expect(w.box.rect.x >= 0 && w.box.rect.x + w.box.rect.width <= Double(crop.width) + 0.5)
        }
    }

    @Test("LineReadingOptions.textHeight is what a single line is scaled to (36 by default, 48 when set)")
    func lineReadingOptions() throws {
        #expect(AutomaticPreprocessing().lines == LineReadingOptions())
        #expect(LineReadingOptions().textHeight == 36 && LineReadingOptions.scaleTolerance == 1.1)
        var taller = AutomaticPreprocessing()
        taller.lines.textHeight = 48
        let line = try Self.markLine(height: 44)  // text about 0.7 × 44 = 30.8 px
        let d36 = try #require(
            try Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()).run(line).decisions)
        let d48 = try #require(try Pipeline(orientation: .fromFrame, automatic: taller).run(line).decisions)
        #expect(abs(d36.scale - 36 / 30.8) < 0.02, "\(d36.reasons)")
        #expect(abs(d48.scale - 48 / 30.8) < 0.02, "\(d48.reasons)")
    }

    /// A line of 12 glyph-like marks (a bar and a ring, 20 px tall, 3 px strokes) on white,
    /// `height` pixels tall: automatic preprocessing takes it for a single line whose text is
    /// about max(20, 0.7 × height) px tall.
    static func markLine(height: Int) throws -> PixelBuffer {
        let width = 320
        var bytes = [UInt8](repeating: 255, count: width * height)
        let top = (height - 20) / 2
        for g in 0..<12 {
            let left = 12 + g * 25
            for y in top..<(top + 20) {
                for x in left..<(left + 14) {
                    let ring = x < left + 3 || x >= left + 11 || y < top + 3 || y >= top + 17
                    if g % 2 == 0 ? (x >= left + 5 && x < left + 8) : ring { bytes[y * width + x] = 0 }
                }
            }
        }
        return try PixelBuffer(packed: bytes, width: width, height: height, pixelFormat: .gray8)
    }

    @Test(
        "A single line is scaled to 36 px unless within ×1.1 of it",
        arguments: [(44, 36 / 30.8), (46, 36 / 32.2), (49, 1.0)])
    func lineScaleTolerance(_ height: Int, _ expected: Double) throws {
        let prepared = try Self.automatic.run(Self.markLine(height: height))
        let d = try #require(prepared.decisions)
        #expect(d.singleLine)
        #expect(abs(d.scale - expected) < 0.02, "\(d.reasons)")
        #expect(d.reasons.contains { $0.hasPrefix("scale: a single line") } == (expected != 1))
    }

    @Test(
        "Unknown orientation: each of the four rotations is detected and read",
        arguments: [Orientation.up, .right, .down, .left])
    func rotations(_ stored: Orientation) throws {
        // The page as a camera would store it when it must turn `stored` to be upright.
        let frame = try Self.page().applyingOrientation(stored.inverse)
        let result = try sharedRecognizer.recognize(frame, pipeline: Self.automatic)
        let d = try #require(result.preprocessing?.orientation)
        #expect(d.orientation == stored, "\(d.method) \(d.confidence)")
        #expect(result.transform.orientation == stored)
        // Upright, the page reads confidently as stored and is not detected; turned, it is.
        let skipped = result.preprocessing?.reasons.contains { $0.hasPrefix("orientation: reads well as stored") }
        #expect(skipped == (stored == .up), "\(result.preprocessing?.reasons ?? [])")
        #expect(d.method == (stored == .up ? .confidence : .osd))
        #expect(
            TextMetrics.characterErrorRate(hypothesis: result.text, reference: try OCRFixture.text("phototest.gt.txt"))
                < 0.03)
    }

    @Test(
        "Orientation detection's engine, loaded on the first turned page, is engineLoad, not automatic; the stages add up"
    )
    func orientationEngineLoad() throws {
        let recognizer = try Recognizer(configuration: .init(engine: .tesseract), maxIdleEngines: 1)
        let upright = try Self.page()
        let turned = try upright.applyingOrientation(Orientation.right.inverse)
        var loads: [Duration] = []
        // Upright first: the page's engine, loaded with the recognizer, is idle; no detection. Then
        // turned twice: the orientation engine (`osd.traineddata`) loads on the first, is idle on
        // the second.
        for (i, frame) in [upright, turned, turned].enumerated() {
            let result = try recognizer.recognize(frame, pipeline: Self.automatic)
            #expect(result.preprocessing?.orientation?.method == (i == 0 ? .confidence : .osd))
            let t = result.timings
            loads.append(t.engineLoad)
            #expect(t.sumOfStages <= t.total && t.sumOfStages >= t.total * 0.95, "\(t)")
        }
        #expect(loads[0] < .milliseconds(5), "\(loads)")
        #expect(loads[1] > .milliseconds(10), "\(loads)")
        #expect(loads[2] < .milliseconds(5), "\(loads)")
    }

    @Test("A given orientation or a region is taken as known: no detection")
    func knownOrientation() throws {
        var pipeline = Self.automatic
        pipeline.orientation = .known(.up)
        let result = try sharedRecognizer.recognize(Self.page(), pipeline: pipeline)
        #expect(result.preprocessing != nil && result.preprocessing?.orientation == nil)
        #expect(
            result.preprocessing?.reasons.contains("orientation: up, given by the pipeline: known, not detected")
                == true)
    }

    /// The trap of a camera plugin's "UP": `.up` means upright wherever it is given, and only
    /// `.unknown` asks for detection; the reasons say which applied.
    @Test("Orientation: .up is upright on the frame and in the pipeline alike; only .unknown is detected")
    func orientationMeanings() throws {
        let reference = try OCRFixture.text("phototest.gt.txt")
        // phototest stored turned: it must be rotated 90° clockwise to be upright.
        let turned = try Self.page().applyingOrientation(Orientation.right.inverse)
        let automatic = AutomaticPreprocessing()
        let fromFrame = try sharedRecognizer.recognize(
            turned, pipeline: Pipeline(orientation: .fromFrame, automatic: automatic))
        let knownUp = try sharedRecognizer.recognize(
            turned, pipeline: Pipeline(orientation: .known(.up), automatic: automatic))
        for (result, by) in [(fromFrame, "the frame"), (knownUp, "the pipeline")] {
            // Taken as upright: read as stored, nothing detected — and the result says so.
            #expect(result.preprocessing?.orientation == nil && result.transform.orientation == .up)
            #expect(
                result.preprocessing?.reasons.contains("orientation: up, given by \(by): known, not detected") == true)
            #expect(TextMetrics.characterErrorRate(hypothesis: result.text, reference: reference) > 0.5)
        }
        let unknown = try sharedRecognizer.recognize(
            turned, pipeline: Pipeline(orientation: .unknown, automatic: automatic))
        #expect(unknown.preprocessing?.orientation?.orientation == .right && unknown.transform.orientation == .right)
        #expect(TextMetrics.characterErrorRate(hypothesis: unknown.text, reference: reference) < 0.03)
        // Unknown but not detectable here: a region is in upright coordinates.
        var region = Pipeline(orientation: .unknown, automatic: automatic)
        region.region = .normalized(Rect(x: 0, y: 0, width: 1, height: 0.5))
        let withRegion = try sharedRecognizer.recognize(turned, pipeline: region)
        #expect(withRegion.preprocessing?.orientation == nil)
        #expect(
            withRegion.preprocessing?.reasons.contains {
                $0.hasPrefix("orientation: unknown, not detected with a region set")
            } == true)
        // The frame's own orientation, given: applied, not detected.
        var stored = turned
        stored.orientation = .right
        let given = try sharedRecognizer.recognize(
            stored, pipeline: Pipeline(orientation: .fromFrame, automatic: automatic))
        #expect(given.text == unknown.text && given.preprocessing?.orientation == nil)
        #expect(Pipeline.OrientationSource.unknown.resolved(for: stored) == .up)
        #expect(Pipeline.OrientationSource.fromFrame.resolved(for: stored) == .right)
        #expect(Pipeline.OrientationSource.known(.left).resolved(for: stored) == .left)
    }

    @Test("An explicit threshold turns the automatic mode off")
    func explicitThreshold() throws {
        var pipeline = Self.automatic
        pipeline.threshold = AdaptiveThreshold(method: .mean)
        #expect(try sharedRecognizer.recognize(Self.page(), pipeline: pipeline).preprocessing == nil)
    }

    @Test("Clean text of a good size is left as it is")
    func cleanPage() throws {
        let result = try sharedRecognizer.recognize(Self.page(), pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.scale == 1 && d.invertedRegions == 0 && d.border == 0 && d.pageSegmentationMode == nil)
        #expect(d.textHeight.map { (14...30).contains($0) } == true, "\(String(describing: d.textHeight))")
    }

    @Test("A plate's number amid a frame, a state name and a sticker is read alone and merged into the page's reading")
    func dominantLine() throws {
        let plate = try PixelBuffer(contentsOfFile: OCRFixture.path("dominant-line-plate.png"))
        let result = try sharedRecognizer.recognize(plate, pipeline: Self.automatic)
        #expect(result.lines.map(\.text).contains("4GHT925"))
        #expect(result.text.contains("CALIFORNIA") && result.text.contains("dmv.ca.gov"))
        let d = try #require(result.preprocessing)
        // The number is drawn at x 24…296, y 42…132 (Tests/FixtureGenerators/make_scene_fixtures.py).
        let line = try #require(d.dominantLine)
        #expect(
            line.x >= 24 && line.maxX <= 296 && line.y >= 42 && line.maxY <= 132 && line.width > 180 && line.height > 50
        )
        let word = try #require(result.words.first { $0.text == "4GHT925" })
        #expect(word.box.rect.x >= 20 && word.box.rect.x + word.box.rect.width <= 300)
        #expect(word.box.rect.y >= 40 && word.box.rect.y + word.box.rect.height <= 135)
        #expect(
            d.reasons.contains { $0.hasPrefix("dominant line: 7 characters") && $0.hasSuffix("its words replace them") }
        )
        // The text-line reading leaves the dominant line alone (it was read already).
        #expect(d.textLines.map { $0.allSatisfy { $0.intersection(line) == nil } } ?? true)
        // Without it the text-line reading finds the number as a line of large text; without
        // both, the page's reading misses it.
        var off = Recognizer.Options()
        off.secondReadings = SecondReadings()
        off.secondReadings?.dominantLine = false
        let lines = try sharedRecognizer.recognize(plate, pipeline: Self.automatic, options: off)
        #expect(
            lines.text.contains("4GHT925") && lines.preprocessing?.dominantLine == nil
                && lines.preprocessing?.textLines != nil)
        off.secondReadings?.textLines = false
        let tesseract = try Recognizer(configuration: .init(engine: .tesseract), maxIdleEngines: 1)
        let page = try tesseract.recognize(plate, pipeline: Self.automatic, options: off)
        #expect(!page.text.contains("4GHT925") && page.preprocessing?.dominantLine == nil)
        // With the CTC engine (the default, auto) the frame reads as a scene instead: the
        // number is one of its regions.
        let scene = try sharedRecognizer.recognize(plate, pipeline: Self.automatic, options: off)
        #expect(scene.text.contains("4GHT925") && scene.preprocessing?.sceneText != nil, "\(scene.text)")
        // The recognizer's default holds for per-call options that do not set their own (a
        // frame's whitelist must not switch the second readings back on); one that does wins.
        let quiet = try Recognizer(configuration: .init(defaultOptions: .init(secondReadings: .off)), maxIdleEngines: 1)
        let perCall = try quiet.recognize(plate, pipeline: Self.automatic, options: .init(sourceResolution: 300))
        #expect(perCall.preprocessing?.dominantLine == nil && perCall.preprocessing?.textLines == nil)
        #expect(!perCall.text.contains("4GHT925"))
        let asked = try quiet.recognize(
            plate, pipeline: Self.automatic, options: .init(secondReadings: SecondReadings()))
        #expect(asked.text.contains("4GHT925") && asked.preprocessing?.dominantLine != nil)
    }

    @Test("Orientation detection runs on its osd engine; a text engine is refused (Tesseract would abort)")
    func osdOnly() throws {
        let page = try Self.page()
        let (o, confidence) = try #require(
            try sharedRecognizer.detectOrientation(page.applyingOrientation(Orientation.right.inverse)))
        #expect(o == .right && confidence > 2)
        let eng = try TesseractEngine(
            configuration: Recognizer.Configuration(), userWordsFile: nil, userPatternsFile: nil)
        #expect(eng.detectOrientation(page, sourceResolution: 300) == nil)
    }
}
