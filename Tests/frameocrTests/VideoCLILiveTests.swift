import Foundation
import LiveTestSupport
import Testing

/// `frameocr video` on live sources: loopback streams from `ffmpeg` and GStreamer pipelines
/// (LiveTestSupport), the command run as a child process with every wait bounded. Serialized:
/// the stall timings must not compete with each other for the two cores.
@Suite("frameocr video: cameras, streams, pipelines, stalls, Ctrl-C", .serialized)
struct VideoCLILiveTests {
    /// 50 frames, 25 fps, 320×120, "FRAME OCR 42" (Tests/FrameOCRTests/Fixtures/README.md).
    let video = CLI.fixture("frame_ocr_42.mp4")

    /// Starts `frameocr` with `arguments`.
    func start(_ arguments: [String]) throws -> ChildProcess { try ChildProcess(CLI.executable, arguments) }

    /// The `#ID SECONDS [STATUS] TEXT` lines of `stdout`.
    func results(_ stdout: String) -> [Substring] { stdout.split(separator: "\n").filter { $0.hasPrefix("#") } }

    func stats(_ file: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    }

    @Test("udp://: a live MPEG-TS stream from ffmpeg, read live (tracks and their events), --frames ends it")
    func udpStream() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("stats.json").path
        let run = try start([
            "video", "udp://127.0.0.1:\(port)", "--frames", "40", "--drop", "block", "--workers", "2",
            "--stats-json", file,
        ])
        defer { run.kill() }
        let status = run.wait(timeout: .seconds(60))
        #expect(status == 0, "\(run.stderr)")
        // Live reading prints the tracks' events: the line added, maybe a change of its
        // consensus, confirmed once two readings agree on its text, removed at the end with its
        // text (a frame damaged on the way, UDP under load, may add a short-lived track of its
        // own).
        let events = run.stdout.split(separator: "\n").filter {
            $0.hasPrefix("+ ") || $0.hasPrefix("~ ") || $0.hasPrefix("= ") || $0.hasPrefix("- ")
        }
        #expect(events.contains { $0.hasPrefix("+ ") }, "\(run.stdout)")
        #expect(events.contains { $0.hasPrefix("= ") && $0.hasSuffix(" FRAME OCR 42") }, "\(run.stdout)")
        #expect(events.contains { $0.hasPrefix("- ") && $0.hasSuffix(" FRAME OCR 42") }, "\(run.stdout)")
        #expect(run.stdout.contains("frames: submitted 40, processed 40, dropped 0"))
        #expect(run.stdout.contains("live reading: reused ") && run.stdout.contains("tracks added "))
        #expect(run.stdout.contains("source: udp://127.0.0.1:\(port) (url, FFMPEG, live): reconnected 0 times"))
        let s = try stats(file)
        let source = try #require(s["source"] as? [String: Any])
        #expect(source["kind"] as? String == "url" && source["live"] as? Bool == true)
        #expect(source["backend"] as? String == "FFMPEG" && source["frameCount"] is NSNull)
        #expect(source["stoppedBy"] as? String == "frames" && source["reconnects"] as? Int == 0)
        #expect(source["frameRate"] as? Double == 25)
        // The text moves a pixel a frame: no frame is the same as the last, most need no reading.
        let linesRead = try #require(s["linesRead"] as? Int)
        #expect((2...30).contains(linesRead) && (s["tracksAdded"] as? Int ?? 0) >= 1, "\(s)")
        #expect(s["reducedSearches"] as? Int == 0, "\(s)")  // no budget: every search at full size
        #expect(run.stdout.contains("searched reduced 0;"))
    }

    @Test(
        "a GStreamer pipeline with videotestsrc and textoverlay, read live to its end: one track, its text in every result"
    )
    func gstreamerPipeline() throws {
        let run = try start([
            "video", LoopbackSender.textPipeline(count: 30), "--drop", "block", "--workers", "2", "--format", "jsonl",
        ])
        defer { run.kill() }
        let status = run.wait(timeout: .seconds(60))
        #expect(status == 0, "\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.compactMap { $0["frame"] as? Int }.sorted() == Array(0..<30))
        // No budget: a frame searched is searched at full size; a reused one is not searched.
        #expect(objects.contains { $0["gate"] as? String == "read" })
        #expect(
            objects.allSatisfy { ($0["searchScale"] as? Double) == ($0["gate"] as? String == "read" ? 1 : nil) },
            "\(objects.map { ($0["gate"] ?? "", $0["searchScale"] ?? "") })")
        let tracks = objects.map { ($0["tracks"] as? [[String: Any]]) ?? [] }
        #expect(
            tracks.filter { $0.count == 1 && $0[0]["text"] as? String == "FRAME OCR 42" }.count >= 27, "\(run.stdout)")
        #expect(Set(tracks.flatMap { $0.compactMap { $0["id"] as? Int } }) == [1])
        // A still picture: after the first frames read, the gate reuses their result.
        let gates = objects.compactMap { $0["gate"] as? String }
        #expect(gates.count == 30 && gates.filter { $0 == "reused" }.count >= 20, "\(gates)")
        let times = objects.sorted { ($0["frame"] as? Int ?? 0) < ($1["frame"] as? Int ?? 0) }
            .compactMap { $0["timestampMs"] as? Double }
        #expect(times.count == 30 && times.first == 0 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(run.stderr.contains("(gstreamer, GSTREAMER, live): reconnected 0 times (0 attempts); stopped by end"))
    }

    @Test("a sender that dies: exit 1 within the stall timeout's reach, the stall named, the report printed")
    func stall() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("stats.json").path
        let run = try start([
            "video", "udp://127.0.0.1:\(port)", "--stall-timeout", "1s", "--workers", "1", "--whole-frames",
            "--stats-json",
            file,
        ])
        defer { run.kill() }
        #expect(run.waitForOutput(timeout: .seconds(30)) { out, _ in results(out).count >= 10 }, "\(run.stderr)")
        sender.kill()
        let killed = ContinuousClock.now
        let status = run.wait(timeout: .seconds(15))
        #expect(status == 1, "\(run.stderr)")
        #expect(ContinuousClock.now - killed < .seconds(6))
        #expect(run.stderr.contains("no frame within 1000 ms (the stream stalled)"), "\(run.stderr)")
        #expect(run.stdout.contains("frames: submitted") && run.stdout.contains("stopped by error"))
        let s = try stats(file)
        #expect((s["readError"] as? String)?.contains("stalled") == true)
        let submitted = try #require(s["submitted"] as? Int)
        #expect(submitted == (s["processed"] as? Int ?? -1) + (s["droppedTotal"] as? Int ?? -1))
    }

    @Test("--reconnect: a sender restarted on the same port is read on; then Ctrl-C ends it with status 0")
    func reconnect() throws {
        let port = try LoopbackSender.freeUDPPort()
        let first = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { first.kill() }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("stats.json").path
        let run = try start([
            "video", "udp://127.0.0.1:\(port)", "--stall-timeout", "1s", "--open-timeout", "3s", "--reconnect", "2",
            "--reconnect-delay", "200ms", "--drop", "block", "--workers", "2", "--whole-frames", "--stats-json", file,
        ])
        defer { run.kill() }
        #expect(run.waitForOutput(timeout: .seconds(30)) { out, _ in results(out).count >= 10 }, "\(run.stderr)")
        first.kill()
        // Wait until the frames on their way are through, then 1.5 s more (the stall is 1 s).
        var before = -1
        while results(run.stdout).count != before {
            before = results(run.stdout).count
            usleep(300_000)
        }
        usleep(1_500_000)
        let second = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { second.kill() }
        #expect(
            run.waitForOutput(timeout: .seconds(30)) { out, _ in results(out).count >= before + 20 }, "\(run.stderr)")
        run.send(SIGINT)
        let status = run.wait(timeout: .seconds(15))
        #expect(status == 0, "\(run.stderr)")
        let s = try stats(file)
        let source = try #require(s["source"] as? [String: Any])
        #expect(source["reconnects"] as? Int == 1, "\(source)")
        #expect(source["stoppedBy"] as? String == "SIGINT")
        // `block`: every frame read was processed: ids 0…n−1, none twice, across the reconnect.
        let ids = results(run.stdout).compactMap { Int($0.split(separator: " ")[0].dropFirst()) }.sorted()
        #expect(ids == Array(0..<ids.count) && ids.count == s["submitted"] as? Int)
        #expect(run.stdout.contains("reconnected 1 time ("))
    }

    @Test("Ctrl-C: the source stops, the frames read are finished, the report printed, exit 0; all accounted for")
    func sigint() throws {
        let port = try LoopbackSender.freeUDPPort()
        let sender = try LoopbackSender.ffmpegUDP(video: video, port: port)
        defer { sender.kill() }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("stats.json").path
        let run = try start([
            "video", "udp://127.0.0.1:\(port)", "--workers", "1", "--whole-frames", "--stats-json", file,
        ])
        defer { run.kill() }
        #expect(run.waitForOutput(timeout: .seconds(30)) { out, _ in results(out).count >= 5 }, "\(run.stderr)")
        run.send(SIGINT)
        let status = run.wait(timeout: .seconds(15))
        #expect(status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("frameocr: SIGINT: no new frames; finishing the frames read"))
        #expect(run.stdout.contains("frames: submitted") && run.stdout.contains("achieved"))
        #expect(run.stdout.contains("stopped by SIGINT"))
        let s = try stats(file)
        let submitted = try #require(s["submitted"] as? Int)
        let processed = try #require(s["processed"] as? Int)
        let dropped = try #require(s["droppedTotal"] as? Int)
        #expect(submitted >= 5 && submitted == processed + dropped, "\(s)")
        #expect(s["delivered"] as? Int == processed)
        #expect(results(run.stdout).count == processed)
        #expect((s["source"] as? [String: Any])?["stoppedBy"] as? String == "SIGINT")
    }

    @Test("a second Ctrl-C quits at once with 130, without waiting for the frames in hand")
    func secondSigint() throws {
        // Noise at 1280×720 is slow to read: 40 queued frames are many seconds of work.
        let pipeline =
            "videotestsrc pattern=snow ! video/x-raw,width=1280,height=720,framerate=25/1 ! videoconvert ! appsink"
        let run = try start(["video", pipeline, "--drop", "block", "--queue", "40", "--workers", "1"])
        defer { run.kill() }
        usleep(2_500_000)
        run.send(SIGINT)
        #expect(run.waitForOutput(timeout: .seconds(10)) { _, err in err.contains("SIGINT: no new frames") })
        #expect(run.isRunning, "finished the queue already: \(run.stdout)")
        usleep(200_000)
        let second = ContinuousClock.now
        run.send(SIGINT)
        let status = run.wait(timeout: .seconds(10))
        #expect(status == 130)
        #expect(ContinuousClock.now - second < .seconds(2))
        #expect(!run.stdout.contains("frames: submitted"))
    }

    @Test(
        "bad sources and source options",
        arguments: [
            (["ftp://host/clip.mp4"], 2, "not a supported stream scheme"),
            (["videotestsrc ! fakesink"], 2, "must end in appsink"),
            (["videotestsrc ! nosuchelement ! appsink"], 1, "GStreamer cannot start the pipeline"),
            (["/dev/video-frameocr-missing"], 1, "/dev/video-frameocr-missing: No such file or directory"),
            (["FIXTURE", "--reconnect", "-1"], 2, "--reconnect"),
            (["FIXTURE", "--stall-timeout", "fast"], 2, "--stall-timeout"),
            (["FIXTURE", "--open-timeout", "0"], 2, "--open-timeout"), (["FIXTURE", "--frames", "0"], 2, "--frames"),
            (["FIXTURE", "--reconnect-delay", "1s"], 2, "needs --reconnect"),
        ])
    func badSources(arguments: [String], status: Int32, message: String) throws {
        let args = ["video"] + arguments.map { $0 == "FIXTURE" ? video : $0 }
        let run = try start(args)
        defer { run.kill() }
        #expect(run.wait(timeout: .seconds(30)) == status, "\(args): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(args): \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("a refused TCP stream exits 1 at once; --frames and --stall-timeout off work on a file")
    func refusedAndFile() throws {
        let port = try LoopbackSender.freeTCPPort()
        let refused = try start(["video", "tcp://127.0.0.1:\(port)"])
        defer { refused.kill() }
        #expect(refused.wait(timeout: .seconds(30)) == 1)
        #expect(refused.stderr.contains("tcp://127.0.0.1:\(port): OpenCV's FFmpeg backend cannot open the stream"))
        let r = try CLI.run([
            "video", video, "--frames", "5", "--stall-timeout", "off", "--drop", "block", "--workers", "1",
            "--whole-frames",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(results(r.stdout).count == 5 && r.stdout.contains("frames: submitted 5, processed 5"))
        #expect(!r.stdout.contains("source: "))  // a file: no source line
    }

    @Test("help lists the source forms and options")
    func help() throws {
        let h = try CLI.run(["video", "--help"])
        #expect(h.status == 0)
        for word in [
            "SOURCE", "/dev/video0", "rtsp://", "udp://", "appsink", "--stall-timeout", "--reconnect N", "--frames N",
            "130",
        ] {
            #expect(h.stdout.contains(word), "\(word)")
        }
    }
}
