import CFrameOCR
import Foundation
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

    @Test("focr_text_lines: the three rows, each drawn alone, shaded and railed letters included; none in small print")
    func measurement() throws {
        let sign = try Self.sign()
        let drawn = try PixelBuffer(width: sign.width, height: sign.height, pixelFormat: .gray8)
        var found = [focr_line_box](repeating: focr_line_box(), count: 8)
        var count: Int32 = 0
        try sign.run(into: drawn, .threshold) { s, d in
            found.withUnsafeMutableBufferPointer { focr_text_lines(s, 27, 8, d, $0.baseAddress, &count) }
        }
        // The rows, top to bottom: 4, 5 and 6 letters of 100 px inside the panel (60…700 × 30…470).
        let rows = found.prefix(Int(count)).sorted { $0.y < $1.y }
        #expect(rows.map(\.characters) == [4, 5, 6])
        for r in rows {
            #expect(abs(r.character_height - 100) <= 3 && r.character_aspect > 0.25 && r.character_aspect < 0.45)
            #expect(r.x >= 60 && r.x + r.width <= 700 && r.y >= 30 && r.y + r.height <= 470, "\(r)")
        }
        // Only the rows are drawn: every black pixel lies in a box, and each box holds its letters' ink.
        let bytes = drawn.packedBytes()
        func inside(_ x: Int, _ y: Int) -> Bool {
            rows.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
        }
        #expect(
            (0..<sign.height).allSatisfy { y in
                (0..<sign.width).allSatisfy { x in bytes[y * sign.width + x] == 255 || inside(x, y) }
            })
        for r in rows {
            let ink = (Int(r.y)..<Int(r.y + r.height)).reduce(0) { n, y in
                n + (Int(r.x)..<Int(r.x + r.width)).filter { bytes[y * sign.width + $0] == 0 }.count
            }
            #expect(Double(ink) > 0.1 * Double(r.width * r.height), "\(r): \(ink) px of ink")
        }

        // Small print: phototest at half size (capitals and ascenders 12 px) has no line 20 px tall.
        let full = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif")).convertedToGray().copy()
        let page = try full.resized(width: full.width / 2, height: full.height / 2, pool: nil)
        let blank = try PixelBuffer(width: page.width, height: page.height, pixelFormat: .gray8)
        try page.run(into: blank, .threshold) { s, d in
            found.withUnsafeMutableBufferPointer { focr_text_lines(s, 20, 8, d, $0.baseAddress, &count) }
        }
        #expect(count == 0 && blank.packedBytes().allSatisfy { $0 == 255 }, "\(found.prefix(Int(count)))")
        // Arguments are checked.
        #expect(throws: FrameOCRError.self) {
            try page.run(into: blank, .threshold) { s, d in
                found.withUnsafeMutableBufferPointer { focr_text_lines(s, 2, 8, d, $0.baseAddress, &count) }
            }
        }
    }

    @Test("A sign the page reads poorly: its rows read alone give OPEN, DAILY, COFFEE; the decision says which")
    func signRead() throws {
        let sign = try Self.sign()
        let result = try sharedRecognizer.recognize(sign, pipeline: Pipeline(automatic: AutomaticPreprocessing()))
        for word in Self.words { #expect(Self.hasWord(result.text, word), "\(word) in \(result.text)") }
        let d = try #require(result.preprocessing)
        let taken = try #require(d.textLines)
        #expect(!taken.isEmpty)
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
        let page = try sharedRecognizer.recognize(
            sign, pipeline: Pipeline(automatic: AutomaticPreprocessing()), options: off)
        #expect(!Self.words.allSatisfy { Self.hasWord(page.text, $0) }, "\(page.text)")
        #expect(page.preprocessing?.textLines == nil)
    }

    @Test("FrameProcessor takes the second readings without a budget, and only one reading under a budget")
    func frameProcessor() async throws {
        let sign = try Self.sign()
        func run(budget: Duration?) async throws -> FrameResult {
            let processor = try FrameProcessor(
                configuration: .init(
                    pipeline: Pipeline(automatic: AutomaticPreprocessing()), workerCount: 1,
                    dropPolicy: .block, latencyBudget: budget))
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
                sign, pipeline: Pipeline(automatic: AutomaticPreprocessing()), options: a)
        }
        a = Recognizer.Options()
        a.secondReadings = SecondReadings()
        a.secondReadings?.minimumTextLineHeight = 2
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try sharedRecognizer.recognize(
                sign, pipeline: Pipeline(automatic: AutomaticPreprocessing()), options: a)
        }
        // Only text lines are checked; off, their settings do not matter.
        a.secondReadings?.textLines = false
        #expect(throws: Never.self) { try a.validate() }
    }
}
