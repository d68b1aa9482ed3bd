import Foundation
import FrameOCREvaluation
import FrameOCRSynthesis
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The second reading engine in the reading plan (issue 27): which engine reads what
/// (``EngineSelection``), regions cut out upright (``PixelBuffer/croppedTurned``), the choice
/// between two readings of a line and the regions put in reading order.
@Suite("Engine selection")
struct EngineSelectionTests {
    /// A 6×4 gray image whose pixel (x, y) is 10·y + x.
    static func grid() throws -> PixelBuffer {
        try PixelBuffer(
            packed: (0..<24).map { UInt8(10 * ($0 / 6) + $0 % 6) }, width: 6, height: 4, pixelFormat: .gray8)
    }

    @Test("A turned rectangle cut out upright: exact pixels level and turned a quarter, the edge repeated outside")
    func croppedTurned() throws {
        let grid = try Self.grid()
        // Level: centre (3, 2), 4 wide, 2 tall: pixels (1…4, 1…2).
        let level = try grid.croppedTurned(center: Point(x: 3, y: 2), width: 4, height: 2, degrees: 0)
        #expect(level.packedBytes() == [11, 12, 13, 14, 21, 22, 23, 24])
        // Turned 90° clockwise: the text runs down; its top is on the right (x = 3), its bottom
        // on the left (x = 2).
        let turned = try grid.croppedTurned(center: Point(x: 3, y: 2), width: 4, height: 2, degrees: 90)
        #expect(turned.packedBytes() == [3, 13, 23, 33, 2, 12, 22, 32])
        // Half outside on the left: the edge column repeats (row 1, columns −1…2).
        let edge = try grid.croppedTurned(center: Point(x: 1, y: 1.5), width: 4, height: 1, degrees: 0)
        #expect(edge.packedBytes() == [10, 10, 11, 12])
        // Colour keeps its channels.
        let bgr = try grid.convertedToBGR()
        let colour = try bgr.croppedTurned(center: Point(x: 3, y: 2), width: 4, height: 2, degrees: 0)
        #expect(colour.pixelFormat == .bgr8 && colour.packedBytes() == level.packedBytes().flatMap { [$0, $0, $0] })
        #expect(throws: FrameOCRError.self) {
            try grid.croppedTurned(center: Point(x: 3, y: 2), width: 0, height: 2, degrees: 0)
        }
        #expect(throws: FrameOCRError.self) {
            try grid.croppedTurned(center: Point(x: .nan, y: 2), width: 2, height: 2, degrees: 0)
        }
    }

    @Test("The detector's input sized by its shorter side, as PP-OCR sizes it: exact sides")
    func shortSideInput() {
        #expect(TextDetector.shortSideInput(width: 1280, height: 720, shortSide: 736) == 1308)
        #expect(TextDetector.shortSideInput(width: 180, height: 320, shortSide: 736) == 1308)
        #expect(TextDetector.shortSideInput(width: 800, height: 800, shortSide: 736) == 736)
        #expect(TextDetector.shortSideInput(width: 4000, height: 3000, shortSide: 736) == 981)
        #expect(TextDetector.shortSideInput(width: 3600, height: 4800, shortSide: 736) == 981)
        #expect(TextDetector.shortSideInput(width: 6000, height: 1000, shortSide: 736) == 1920)
        // A 2:1 panorama: 1472×736 would hold more than maximumInputPixels (1,048,576).
        #expect(TextDetector.shortSideInput(width: 2000, height: 1000, shortSide: 736) == 1448)
        #expect(TextDetector.shortSideInput(width: 100, height: 20, shortSide: 40) == 200)
        #expect(TextDetector.shortSideInput(width: 8, height: 8, shortSide: 1) == 32)
    }

    static func line(_ text: String, confidence: Float, x: Double, y: Double, engine: RecognitionEngine) -> TextLine {
        let box = TextBox(upright: Rect(x: x, y: y, width: 50, height: 20), frameWidth: 400, frameHeight: 200)
        let word = TextWord(text: text, confidence: confidence, box: box, symbols: [], engine: engine)
        return TextLine(text: text, confidence: confidence, box: box, paragraph: 0, words: [word])
    }

    @Test("Two readings of a line: Tesseract's when not poor or clearly more confident, else the CTC reading")
    func choose() throws {
        func pick(tesseract t: Float?, ctc c: Float?) -> RecognitionEngine? {
            let tesseract = t.map {
                [RegionReading.block(Self.line("T", confidence: $0, x: 0, y: 0, engine: .tesseract))]
            }
            let ctc = c.map { Self.line("C", confidence: $0, x: 0, y: 0, engine: .ctc) }
            return RegionReading.choose(ctc: ctc, tesseract: tesseract ?? [])?.engine
        }
        #expect(pick(tesseract: 0.95, ctc: 0.99) == .tesseract)  // not poor: it stands
        #expect(pick(tesseract: SecondReadings.poorBelow, ctc: 1) == .tesseract)
        #expect(pick(tesseract: 0.5, ctc: 0.99) == .ctc)
        #expect(pick(tesseract: 0.85, ctc: 0.65) == .tesseract)  // beats it by 0.2 > clearlyBetter (0.15)
        #expect(pick(tesseract: 0.75, ctc: 0.65) == .ctc)  // by 0.1 only
        #expect(pick(tesseract: nil, ctc: 0.2) == .ctc)
        #expect(pick(tesseract: 0.2, ctc: nil) == .tesseract)
        #expect(pick(tesseract: nil, ctc: nil) == nil)
    }

    @Test("Regions in reading order: one row's regions joined left to right, rows top to bottom")
    func rows() {
        // "Google" found a little higher than "Hello", on the same row; "Mail" below them.
        let blocks = [
            RegionReading.block(Self.line("Google", confidence: 0.9, x: 120, y: 36, engine: .ctc)),
            RegionReading.block(Self.line("Mail", confidence: 0.8, x: 10, y: 100, engine: .ctc)),
            RegionReading.block(Self.line("Hello", confidence: 0.7, x: 10, y: 40, engine: .tesseract)),
        ]
        let rows = RegionReading.rows(blocks, frameWidth: 400, frameHeight: 200)
        #expect(rows.map(\.text) == ["Hello Google", "Mail"])
        #expect(rows[0].lines.count == 1 && rows[0].lines[0].words.map(\.engine) == [.tesseract, .ctc])
        #expect(rows[0].box.rect == Rect(x: 10, y: 36, width: 160, height: 24))
        #expect(abs((rows[0].confidence ?? 0) - 0.8) < 1e-6)
    }
}

/// The engines on real readings: rendered scenes, plates and a page.
@Suite("Engine selection: readings", .tags(.tesseract))
struct EngineSelectionReadingTests {
    static let tesseractOnly = Result { () throws(FrameOCRError) in
        try Recognizer(configuration: RecognizerConfiguration(engine: .tesseract))
    }
    static let ctcOnly = Result { () throws(FrameOCRError) in
        try Recognizer(configuration: RecognizerConfiguration(engine: .ctc))
    }
    static let automatic = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())

    /// ``SceneTextTests/scene()`` lit from the left: its gray multiplied by a ramp from 1 to 0.35
    /// across (a street in late light), so that its light is uneven.
    static func litScene() throws -> PixelBuffer {
        let scene = try SceneTextTests.scene()
        let w = scene.width
        let lit = scene.packedBytes().enumerated().map { i, v in
            UInt8((Double(v) * (1 - 0.65 * Double(i % w) / Double(w - 1))).rounded())
        }
        return try PixelBuffer(packed: lit, width: w, height: scene.height, pixelFormat: .gray8)
    }

    static let noAngleClassifier = Result { () throws(FrameOCRError) in
        try Recognizer(configuration: RecognizerConfiguration(textAngleClassifier: nil))
    }

    @Test(
        "auto: the lit scene turned 180° or standing (90°) is read the right way up, region by region; without the text-angle classifier it is not",
        arguments: [Orientation.down, .right])
    func sceneTurned(_ turn: Orientation) throws {
        let frame = try Self.litScene().applyingOrientation(turn)
        let result = try sharedRecognizer.recognize(frame, pipeline: Self.automatic)
        let scene = try #require(result.preprocessing?.sceneText, "\(result.preprocessing?.reasons ?? [])")
        #expect(scene.early)
        for s in SceneTextTests.signs {
            #expect(result.words.contains { $0.text == s.text }, "\(s.text) not in \(result.text)")
        }
        // A sign's word is boxed where the sign is in the turned frame.
        let platform = try #require(result.words.first { $0.text == "PLATFORM" })
        let sign = SceneTextTests.signs[0].center  // (190, 90) in the 640×420 scene
        let expected = turn == .down ? Point(x: 640 - sign.x, y: 420 - sign.y) : Point(x: 420 - sign.y, y: sign.x)
        let c = platform.box.rect
        #expect(abs(c.x + c.width / 2 - expected.x) < 15 && abs(c.y + c.height / 2 - expected.y) < 15, "\(c)")
        if turn == .down {
            #expect(scene.regions.filter { $0.kept }.contains { $0.upsideDown == true })
        }
        let without = try Self.noAngleClassifier.get().recognize(frame, pipeline: Self.automatic)
        #expect(!SceneTextTests.signs.allSatisfy { s in without.words.contains { $0.text == s.text } })
        #expect(without.preprocessing?.sceneText?.regions.allSatisfy { $0.upsideDown == nil } ?? true)
    }

    @Test("auto: a cluttered scene under uneven light is read as its regions before its page, by the CTC engine")
    func sceneEarly() throws {
        let result = try sharedRecognizer.recognize(Self.litScene(), pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        let scene = try #require(d.sceneText, "\(d.reasons)")
        #expect(scene.early, "\(d.reasons)")
        let cover = try #require(scene.textCover)
        #expect(cover < SecondReadings.sceneMaximumTextCover)
        // The test's search is the scene's own (the detector runs once): the cover is the share of
        // the frame that the regions read cover.
        let frame = try Self.litScene()
        let covered = scene.regions.reduce(0) { $0 + $1.region.width * $1.region.height }
        #expect(scene.regions.count < SecondReadings().maximumSceneRegions)
        #expect(abs(cover - covered / Double(frame.width * frame.height)) < 1e-12, "\(cover)")
        for s in SceneTextTests.signs {
            #expect(result.words.contains { $0.text == s.text }, "\(s.text) not in \(result.text)")
        }
        // Taken before its page, a scene's regions are the CTC engine's alone: Tesseract reads
        // none of them (nor the page).
        #expect(!scene.regions.filter(\.kept).isEmpty)
        #expect(scene.regions.filter(\.kept).allSatisfy { $0.engine == .ctc })
        #expect(result.words.allSatisfy { $0.engine == .ctc }, "\(result.words.map { ($0.text, $0.engine) })")
        #expect(result.timings.lineRecognition > .zero && result.timings.detection > .zero)
        #expect(d.reasons.contains { $0.hasPrefix("engines: a scene before reading the page") })

        // Tesseract alone: no early scene, no CTC word.
        let tesseract = try Self.tesseractOnly.get().recognize(Self.litScene(), pipeline: Self.automatic)
        #expect(tesseract.preprocessing?.sceneText?.early != true)
        #expect(tesseract.words.allSatisfy { $0.engine == .tesseract })
        #expect(tesseract.timings.lineRecognition == .zero)

        // A per-call whitelist the CTC recognizer was not made with: Tesseract reads.
        var options = RecognitionOptions()
        options.characterWhitelist = "ABEIKLMNOPRTXY"
        let whitelisted = try sharedRecognizer.recognize(
            Self.litScene(), pipeline: Self.automatic, options: options)
        #expect(whitelisted.words.allSatisfy { $0.engine == .tesseract })
    }

    @Test(
        "auto: a scene's CTC words carry the choices the call asks for, as Tesseract's do; the stages add up to the total, the engines' first load included"
    )
    func sceneChoicesAndTimings() throws {
        // A recognizer of its own: its engines load in the first call.
        let recognizer = try Recognizer(configuration: RecognizerConfiguration())
        var options = RecognitionOptions()
        options.alternates = 3
        var sums: [(stages: Duration, total: Duration, load: Duration)] = []
        for call in 0..<2 {
            let result = try recognizer.recognize(Self.litScene(), pipeline: Self.automatic, options: options)
            let ctc = result.words.filter { $0.engine == .ctc }
            #expect(!ctc.isEmpty, "\(result.text)")
            for word in ctc {
                #expect(word.symbols.map(\.text).joined() == word.text)
                for s in word.symbols {
                    #expect((1...3).contains(s.choices.count), "\(word.text): \(s.text) \(s.choices)")
                    #expect(s.choices.first?.text == s.text && s.choices.first?.log10RelativeLikelihood == 0)
                    #expect(s.choices.dropFirst().allSatisfy { ($0.log10RelativeLikelihood ?? 1) <= 0 })
                }
            }
            // Without alternates asked for, none.
            if call == 1 {
                let plain = try recognizer.recognize(Self.litScene(), pipeline: Self.automatic)
                #expect(plain.words.flatMap(\.symbols).allSatisfy { $0.choices.isEmpty })
                #expect(plain.text == result.text)
            }
            sums.append((result.timings.sumOfStages, result.timings.total, result.timings.engineLoad))
        }
        // The first call loaded the detector, the recognizer and Tesseract: a stage of its own.
        #expect(sums[0].load > .milliseconds(20), "\(sums)")
        #expect(sums[1].load < .milliseconds(5), "\(sums)")
        // Every millisecond in a stage: the stages cover the call but for the result's assembly.
        for s in sums {
            #expect(s.stages <= s.total && s.stages >= s.total * 0.95, "\(sums)")
        }
    }

    /// A plate: `text` in DejaVu Sans Bold on a light plate with a dark rim, turned 3°, blurred
    /// (σ 1 px) and saved as JPEG (quality OpenCV's default, 95).
    static func plate(_ text: String) throws -> PixelBuffer {
        let card = try PixelBuffer.rendering(
            text, fontPath: SceneTextTests.font, height: 44, margin: 14, ink: 30, paper: 215)
        let canvas = try PixelBuffer(
            packed: [UInt8](repeating: 70, count: (card.width + 40) * (card.height + 30)), width: card.width + 40,
            height: card.height + 30, pixelFormat: .gray8)
        let t = 3.0 * .pi / 180
        let (c, s) = (cos(t), sin(t))
        let (cx, cy) = (Double(card.width) / 2, Double(card.height) / 2)
        let (px, py) = (Double(canvas.width) / 2, Double(canvas.height) / 2)
        try canvas.draw(card, affine: [c, -s, px - c * cx + s * cy, s, c, py - s * cx - c * cy])
        let blurred = try canvas.smoothed(sigma: 1)
        let path = NSTemporaryDirectory() + "frameocr-plate-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try blurred.write(toFile: path)
        return try PixelBuffer(contentsOfFile: path)
    }

    @Test("Plates in two fonts' worth of text, turned, blurred, through JPEG: read exactly, each word says its engine")
    func plates() throws {
        for text in ["AB12 CDE", "7XKL093", "KR 4471"] {
            let plate = try Self.plate(text)
            let ctc = try Self.ctcOnly.get().recognize(plate, pipeline: Self.automatic)
            #expect(ctc.text == text, "ctc: \(ctc.text)")
            #expect(ctc.words.allSatisfy { $0.engine == .ctc })
            #expect(ctc.timings.recognition == .zero, "Tesseract was asked")
            // auto keeps Tesseract's reading where Tesseract is confident (clean print stays
            // its), and Tesseract confidently takes 0 for O in this font now and then: at most
            // one character off.
            let auto = try sharedRecognizer.recognize(plate, pipeline: Self.automatic)
            #expect(
                TextMetrics.levenshtein(Array(auto.text), Array(text)) <= 1,
                "auto: \(auto.text) \(auto.preprocessing?.reasons ?? [])")
            #expect(auto.words.allSatisfy { $0.engine != nil })
        }
    }

    @Test("auto: a clean page is Tesseract's alone, word for word as with Tesseract only")
    func cleanPage() throws {
        let page = try PixelBuffer(contentsOfFile: fixturePath("phototest", "tif"))
        let auto = try sharedRecognizer.recognize(page, pipeline: Self.automatic)
        let tesseract = try Self.tesseractOnly.get().recognize(page, pipeline: Self.automatic)
        #expect(auto.text == tesseract.text)
        #expect(auto.words.allSatisfy { $0.engine == .tesseract })
        #expect(auto.timings.lineRecognition == .zero && auto.timings.detection == .zero)
        #expect(auto.preprocessing?.sceneText == nil)
    }
}
