import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Reference outputs of `cv::adaptiveThreshold` (OpenCV 4.6) stored in
/// `Fixtures/adaptive_threshold.{txt,bin}`; see `Tests/FixtureGenerators/adaptive_threshold_reference.cpp`.
struct ThresholdFixtures {
    struct Image { var width: Int, height: Int, pixels: [UInt8] }
    struct Case: CustomStringConvertible {
        var image: String
        var threshold: AdaptiveThreshold
        var expected: [UInt8]  // 0 / 255, rows packed
        var description: String {
            "\(image) \(threshold.method) block \(threshold.blockSize) C \(threshold.c)\(threshold.inverted ? " inv" : "")"
        }
    }
    var images: [String: Image] = [:]
    var cases: [Case] = []

    static func load() throws -> ThresholdFixtures {
        let manifest = try String(contentsOfFile: try fixturePath("adaptive_threshold", "txt"), encoding: .utf8)
        let bin = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try fixturePath("adaptive_threshold", "bin"))))
        var f = ThresholdFixtures()
        for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
            let t = line.split(separator: " ").map(String.init)
            switch t[0] {
            case "image":
                let (w, h, o) = (Int(t[2])!, Int(t[3])!, Int(t[4])!)
                f.images[t[1]] = Image(width: w, height: h, pixels: Array(bin[o..<o + w * h]))
            case "threshold":
                let image = try #require(f.images[t[1]])
                let n = image.width * image.height
                let o = Int(t[6])!
                let bits = bin[o..<o + (n + 7) / 8]
                let expected = (0..<n).map { i in
                    bits[bits.startIndex + i / 8] & (0x80 >> UInt8(i % 8)) != 0 ? UInt8(255) : 0
                }
                let method = try #require(AdaptiveThreshold.Method(rawValue: t[2]))
                f.cases.append(
                    Case(
                        image: t[1],
                        threshold: AdaptiveThreshold(
                            method: method, blockSize: Int(t[4])!, c: Double(t[5])!, inverted: t[3] == "1"),
                        expected: expected))
            default:
                Issue.record("unknown fixture line \(line)")
            }
        }
        return f
    }
}

/// `ADAPTIVE_THRESH_MEAN_C` written out: the block mean with a replicated border, rounded to the
/// nearest integer (OpenCV's normalized box filter on 8-bit), then
/// `THRESH_BINARY`: 255 where src − mean > −ceil(C); `THRESH_BINARY_INV`: 255 where
/// src − mean ≤ −floor(C) (OpenCV rounds C this way before comparing integers).
func meanThresholdReference(_ src: [UInt8], width w: Int, height h: Int, blockSize: Int, c: Double, inverted: Bool)
    -> [UInt8]
{
    let r = blockSize / 2
    let area = Double(blockSize * blockSize)
    let delta = inverted ? Int(c.rounded(.down)) : Int(c.rounded(.up))
    // Separable box sums over clamped (replicated) coordinates.
    var rowSums = [Int](repeating: 0, count: w * h)
    for y in 0..<h {
        for x in 0..<w {
            var s = 0
            for dx in -r...r { s += Int(src[y * w + min(max(x + dx, 0), w - 1)]) }
            rowSums[y * w + x] = s
        }
    }
    var out = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h {
        for x in 0..<w {
            var sum = 0
            for dy in -r...r { sum += rowSums[min(max(y + dy, 0), h - 1) * w + x] }
            let mean = Int((Double(sum) / area).rounded())
            let d = Int(src[y * w + x]) - mean
            let on = inverted ? d <= -delta : d > -delta
            out[y * w + x] = on ? 255 : 0
        }
    }
    return out
}

@Suite("Adaptive threshold")
struct AdaptiveThresholdTests {
    /// R09's 64×32 horizontal gradient, value 4·x.
    static func gradient(padding: Int = 0) throws -> PaddedFrame {
        try PaddedFrame(format: .gray8, width: 64, height: 32, padding: padding) { _, x, _, _ in UInt8(4 * x) }
    }

    // MARK: R09 — validation before OpenCV

    @Test("invalid block sizes throw invalidParameter naming blockSize", arguments: [10, 1, 0, -3, 2, 4])
    func invalidBlockSize(blockSize: Int) throws {
        let frame = try Self.gradient()
        let t = AdaptiveThreshold(method: .mean, blockSize: blockSize, c: 5)
        let error = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try frame.buffer.adaptiveThreshold(t)
        }
        #expect(error?.message.contains("blockSize") == true)
        #expect(error?.stage == .threshold)
        let viaValidate = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try t.validate() }
        #expect(viaValidate?.message.contains("blockSize") == true)
        // The pipeline refuses it before touching the frame.
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try Pipeline(threshold: t).run(frame.buffer)
        }
        let gaussian = AdaptiveThreshold(method: .gaussian, blockSize: blockSize, c: 5)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try frame.buffer.adaptiveThreshold(gaussian)
        }
    }

    @Test("a non-finite C throws invalidParameter naming C", arguments: [Double.nan, .infinity, -.infinity])
    func invalidC(c: Double) throws {
        let frame = try Self.gradient()
        let error = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try frame.buffer.adaptiveThreshold(AdaptiveThreshold(blockSize: 11, c: c))
        }
        #expect(error?.message.hasPrefix("C") == true)
    }

    @Test(
        "block sizes 3 and 11 give a 64×32 image of only 0 and 255",
        arguments: [3, 11], [AdaptiveThreshold.Method.mean, .gaussian])
    func validBlockSizes(blockSize: Int, method: AdaptiveThreshold.Method) throws {
        let frame = try Self.gradient()
        for inverted in [false, true] {
            let out = try frame.buffer.adaptiveThreshold(
                AdaptiveThreshold(method: method, blockSize: blockSize, c: -2, inverted: inverted))
            #expect(out.width == 64 && out.height == 32 && out.pixelFormat == .gray8)
            let values = Set(out.packedBytes())
            #expect(values.isSubset(of: [0, 255]) && !values.isEmpty)
            if method == .mean {
                #expect(
                    out.packedBytes()
                        == meanThresholdReference(
                            frame.pixels(), width: 64, height: 32, blockSize: blockSize,
                            c: -2, inverted: inverted))
            }
        }
    }

    @Test("coerced() moves blockSize to the next valid value")
    func coerced() {
        #expect(AdaptiveThreshold(blockSize: 10).coerced().blockSize == 11)
        #expect(AdaptiveThreshold(blockSize: 11).coerced().blockSize == 11)
        #expect(AdaptiveThreshold(blockSize: 1).coerced().blockSize == 3)
        #expect(AdaptiveThreshold(blockSize: 0).coerced().blockSize == 3)
        #expect(AdaptiveThreshold(blockSize: -3).coerced().blockSize == 3)
        #expect(AdaptiveThreshold(blockSize: 2).coerced().blockSize == 3)
        let t = AdaptiveThreshold(method: .gaussian, blockSize: 24, c: 3.5, inverted: true).coerced()
        #expect(t == AdaptiveThreshold(method: .gaussian, blockSize: 25, c: 3.5, inverted: true))
        #expect(throws: Never.self) { try AdaptiveThreshold(blockSize: 10).coerced().validate() }
    }

    @Test("color input is refused with unsupportedFormat; converting first works")
    func colorInput() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 64, height: 32) { _, x, _, b in b == 3 ? 255 : UInt8(4 * x) }
        let t = AdaptiveThreshold(blockSize: 11, c: 2)
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in try frame.buffer.adaptiveThreshold(t) }
        let nv12 = try PaddedFrame(format: .nv12, width: 8, height: 8)
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in try nv12.buffer.adaptiveThreshold(t) }
        let gray = try frame.buffer.convertedToGray()
        #expect(gray.packedBytes() == (0..<32).flatMap { _ in (0..<64).map { UInt8(4 * $0) } })  // gray of (v, v, v)
        let out = try gray.adaptiveThreshold(t)
        #expect(
            out.packedBytes()
                == meanThresholdReference(
                    gray.packedBytes(), width: 64, height: 32, blockSize: 11, c: 2, inverted: false))
    }

    // MARK: Byte-for-byte equality with OpenCV

    @Test("output equals cv::adaptiveThreshold for every stored case (both methods, inverted or not, blocks 3…101)")
    func matchesOpenCVFixtures() throws {
        let fixtures = try ThresholdFixtures.load()
        #expect(fixtures.cases.count == 5 * 2 * 2 * 5 * 3)
        var checkedMean = 0
        for c in fixtures.cases {
            let image = try #require(fixtures.images[c.image])
            // A padded, wrapped copy of the image: the padding must never be read or written.
            let frame = try PaddedFrame(format: .gray8, width: image.width, height: image.height, padding: 9) {
                _, x, y, _ in
                image.pixels[y * image.width + x]
            }
            let out = try frame.buffer.adaptiveThreshold(c.threshold)
            #expect(out.packedBytes() == c.expected, "\(c)")
            #expect(frame.damagedPaddingBytes() == 0, "\(c)")
            if c.threshold.method == .mean {
                // The written-out math agrees with OpenCV too (checks the reference, not the library).
                let reference = meanThresholdReference(
                    image.pixels, width: image.width, height: image.height,
                    blockSize: c.threshold.blockSize, c: c.threshold.c, inverted: c.threshold.inverted)
                #expect(reference == c.expected, "reference \(c)")
                checkedMean += 1
            }
        }
        #expect(checkedMean == 150)
    }

    @Test("inverted output is the complement when C is an integer")
    func invertedIsComplement() throws {
        let fixtures = try ThresholdFixtures.load()
        let page = try #require(fixtures.images["page"])
        let frame = try PaddedFrame(format: .gray8, width: page.width, height: page.height) { _, x, y, _ in
            page.pixels[y * page.width + x]
        }
        for method in AdaptiveThreshold.Method.allCases {
            let normal = try frame.buffer.adaptiveThreshold(AdaptiveThreshold(method: method, blockSize: 15, c: 4))
                .packedBytes()
            let inverted = try frame.buffer.adaptiveThreshold(
                AdaptiveThreshold(method: method, blockSize: 15, c: 4, inverted: true)
            ).packedBytes()
            #expect(zip(normal, inverted).allSatisfy { $0 == 255 - $1 })
            #expect(normal.contains(0) && normal.contains(255))
        }
    }

    // MARK: Padding and destinations

    @Test("a padded-stride input and a padded destination keep their padding; results equal the packed input's")
    func paddingUntouched() throws {
        let packed = try Self.gradient(padding: 0)
        let padded = try PaddedFrame(format: .gray8, width: 64, height: 32, bytesPerRow: [100]) { _, x, y, _ in
            UInt8((4 * x + 3 * y) % 200)
        }
        let plain = try PixelBuffer(packed: padded.pixels(), width: 64, height: 32, pixelFormat: .gray8)
        for method in AdaptiveThreshold.Method.allCases {
            let t = AdaptiveThreshold(method: method, blockSize: 7, c: 1.5)
            let destination = try PaddedFrame(format: .gray8, width: 64, height: 32, padding: 12) { _, _, _, _ in 1 }
            let out = try padded.buffer.adaptiveThreshold(t, into: destination.buffer)
            #expect(out.sharesStorage(with: destination.buffer))
            #expect(destination.pixels() == (try plain.adaptiveThreshold(t)).packedBytes())
            #expect(Set(destination.pixels()).isSubset(of: [0, 255]))
            #expect(destination.damagedPaddingBytes() == 0)
            #expect(padded.damagedPaddingBytes() == 0)
        }
        #expect(packed.damagedPaddingBytes() == 0)
        let wrong = try PixelBuffer(width: 64, height: 31, pixelFormat: .gray8)
        expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try padded.buffer.adaptiveThreshold(AdaptiveThreshold(blockSize: 3), into: wrong)
        }
    }

    @Test("a crop is thresholded on its own pixels (replicated border at the crop's edge)")
    func cropUsesItsOwnBorder() throws {
        let frame = try PaddedFrame(format: .gray8, width: 40, height: 30, padding: 3) { _, x, y, _ in
            UInt8((x * 37 + y * 11) % 199)
        }
        let rect = PixelRect(x: 5, y: 7, width: 20, height: 13)
        let crop = try frame.buffer.cropped(to: rect)
        let t = AdaptiveThreshold(method: .mean, blockSize: 9, c: 3)
        let out = try crop.adaptiveThreshold(t)
        #expect(
            out.packedBytes()
                == meanThresholdReference(
                    crop.packedBytes(), width: 20, height: 13, blockSize: 9, c: 3, inverted: false))
        #expect(frame.damagedPaddingBytes() == 0)
    }

    // MARK: Parsing

    @Test("parse accepts none, method[:block[:C]][:inv] and validates")
    func parse() throws {
        #expect(try AdaptiveThreshold.parse("none") == nil)
        #expect(try AdaptiveThreshold.parse("mean") == AdaptiveThreshold(method: .mean))
        #expect(
            try AdaptiveThreshold.parse("gaussian:25:8:inv")
                == AdaptiveThreshold(method: .gaussian, blockSize: 25, c: 8, inverted: true))
        #expect(try AdaptiveThreshold.parse("mean:15") == AdaptiveThreshold(method: .mean, blockSize: 15))
        #expect(try AdaptiveThreshold.parse("mean:15:-2.5") == AdaptiveThreshold(method: .mean, blockSize: 15, c: -2.5))
        for bad in ["median", "mean:10", "mean:x", "mean:11:y", "mean:11:2:3:4", ""] {
            expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try AdaptiveThreshold.parse(bad) }
        }
    }
}
