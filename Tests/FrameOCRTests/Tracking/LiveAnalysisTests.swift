import Foundation
import LiveTestSupport
import Testing

@testable import FrameOCR

/// The live reader's search for a frame's lines under a latency budget: how far it reduces the
/// frame (exact arithmetic), the running cost it predicts from, the light lines' inverted boxes
/// (exact pixels), and the lines found and read in a reduced copy (boxes in the frame's pixels,
/// the text of phototest's lines).
@Suite("Live reading: the search for lines within the budget")
struct LiveAnalysisTests {
    /// A reader whose running cost of the search is `cost` seconds per pixel.
    static func reader(cost: Double) -> LiveReader {
        let reader = LiveReader(LiveReading())
        reader.analysisCost.withLock { $0 = cost }
        return reader
    }

    @Test(
        "The reduction: none without a deadline or when the search fits half the time left; else √(allowed/predicted), floored at 3-px characters"
    )
    func reduction() {
        let reader = Self.reader(cost: 100e-9)  // 0.1 s for a megapixel
        #expect(reader.analysisReduction(pixels: 1_000_000, smallest: 6, left: nil) == 1)
        #expect(reader.analysisReduction(pixels: 1_000_000, smallest: 6, left: .seconds(1)) == 1)
        #expect(reader.analysisReduction(pixels: 1_000_000, smallest: 6, left: .milliseconds(200)) == 1)
        // 0.05 s allowed of 0.1 s predicted: √0.5 of each side.
        #expect(
            abs(reader.analysisReduction(pixels: 1_000_000, smallest: 6, left: .milliseconds(100)) - 0.5.squareRoot())
                < 1e-12)
        // 0.01 s allowed: √0.1 = 0.316 is below 3/6, the floor.
        #expect(reader.analysisReduction(pixels: 1_000_000, smallest: 6, left: .milliseconds(20)) == 0.5)
        #expect(reader.analysisReduction(pixels: 1_000_000, smallest: 6, left: .milliseconds(-5)) == 0.5)
        // Characters of 3 px or less are never reduced.
        #expect(reader.analysisReduction(pixels: 1_000_000, smallest: 3, left: .milliseconds(20)) == 1)
        #expect(reader.analysisReduction(pixels: 0, smallest: 6, left: .milliseconds(20)) == 1)
    }

    @Test("The running cost per pixel follows each search with weight 0.2")
    func runningCost() {
        let reader = Self.reader(cost: 100e-9)
        reader.recordAnalysis(.milliseconds(50), pixels: 1_000_000)  // 50 ns a pixel
        #expect(abs(reader.analysisCost.withLock { $0 } - 90e-9) < 1e-18)
        reader.recordAnalysis(.milliseconds(50), pixels: 0)  // nothing searched: unchanged
        #expect(abs(reader.analysisCost.withLock { $0 } - 90e-9) < 1e-18)
        #expect(LiveReader(LiveReading()).analysisCost.withLock { $0 } == LiveReader.initialAnalysisCost)
    }

    @Test("Light lines' boxes inverted in a copy, each pixel once where boxes overlap; no light line: the image itself")
    func invertedBoxes() throws {
        let w = 8
        let h = 4
        let source = try PixelBuffer(
            packed: (0..<(w * h)).map { UInt8($0 * 7) }, width: w, height: h, pixelFormat: .gray8)
        func line(_ box: PixelRect) -> LiveReader.Line {
            LiveReader.Line(
                text: Rect(box), upright: box, box: box, textBox: box, cut: false, characterHeight: 2,
                characterAspect: nil, normalized: true)
        }
        let boxes = [PixelRect(x: 1, y: 0, width: 3, height: 2), PixelRect(x: 2, y: 1, width: 3, height: 2)]
        let out = try LiveReader.invertingBoxes(of: boxes.map(line), in: source, pool: PixelBufferPool())
        var expected = source.packedBytes()
        for y in 0..<h {
            for x in 0..<w where boxes.contains(where: { x >= $0.x && x < $0.maxX && y >= $0.y && y < $0.maxY }) {
                expected[y * w + x] = 255 - source.packedBytes()[y * w + x]
            }
        }
        #expect(out.packedBytes() == expected)
        #expect(source.packedBytes() == (0..<(w * h)).map { UInt8($0 * 7) })  // the source untouched
        // Row 1, column 3 lies in both boxes: inverted once ((8 + 3) × 7 = 77 → 178).
        #expect(out.packedBytes()[1 * w + 3] == 178)
        let none = try LiveReader.invertingBoxes(of: [], in: source, pool: PixelBufferPool())
        #expect(none.packedBytes() == source.packedBytes())
    }

    /// Reads `buffer` once through `reader` with `left` before the deadline.
    static func observe(_ buffer: PixelBuffer, _ reader: LiveReader, left: Duration) throws -> LiveReader.Outcome {
        try reader.observe(
            buffer, frameID: 0, timestamp: .zero, pipeline: Pipeline(orientation: .fromFrame), options: nil,
            recognizer: Recognizer(), plans: [], deadline: ContinuousClock.now + left, pool: PixelBufferPool())
    }

    @Test(
        "A frame too large for its budget is searched reduced: its lines found where they are in the frame, and read, dark and light",
        .tags(.tesseract), arguments: [false, true])
    func reducedSearch(light: Bool) throws {
        let scene = try LiveScene()
        var frame = try scene.frame(placed: [(0, 40, 60), (1, 40, 240)])
        if light {
            frame = try PixelBuffer(
                packed: frame.packedBytes().map { 255 - $0 }, width: frame.width, height: frame.height,
                pixelFormat: .gray8)
        }
        let gray = try LiveReader.plain(Pipeline(orientation: .fromFrame)).run(frame, pool: nil)
        // Full size: no deadline.
        let full = try Self.reader(cost: 100e-9).findLines(in: gray, pool: PixelBufferPool())
        #expect(full.reduction == 1)
        // A cost that makes half of 10 s fit only at 0.6 of each side (0.36 of the pixels).
        let pixels = Double(frame.width * frame.height)
        let reader = Self.reader(cost: 5 / (0.36 * pixels))
        let reduced = try reader.findLines(
            in: gray, deadline: ContinuousClock.now + .seconds(10), pool: PixelBufferPool())
        #expect(abs(reduced.reduction - 0.6) < 0.01, "\(reduced.reduction)")
        #expect(
            reduced.lines.count == 2 && full.lines.count == 2, "\(reduced.lines.map(\.text)) \(full.lines.map(\.text))")
        // The same lines, in the frame's pixels: each side within a quarter of the line's height
        // (15 px) of the full size's. (Light text reduced: the first line is found in the gray frame
        // itself, by the dark gaps between its letters, with its box a few pixels shorter; it
        // reads the same.)
        for (a, b) in zip(reduced.lines, full.lines) {
            for (p, q) in [
                (a.text.x, b.text.x), (a.text.y, b.text.y), (a.text.maxX, b.text.maxX), (a.text.maxY, b.text.maxY),
            ] {
                #expect(abs(p - q) <= b.text.height / 4, "\(a.text) against \(b.text)")
            }
            #expect(b.normalized == light)
        }
        #expect(reduced.lines.contains(where: \.normalized) == light)
        // Read through the reader: the two lines of phototest, each exactly.
        let outcome = try Self.observe(frame, Self.reader(cost: 5 / (0.36 * pixels)), left: .seconds(10))
        #expect(
            outcome.observation.lines.map { $0.reading?.text } == LiveScene.lineTexts,
            "\(outcome.observation.lines.map { $0.reading?.text })")
    }

    @Test(
        "Through the processor: a 1920×1080 frame under a 40 ms budget is searched at half size at first (the floor for 10 px lines), a quarter with the text detector (its floor, 20 px lines), counted; without a budget at full size; a reused frame not at all",
        .tags(.tesseract))
    func processorReports() async throws {
        let scene = try LiveScene()
        let frame = try scene.frame(width: 1920, height: 1080, placed: [(0, 40, 60), (1, 40, 600)])
        func play(budget: Duration?, detectEvery: Int = 0) async throws -> ([FrameResult], FrameProcessor.Statistics) {
            var live = LiveReading()
            live.detectEvery = detectEvery
            let processor = try FrameProcessor(
                configuration: .init(
                    workerCount: 1, queueCapacity: 2, dropPolicy: .block, latencyBudget: budget,
                    liveReading: live))
            let collector = ResultCollector(processor)
            for i in 0..<2 {
                await processor.submit(Frame(id: UInt64(i), timestamp: .milliseconds(Int64(i) * 40), buffer: frame))
            }
            await processor.finish()
            return (await collector.all().sorted { $0.frameID < $1.frameID }, processor.statistics())
        }
        // The first estimate, 100 ns a pixel, predicts 207 ms for 2.07 MP: far over half of 38 ms,
        // so the factor is the floor, 3 px for the 6 px lower case of 10 px lines: 0.5.
        let (budgeted, stats) = try await play(budget: .milliseconds(40))
        #expect(budgeted.map(\.gate) == [.read, .reused])
        #expect(budgeted[0].searchScale == 0.5 && budgeted[1].searchScale == nil, "\(budgeted.map(\.searchScale))")
        #expect(stats.reducedSearches == 1)
        #expect(stats.detector == nil)
        // With the detector, the search takes 0.2 of the time left, and its floor is 3 px for the
        // lower case of 20 px lines: 0.25.
        let (detecting, detectingStats) = try await play(budget: .milliseconds(40), detectEvery: 15)
        #expect(detecting[0].searchScale == 0.25, "\(detecting.map(\.searchScale))")
        #expect(detectingStats.detector?.failed == 0)
        let (free, freeStats) = try await play(budget: nil)
        #expect(free.map(\.searchScale) == [1, nil])
        #expect(freeStats.reducedSearches == 0)
        // At full size both lines are read (the budgeted frame may have had no time left for them).
        #expect(free.last?.tracks?.map(\.text) == LiveScene.lineTexts, "\(free.last?.text ?? "")")
    }
}
