import Foundation
import FrameOCRSynthesis
import FrameOCRTestSupport
import Synchronization
import Testing

@testable import FrameOCR

/// The text-angle classifier (``TextAngleClassifier``: PP-OCR's direction classifier on OpenVINO,
/// installed by `make deps`) and the scene reading that uses it to read
/// regions the right way up (``RegionReading/readUpright(_:of:origin:frameWidth:frameHeight:recognizer:suspect:options:timings:pool:)``).
@Suite("Text angle: the classifier and regions read the right way up")
struct TextAngleClassifierTests {
    static let loaded = Result { () throws(FrameOCRError) in try TextAngleClassifier() }
    static func classifier() throws -> TextAngleClassifier { try loaded.get() }

    /// Words rendered dark on light in DejaVu Sans Bold (as ``TextLineRecognizerTests/line(_:height:ink:paper:)``).
    static let words = ["HELLO", "Platform 9", "Carpark", "EXIT 24", "Main Street", "Welcome", "SALE", "Bakery"]

    static func turned(_ image: PixelBuffer) throws -> PixelBuffer {
        try image.applyingOrientation(.down)
    }

    @Test("Upright words are taken for upright and turned ones for upside down, most of them (the model is weak alone)")
    func classifies() throws {
        let c = try Self.classifier()
        var upright = 0
        var turned = 0
        for w in Self.words {
            let line = try TextLineRecognizerTests.line(w)
            let p = try c.upsideDownProbability(line)
            let q = try c.upsideDownProbability(Self.turned(line))
            #expect(p >= 0 && p <= 1 && q >= 0 && q <= 1)
            if p < 0.5 { upright += 1 }
            if q >= 0.5 { turned += 1 }
            #expect(try c.isUpsideDown(Self.turned(line)) == (q >= c.configuration.threshold))
        }
        #expect(upright >= 6, "\(upright) of \(Self.words.count) upright words taken for upright")
        #expect(turned >= 6, "\(turned) of \(Self.words.count) turned words taken for upside down")
    }

    @Test("Gray and BGRA with padded rows give the same probability; four callers at once too")
    func formatsAndThreads() throws {
        let c = try Self.classifier()
        let line = try Self.turned(TextLineRecognizerTests.line("Platform 9"))
        let expected = try c.upsideDownProbability(line)
        let bytes = line.packedBytes()
        let bgra = try PaddedFrame(format: .bgra8, width: line.width, height: line.height, padding: 12) { _, x, y, b in
            b == 3 ? 255 : bytes[y * line.width + x]
        }
        #expect(try c.upsideDownProbability(bgra.buffer) == expected)
        let results = Mutex<[Double]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let p = try? c.upsideDownProbability(line)
            results.withLock { $0.append(p ?? -1) }
        }
        #expect(results.withLock { $0 } == [Double](repeating: expected, count: 4))
    }

    @Test("Crops classified together give each its probability alone, in their order; none give none")
    func together() throws {
        let c = try Self.classifier()
        var crops: [PixelBuffer] = []
        for (i, w) in Self.words.enumerated() {
            let line = try TextLineRecognizerTests.line(w)
            crops.append(i % 3 == 1 ? try Self.turned(line) : line)
        }
        crops.append(try Self.turned(TextLineRecognizerTests.line("Main Street")))
        let together = try c.upsideDownProbabilities(crops)
        #expect(together.count == crops.count)
        for (i, crop) in crops.enumerated() {
            let alone = try c.upsideDownProbability(crop)
            #expect(abs(together[i] - alone) < 1e-5, "crop \(i): \(together[i]) against \(alone)")
        }
        #expect(try c.upsideDownProbabilities([]).isEmpty)
        // A planar crop among them is refused, named by its index.
        crops[3] = try PixelBuffer(width: 64, height: 32, pixelFormat: .nv12)
        do {
            _ = try c.upsideDownProbabilities(crops)
            Issue.record("a planar crop was classified")
        } catch {
            #expect(error.code == .unsupportedFormat && error.message.contains("srcs[3]"), "\(error)")
        }
    }

    @Test("Typed errors: a threshold out of range, a missing model, a planar frame")
    func errors() throws {
        #expect(throws: FrameOCRError.self) { try TextAngleClassifier(configuration: .init(threshold: 0.4)) }
        #expect(throws: FrameOCRError.self) { try TextAngleClassifier(configuration: .init(threshold: 1.5)) }
        do {
            _ = try TextAngleClassifier(configuration: .init(modelPath: "/nonexistent/cls.onnx"))
            Issue.record("a missing model was loaded")
        } catch {
            #expect(error.code == .io, "\(error)")
        }
        let nv12 = try PixelBuffer(width: 64, height: 32, pixelFormat: .nv12)
        let c = try Self.classifier()
        do {
            _ = try c.upsideDownProbability(nv12)
            Issue.record("a planar frame was classified")
        } catch {
            #expect(error.code == .unsupportedFormat, "\(error)")
        }
        // A 1×1 image is a line too (resized to 48×48).
        let dot = try PixelBuffer(packed: [128], width: 1, height: 1, pixelFormat: .gray8)
        #expect((0...1).contains(try Self.classifier().upsideDownProbability(dot)))
    }

    @Test("A region upside down is read turned, its words boxed where they are; without the classifier it is not")
    func regionUpsideDown() throws {
        let recognizer = try TextLineRecognizerTests.recognizer()
        // The line turned 180° in a frame, its region as the detector gives it: level, angle 0.
        let line = try Self.turned(TextLineRecognizerTests.line("Platform 9"))
        let region = DetectedText(
            center: Point(x: Double(line.width) / 2, y: Double(line.height) / 2), width: Double(line.width),
            height: Double(line.height), angleDegrees: 0, score: 0.9)
        var timings = StageTimings()
        let crop = try RegionReading.cut(region, of: line, degrees: 0, pool: nil)
        let suspects = try RegionReading.suspects([crop], classifier: Self.classifier(), timings: &timings)
        #expect(suspects == [true])
        func readUpright(_ image: PixelBuffer, suspects: [Bool]?, _ timings: inout StageTimings) throws -> (
            line: TextLine?, upsideDown: Bool?
        ) {
            try RegionReading.readUpright(
                [region], crops: [try RegionReading.cut(region, of: image, degrees: 0, pool: nil)], of: image,
                origin: Point(x: 10, y: 20), frameWidth: 400, frameHeight: 200, recognizer: recognizer,
                suspects: suspects, options: RecognitionOptions(includeSymbols: false), timings: &timings, pool: nil)[0]
        }
        let read = try readUpright(line, suspects: suspects, &timings)
        let text = try #require(read.line).text
        #expect(text == "Platform 9")
        #expect(read.upsideDown == true)
        // The first word, "Platform", is on the right of the turned line: its box is turned too
        // (its top-left corner at the bottom right).
        let first = try #require(read.line?.words.first)
        #expect(first.text == "Platform")
        #expect(first.box.quad.topLeft.x > 10 + Double(line.width) / 2)
        #expect(abs(first.box.quad.topLeft.y - (20 + Double(line.height))) < 1)
        #expect(timings.lineRecognition > .zero)
        let plain = try readUpright(line, suspects: nil, &timings)
        #expect(plain.upsideDown == nil && plain.line?.text != "Platform 9")
        #expect(try RegionReading.suspects([crop], classifier: nil, timings: &timings) == nil)
        // A suspect read both ways keeps the upright reading of an upright line.
        let upright = try TextLineRecognizerTests.line("Platform 9")
        let kept = try readUpright(upright, suspects: [true], &timings)
        #expect(kept.line?.text == "Platform 9" && kept.upsideDown == false)
        // Read together, in one frame: the turned line above the upright one, both suspects (the
        // frame's vote); each read as alone, the turned one turned back.
        #expect(line.pixelFormat == .gray8 && upright.width == line.width && upright.height == line.height)
        let frame = try PixelBuffer(
            packed: line.packedBytes() + upright.packedBytes(), width: line.width, height: 2 * line.height,
            pixelFormat: .gray8)
        let lower = DetectedText(
            center: Point(x: region.center.x, y: region.center.y + Double(line.height)), width: region.width,
            height: region.height, angleDegrees: 0, score: 0.9)
        let both = [region, lower]
        let crops = try both.map { try RegionReading.cut($0, of: frame, degrees: 0, pool: nil) }
        let together = try RegionReading.readUpright(
            both, crops: crops, of: frame, origin: Point(x: 0, y: 0), frameWidth: frame.width,
            frameHeight: frame.height, recognizer: recognizer, suspects: [true, true],
            options: RecognitionOptions(includeSymbols: false), timings: &timings, pool: nil)
        #expect(together.map { $0.line?.text } == ["Platform 9", "Platform 9"])
        #expect(together.map(\.upsideDown) == [true, false])
    }

    @Test("The frame's vote: every region a suspect when more than half are, else each as found")
    func vote() {
        #expect(RegionReading.vote([true, true, false]) == [true, true, true])
        #expect(RegionReading.vote([true, false]) == [true, false])
        #expect(RegionReading.vote([false, false, true]) == [false, false, true])
        #expect(RegionReading.vote([true]) == [true])
        #expect(RegionReading.vote([]) == [])
    }
}
