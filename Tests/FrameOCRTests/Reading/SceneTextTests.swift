import Foundation
import FrameOCREvaluation
import FrameOCRSynthesis
import FrameOCRTestSupport
import Synchronization
import Testing

@testable import FrameOCR

/// Scene text (issue 16): the DB text detector (``TextDetector``, PP-OCRv4's model on OpenVINO,
/// installed by `make text-detector`) and the scene-text reading.
@Suite("Scene text", .tags(.tesseract))
struct SceneTextTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// A sign on the canvas: its text, pixel height, turn (degrees clockwise), centre, and
    /// whether it is light on dark.
    struct Sign {
        var text: String
        var height: Int
        var degrees: Double
        var center: Point
        var inverted: Bool
    }

    /// Capitals 16–19 px tall (the font's pixel height × 0.73): below the text-line reading's
    /// 20 px, so that the scene-text reading is what reads them.
    static let signs = [
        Sign(text: "PLATFORM", height: 24, degrees: 0, center: Point(x: 190, y: 90), inverted: false),
        Sign(text: "EXIT", height: 26, degrees: 0, center: Point(x: 520, y: 120), inverted: true),
        Sign(text: "BAKERY", height: 22, degrees: 8, center: Point(x: 420, y: 320), inverted: false),
    ]

    /// A 640×420 gray scene: ``clutter(width:height:seed:)`` with the signs drawn on it, each on
    /// its own card (`cv::freetype`, `cv::warpAffine`).
    static func scene() throws -> PixelBuffer {
        let canvas = try clutter(width: 640, height: 420, seed: 16)
        for s in signs {
            let card = try PixelBuffer.rendering(
                s.text, fontPath: font, height: s.height, margin: s.height / 3, ink: s.inverted ? 235 : 25,
                paper: s.inverted ? 35 : 225)
            try place(card, on: canvas, center: s.center, degrees: s.degrees)
        }
        return canvas
    }

    /// A seeded gray texture of blocks, stripes and speckle (a street's clutter, or a desk's): no
    /// print in it (``SyntheticLabel/clutter(width:height:seed:)``).
    static func clutter(width w: Int, height h: Int, seed: UInt64) throws -> PixelBuffer {
        try SyntheticLabel.clutter(width: w, height: h, seed: seed)
    }

    /// Draws `card` on `canvas` turned `degrees` clockwise about its centre, that centre at `center`.
    static func place(_ card: PixelBuffer, on canvas: PixelBuffer, center: Point, degrees: Double) throws {
        try SyntheticLabel.place(card, on: canvas, center: center, degrees: degrees)
    }

    /// The installed model (`make text-detector`), loaded once; a missing one fails each test that
    /// needs it with the load's error instead of stopping the test process.
    static let loaded = Result { () throws(FrameOCRError) in try TextDetector() }
    static func detector() throws -> TextDetector { try loaded.get() }

    @Test("Each sign of a cluttered scene is found: its centre inside a region turned as the sign is")
    func detects() throws {
        let found = try Self.detector().detect(Self.scene())
        for s in Self.signs {
            let region = found.first { r in
                let b = r.boundingBox
                return s.center.x >= b.x && s.center.x <= b.maxX && s.center.y >= b.y && s.center.y <= b.maxY
            }
            let r = try #require(region, "\(s.text) not found among \(found)")
            #expect(abs(r.angleDegrees - s.degrees) <= 3, "\(s.text): \(r.angleDegrees)°")
            #expect(r.score >= 0.5 && r.width > r.height)
            // The region holds the sign's text, not the whole canvas.
            #expect(r.height < Double(s.height) * 2.5 && r.height > Double(s.height) * 0.6, "\(s.text): \(r)")
        }
    }

    @Test("Colour and gray frames, any bytesPerRow, give the same regions; six callers at once too")
    func formatsAndThreads() throws {
        let gray = try Self.scene()
        let expected = try Self.detector().detect(gray)
        // BGRA with padding, built from the gray pixels.
        let bytes = gray.packedBytes()
        let frame = try PaddedFrame(format: .bgra8, width: gray.width, height: gray.height, padding: 12) { _, x, y, b in
            b == 3 ? 255 : bytes[y * gray.width + x]
        }
        #expect(try Self.detector().detect(frame.buffer) == expected)
        let results = Mutex<[[DetectedText]]>([])
        // More callers at once than handles kept: each gets its own network (reused or made).
        let detector = try Self.detector()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let r = (try? detector.detect(gray)) ?? []
            results.withLock { $0.append(r) }
        }
        #expect(results.withLock { $0 } == Array(repeating: expected, count: 6))
    }

    @Test("A region's corners: the rectangle turned about its centre, top-left first, along the text")
    func quad() {
        let r = DetectedText(center: Point(x: 10, y: 20), width: 8, height: 4, angleDegrees: 90, score: 1)
        let q = r.quad
        // Turned 90° clockwise: "along the text" points down; the text's top is on the right.
        #expect(abs(q.topLeft.x - 12) < 1e-9 && abs(q.topLeft.y - 16) < 1e-9)
        #expect(abs(q.topRight.x - 12) < 1e-9 && abs(q.topRight.y - 24) < 1e-9)
        #expect(abs(q.bottomLeft.x - 8) < 1e-9 && abs(q.bottomLeft.y - 16) < 1e-9)
        let flat = DetectedText(center: Point(x: 10, y: 20), width: 8, height: 4, angleDegrees: 0, score: 1)
        #expect(flat.boundingBox == Rect(x: 6, y: 18, width: 8, height: 4))
    }

    @Test("Outside a rectangle, its nearest edge pixels (exact values)")
    func replicateOutside() throws {
        // 5×4, pixel value 10·y + x; keep (1,1) 2×2.
        let image = try PixelBuffer(
            packed: (0..<20).map { UInt8(10 * ($0 / 5) + $0 % 5) }, width: 5, height: 4, pixelFormat: .gray8)
        try Shim.replicateOutside(image, PixelRect(x: 1, y: 1, width: 2, height: 2))
        #expect(
            image.packedBytes() == [
                11, 11, 12, 12, 12,
                11, 11, 12, 12, 12,
                21, 21, 22, 22, 22,
                21, 21, 22, 22, 22,
            ])
        #expect(throws: FrameOCRError.self) {
            try Shim.replicateOutside(image, PixelRect(x: 4, y: 0, width: 2, height: 1))
        }
    }

    @Test("Typed errors: a missing model, a file that is no model, settings out of range, a planar frame")
    func errors() throws {
        #expect { try TextDetector(configuration: .init(modelPath: "/nonexistent/model.onnx")) } throws: {
            ($0 as? FrameOCRError)?.code == .io && ($0 as? FrameOCRError)?.stage == .detection
        }
        let junk = NSTemporaryDirectory() + "frameocr-not-a-model-\(UUID().uuidString).onnx"
        try Data("not an onnx model".utf8).write(to: URL(fileURLWithPath: junk))
        defer { try? FileManager.default.removeItem(atPath: junk) }
        #expect { try TextDetector(configuration: .init(modelPath: junk)) } throws: {
            ($0 as? FrameOCRError)?.code == .unsupportedFormat
        }
        for bad in [
            TextDetector.Configuration(longSide: 16), TextDetector.Configuration(longSide: 4096),
            TextDetector.Configuration(binaryThreshold: 1.5), TextDetector.Configuration(unclipRatio: -1),
            TextDetector.Configuration(maximumCandidates: 0),
        ] {
            #expect { try TextDetector(configuration: bad) } throws: {
                ($0 as? FrameOCRError)?.code == .invalidParameter
            }
        }
        let nv12 = try PixelBuffer(width: 64, height: 64, pixelFormat: .nv12)
        #expect { try Self.detector().detect(nv12) } throws: { ($0 as? FrameOCRError)?.code == .unsupportedFormat }
        let tiny = try PixelBuffer(width: 4, height: 4, pixelFormat: .gray8)
        #expect { try Self.detector().detect(tiny) } throws: { ($0 as? FrameOCRError)?.code == .invalidParameter }
    }

    @Test(
        "A cluttered scene is read as one: its signs found and read alone, the clutter's letters dropped, boxes on the signs"
    )
    func sceneReading() throws {
        let result = try sharedRecognizer.recognize(
            Self.scene(), pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        let d = try #require(result.preprocessing)
        let scene = try #require(d.sceneText, "\(d.reasons)")
        #expect(scene.regions.count >= 3)
        for s in Self.signs {
            let word = try #require(result.words.first { $0.text == s.text }, "\(s.text) not in \(result.text)")
            // The word's box lies on its sign.
            let r = word.box.rect
            #expect(
                abs(r.x + r.width / 2 - s.center.x) < 25 && abs(r.y + r.height / 2 - s.center.y) < 15, "\(s.text): \(r)"
            )
            if s.degrees != 0 {
                // Its quad is turned with the sign.
                let q = word.box.quad
                let angle = atan2(q.topRight.y - q.topLeft.y, q.topRight.x - q.topLeft.x) * 180 / .pi
                #expect(abs(angle - s.degrees) < 3, "\(s.text): \(angle)°")
            }
        }
        #expect(result.timings.detection > .zero)
        #expect(d.reasons.contains { $0.hasPrefix("scene text: a scene") })

        var readings = SecondReadings()
        readings.sceneText = false
        let off = try sharedRecognizer.recognize(
            Self.scene(), pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()),
            options: Recognizer.Options(secondReadings: readings))
        #expect(off.preprocessing?.sceneText == nil && off.timings.detection == .zero)
    }

    @Test("Without a detector the scene is read as a page, and the reason says why")
    func noDetector() throws {
        let none = try Recognizer(configuration: .init(textDetector: nil))
        #expect(try none.textDetector() == nil)
        let plain = try none.recognize(
            Self.scene(), pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        #expect(plain.preprocessing?.sceneText == nil)
        let missing = try Recognizer(configuration: .init(textDetector: .init(modelPath: "/nonexistent.onnx")))
        let read = try missing.recognize(
            Self.scene(), pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        #expect(read.preprocessing?.sceneText == nil)
        #expect(read.preprocessing?.reasons.contains { $0.contains("no text detector") } == true)
    }
}
