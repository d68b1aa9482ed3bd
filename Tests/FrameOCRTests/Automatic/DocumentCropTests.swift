import Foundation
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
}
