import Foundation
import FrameOCRTestSupport
import LiveTestSupport
import Testing

@testable import FrameOCR

/// Cameras, streams and pipelines without a camera or a network: `ffmpeg` and `gst-launch-1.0`
/// send loopback streams on 127.0.0.1 (LiveTestSupport). Serialized: the stall timings must not
/// compete with each other for the two cores.
@Suite("VideoSource: cameras, stream URLs and GStreamer pipelines", .serialized)
struct VideoSourceLiveTests {
    /// Fixtures/frame_ocr_42.mp4: 50 frames, 25 fps, 320×120, "FRAME OCR 42".
    let video: String

    init() throws { video = try fixturePath("frame_ocr_42", "mp4") }

    /// `/dev/videoN` for the first N that does not exist here (no camera is needed, or used).
    static func missingCamera() -> String {
        (0..<64).map { "/dev/video\($0)" }.first { !FileManager.default.fileExists(atPath: $0) } ?? "/dev/video-none"
    }

    // MARK: Parsing

    @Test("source strings: devices, URLs, pipelines, directories, files; garbage is a typed error")
    func parsing() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        typealias L = VideoSource.Location
        #expect(try L(parsing: "/dev/video0") == .device("/dev/video0"))
        #expect(try L(parsing: "/dev/null") == .device("/dev/null"))  // exists: a character device
        #expect(try L(parsing: "3") == .device("/dev/video3"))
        #expect(try L(parsing: "rtsp://x") == .url("rtsp://x"))
        #expect(try L(parsing: "UDP://127.0.0.1:5000") == .url("UDP://127.0.0.1:5000"))
        #expect(try L(parsing: "https://host/live.m3u8?x=1") == .url("https://host/live.m3u8?x=1"))
        #expect(try L(parsing: "tcp://10.0.0.2:9000") == .url("tcp://10.0.0.2:9000"))
        let pipeline = "videotestsrc num-buffers=50 ! textoverlay text=\"FRAME OCR 42\" ! videoconvert ! appsink"
        #expect(try L(parsing: pipeline) == .gstreamer(pipeline))
        #expect(
            try L(parsing: " v4l2src ! videoconvert ! appsink sync=false ")
                == .gstreamer("v4l2src ! videoconvert ! appsink sync=false"))
        // A URL inside a pipeline is a property, not the source's scheme.
        let http = "souphttpsrc location=http://cam/x.mjpg ! jpegdec ! videoconvert ! appsink"
        #expect(try L(parsing: http) == .gstreamer(http))
        #expect(try L(parsing: dir.path) == .directory(dir.path))
        #expect(try L(parsing: video) == .file(video))
        #expect(try L(parsing: "file://" + video) == .file(video))
        #expect(try L(parsing: video).kind == "file" && L.gstreamer(pipeline).description == pipeline)

        for garbage in ["", "   ", "ftp://host/clip.mp4", "videotestsrc ! fakesink", "gopher://x"] {
            let error = expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                _ = try L(parsing: garbage)
            }
            #expect(error?.message.hasPrefix("source: ") == true, "\(garbage): \(String(describing: error))")
        }
        let missing = dir.appendingPathComponent("no-such-clip.mp4").path
        let error = expectFrameOCRError(.io) { () throws(FrameOCRError) in _ = try L(parsing: missing) }
        #expect(error?.message.contains("\(missing): No such file or directory") == true)
        #expect(error?.stage == .load)
        expectFrameOCRError(.io) { () throws(FrameOCRError) in _ = try L(parsing: "not a source at all") }
        // A location made directly is checked when opened.
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try VideoSource(.gstreamer("videotestsrc ! fakesink")).width
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            _ = try VideoSource(.url("/not/a/url")).width
        }
    }

    // MARK: Devices

    @Test("a missing camera device is .io naming it; a character device that is no camera is .io")
    func missingDevice() throws {
        let camera = Self.missingCamera()
        let error = expectFrameOCRError(.io) { () throws(FrameOCRError) in _ = try VideoSource(.device(camera)).width }
        #expect(error?.message == "\(camera): No such file or directory", "\(String(describing: error))")
        #expect(error?.stage == .load)
        let null = expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try VideoSource(.device("/dev/null")).width
        }
        #expect(null?.message.contains("V4L2 cannot open it as a camera") == true, "\(String(describing: null))")
        let file = expectFrameOCRError(.io) { () throws(FrameOCRError) in _ = try VideoSource(.device(video)).width }
        #expect(file?.message.contains("not a camera device") == true, "\(String(describing: file))")
    }

    // MARK: Streams

    @Test("a UDP MPEG-TS stream from ffmpeg: live, 320×120, ids 0…29, timestamps 40 ms apart")
    func udpStream() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        var source = try VideoSource(
            .url("udp://127.0.0.1:\(port)"), options: .init(openTimeout: .seconds(10), stallTimeout: .seconds(3)))
        let (live, count, rate, width, height, backend) =
            (source.isLive, source.frameCount, source.frameRate, source.width, source.height, source.backendName)
        #expect(live && count == nil)
        #expect(rate == 25)
        #expect(width == 320 && height == 120)
        #expect(backend == "FFMPEG")
        var ids: [UInt64] = []
        var timestamps: [Duration] = []
        for _ in 0..<30 {
            let frame = try #require(try source.next())
            #expect(frame.buffer.width == 320 && frame.buffer.height == 120 && frame.buffer.pixelFormat == .bgr8)
            // White background, black text (MPEG-2 at q 3 keeps them near 255 and 0).
            let bytes = frame.buffer.packedBytes()
            #expect(bytes.prefix(3 * 320).allSatisfy { $0 > 200 } && bytes.min()! < 60, "frame \(frame.id)")
            ids.append(frame.id)
            timestamps.append(frame.timestamp)
        }
        #expect(ids == (0..<30).map(UInt64.init))
        #expect(timestamps.first == .zero)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $0 < $1 })
        // The stream's own presentation times (FFmpeg's): 40 ms apart, whatever the arrival.
        let steps = zip(timestamps, timestamps.dropFirst()).map { ($1 - $0).milliseconds }
        #expect(steps.filter { abs($0 - 40) < 1 }.count >= 27, "\(steps)")
    }

    @Test("a sender that dies: .streamStalled about one stall timeout after the last frame, not a hang")
    func stall() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        var source = try VideoSource(.url("udp://127.0.0.1:\(port)"), options: .init(stallTimeout: .seconds(1)))
        for _ in 0..<10 { _ = try #require(try source.next()) }
        sender.kill()
        let killed = ContinuousClock.now
        var lastFrame = killed
        var frames = 0
        let error = #expect(throws: FrameOCRError.self) {
            while try source.next() != nil {  // what was on its way still arrives
                lastFrame = .now
                frames += 1
            }
        }
        let waited = ContinuousClock.now - lastFrame
        #expect(error?.code == .streamStalled, "\(String(describing: error))")
        #expect(error?.message == "udp://127.0.0.1:\(port): no frame within 1000 ms (the stream stalled)")
        #expect(waited >= .milliseconds(950) && ContinuousClock.now - killed < .seconds(4), "\(waited)")
        #expect(frames < 25)
        // A stalled source without a reconnect policy keeps saying so.
        expectFrameOCRError(.streamStalled) { () throws(FrameOCRError) in _ = try source.next() }
    }

    @Test("reconnect: a sender restarted on the same port is read on, ids and timestamps keep increasing")
    func reconnect() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        var source = try VideoSource(
            .url("udp://127.0.0.1:\(port)"),
            options: .init(
                openTimeout: .seconds(3), stallTimeout: .seconds(1),
                reconnect: .init(attempts: 2, initialDelay: .milliseconds(200))))
        var frames: [Frame] = []
        for _ in 0..<10 { frames.append(try #require(try source.next())) }
        sender.kill()
        // The next sender starts 1.5 s later (on a Dispatch thread), while the source waits:
        // the stall, then reconnect tries 0.2 and 0.4 s apart (each may wait 3 s to open).
        let restarted = Locked<ChildProcess?>(nil)
        let video = self.video
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) {
            restarted.set(try? LoopbackSender.ffmpegUDP(video: video, port: port))
        }
        defer { restarted.get()?.kill() }
        while frames.count < 40 { frames.append(try #require(try source.next())) }
        #expect(restarted.get() != nil)
        let (reconnects, attempts) = (source.reconnectCount, source.reconnectAttempts)
        #expect(reconnects == 1)
        #expect(attempts >= 1 && attempts <= 2)
        #expect(frames.map(\.id) == (0..<40).map(UInt64.init))
        let times = frames.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // The outage shows as one gap of more than the stall timeout.
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.filter { $0 > .seconds(1) }.count == 1, "\(gaps)")
    }

    @Test("reconnect gives up: every try fails → .streamStalled saying how many, then the end")
    func reconnectGivesUp() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        var source = try VideoSource(
            .url("udp://127.0.0.1:\(port)"),
            options: .init(
                openTimeout: .seconds(2), stallTimeout: .seconds(1),
                reconnect: .init(attempts: 2, initialDelay: .milliseconds(100))))
        for _ in 0..<5 { _ = try #require(try source.next()) }
        sender.kill()
        let start = ContinuousClock.now
        let error = #expect(throws: FrameOCRError.self) { while try source.next() != nil {} }
        #expect(error?.code == .streamStalled)
        #expect(
            error?.message.contains("no frame within 1000 ms (the stream stalled); gave up after 2 reconnect attempts")
                == true, "\(String(describing: error))")
        #expect(error?.message.contains("not open within 2000 ms") == true, "\(String(describing: error))")
        // 1 s stall + 0.1 s + 2 s open + 0.2 s + 2 s open, and the old reader's release.
        #expect(ContinuousClock.now - start < .seconds(10))
        let (reconnects, attempts) = (source.reconnectCount, source.reconnectAttempts)
        #expect(reconnects == 0 && attempts == 2)
        #expect(try source.next() == nil)
    }

    @Test("opening: nothing sent within the open timeout is .streamStalled; a refused TCP connection is .io")
    func openErrors() throws {
        let udp = try LoopbackSender.freeUDPPort()
        let start = ContinuousClock.now
        let stalled = expectFrameOCRError(.streamStalled) { () throws(FrameOCRError) in
            _ = try VideoSource(.url("udp://127.0.0.1:\(udp)"), options: .init(openTimeout: .seconds(1))).width
        }
        #expect(
            stalled?.message
                == "udp://127.0.0.1:\(udp): not open within 1000 ms (nothing received: is the sender or camera running?)"
        )
        #expect(ContinuousClock.now - start < .seconds(3))
        let tcp = try LoopbackSender.freeTCPPort()
        let refused = expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try VideoSource(.url("tcp://127.0.0.1:\(tcp)")).width
        }
        #expect(refused?.message.contains("FFmpeg backend cannot open the stream") == true)
        let pipeline = expectFrameOCRError(.io) { () throws(FrameOCRError) in
            _ = try VideoSource(.gstreamer("videotestsrc ! nosuchelement ! appsink")).width
        }
        #expect(pipeline?.message.contains("GStreamer cannot start the pipeline") == true)
    }

    // MARK: GStreamer

    @Test("a GStreamer pipeline (videotestsrc, textoverlay): every frame, then the end", .tags(.tesseract))
    func gstreamerPipeline() throws {
        var source = try VideoSource(.gstreamer(LoopbackSender.textPipeline(count: 30)))
        let (live, count, rate, width, height, backend) =
            (source.isLive, source.frameCount, source.frameRate, source.width, source.height, source.backendName)
        #expect(live && count == nil && rate == 25)
        #expect(width == 320 && height == 120)
        #expect(backend == "GSTREAMER")
        var frames: [Frame] = []
        while let frame = try source.next() { frames.append(frame) }
        #expect(frames.map(\.id) == (0..<30).map(UInt64.init))
        #expect(
            frames.allSatisfy { $0.buffer.width == 320 && $0.buffer.height == 120 && $0.buffer.pixelFormat == .bgr8 })
        let times = frames.map(\.timestamp)
        #expect(times.first == .zero && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try source.next() == nil)
        let result = try Recognizer().recognize(frames[15].buffer)
        #expect(result.text.trimmingCharacters(in: .whitespacesAndNewlines) == "FRAME OCR 42", "\(result.text)")
    }

    @Test("a GStreamer pipeline whose sender dies: the watchdog ends the read OpenCV would block in for ever")
    func gstreamerStall() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.gstreamerRawUDP(port: port)
        defer { sender.kill() }
        var source = try VideoSource(
            .gstreamer(LoopbackSender.rawUDPPipeline(port: port)),
            options: .init(openTimeout: .seconds(5), stallTimeout: .seconds(1)))
        let (width, height) = (source.width, source.height)
        #expect(width == 320 && height == 120)
        for _ in 0..<5 {
            let frame = try #require(try source.next())
            #expect(frame.buffer.pixelFormat == .gray8 && frame.buffer.width == 320)
        }
        sender.kill()
        let killed = ContinuousClock.now
        let error = #expect(throws: FrameOCRError.self) { while try source.next() != nil {} }
        #expect(error?.code == .streamStalled)
        #expect(ContinuousClock.now - killed < .seconds(4))
    }

    @Test("stopHandle.stop() from another thread ends a read that waits for a frame, at once")
    func stopWhileWaiting() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        var source = try VideoSource(.url("udp://127.0.0.1:\(port)"), options: .init(stallTimeout: .seconds(20)))
        for _ in 0..<3 { _ = try #require(try source.next()) }
        sender.kill()
        let stop = source.stopHandle
        let stopAt = ContinuousClock.now + .milliseconds(1500)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { stop.stop() }
        while try source.next() != nil {}  // what was on its way, then a wait ended by stop()
        let ended = ContinuousClock.now
        #expect(ended >= stopAt - .milliseconds(50) && ended - stopAt < .seconds(1), "\(ended - stopAt)")
        #expect(stop.isStopped)
        #expect(try source.next() == nil)
    }

    // MARK: Policies and timestamps (no I/O)

    @Test("ReconnectPolicy: 0.5, 1, 2, 4, 8, 10, 10 s; bad fields are .invalidParameter")
    func reconnectPolicy() throws {
        let policy = VideoSource.ReconnectPolicy(attempts: 7)
        #expect(
            (1...7).map { policy.delay(beforeAttempt: $0) }
                == [0.5, 1, 2, 4, 8, 10, 10].map { .milliseconds(Int($0 * 1000)) })
        let flat = VideoSource.ReconnectPolicy(attempts: 3, initialDelay: .zero, multiplier: 1, maximumDelay: .zero)
        #expect(flat.delay(beforeAttempt: 3) == .zero)
        for bad in [
            VideoSource.ReconnectPolicy(attempts: 0), .init(attempts: 1, initialDelay: .milliseconds(-1)),
            .init(attempts: 1, multiplier: 0.5), .init(attempts: 1, multiplier: .infinity),
            .init(attempts: 1, initialDelay: .seconds(20), maximumDelay: .seconds(10)),
        ] {
            expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try bad.validate() }
        }
        for bad in [
            VideoSource.Options(stallTimeout: .zero), .init(openTimeout: .seconds(-1)), .init(frameRate: 0),
            .init(reconnect: .init(attempts: -2)),
        ] {
            expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                _ = try VideoSource(.file(video), options: bad).width
            }
        }
        try VideoSource.Options(openTimeout: nil, stallTimeout: nil).validate()
    }

    @Test("live timestamps: backend differences within a connection, arrival for the first frame and without times")
    func liveTimestamps() {
        var clock = LiveTimestamps()
        let ms: (Int64) -> Int64 = { $0 * 1_000_000 }
        // Backend times 100, 140, 180 ms arriving in a burst at 5, 6, 7 ms: 0, 40, 80 ms.
        #expect(clock.timestamp(milliseconds: 100, receivedNanoseconds: ms(5)) == .zero)
        #expect(clock.timestamp(milliseconds: 140, receivedNanoseconds: ms(6)) == .milliseconds(40))
        #expect(clock.timestamp(milliseconds: 180, receivedNanoseconds: ms(7)) == .milliseconds(80))
        // A reconnect: the new connection starts at its arrival, 2 s after the first frame.
        clock.reconnected()
        #expect(clock.timestamp(milliseconds: 0, receivedNanoseconds: ms(2005)) == .milliseconds(2000))
        #expect(clock.timestamp(milliseconds: 40, receivedNanoseconds: ms(2010)) == .milliseconds(2040))
        // A backend time that goes back re-anchors at arrival.
        #expect(clock.timestamp(milliseconds: 10, receivedNanoseconds: ms(2105)) == .milliseconds(2100))
        #expect(clock.timestamp(milliseconds: 50, receivedNanoseconds: ms(2106)) == .milliseconds(2140))
        // No backend time (GStreamer): arrival; never twice the same time.
        #expect(clock.timestamp(milliseconds: nil, receivedNanoseconds: ms(2305)) == .milliseconds(2300))
        #expect(clock.timestamp(milliseconds: nil, receivedNanoseconds: ms(2305)) == .milliseconds(2301))
        #expect(clock.timestamp(milliseconds: nil, receivedNanoseconds: ms(2405)) == .milliseconds(2400))
    }

    @Test("files and directories are not live and keep their frame counts")
    func filesAreNotLive() throws {
        let source = try VideoSource(try .init(parsing: video))
        let (live, count, backend, location) = (source.isLive, source.frameCount, source.backendName, source.location)
        #expect(!live && count == 50 && backend == "FFMPEG" && location == .file(video))
    }
}

/// A value shared with a Dispatch closure.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func set(_ v: T) { lock.withLock { value = v } }
    func get() -> T { lock.withLock { value } }
}
