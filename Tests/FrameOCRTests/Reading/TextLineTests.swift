import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Automatic preprocessing's text-line reading on a sign made for it (`lightbox-sign.png`,
/// `Tests/FixtureGenerators/make_sign_fixture.py`): three rows of condensed, letter-spaced
/// capitals (OPEN / DAILY / COFFEE) on a panel shaded towards its bottom-left corner, each row's
/// letters touching the shadow of the rail above it, a dark object beside the rows.
@Suite("Text lines", .tags(.tesseract))
struct TextLineTests {
    static func sign() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path("lightbox-sign.png")).convertedToGray().copy()
    }

    static let words = ["OPEN", "DAILY", "COFFEE"]

    static func hasWord(_ text: String, _ word: String) -> Bool {
        text.split(whereSeparator: { !$0.isLetter }).contains { $0 == word }
    }

    /// Tesseract alone: the text-line strategy is what these tests are about (with the CTC
    /// engine, `auto`, the sign is a scene read as its regions before its page: checked below).
    static let tesseract = Result { () throws(FrameOCRError) in
        try Recognizer(configuration: .init(engine: .tesseract), maxIdleEngines: 1)
    }

    @Test("A sign the page reads poorly: its rows read alone give OPEN, DAILY, COFFEE; the decision says which")
    func signRead() throws {
        let sign = try Self.sign()
        let recognizer = try Self.tesseract.get()
        let result = try recognizer.recognize(
            sign, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        for word in Self.words { #expect(Self.hasWord(result.text, word), "\(word) in \(result.text)") }
        let d = try #require(result.preprocessing)
        let taken = try #require(d.textLines)
        #expect(!taken.isEmpty)
        // The sign's panel (53 % of the frame, no print around it) is no label: too large.
        #expect(d.documentCrop == nil)
        #expect(
            d.reasons.contains(
                "document crop: the paper holds only 18 text-like components (< 100), and it is no label (print around it, or 30 % of the image or more): the whole image is read"
            ), "\(d.reasons)")
        #expect(d.reasons.contains { $0.hasPrefix("text line: ") && $0.hasSuffix("its words replace them") })
        // Reading order holds: the rows come top to bottom.
        let order = Self.words.compactMap { result.text.range(of: $0)?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
        // The words are boxed on the sign's rows (upright-frame pixels).
        for word in result.words where Self.words.contains(word.text) {
            let r = word.box.rect
            #expect(r.x >= 140 && r.x + r.width <= 640 && r.y >= 40 && r.y + r.height <= 470, "\(word.text): \(r)")
        }

        // Without it (and without the scene-text reading, which also finds the rows) the page's
        // reading misses words of the sign.
        var off = Recognizer.Options()
        off.secondReadings = SecondReadings()
        off.secondReadings?.textLines = false
        off.secondReadings?.sceneText = false
        let page = try recognizer.recognize(
            sign, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()), options: off)
        #expect(!Self.words.allSatisfy { Self.hasWord(page.text, $0) }, "\(page.text)")
        #expect(page.preprocessing?.textLines == nil)

        // auto: the sign under its uneven light is a scene, its rows the detector's regions.
        let auto = try sharedRecognizer.recognize(
            sign, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        // Each row's letters, in order: where Tesseract's reading of a row stands (it reads it at
        // 0.9 or more), it may space the sign's widely tracked letters ("O P E N").
        let letters = auto.text.filter(\.isLetter)
        for word in Self.words { #expect(letters.contains(word), "\(word) in \(auto.text)") }
        #expect(auto.preprocessing?.sceneText?.early == true, "\(auto.preprocessing?.reasons ?? [])")
    }

    @Test("FrameProcessor takes the second readings without a budget, and only one reading under a budget")
    func frameProcessor() async throws {
        let sign = try Self.sign()
        func run(budget: Duration?) async throws -> FrameResult {
            let processor = try FrameProcessor(
                configuration: .init(
                    pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()),
                    recognizer: .init(engine: .tesseract), workerCount: 1, dropPolicy: .block, latencyBudget: budget))
            let collector = ResultCollector(processor)
            await processor.submit(Frame(id: 1, timestamp: .zero, buffer: sign))
            await processor.finish()
            return try #require(await collector.all().first)
        }
        let unbounded = try await run(budget: nil)
        #expect(unbounded.status == .complete)
        #expect(unbounded.recognition?.preprocessing?.textLines != nil)
        for word in Self.words { #expect(Self.hasWord(unbounded.text, word), "\(word) in \(unbounded.text)") }
        let budgeted = try await run(budget: .seconds(30))
        #expect(budgeted.status == .complete)
        #expect(budgeted.recognition?.preprocessing?.textLines == nil)
        #expect(!(budgeted.recognition?.preprocessing?.reasons.contains { $0.hasPrefix("text line") } ?? true))
    }

    @Test("Invalid settings throw")
    func invalid() throws {
        let sign = try Self.sign()
        var a = Recognizer.Options()
        a.secondReadings = SecondReadings()
        a.secondReadings?.maximumTextLines = 0
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try sharedRecognizer.recognize(
                sign, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()), options: a)
        }
        a = Recognizer.Options()
        a.secondReadings = SecondReadings()
        a.secondReadings?.minimumTextLineHeight = 2
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try sharedRecognizer.recognize(
                sign, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()), options: a)
        }
        // Only text lines are checked; off, their settings do not matter.
        a.secondReadings?.textLines = false
        #expect(throws: Never.self) { try a.validate() }
    }
}
