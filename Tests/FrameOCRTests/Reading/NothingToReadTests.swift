import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// A frame with no text in it (issue 28): marks without lines of text — here generated textures
/// of several grains — is found to hold nothing to read from cheap measurements (text-like
/// components, no lines of text, the text detector's quick look finding nothing) and returns empty
/// text with its reason, without the page being read; a page and a scene with text are not
/// taken for one.
@Suite("Nothing to read", .tags(.tesseract))
struct NothingToReadTests {
    /// Seeded noise (SplitMix64-style) summed over squares of `grain` pixels and smoothed: a
    /// grainy texture of gray levels 40…215, `width`×`height`, with no strokes of text in it.
    static func texture(width: Int, height: Int, grain: Int, seed: UInt64) throws -> PixelBuffer {
        var state = seed
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let cols = width / grain + 2
        let rows = height / grain + 2
        let cells = (0..<(cols * rows)).map { _ in UInt8(40 + next() % 176) }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // Each pixel is its cell's level, jittered: blotches of several sizes.
                let c = cells[(y / grain) * cols + x / grain]
                pixels[y * width + x] = UInt8(clamping: Int(c) + Int(next() % 31) - 15)
            }
        }
        let raw = try PixelBuffer(packed: pixels, width: width, height: height, pixelFormat: .gray8)
        return try raw.smoothed(sigma: Double(grain) / 3)
    }

    @Test(
        "Textures of three grains hold nothing to read: empty text, the reason, no page reading", arguments: [3, 5, 8])
    func texture(grain: Int) throws {
        let image = try Self.texture(width: 1_000, height: 640, grain: grain, seed: UInt64(grain))
        let result = try sharedRecognizer.recognize(image, pipeline: Pipeline(automatic: AutomaticPreprocessing()))
        let d = try #require(result.preprocessing)
        #expect(result.text.isEmpty, "grain \(grain): \(result.text) \(d.reasons)")
        #expect(d.reasons.contains { $0.hasPrefix("engines: nothing to read") }, "\(d.reasons)")
        // The page was not read: Tesseract saw nothing.
        #expect(result.timings.recognition == .zero, "\(result.timings)")
        #expect(d.sceneText?.early == true && d.sceneText?.regions.isEmpty == true)
    }

    @Test("A time limit: past it no second reading starts (status and reason say so); within it nothing changes")
    func timeLimit() throws {
        // A receipt photo: after its page reading the plan's second readings run (the scene's
        // lines among them); with a limit of 1 µs none starts.
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("receipt-on-desk.png"))
        let pipeline = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())
        let whole = try sharedRecognizer.recognize(image, pipeline: pipeline)
        let cut = try sharedRecognizer.recognize(image, pipeline: pipeline, timeLimit: .microseconds(1))
        #expect(whole.status == .complete && cut.status == .budgetExceeded)
        let reason = try #require(cut.preprocessing?.reasons.first { $0.hasPrefix("time limit reached") })
        #expect(
            reason.contains("did not run (MachineReadableZoneReading") && reason.contains("SceneTextReading"),
            "\(reason)")
        #expect(!cut.text.isEmpty)  // the first reading is kept whole
        // A limit it keeps within: the same reading as without one.
        let within = try sharedRecognizer.recognize(image, pipeline: pipeline, timeLimit: .seconds(600))
        #expect(within.status == .complete && within.text == whole.text)
        #expect(within.preprocessing?.reasons == whole.preprocessing?.reasons)
        #expect(throws: FrameOCRError.self) { try sharedRecognizer.recognize(image, timeLimit: .zero) }
    }

    @Test("A page with text is not taken for a texture: phototest reads as before")
    func page() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let result = try sharedRecognizer.recognize(image, pipeline: Pipeline(automatic: AutomaticPreprocessing()))
        let d = try #require(result.preprocessing)
        #expect(!d.reasons.contains { $0.contains("nothing to read") })
        #expect(result.text.contains("The quick brown dog jumped over the"))
    }
}
