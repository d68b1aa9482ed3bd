import Foundation
import FrameOCRSynthesis
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The document crop (``AutomaticPreprocessing/documentCrop``): a sheet of paper photographed on a
/// dark textured surface is cut out, flattened and read; a scanned page is left as it is.
@Suite("Document crop", .tags(.tesseract))
struct DocumentCropTests {
    static let automatic = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())

    static func image(_ name: String) throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path(name)).convertedToGray().copy()
    }

    /// receipt-on-desk.boxes.tsv: the turned page's bounding box, then each drawn word's (frame pixels).
    static func boxes() throws -> (page: Rect, words: [(String, Rect)]) {
        let rows = try OCRFixture.text("receipt-on-desk.boxes.tsv").split(separator: "\n").map { row in
            let f = row.split(separator: "\t")
            return (String(f[0]), Rect(x: Double(f[1])!, y: Double(f[2])!, width: Double(f[3])!, height: Double(f[4])!))
        }
        return (rows[0].1, Array(rows.dropFirst()))
    }

    /// The crop holds the drawn page and reaches at most `slack` pixels beyond it on every side.
    static func expectCrop(
        _ crop: PixelRect, around page: Rect, slack: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let edges = [(Double(crop.x), page.x), (Double(crop.y), page.y)]
        let far = [(Double(crop.maxX), page.maxX), (Double(crop.maxY), page.maxY)]
        for (c, p) in edges {
            #expect(c <= p + 2 && c >= p - slack, "crop \(crop) vs page \(page)", sourceLocation: sourceLocation)
        }
        for (c, p) in far {
            #expect(c >= p - 2 && c <= p + slack, "crop \(crop) vs page \(page)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "A receipt turned 4° on a dark textured desk is cut to the page, turned back, read exactly, its words boxed where they were drawn"
    )
    func receiptOnDesk() throws {
        let frame = try Self.image("receipt-on-desk.png")
        let result = try sharedRecognizer.recognize(frame, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        let crop = try #require(d.documentCrop, "\(d.reasons)")
        let (page, drawn) = try Self.boxes()
        // The margin is 1 % of the smaller side (6 px), plus the outline's rounding at 512 px.
        Self.expectCrop(crop, around: page, slack: 10)
        #expect(d.reasons.contains { $0.hasPrefix("document crop:") && $0.contains("read alone") })
        #expect(abs((d.skewDegrees ?? 0) - 4) < 0.3, "turned back by the page's 4°: \(d.reasons)")
        // Exactly the drawn words, in order (Tesseract may set a blank line between blocks).
        let reference = try OCRFixture.text("receipt-on-desk.gt.txt").split(whereSeparator: \.isWhitespace).map(
            String.init)
        #expect(result.words.map(\.text) == reference, "\(result.text)\n\(d.reasons)")
        // Every drawn word is read, and its box (upright-frame pixels) lies on the drawn one.
        let words = result.words
        for (w, rect) in drawn {
            let boxes = words.filter { $0.text == w }.map(\.box.rect)
            #expect(boxes.contains { $0.overlapFraction(with: rect) > 0.7 }, "\(w): \(boxes) vs drawn \(rect)")
        }
    }

    @Test(
        "The same frame scaled 1.25 by the pipeline: the crop is still in upright-frame pixels and words map back onto the frame"
    )
    func receiptOnDeskScaled() throws {
        let frame = try Self.image("receipt-on-desk.png")
        let result = try sharedRecognizer.recognize(
            frame, pipeline: Pipeline(orientation: .fromFrame, scale: 1.25, automatic: AutomaticPreprocessing()))
        let d = try #require(result.preprocessing)
        let crop = try #require(d.documentCrop, "\(d.reasons)")
        let (page, drawn) = try Self.boxes()
        Self.expectCrop(crop, around: page, slack: 12)
        let words = result.words
        let placed = drawn.filter { w, rect in
            words.contains { $0.text == w && $0.box.rect.overlapFraction(with: rect) > 0.7 }
        }
        #expect(
            placed.count >= drawn.count * 8 / 10,
            "\(placed.count) of \(drawn.count) words read and boxed on the drawn ones: \(result.text)")
    }

    @Test("Turned off, the desk stays: no crop, no reason")
    func off() throws {
        var automatic = AutomaticPreprocessing()
        automatic.documentCrop = false
        let result = try sharedRecognizer.recognize(
            try Self.image("receipt-on-desk.png"), pipeline: Pipeline(orientation: .fromFrame, automatic: automatic))
        let d = try #require(result.preprocessing)
        #expect(d.documentCrop == nil)
        #expect(!d.reasons.contains { $0.hasPrefix("document crop:") })
    }

    @Test("A scanned page (phototest.tif) fills the frame: not cropped, and read as before")
    func scannedPage() throws {
        let page = try Self.image("phototest.tif")
        let result = try sharedRecognizer.recognize(page, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.documentCrop == nil, "\(d.reasons)")
        #expect(d.reasons.contains { $0.hasPrefix("document crop:") && $0.hasSuffix("not cropped") }, "\(d.reasons)")
        var off = AutomaticPreprocessing()
        off.documentCrop = false
        let without = try sharedRecognizer.recognize(page, pipeline: Pipeline(orientation: .fromFrame, automatic: off))
        #expect(result.text == without.text)
    }

    @Test("focr_find_document measures the page of the fixture: its share, fill, contrast and turn")
    func measurement() throws {
        let frame = try Self.image("receipt-on-desk.png")
        let m = try frame.documentRegion()
        #expect(m.areaFraction > 0.25 && m.areaFraction < 0.35, "\(m)")
        #expect(m.rectangularity > 0.95 && m.paper - m.surroundings > 100 && m.edgeContact == 0, "\(m)")
        #expect(abs(m.angleDegrees - 4) < 0.5, "\(m)")
    }

    @Test("focr_flatten_document validates its arguments: an outline of 1–2 vertices, a kernel under 3 px")
    func flattenArguments() throws {
        let frame = try Self.image("receipt-on-desk.png")
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try frame.flattenedDocument(outline: [0, 0, 10, 10], kernel: 21, pool: nil)
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try frame.flattenedDocument(outline: [], kernel: 1, pool: nil)
        }
        let flat = try frame.flattenedDocument(outline: [], kernel: 21, pool: nil)
        #expect(flat.width == frame.width && flat.height == frame.height)
    }

    // MARK: Labels

    /// A two-line printed label on its own paper, 300×104, gray (``SyntheticLabel/label(_:)``).
    static func label(_ lines: [String] = SyntheticLabel.lines) throws -> PixelBuffer {
        try SyntheticLabel.label(lines)
    }

    /// A 640×480 camera frame: the label turned 3° on a dark desk's clutter, lit from the left;
    /// `sign`: a printed sign on the desk as well (``SyntheticLabel/frame(sign:)``).
    static func labelFrame(sign: Bool = false) throws -> PixelBuffer { try SyntheticLabel.frame(sign: sign) }

    @Test(
        "A label on a cluttered desk, alone or in a scan region, is cut out and read by Tesseract, its characters' choices as asked; no neural engine runs",
        arguments: [nil, RegionOfInterest.scanRegion(left: 0, top: 25, width: 100, height: 50)] as [RegionOfInterest?])
    func labelOnDesk(_ region: RegionOfInterest?) throws {
        var pipeline = Self.automatic
        pipeline.region = region
        var options = RecognitionOptions()
        options.alternates = 3
        let result = try sharedRecognizer.recognize(Self.labelFrame(), pipeline: pipeline, options: options)
        let d = try #require(result.preprocessing)
        let crop = try #require(d.documentCrop, "\(d.reasons)")
        // The label's box (300×104 turned 3°, centred at (380, 250)) with a margin of a few pixels.
        #expect(abs(Double(crop.x) + Double(crop.width) / 2 - 380) < 6, "\(crop)")
        #expect(abs(Double(crop.y) + Double(crop.height) / 2 - 250) < 6, "\(crop)")
        #expect(crop.width < 330 && crop.height < 135, "\(crop)")
        #expect(d.reasons.contains { $0.hasPrefix("document crop: a label holding the frame's print") }, "\(d.reasons)")
        #expect(result.words.map(\.text) == ["LOT", "4711-B", "EXP", "2027-03"], "\(result.text)\n\(d.reasons)")
        #expect(result.words.allSatisfy { $0.engine == .tesseract })
        // Too few lines to measure their skew: the label's edges turn it back by its 3°.
        #expect(abs((d.skewDegrees ?? 0) - 3) < 0.5, "\(d.reasons)")
        #expect(d.reasons.contains { $0.hasPrefix("skew: a label of") }, "\(d.reasons)")
        #expect(d.sceneText == nil && result.timings.detection == .zero && result.timings.lineRecognition == .zero)
        for s in result.words.flatMap(\.symbols) {
            #expect((1...3).contains(s.choices.count) && s.choices.first?.text == s.text, "\(s.text): \(s.choices)")
        }
        // Its words boxed where the label was drawn (upright-frame pixels).
        let lot = try #require(result.words.first)
        #expect(
            abs(lot.box.rect.x - (380 - 150 + 16)) < 12 && abs(lot.box.rect.y - (250 - 52 + 16)) < 14, "\(lot.box.rect)"
        )
    }

    @Test(
        "The same label with a printed sign elsewhere on the desk: the frame's print is not all on it, so it is not cut"
    )
    func labelWithPrintAround() throws {
        let result = try sharedRecognizer.recognize(Self.labelFrame(sign: true), pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.documentCrop == nil, "\(d.reasons)")
        #expect(
            d.reasons.contains {
                $0.hasPrefix("document crop:") && $0.contains("a label's size, but with print around it")
            },
            "\(d.reasons)")
        // The frame is read whole: the label's words still (the sign, small on the clutter, is not
        // this test's point).
        for word in ["LOT", "4711-B", "EXP", "2027-03"] {
            #expect(result.words.contains { $0.text == word }, "\(word) not in \(result.text)")
        }
    }
}
