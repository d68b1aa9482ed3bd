import Foundation
import FrameOCR
import Testing

@testable import FrameOCREvaluation

/// The robustness suite (issue 28): each ``RobustVariant`` to the pixel or the size, its seeds,
/// and the figures and gate `frameocr eval --robust` reports.
@Suite("Robustness variants and their gate")
struct RobustVariantTests {
    /// A `width`×`height` white page with black rows in `dark`.
    static func page(width: Int = 20, height: Int, dark: [Range<Int>]) throws -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: width * height)
        for rows in dark { for y in rows { for x in 0..<width { bytes[y * width + x] = 0 } } }
        return try PixelBuffer(packed: bytes, width: width, height: height, pixelFormat: .gray8)
    }

    static func row(_ image: PixelBuffer, _ y: Int) -> [UInt8] {
        Array(image.packedBytes()[(y * image.width)..<((y + 1) * image.width)])
    }

    @Test("A band's edges fall in the middle of the blank runs between lines; on one line it takes the line")
    func bandBetweenLines() throws {
        // Lines at rows 10–19, 30–39, 50–59, 70–79: blank runs 0–9, 20–29, 40–49, 60–69, 80–99,
        // whose middles are 5, 25, 45, 65 and 90.
        let lines = try Self.page(height: 100, dark: [10..<20, 30..<40, 50..<60, 70..<80])
        // Start 22 → 25; end 22 + 30 = 52 → 45 (7 away; 65 is 13).
        #expect(RobustVariant.band(in: lines, start: 0.22, height: 0.3) == (25, 45))
        let inverted = try RobustVariant.inverted(lines, rows: 25..<45)
        #expect(Self.row(inverted, 24) == Array(repeating: 255, count: 20))
        #expect(Self.row(inverted, 25) == Array(repeating: 0, count: 20))  // blank, now dark
        #expect(Self.row(inverted, 30) == Array(repeating: 255, count: 20))  // the line, now light
        #expect(Self.row(inverted, 44) == Array(repeating: 0, count: 20))
        #expect(Self.row(inverted, 45) == Array(repeating: 255, count: 20))
        #expect(Self.row(inverted, 50) == Array(repeating: 0, count: 20))  // the next line as it was
        // One line (rows 10–29 of 40): both edges would fall above it; the band runs to the blank
        // run below instead, so the whole line is inverted.
        let one = try Self.page(height: 40, dark: [10..<30])
        #expect(RobustVariant.band(in: one, start: 0.15, height: 0.3) == (5, 35))
        // The nominal variant: rows 15 %…45 % → (5, 45) on the four lines: 15 → 5 (tie with 25:
        // the first), 45 → 45.
        let nominal = try RobustVariant(.invertedBand).apply(to: lines)
        #expect(nominal.packedBytes() == (try RobustVariant.inverted(lines, rows: 5..<45)).packedBytes())
    }

    @Test("Scales, rotation, blur and JPEG: sizes exact, fill white, seeds deterministic and jittered")
    func geometryAndCodecs() throws {
        let black = try Self.page(width: 200, height: 100, dark: [0..<100])
        let quarter = try RobustVariant(.scale25).apply(to: black)
        #expect(quarter.width == 50 && quarter.height == 25 && quarter.pixelFormat == .gray8)
        #expect(try RobustVariant(.scale35).apply(to: black).width == 70)
        #expect(try RobustVariant(.scale50).apply(to: black).height == 50)
        for seed in 2...6 {  // factor 0.25 × (1 ± 5 %): 47.5…52.5 px wide
            let w = try RobustVariant(.scale25, seed: UInt64(seed)).apply(to: black).width
            #expect((47...53).contains(w), "seed \(seed): \(w)")
        }
        // 3° on 200×100: 200 cos 3° + 100 sin 3° = 204.96 → 205; 200 sin 3° + 100 cos 3° = 110.33 → 111.
        let turned = try RobustVariant(.rotate).apply(to: black)
        #expect(turned.width == 205 && turned.height == 111)
        #expect(Self.row(turned, 0)[0] == 255 && Self.row(turned, 55)[102] == 0)  // corner filled, centre black
        // Seeds: the same seed gives the same bytes; seeds 2… turn by other angles.
        let s2 = try RobustVariant(.rotate, seed: 2).apply(to: black).packedBytes()
        #expect(s2 == (try RobustVariant(.rotate, seed: 2).apply(to: black).packedBytes()))
        #expect(Set((2...5).map { try! RobustVariant(.rotate, seed: $0).apply(to: black).packedBytes() }).count > 1)
        // Blur: an even page stays even; a step gets values between.
        let half = try Self.page(width: 8, height: 8, dark: [0..<4])
        let blurred = try RobustVariant(.blur).apply(to: half)
        #expect(Self.row(blurred, 0).allSatisfy { $0 < 30 } && Self.row(blurred, 7).allSatisfy { $0 > 225 })
        #expect(Self.row(blurred, 3).allSatisfy { $0 > 30 && $0 < 225 })
        #expect(try RobustVariant(.blur).apply(to: black).packedBytes().allSatisfy { $0 == 0 })
        // JPEG at quality 30 loses detail: a checkerboard comes back changed, the same size, the
        // same bytes for the same seed.
        var checker = [UInt8](repeating: 0, count: 64 * 64)
        for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 0 { checker[y * 64 + x] = 255 } }
        let board = try PixelBuffer(packed: checker, width: 64, height: 64, pixelFormat: .gray8)
        let jpeg = try RobustVariant(.jpeg).apply(to: board)
        #expect(jpeg.width == 64 && jpeg.height == 64 && jpeg.packedBytes() != checker)
        #expect(jpeg.packedBytes() == (try RobustVariant(.jpeg).apply(to: board).packedBytes()))
        // Relit: a white page under light falling to 0.35 (noise 3 gray levels).
        let relit = try RobustVariant(.relit).apply(to: try Self.page(width: 100, height: 100, dark: []))
        let bytes = relit.packedBytes()
        #expect(bytes.min()! < 110 && bytes.max()! > 240)
    }

    /// A row of a run read as `robust` (nil: as stored) with `cer` on a page of `words` words.
    static func row(
        _ file: String, _ robust: RobustVariant?, cer: Double, found: Int = 9, words: Int = 10,
        half: Evaluation.Half = .tuning, folder: String = "tesseract-test"
    ) -> EvaluationRun.ImageRow {
        var side = EvaluationRun.Side("", reference: "", scoring: .init(), seconds: 0)
        (side.cer, side.wordsFound, side.referenceWords) = (cer, found, words)
        return EvaluationRun.ImageRow(
            file: "/data/\(folder)/\(file)", folder: folder + (robust.map { "@" + $0.kind.rawValue } ?? ""),
            half: half, robust: robust, frameocr: side)
    }

    @Test("Figures: mean CER per variant and half, per seed, its noise the jittered seeds' standard deviation")
    func figures() throws {
        let rows = [
            Self.row("a.png", nil, cer: 0.0), Self.row("b.png", nil, cer: 0.1, half: .heldOut),
            Self.row("a.png", RobustVariant(.blur, seed: 1), cer: 0.1),
            Self.row("b.png", RobustVariant(.blur, seed: 1), cer: 0.3, half: .heldOut),
            Self.row("a.png", RobustVariant(.blur, seed: 2), cer: 0.2),
            Self.row("b.png", RobustVariant(.blur, seed: 2), cer: 0.4, half: .heldOut),
            // Scored by recall: left out of the CER, counted in the recall.
            Self.row("m.png", RobustVariant(.blur, seed: 1), cer: 5, found: 0, words: 10, folder: "mrz"),
        ]
        let figures = EvaluationRun.robustFigures(rows)
        #expect(figures.map(\.variant) == ["as-stored", "blur"])
        let stored = figures[0]
        #expect(stored.images == 2 && stored.seeds == 1 && abs(stored.meanCER! - 0.05) < 1e-12 && stored.noise == 0)
        #expect(stored.pages == ["a.png", "b.png"])
        let blur = figures[1]
        #expect(blur.images == 3 && blur.seeds == 2 && blur.pages == ["a.png", "b.png", "m.png"])
        #expect(abs(blur.meanCER! - 0.25) < 1e-12)
        #expect(abs(blur.tuning! - 0.15) < 1e-12 && abs(blur.heldOut! - 0.35) < 1e-12)
        #expect(zip(blur.seedMeans, [0.2, 0.3]).allSatisfy { abs($0 - $1) < 1e-12 })
        // One jittered seed: the noise is over both seeds' means 0.2 and 0.3, 0.1 / √2.
        #expect(abs(blur.noise - 0.1 / 2.0.squareRoot()) < 1e-12)
        #expect(abs(blur.wordRecall - 36.0 / 50) < 1e-12)  // 9 + 9 + 9 + 9 + 0 of 50
        // Seeds 1, 2, 3 at 0.0, 0.2, 0.4 (one page): the noise is of seeds 2 and 3 alone, 0.2 / √2.
        let three = EvaluationRun.robustFigures(
            [Self.row("a.png", nil, cer: 0)]
                + [0.0, 0.2, 0.4].enumerated().map {
                    Self.row("a.png", RobustVariant(.rotate, seed: UInt64($0 + 1)), cer: $1)
                })
        #expect(abs(three[1].noise - 0.2 / 2.0.squareRoot()) < 1e-12)
        // Only pages scored by recall: no CER; the seeds' figures are recalls.
        let mrz = EvaluationRun.robustFigures([
            Self.row("m.png", nil, cer: 3, found: 8, words: 10, folder: "mrz"),
            Self.row("m.png", RobustVariant(.blur), cer: 4, found: 5, words: 10, folder: "mrz"),
        ])
        #expect(mrz[1].meanCER == nil && mrz[1].seedMeans == [0.5] && mrz[1].wordRecall == 0.5)
        #expect(EvaluationRun.robustFigures(Array(rows.prefix(2))).isEmpty)  // no variant read
    }

    @Test(
        "The gate: within max(0.01, 2 × noise) passes, beyond fails; a figure not read, another suite, recall folders")
    func gate() throws {
        func figure(
            _ name: String, _ cer: Double?, noise: Double = 0, images: Int = 4, pages: [String]? = nil,
            recall: Double = 1
        ) -> EvaluationRun.RobustFigure {
            EvaluationRun.RobustFigure(
                variant: name, images: images, seeds: 3, pages: pages, meanCER: cer, tuning: cer, heldOut: nil,
                wordRecall: recall, seedMeans: [cer ?? recall], noise: noise)
        }
        let baseline = EvaluationRun.RobustBaseline(
            command: "test",
            figures: [figure("as-stored", 0.02), figure("blur", 0.10, noise: 0.02), figure("relit", 0.3)])
        let checks = EvaluationRun.check(
            [figure("as-stored", 0.029), figure("blur", 0.139), figure("relit", 0.32), figure("jpeg-30", 0.9)],
            against: baseline)
        #expect(checks.map(\.variant) == ["as-stored", "blur", "relit"])  // jpeg-30 is not in the baseline
        #expect(checks[0].failure == nil && checks[0].tolerance == 0.01 && checks[0].figure == "mean CER")
        #expect(checks[1].failure == nil && abs(checks[1].tolerance - 0.04) < 1e-12)  // 2 × the baseline's noise
        #expect(checks[2].failure?.contains("0.320 is above the baseline's 0.300 by more than 0.010") == true)
        let other = EvaluationRun.check([figure("blur", 0.10, images: 5)], against: baseline)
        #expect(other[1].failure?.contains("not the same suite") == true)
        // A figure of the baseline this run did not read fails.
        #expect(other[0].failure == "not in this run" && other[0].current == nil)
        #expect(other[2].failure == "not in this run")
        // Better than the baseline passes.
        #expect(EvaluationRun.check([figure("relit", 0.1)], against: baseline)[2].failure == nil)
        // Other pages, the same count: not the same suite.
        let paged = EvaluationRun.RobustBaseline(command: "", figures: [figure("blur", 0.1, pages: ["a.png"])])
        #expect(
            EvaluationRun.check([figure("blur", 0.1, pages: ["b.png"])], against: paged)[0].failure?.contains(
                "other pages") == true)
        // Pages scored by recall: the gate checks the recall, lower is worse.
        let recall = EvaluationRun.RobustBaseline(command: "", figures: [figure("blur", nil, recall: 0.8)])
        let lower = EvaluationRun.check([figure("blur", nil, recall: 0.7)], against: recall)[0]
        #expect(lower.figure == "word recall" && lower.failure?.contains("0.700 is below the baseline's 0.800") == true)
        #expect(EvaluationRun.check([figure("blur", nil, recall: 0.795)], against: recall)[0].failure == nil)
    }

    @Test("A path that is an image file with its ground truth is one sample; without one, an io error")
    func fileSample() throws {
        let fixtures = EvaluationRunTests.fixture("") + "/"
        let samples = try Evaluation.samples(at: fixtures + "phototest.tif")
        #expect(samples.count == 1 && samples[0].folder == "Fixtures")
        #expect(samples[0].groundTruth.hasSuffix("Fixtures/phototest.gt.txt"))
        #expect(throws: FrameOCRError.self) { try Evaluation.samples(at: fixtures + "lightbox-sign.png") }
        #expect(throws: FrameOCRError.self) { try Evaluation.samples(at: fixtures + "no-such.png") }
    }
}
