import Foundation
import FrameOCREvaluation
import Testing

@testable import FrameOCR

/// Uneven light (issue 16): the light fields of ``SyntheticLight`` to the pixel, and the light
/// step of automatic preprocessing, which divides uneven light out before recognition.
@Suite("Uneven light")
struct UnevenLightTests {
    static func phototest() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif")).convertedToGray().copy()
    }

    static func constant(_ value: UInt8, width: Int, height: Int) throws -> PixelBuffer {
        try PixelBuffer(
            packed: [UInt8](repeating: value, count: width * height), width: width, height: height, pixelFormat: .gray8)
    }

    @Test("Gradient: 1 where the direction enters, the darkest where it leaves, linear between (exact pixels)")
    func gradient() throws {
        // Along x (0°) over a 4×1 image of 200: pixel centres 0.5…3.5 of 4 → u = 0.125, 0.375, 0.625, 0.875.
        let light = SyntheticLight(.gradient, darkest: 0.2, degrees: 0)
        let out = try light.apply(to: Self.constant(200, width: 4, height: 1))
        // 200 × (1 − 0.8u) = 180, 140, 100, 60.
        #expect(out.packedBytes() == [180, 140, 100, 60])
        #expect(abs(light.brightness(x: 0, y: 0, width: 4, height: 1) - 0.9) < 1e-12)
        // 90°: along y, the same values down a column.
        let down = try SyntheticLight(.gradient, darkest: 0.2, degrees: 90).apply(
            to: Self.constant(200, width: 1, height: 4))
        #expect(down.packedBytes() == [180, 140, 100, 60])
    }

    @Test("Vignette: 1 at the centre, the darkest at the corners; shadow: a hard edge with a penumbra")
    func vignetteAndShadow() throws {
        let v = SyntheticLight(.vignette, darkest: 0.3)
        #expect(v.brightness(x: 50, y: 50, width: 101, height: 101) == 1)  // the centre pixel (50.5, 50.5)
        let corner = v.brightness(x: 0, y: 0, width: 101, height: 101)
        #expect(corner > 0.3 && corner < 0.32)  // (0.5, 0.5) is just inside the corner
        // A vertical edge (0°) through x = 0.55 × 100 = 55, penumbra 1 % of 100 = 1 px: lit before
        // 54.5, in shadow after 55.5, half-way at 55.
        let s = SyntheticLight(.shadow, darkest: 0.4, degrees: 0)
        #expect(s.brightness(x: 53, y: 10, width: 100, height: 100) == 1)
        #expect(abs(s.brightness(x: 56, y: 10, width: 100, height: 100) - 0.4) < 1e-12)
        let out = try s.apply(to: Self.constant(250, width: 100, height: 2)).packedBytes()
        #expect(out[53] == 250 && out[56] == 100 && out[154] == 250)
        // Noise: seeded, so the same bytes twice; different from the noiseless field.
        let n1 = try SyntheticLight(.shadow, noise: 4).apply(to: Self.constant(128, width: 64, height: 8)).packedBytes()
        let n2 = try SyntheticLight(.shadow, noise: 4).apply(to: Self.constant(128, width: 64, height: 8)).packedBytes()
        let quiet = try SyntheticLight(.shadow).apply(to: Self.constant(128, width: 64, height: 8)).packedBytes()
        #expect(n1 == n2 && n1 != quiet)
    }

    @Test(
        "A relit page is flattened (measured again, paper even) and reads within 0.02 CER of the page evenly lit; left alone it does not",
        .tags(.tesseract), arguments: SyntheticLight.Kind.allCases)
    func flattened(kind: SyntheticLight.Kind) throws {
        let reference = try OCRFixture.text("phototest.gt.txt")
        let even = try sharedRecognizer.recognize(
            Self.phototest(), pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        #expect(even.preprocessing?.light == nil)
        let evenCER = TextMetrics.characterErrorRate(hypothesis: even.text, reference: reference)

        let relit = try SyntheticLight(kind).apply(to: Self.phototest())
        let result = try sharedRecognizer.recognize(
            relit, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        let d = try #require(result.preprocessing)
        let light = try #require(d.light, "\(d.reasons)")
        #expect(light.spread >= 40 && light.flattenedSpread < 40, "\(light)")
        // A 16th of the smaller side (phototest's text, 18 px, asks for no more).
        #expect(light.kernel == max(15, min(relit.width, relit.height) / 16))
        #expect(d.reasons.contains { $0.hasPrefix("light: uneven") })
        let cer = TextMetrics.characterErrorRate(hypothesis: result.text, reference: reference)
        #expect(cer <= evenCER + 0.02, "\(kind): CER \(cer) against \(evenCER) evenly lit: \(result.text)")

        var off = AutomaticPreprocessing()
        off.flattenLight = false
        let unflattened = try sharedRecognizer.recognize(
            relit, pipeline: Pipeline(orientation: .fromFrame, automatic: off))
        #expect(unflattened.preprocessing?.light == nil)
        let worse = TextMetrics.characterErrorRate(hypothesis: unflattened.text, reference: reference)
        #expect(worse > cer + 0.05, "\(kind): left alone \(worse), flattened \(cer)")
    }

    @Test(
        "A relit page whose top is light text on dark: inverted there with polarity on, never inverted with it off",
        .tags(.tesseract))
    func polarityOff() throws {
        // phototest with its top inverted down to between the third and the fifth line of text
        // (AutomaticPreprocessingTests.mixedPolarity), then a gradient.
        let page = try Self.phototest()
        let (w, h) = (page.width, page.height)
        var bytes = page.packedBytes()
        let band = h / 2 - 30
        for i in 0..<(band * w) { bytes[i] = 255 - bytes[i] }
        let relit = try SyntheticLight(.gradient).apply(
            to: PixelBuffer(packed: bytes, width: w, height: h, pixelFormat: .gray8))
        // The band's mean gray in the prepared image (the same size: nothing is cropped or scaled).
        func bandMean(_ automatic: AutomaticPreprocessing) throws -> (Double, PreprocessingDecisions) {
            let prepared = try Pipeline(orientation: .fromFrame, automatic: automatic).run(relit)
            let d = try #require(prepared.decisions)
            let out = prepared.image.packedBytes()
            #expect(prepared.image.width == w && prepared.image.height == h, "\(d.reasons)")
            var sum = 0
            for y in (band / 4)..<(band * 3 / 4) { for x in (w / 4)..<(w * 3 / 4) { sum += Int(out[y * w + x]) } }
            return (Double(sum) / Double(band / 2 * w / 2), d)
        }
        let (on, dOn) = try bandMean(AutomaticPreprocessing())
        #expect(dOn.invertedRegions > 0, "\(dOn.reasons)")
        #expect(on > 128, "band mean \(on) with polarity on: dark text on light paper: \(dOn.reasons)")
        var off = AutomaticPreprocessing()
        off.polarity = false
        let (offMean, dOff) = try bandMean(off)
        #expect(dOff.invertedRegions == 0, "\(dOff.reasons)")
        #expect(offMean < 128, "band mean \(offMean) with polarity off: still light text on dark: \(dOff.reasons)")
    }

    @Test("Sensor noise in the shadow (σ 4 gray levels) still reads within 0.03 CER", .tags(.tesseract))
    func noisyShadow() throws {
        let reference = try OCRFixture.text("phototest.gt.txt")
        let relit = try SyntheticLight(.shadow, noise: 4).apply(to: Self.phototest())
        let result = try sharedRecognizer.recognize(
            relit, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        #expect(result.preprocessing?.light != nil)
        let cer = TextMetrics.characterErrorRate(hypothesis: result.text, reference: reference)
        #expect(cer <= 0.03, "\(cer): \(result.text)")
    }

    @Test("Word boxes of a flattened page line up with the evenly lit page's", .tags(.tesseract))
    func boxesLineUp() throws {
        let even = try sharedRecognizer.recognize(
            Self.phototest(), pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        let relit = try sharedRecognizer.recognize(
            SyntheticLight(.gradient).apply(to: Self.phototest()),
            pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        // Each word of the relit page against the evenly lit page's nearest word with its text.
        var compared = 0
        var matched = 0
        for w in relit.words where w.text.count >= 3 {
            let a = w.box.rect
            let twins = even.words.filter { $0.text == w.text }.map(\.box.rect)
            guard let b = twins.min(by: { abs($0.x - a.x) + abs($0.y - a.y) < abs($1.x - a.x) + abs($1.y - a.y) })
            else { continue }
            compared += 1
            if abs(a.x - b.x) <= 3 && abs(a.y - b.y) <= 3 && abs(a.width - b.width) <= 4 { matched += 1 }
        }
        #expect(compared >= 40 && matched == compared, "\(matched) of \(compared) words at the same place")
    }
}
