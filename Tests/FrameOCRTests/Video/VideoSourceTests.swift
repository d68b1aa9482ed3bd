import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

@Suite("VideoSource: video files and numbered image directories")
struct VideoSourceTests {
    /// Fixtures/frame_ocr_42.mp4: 50 frames, 25 fps, 320×120, "FRAME OCR 42" (see Fixtures/README.md).
    let video: String

    init() throws { video = try fixturePath("frame_ocr_42", "mp4") }

    @Test("a video's properties come from the container")
    func properties() throws {
        let source = try VideoSource(path: video)
        // (#expect cannot look into a noncopyable value: copy the properties out first.)
        let (count, rate, width, height, isImages) =
            (source.frameCount, source.frameRate, source.width, source.height, source.isImageSequence)
        #expect(count == 50)
        #expect(rate == 25)
        #expect(width == 320 && height == 120)
        #expect(!isImages)
    }

    @Test("every frame, ids 0…n−1, timestamps strictly increasing and ≈ index / fps")
    func frames() throws {
        var source = try VideoSource(path: video)
        var ids: [UInt64] = []
        var timestamps: [Duration] = []
        while let frame = try source.next() {
            #expect(frame.buffer.width == 320 && frame.buffer.height == 120)
            #expect(frame.buffer.pixelFormat == .bgr8)
            #expect(frame.orientation == .up)
            ids.append(frame.id)
            timestamps.append(frame.timestamp)
        }
        #expect(ids == (0..<50).map(UInt64.init))
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
        for (i, t) in timestamps.enumerated() {
            #expect(abs(t.milliseconds - Double(i) * 40) < 1, "frame \(i) at \(t)")
        }
        // The end is sticky: nil again, not an error.
        #expect(try source.next() == nil)
        #expect(try source.next() == nil)
    }

    @Test("frames are zero-copy buffers that outlive the source and each other's decoding")
    func framesOutliveSource() throws {
        var kept: [Frame] = []
        do {
            var source = try VideoSource(path: video)
            for _ in 0..<3 { kept.append(try #require(try source.next())) }
        }
        // Distinct memory per frame (a later decode never overwrites an earlier frame) …
        #expect(Set(kept.map { baseAddress($0.buffer) }).count == 3)
        // … still readable after the source is gone: white background, black text.
        for frame in kept {
            #expect(frame.buffer.packedBytes().prefix(3 * 10).allSatisfy { $0 > 240 })
            #expect(frame.buffer.packedBytes().min()! < 40)
        }
    }

    @Test("a video frame reads as FRAME OCR 42", .tags(.tesseract))
    func recognizesText() throws {
        var source = try VideoSource(path: video)
        let recognizer = try Recognizer()
        var frame = try #require(try source.next())
        for _ in 0..<20 { frame = try #require(try source.next()) }
        let result = try recognizer.recognize(frame.buffer)
        #expect(result.text.contains("FRAME OCR 42"), "\(result.text)")
    }

    @Test("a missing file is .io, a text file is .decode, a bad frame rate is .invalidParameter")
    func errors() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try VideoSource(path: dir.appendingPathComponent("missing.mp4").path).width
        }
        let text = dir.appendingPathComponent("notes.txt")
        try "not a video\n".write(to: text, atomically: true, encoding: .utf8)
        let error = expectFrameOCRError(.decode) { () throws(FrameOCRError) in
            _ = try VideoSource(path: text.path).width
        }
        #expect(error?.stage == .load)
        let fake = dir.appendingPathComponent("fake.mp4")
        try Data([0, 1, 2, 3]).write(to: fake)
        expectFrameOCRError(.decode) { () throws(FrameOCRError) in _ = try VideoSource(path: fake.path).width }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try VideoSource(path: video, frameRate: 0).width
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try VideoSource(path: video, frameRate: .nan).width
        }
        // A directory without images.
        expectFrameOCRError(.io) { () throws(FrameOCRError) in _ = try VideoSource(path: dir.path).width }
    }

    @Test("a directory of numbered images: natural order, timestamps index / frame rate")
    func imageDirectory() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Each image is filled with its number, so the order can be read back from the pixels.
        for n in [10, 2, 1] {
            let image = try PixelBuffer(width: 8, height: 4, pixelFormat: .gray8)
            image.withUnsafePlanes { planes in
                for y in 0..<4 { planes[0].row(y).initializeMemory(as: UInt8.self, repeating: UInt8(n)) }
            }
            try image.write(toFile: dir.appendingPathComponent("\(n).png").path)
        }
        try "ignored".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)

        var source = try VideoSource(path: dir.path, frameRate: 10)
        let (count, rate, width, height, isImages) =
            (source.frameCount, source.frameRate, source.width, source.height, source.isImageSequence)
        #expect(isImages)
        #expect(count == 3 && rate == 10)
        #expect(width == 8 && height == 4)
        var seen: [(UInt64, Duration, UInt8)] = []
        while let frame = try source.next() {
            #expect(frame.buffer.pixelFormat == .gray8)
            seen.append((frame.id, frame.timestamp, frame.buffer.packedBytes()[0]))
        }
        #expect(seen.map(\.0) == [0, 1, 2])
        #expect(seen.map(\.1) == [.zero, .milliseconds(100), .milliseconds(200)])
        #expect(seen.map(\.2) == [1, 2, 10])
        #expect(try source.next() == nil)
    }

    @Test(
        "natural order compares digit runs by value",
        arguments: [
            (["10.png", "2.png", "1.png"], ["1.png", "2.png", "10.png"]),
            (
                ["frame_0010.jpg", "frame_0009.jpg", "frame_0100.jpg"],
                ["frame_0009.jpg", "frame_0010.jpg", "frame_0100.jpg"]
            ),
            (["b1.png", "a2.png", "a10.png", "a1.png"], ["a1.png", "a2.png", "a10.png", "b1.png"]),
            (["01.png", "1.png", "0.png"], ["0.png", "1.png", "01.png"]),
            (["99999999999999999999999.png", "3.png"], ["3.png", "99999999999999999999999.png"]),
        ])
    func naturalOrder(input: [String], expected: [String]) {
        #expect(input.sorted(by: VideoSource.naturalOrder) == expected)
    }

    @Test("FramePacer: a frame is due at start + timestamp, never early")
    func pacer() async throws {
        let start = ContinuousClock.now
        let pacer = FramePacer(start: start)
        #expect(pacer.deadline(for: .milliseconds(250)) == start + .milliseconds(250))
        try await pacer.wait(for: .milliseconds(60))
        #expect(ContinuousClock.now - start >= .milliseconds(60))
        // Already due: returns at once, reporting how late it is.
        let late = try await FramePacer(start: start - .seconds(1)).wait(for: .milliseconds(100))
        #expect(late >= .milliseconds(900))
    }
}
