import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// A `gray8` frame of `width`×`height` filled with `value`.
private func grayFrame(_ id: UInt64, _ width: Int, _ height: Int, value: UInt8 = 60, fps: Double = 25)
    throws(FrameOCRError)
    -> Frame
{
    let buffer = try PixelBuffer(
        packed: [UInt8](repeating: value, count: width * height), width: width, height: height, pixelFormat: .gray8)
    return Frame(id: id, timestamp: .nanoseconds(Int64(Double(id) * 1e9 / fps)), buffer: buffer)
}

/// Every frame of a video file, decoded.
private func decodedFrames(_ path: String) throws -> [PixelBuffer] {
    var source = try VideoSource(path: path)
    var frames: [PixelBuffer] = []
    while let frame = try source.next() { frames.append(frame.buffer) }
    return frames
}

/// The B, G, R bytes of pixel (x, y) of a `bgr8` buffer.
private func bgr(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
    buffer.withUnsafePlanes { planes in Array(planes[0].row(y)[(3 * x)..<(3 * x + 3)]) }
}

@Suite("VideoWriter: frames into a video file")
struct VideoWriterTests {
    @Test("N frames of any format in, N frames of the same size back through VideoSource")
    func roundTrip() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("out.mp4").path
        var writer = try VideoWriter(path: path, frameRate: 25, width: 64, height: 48)
        #expect(writer.encodedWidth == 64 && writer.encodedHeight == 48)
        for i in 0..<6 { try writer.write(try grayFrame(UInt64(i), 64, 48).buffer) }
        // bgra8 stored .right (48×64 stored, 64×48 upright), with an annotation.
        let turned = try PixelBuffer(
            packed: [UInt8](repeating: 90, count: 48 * 64 * 4), width: 48, height: 64, pixelFormat: .bgra8,
            orientation: .right)
        for _ in 0..<6 {
            try writer.write(turned, annotations: [Annotation(rect: Rect(x: 8, y: 8, width: 30, height: 20))])
        }
        #expect(writer.framesWritten == 12)
        try writer.finish()
        try writer.finish()  // a second time does nothing
        let frames = try decodedFrames(path)
        #expect(frames.count == 12)
        #expect(frames.allSatisfy { $0.width == 64 && $0.height == 48 })
        let source = try VideoSource(path: path)
        let rate = source.frameRate
        #expect(rate == 25)
        // Lossy, but close: the gray frames stay gray 60, the bgra ones 90.
        #expect(frames[2].packedBytes().allSatisfy { abs(Int($0) - 60) <= 6 })
        #expect(bgr(frames[9], 60, 44).allSatisfy { abs(Int($0) - 90) <= 6 })
    }

    @Test("odd sizes are stored one pixel larger, the last column and row repeated")
    func oddSize() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("odd.mkv").path
        var writer = try VideoWriter(path: path, frameRate: 10, width: 33, height: 21, fourCC: "FFV1")
        #expect(writer.encodedWidth == 34 && writer.encodedHeight == 22)
        var pixels = [UInt8](repeating: 10, count: 33 * 21 * 3)
        for y in 0..<21 { pixels[(y * 33 + 32) * 3 + 2] = 250 }  // last column red
        let frame = try PixelBuffer(packed: pixels, width: 33, height: 21, pixelFormat: .bgr8)
        for _ in 0..<5 { try writer.write(frame) }
        try writer.finish()
        let frames = try decodedFrames(path)
        #expect(frames.count == 5)
        let first = try #require(frames.first)
        #expect(first.width == 34 && first.height == 22)
        // FFV1 is lossless: the last column is repeated, the last row too.
        #expect(bgr(first, 32, 5) == [10, 10, 250] && bgr(first, 33, 5) == [10, 10, 250])
        #expect(bgr(first, 4, 21) == [10, 10, 10] && bgr(first, 33, 21) == [10, 10, 250])
    }

    @Test("bad frame rate, size, FourCC, path or extension: typed errors, no file")
    func openErrors() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("x.mp4").path
        for rate in [0, -5, .nan, .infinity, 5000] {
            let e = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                _ = try VideoWriter(path: path, frameRate: rate, width: 64, height: 48)
            }
            #expect(e?.stage == .write)
        }
        for (w, h) in [(0, 48), (64, 0), (-1, 5), (70000, 10)] {
            expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                _ = try VideoWriter(path: path, frameRate: 25, width: w, height: h)
            }
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try VideoWriter(path: path, frameRate: 25, width: 64, height: 48, fourCC: "mpeg4")
        }
        let missing = expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try VideoWriter(path: "/nonexistent/dir/x.mp4", frameRate: 25, width: 64, height: 48)
        }
        #expect(missing?.message.contains("No such file") == true)
        expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try VideoWriter(path: dir.path, frameRate: 25, width: 64, height: 48, fourCC: "mp4v")
        }
        expectFrameOCRError(.unsupportedFormat) { () throws(FrameOCRError) in
            _ = try VideoWriter(path: dir.appendingPathComponent("x.xyz").path, frameRate: 25, width: 64, height: 48)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a frame of another size is refused; writing after finish is refused")
    func writeErrors() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var writer = try VideoWriter(
            path: dir.appendingPathComponent("x.avi").path, frameRate: 25, width: 64, height: 48)
        let wrong = try grayFrame(0, 48, 64).buffer
        let e = expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in try writer.write(wrong) }
        #expect(e?.stage == .write)
        // Stored 48×64 but .right: upright 64×48, accepted.
        var turned = wrong
        turned.orientation = .right
        try writer.write(turned)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try writer.write(turned, annotations: [Annotation(rect: Rect(x: .nan, y: 0, width: 1, height: 1))])
        }
        try writer.finish()
        #expect(writer.framesWritten == 1)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try writer.write(turned) }
    }
}

@Suite("AnnotatedVideoRecorder: a stream's frames with what was read, in one pass")
struct AnnotatedVideoRecorderTests {
    let w = 64
    let h = 48
    /// Two places a track can be (upright pixels); no pixel of one outline is near the other.
    let left = Rect(x: 4, y: 10, width: 20, height: 20)
    let right = Rect(x: 36, y: 10, width: 20, height: 20)

    func result(_ id: UInt64, tracks: [(UInt64, Rect)]) -> FrameResult {
        var r = FrameResult(
            frameID: id, timestamp: .nanoseconds(Int64(Double(id) * 1e9 / 25)), status: .complete, recognition: nil,
            error: nil, timings: StageTimings(), backend: .cpu)
        r.tracks = tracks.map { trackID, rect in
            TextTrack(
                id: trackID, text: "", confidence: 0.5, agreement: 1, readings: 3, state: .confirmed,
                box: TextBox(upright: rect, frameWidth: w, frameHeight: h), firstSeen: .zero, lastSeen: .zero,
                firstFrameID: 0, lastFrameID: id)
        }
        return r
    }

    /// Which outlines a decoded frame shows: the middle of each box's top edge in its colour.
    func shows(_ frame: PixelBuffer) -> (left: Bool, right: Bool) {
        let colour = Annotation.Color.palette(1)
        let c = [colour.blue, colour.green, colour.red]
        return (bgr(frame, 14, 10) == c, bgr(frame, 46, 10) == c)
    }

    @Test("frames in add order; dropped and replaced frames show the tracks last known; every frame written")
    func fates() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("annotated.mkv").path
        let recorder = try AnnotatedVideoRecorder(path: path, frameRate: 25, width: w, height: h, fourCC: "FFV1")
        for i in 0..<6 { try recorder.add(try grayFrame(UInt64(i), w, h)) }
        #expect(recorder.pendingCount == 6)
        // Out of order: frame 2's result first; nothing can be written before frame 0's fate.
        try recorder.deliver(result(2, tracks: [(1, right)]))
        #expect(recorder.pendingCount == 6)
        try recorder.deliver(result(0, tracks: [(1, left)]))
        #expect(recorder.pendingCount == 5)  // 0 written; 1 waits
        try recorder.record(.dropped(.queueFull), for: 1)
        #expect(recorder.pendingCount == 3)  // 1 and 2 written
        try recorder.record(.queued, for: 4)
        try recorder.record(.queuedDroppingOldest(frameID: 3), for: 4)
        #expect(recorder.pendingCount == 2)  // 3 written
        try recorder.deliver(result(4, tracks: [(1, left), (1, right)]))
        // Frame 5 never gets a result.
        let summary = try recorder.finish()
        #expect(summary.framesWritten == 6)
        #expect(summary.framesWithOwnResult == 3 && summary.framesWithEarlierResult == 3)
        #expect(summary.framesEvicted == 0 && summary.lateResults == 0)
        #expect(summary.width == w && summary.height == h && summary.frameRate == 25)

        let frames = try decodedFrames(path)
        #expect(frames.count == 6)
        let seen = frames.map(shows)
        #expect(seen.map(\.left) == [true, true, false, false, true, true])
        #expect(seen.map(\.right) == [false, false, true, true, true, true])
        // Away from the outlines the frame is the source's.
        #expect(frames.allSatisfy { bgr($0, 30, 40) == [60, 60, 60] })
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in _ = try recorder.finish() }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try recorder.add(try grayFrame(9, w, h)) }
    }

    @Test("at most capacity frames wait: the oldest is written as it is; its late result still serves later frames")
    func bounded() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bounded.mkv").path
        let recorder = try AnnotatedVideoRecorder(
            path: path, frameRate: 25, width: w, height: h, capacity: 2, fourCC: "FFV1")
        for i in 0..<5 {
            try recorder.add(try grayFrame(UInt64(i), w, h))
            #expect(recorder.pendingCount <= 2)
        }
        #expect(recorder.pendingCount == 2)  // 0, 1, 2 evicted; 3 and 4 wait
        try recorder.deliver(result(1, tracks: [(1, left)]))  // late: frame 1 is written
        try recorder.deliver(result(0, tracks: [(1, right)]))  // late and older: not the newest
        let summary = try recorder.finish()
        #expect(summary.framesWritten == 5 && summary.framesEvicted == 3 && summary.lateResults == 2)
        #expect(summary.framesWithOwnResult == 0 && summary.framesWithEarlierResult == 5)
        let seen = try decodedFrames(path).map(shows)
        #expect(seen.map(\.left) == [false, false, false, true, true])
        #expect(seen.allSatisfy { !$0.right })
    }

    @Test("frames are copied: a camera reusing its buffer does not change frames waiting")
    func copies() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("copies.mkv").path
        let recorder = try AnnotatedVideoRecorder(path: path, frameRate: 25, width: w, height: h, fourCC: "FFV1")
        let memory = RawMemory(count: w * h, fill: 30)
        let buffer = try PixelBuffer(
            wrapping: memory.base, width: w, height: h, bytesPerRow: w, pixelFormat: .gray8,
            deallocator: { _ in _ = memory })
        try recorder.add(Frame(id: 0, timestamp: .zero, buffer: buffer))
        for i in 0..<(w * h) { memory[i] = 200 }  // the next frame lands in the same memory
        try recorder.add(Frame(id: 1, timestamp: .milliseconds(40), buffer: buffer))
        _ = try recorder.finish()
        let frames = try decodedFrames(path)
        #expect(frames.map { bgr($0, 5, 5) } == [[30, 30, 30], [200, 200, 200]])
    }

    @Test("bad input: typed errors")
    func errors() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("e.mp4").path
        for capacity in [0, 2000] {
            let e = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                _ = try AnnotatedVideoRecorder(path: path, frameRate: 25, width: w, height: h, capacity: capacity)
            }
            #expect(e?.stage == .annotation)
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try AnnotatedVideoRecorder(path: path, frameRate: 0, width: w, height: h)
        }
        expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try AnnotatedVideoRecorder(path: "/nonexistent/e.mp4", frameRate: 25, width: w, height: h)
        }
        let recorder = try AnnotatedVideoRecorder(path: path, frameRate: 25, width: w, height: h)
        let e = expectFrameOCRError(.invalidBuffer) { () throws(FrameOCRError) in
            try recorder.add(try grayFrame(0, h, w))
        }
        #expect(e?.stage == .write)
        try recorder.add(try grayFrame(0, w, h))
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try recorder.add(try grayFrame(0, w, h)) }
        #expect(try recorder.finish().framesWritten == 1)
    }
}
