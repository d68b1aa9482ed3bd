import Foundation
import FrameOCREvaluation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Reading documents in the automatic mode: smoothing of pages, binarization chosen by the
/// light, and the second readings as sparse text — each on an input made for it
/// (`Tests/FixtureGenerators/make_page_fixtures.py`).
@Suite("Document reading", .tags(.tesseract))
struct DocumentReadingTests {
    static let automatic = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())

    static func image(_ name: String) throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path(name)).convertedToGray().copy()
    }

    // MARK: Smoothing

    @Test(
        "smoothed(sigma:): a flat image stays flat, an impulse spreads symmetrically and keeps its mass; sigma outside 0.1…10 throws"
    )
    func smoothingKernel() throws {
        let flat = try PixelBuffer(
            packed: [UInt8](repeating: 77, count: 40 * 30), width: 40, height: 30, pixelFormat: .gray8)
        #expect(try flat.smoothed(sigma: 0.9).packedBytes().allSatisfy { $0 == 77 })
        var bytes = [UInt8](repeating: 0, count: 41 * 41)
        bytes[20 * 41 + 20] = 250
        let spread = try PixelBuffer(packed: bytes, width: 41, height: 41, pixelFormat: .gray8).smoothed(sigma: 1)
            .packedBytes()
        #expect(
            spread[20 * 41 + 20] < 250 && spread[20 * 41 + 21] == spread[20 * 41 + 19]
                && spread[21 * 41 + 20] == spread[19 * 41 + 20])
        let mass = spread.reduce(0) { $0 + Int($1) }
        #expect(abs(mass - 250) <= 10, "\(mass)")  // rounding of each pixel to 8 bits
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in _ = try flat.smoothed(sigma: 0) }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in _ = try flat.smoothed(sigma: 11) }
    }

    @Test(
        "A page (phototest: 239 components) is smoothed with σ 0.9 and still read; a single line is not; smoothing can be turned off"
    )
    func smoothingDecision() throws {
        let page = try Self.image("phototest.tif")
        let result = try sharedRecognizer.recognize(page, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.smoothingSigma == 0.9 && d.textComponents >= 100)
        #expect(d.reasons.contains { $0.hasPrefix("smoothing: a page of text") })
        #expect(
            TextMetrics.characterErrorRate(hypothesis: result.text, reference: try OCRFixture.text("phototest.gt.txt"))
                < 0.03)

        let line = try sharedRecognizer.recognize(Self.image("test_la.png"), pipeline: Self.automatic)
        #expect(line.preprocessing?.smoothingSigma == nil)

        var off = AutomaticPreprocessing()
        off.smoothing = false
        #expect(
            try sharedRecognizer.recognize(page, pipeline: Pipeline(orientation: .fromFrame, automatic: off))
                .preprocessing?.smoothingSigma
                == nil)
    }

    // MARK: Binarization

    @Test(
        "Options.binarization reaches Tesseract: on paper lit from one side Otsu's layout loses the bright half of each line, Sauvola's keeps it"
    )
    func engineBinarization() throws {
        let image = try Self.image("uneven-light.png")
        let reference = try OCRFixture.text("uneven-light.gt.txt")
        let otsu = try sharedRecognizer.recognize(image, options: Recognizer.Options(binarization: .otsu))
        let sauvola = try sharedRecognizer.recognize(image, options: Recognizer.Options(binarization: .sauvola))
        #expect(TextMetrics.wordRecall(hypothesis: otsu.text, reference: reference) < 0.6, "\(otsu.text)")
        #expect(TextMetrics.wordRecall(hypothesis: sauvola.text, reference: reference) >= 0.9, "\(sauvola.text)")
    }

    @Test(
        "Uneven light is flattened first (then one threshold keeps every mark); without the light step it is measured (paper spread, regions lost to one threshold) and the page laid out on Sauvola; even light keeps Otsu"
    )
    func binarizationDecision() throws {
        let flattened = try sharedRecognizer.recognize(Self.image("uneven-light.png"), pipeline: Self.automatic)
        let f = try #require(flattened.preprocessing)
        #expect(f.light != nil && f.binarization == nil, "\(f.reasons)")
        #expect(
            TextMetrics.wordRecall(hypothesis: flattened.text, reference: try OCRFixture.text("uneven-light.gt.txt"))
                >= 0.9,
            "\(flattened.text)")

        var unflattened = AutomaticPreprocessing()
        unflattened.flattenLight = false
        let uneven = try sharedRecognizer.recognize(
            Self.image("uneven-light.png"), pipeline: Pipeline(orientation: .fromFrame, automatic: unflattened))
        let d = try #require(uneven.preprocessing)
        #expect(d.binarization == .sauvola)
        #expect(try #require(d.backgroundSpread) >= 40)
        let marked = try #require(d.markedRegions)
        let lost = try #require(d.lostRegions)
        #expect(marked > 0 && Double(lost) >= 0.25 * Double(marked), "\(lost) of \(marked)")
        #expect(d.reasons.contains { $0.hasPrefix("binarization: uneven light") })
        #expect(
            TextMetrics.wordRecall(hypothesis: uneven.text, reference: try OCRFixture.text("uneven-light.gt.txt"))
                >= 0.9,
            "\(uneven.text)")

        let even = try sharedRecognizer.recognize(Self.image("phototest.tif"), pipeline: Self.automatic)
        #expect(even.preprocessing?.binarization == nil)
        #expect(even.preprocessing?.backgroundSpread == 0)

        var off = unflattened
        off.binarization = false
        let kept = try sharedRecognizer.recognize(
            Self.image("uneven-light.png"), pipeline: Pipeline(orientation: .fromFrame, automatic: off))
        #expect(kept.preprocessing?.binarization == nil)
    }

    // MARK: Sparse text

    /// The label boxes drawn into boxed-form.png (text, upright-frame pixel rectangle).
    static func labelBoxes() throws -> [(String, Rect)] {
        try OCRFixture.text("boxed-form.boxes.tsv").split(separator: "\n").map { row in
            let f = row.split(separator: "\t")
            return (String(f[0]), Rect(x: Double(f[1])!, y: Double(f[2])!, width: Double(f[3])!, height: Double(f[4])!))
        }
    }

    @Test(
        "A form read poorly as one block is read again (sparse text with Otsu and Sauvola, as captured with PSM 6 and 3) and merged: the labels come back, boxed where they were drawn"
    )
    func sparseReading() throws {
        let form = try Self.image("boxed-form.png")
        var noSparse = Recognizer.Options()
        noSparse.secondReadings = SecondReadings()
        noSparse.secondReadings?.sparseReading = false
        let page = try sharedRecognizer.recognize(form, pipeline: Self.automatic, options: noSparse)
        #expect(page.preprocessing?.sparseReading == nil)
        let merged = try sharedRecognizer.recognize(form, pipeline: Self.automatic)
        let d = try #require(merged.preprocessing?.sparseReading)
        #expect(d.readings.map(\.pageSegmentationMode) == [.sparseText, .sparseText, .singleBlock, .auto])
        #expect(d.readings.map(\.binarization) == [.otsu, .sauvola, .otsu, .sauvola])
        #expect(d.readings.map(\.asCaptured) == [false, false, true, true])
        let pageConfidence = try #require(page.confidence)
        #expect(d.pageConfidence < 0.9 && d.pageConfidence == Double(pageConfidence))
        #expect(d.readings.contains { $0.replacedWords + $0.addedWords > 0 })
        #expect(
            merged.preprocessing?.reasons.contains { $0.hasPrefix("sparse text:") && $0.contains("merged") } == true)

        let labels = try Self.labelBoxes()
        let words = merged.words
        let found = labels.filter { label, _ in
            label.split(separator: " ").allSatisfy { w in words.contains { $0.text == w } }
        }
        let before = labels.filter { label, _ in
            label.split(separator: " ").allSatisfy { w in page.words.contains { $0.text == w } }
        }
        #expect(
            found.count >= 9 && found.count >= before.count + 4,
            "\(before.count) → \(found.count) of \(labels.count) labels")
        // Each label word lies inside the label's drawn box (a few pixels of slack).
        for (label, drawn) in found {
            for w in label.split(separator: " ") {
                let boxes = words.filter { $0.text == w }.map(\.box.rect)
                #expect(boxes.contains { $0.overlapFraction(with: drawn) > 0.8 }, "\(w): \(boxes) vs \(drawn)")
            }
        }
    }

    @Test(
        "The form at 0.6 scale: text is rescaled before the readings, and the merged words map back onto the smaller frame"
    )
    func sparseReadingScaled() throws {
        let form = try Self.image("boxed-form.png").scaled(by: 0.6).copy()
        let merged = try sharedRecognizer.recognize(form, pipeline: Self.automatic)
        let p = try #require(merged.preprocessing)
        #expect(p.scale > 1.2, "rescaled: \(p.reasons)")
        #expect(p.sparseReading != nil)
        let words = merged.words
        var checked = 0
        for (label, drawn) in try Self.labelBoxes() where !label.contains(" ") {
            let small = Rect(x: drawn.x * 0.6, y: drawn.y * 0.6, width: drawn.width * 0.6, height: drawn.height * 0.6)
            guard let w = words.first(where: { $0.text == label }) else { continue }
            #expect(w.box.rect.overlapFraction(with: small) > 0.7, "\(label): \(w.box.rect) vs \(small)")
            checked += 1
        }
        #expect(checked >= 6)
    }

    @Test("A page read confidently (phototest) is not read again")
    func confidentPageNotReread() throws {
        let result = try sharedRecognizer.recognize(Self.image("phototest.tif"), pipeline: Self.automatic)
        #expect(try #require(result.confidence) >= 0.9)
        #expect(result.preprocessing?.sparseReading == nil)
        #expect(result.preprocessing?.reasons.contains { $0.hasPrefix("sparse text") } == false)
    }
}
