import CTesseract
import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// One symbol as Tesseract's own choice iterator gives it: its box and its choices, each with
/// the iterator's confidence (0…100).
private struct ReferenceSymbol {
    var box: (Int32, Int32, Int32, Int32)
    var choices: [(text: String, confidence: Float)]
}

/// Reads `image` (gray8) with Tesseract's C API directly, PSM 6 at 300 ppi, in the CTC choice
/// mode with `iterations` secondary beams, and walks every symbol's ChoiceIterator. The rating
/// coefficient is 0.01 so that Tesseract's confidence, 100 − 0.01 · rating, is never clipped.
private func tesseractChoices(_ image: PixelBuffer, iterations: Int) throws -> [ReferenceSymbol] {
    let api = try #require(TessBaseAPICreate())
    defer { TessBaseAPIDelete(api) }
    #expect(TessBaseAPIInit3(api, nil, "eng") == 0)
    TessBaseAPISetPageSegMode(api, PSM_SINGLE_BLOCK)
    #expect(TessBaseAPISetVariable(api, "lstm_choice_mode", "2") != 0)
    #expect(TessBaseAPISetVariable(api, "lstm_choice_iterations", "\(iterations)") != 0)
    #expect(TessBaseAPISetVariable(api, "lstm_rating_coefficient", "0.01") != 0)
    image.withUnsafePlanes { planes in
        let p = planes[0]
        TessBaseAPISetImage(
            api, p.baseAddress.assumingMemoryBound(to: UInt8.self), Int32(p.width), Int32(p.height), 1,
            Int32(p.bytesPerRow))
    }
    TessBaseAPISetSourceResolution(api, 300)
    #expect(TessBaseAPIRecognize(api, nil) == 0)
    var symbols: [ReferenceSymbol] = []
    guard let it = TessBaseAPIGetIterator(api) else { return [] }
    defer { TessResultIteratorDelete(it) }
    let page = TessResultIteratorGetPageIterator(it)
    repeat {
        var (l, t, r, b): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard TessPageIteratorBoundingBox(page, RIL_SYMBOL, &l, &t, &r, &b) != 0 else { continue }
        var s = ReferenceSymbol(box: (l, t, r, b), choices: [])
        if let ci = TessResultIteratorGetChoiceIterator(it) {
            repeat {
                if let text = TessChoiceIteratorGetUTF8Text(ci) {
                    s.choices.append((String(cString: text), TessChoiceIteratorConfidence(ci)))
                }
            } while TessChoiceIteratorNext(ci) != 0
            TessChoiceIteratorDelete(ci)
        }
        symbols.append(s)
    } while TessResultIteratorNext(it, RIL_SYMBOL) != 0
    return symbols
}

@Suite("Per-symbol alternates (RecognitionOptions.alternates, TextSymbol.choices)", .tags(.tesseract))
struct AlternatesTests {
    /// The images the recognizer reads: the gray the plain pipeline makes of two fixtures, a
    /// printed page and a photographed sign (whose choices are less certain).
    static let images = ["phototest.tif", "lightbox-sign.png"]

    static func gray(_ name: String) throws -> PixelBuffer {
        try Pipeline().run(try PixelBuffer(contentsOfFile: OCRFixture.path(name))).image
    }

    @Test(
        "Texts and order are Tesseract's choice iterator's; confidences are its ratings, relative to the first",
        arguments: images)
    func matchesTesseractsChoiceIterator(name: String) throws {
        let image = try Self.gray(name)
        let ours = try sharedRecognizer.recognize(
            image, pipeline: Pipeline(), options: Recognizer.Options(alternates: 3))
        let symbols = ours.words.flatMap(\.symbols)
        let reference = try tesseractChoices(image, iterations: 2).filter { !$0.choices.isEmpty }
        #expect(symbols.count >= 10)
        #expect(symbols.count == reference.count)
        var compared = 0
        var alternatesSeen = 0
        for (s, ref) in zip(symbols, reference) {
            let r = s.box.rect
            #expect(
                (Int32(r.x), Int32(r.y), Int32(r.x + r.width), Int32(r.y + r.height)) == ref.box,
                "box of \(s.text)")
            let expected = ref.choices.prefix(3)
            #expect(s.choices.map(\.text) == expected.map(\.text), "choices of \(s.text)")
            guard s.choices.count == expected.count, let first = s.choices.first?.confidence else { continue }
            // The first carries the symbol's own confidence; the rest that times exp(r₀ − rᵢ),
            // with rᵢ = (100 − Tesseract's confidence) / 0.01.
            #expect(first == s.confidence)
            #expect(s.choices.first?.log10RelativeLikelihood == 0)
            let r0 = Double(100 - expected.first!.confidence) / 0.01
            for (a, e) in zip(s.choices, expected).dropFirst() {
                let ri = Double(100 - e.confidence) / 0.01
                let want = Double(first) * exp(min(0, r0 - ri))
                let got = Double(try #require(a.confidence))
                // The ratings come back through a float near 100 (a step of 8·10⁻⁴ in the rating).
                #expect(abs(got - want) <= want * 2e-3 + 1e-30, "\(s.text) → \(a.text): \(got) vs \(want)")
                #expect(got < Double(first))
                // The same likelihood on a log scale, which does not underflow: (r₀ − rᵢ) / ln 10.
                let log10 = Double(try #require(a.log10RelativeLikelihood))
                #expect(abs(log10 - min(0, r0 - ri) / M_LN10) <= 2e-3 * max(1, abs(log10)), "\(a.text): \(log10)")
                #expect(log10 <= 0)
                alternatesSeen += 1
            }
            compared += 1
        }
        #expect(compared == symbols.count)
        // Most symbols have a second choice (196 of 225 on phototest.tif, all 14 on the sign).
        #expect(alternatesSeen * 4 >= symbols.count * 3, "\(alternatesSeen) alternates after the first")
    }

    @Test(
        "Without alternates no symbol has any, and asking for them leaves the text, boxes and confidences as they were",
        arguments: images)
    func offByDefaultAndSameReading(name: String) throws {
        let image = try Self.gray(name)
        let plain = try sharedRecognizer.recognize(image, pipeline: Pipeline())
        let withChoices = try sharedRecognizer.recognize(
            image, pipeline: Pipeline(), options: Recognizer.Options(alternates: 2))
        #expect(Recognizer.Options().alternates == 0)
        #expect(!plain.words.isEmpty)
        #expect(plain.words.allSatisfy { $0.symbols.allSatisfy(\.choices.isEmpty) })
        #expect(plain.text == withChoices.text)
        #expect(plain.words.map(\.box) == withChoices.words.map(\.box))
        #expect(plain.words.map(\.confidence) == withChoices.words.map(\.confidence))
        let symbols = withChoices.words.flatMap(\.symbols)
        #expect(symbols.allSatisfy { (1...2).contains($0.choices.count) && $0.choices[0].text == $0.text })
    }

    @Test("Alternates outside 0…3, or without symbols, are an invalid parameter")
    func invalidAlternates() throws {
        let image = try Self.gray("phototest.tif")
        for options in [
            Recognizer.Options(alternates: 4), Recognizer.Options(alternates: -1),
            Recognizer.Options(includeSymbols: false, alternates: 1),
        ] {
            let error = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                try sharedRecognizer.recognize(image, pipeline: Pipeline(), options: options)
            }
            #expect(error?.message.contains("alternates") == true)
        }
    }
}
