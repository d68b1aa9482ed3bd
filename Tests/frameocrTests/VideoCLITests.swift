import Foundation
import Testing

@Suite("frameocr video")
struct VideoCLITests {
    /// 50 frames, 25 fps, 320×120, "FRAME OCR 42" (Tests/FrameOCRTests/Fixtures/README.md).
    let video = CLI.fixture("frame_ocr_42.mp4")

    @Test("--whole-frames text: one line per result with the frame's text, then the latency report")
    func text() throws {
        // `block` delivers every frame, so the count of result lines is exact.
        let r = try CLI.run(["video", video, "--whole-frames", "--drop", "block", "--workers", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let results = lines.filter { $0.hasPrefix("#") }
        #expect(results.count == 50)
        // "#ID SECONDS [STATUS] TEXT"
        #expect(results.contains("#0 0.000 [complete] FRAME OCR 42"))
        let reading = results.filter { $0.hasSuffix("] FRAME OCR 42") }
        #expect(reading.count >= 45, "\(results)")
        #expect(r.stdout.contains("p50") && r.stdout.contains("p99") && r.stdout.contains("achieved"))
        #expect(r.stdout.contains("frames: submitted 50, processed 50, dropped 0"))
        #expect(lines.contains { $0.hasPrefix("total ") })
        #expect(lines.contains { $0.hasPrefix("recognition ") })
        // stderr is a file here, not a terminal: no progress line.
        #expect(r.stderr.isEmpty)
    }

    @Test("as fast as possible with latestWins: every frame accounted for, stats JSON adds up")
    func statsJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("stats.json").path
        let r = try CLI.run([
            "video", video, "--whole-frames", "--workers", "1", "--budget", "2s", "--stats-json", file,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let stats = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        let submitted = try #require(stats["submitted"] as? Int)
        let processed = try #require(stats["processed"] as? Int)
        let dropped = try #require(stats["droppedTotal"] as? Int)
        let byReason = try #require(stats["dropped"] as? [String: Int])
        #expect(submitted == 50)
        #expect(processed >= 1)
        #expect(processed + dropped == submitted)
        #expect(byReason.values.reduce(0, +) == dropped)
        #expect(stats["delivered"] as? Int == processed)
        #expect((stats["queueHighWater"] as? Int ?? 99) <= 1)
        #expect((stats["achievedFramesPerSecond"] as? Double ?? 0) > 0)
        let stages = try #require(stats["stages"] as? [[String: Any]])
        let total = try #require(stages.first { $0["name"] as? String == "total" })
        let p50 = try #require(total["p50Ms"] as? Double)
        let p99 = try #require(total["p99Ms"] as? Double)
        #expect(p50 > 0 && p50 <= p99)
        let configuration = try #require(stats["configuration"] as? [String: Any])
        #expect(configuration["budgetMs"] as? Double == 2000)
        #expect(configuration["drop"] as? String == "latestWins")
        // The result lines printed match the count delivered.
        #expect(r.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }.count == processed)
    }

    @Test("--whole-frames jsonl: every result line is a JSON object; the report goes to stderr")
    func jsonl() throws {
        let r = try CLI.run([
            "video", video, "--whole-frames", "--format", "jsonl", "--drop", "block", "--workers", "2",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 50)
        var ids: [Int] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(object["frame"] as? Int)
            ids.append(id)
            let t = try #require(object["timestampMs"] as? Double)
            #expect(abs(t - Double(id) * 40) < 1)
            #expect(object["status"] as? String == "complete")
            let timings = try #require(object["timingsMs"] as? [String: Double])
            #expect((timings["recognition"] ?? 0) > 0 && (timings["total"] ?? 0) >= (timings["recognition"] ?? 0))
            let recognition = try #require(object["recognition"] as? [String: Any])
            #expect(recognition["text"] as? String == object["text"] as? String)
        }
        #expect(ids.sorted() == Array(0..<50))
        #expect(lines.filter { $0.contains("\"text\":\"FRAME OCR 42") }.count >= 45)
        #expect(r.stderr.contains("p50") && r.stderr.contains("achieved"))
    }

    @Test(
        "jsonl --events: the processor's track events as lines among the results (added, confirmed, removed of the sign's one track), every line whole JSON; --events without jsonl or with --whole-frames is a usage error"
    )
    func jsonlEvents() throws {
        // The detector off: it finds the frame counter in the corner too (`detectorReadsCounter`).
        let r = try CLI.run([
            "video", video, "--format", "jsonl", "--events", "--drop", "block", "--workers", "2", "--detect-every", "0",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        var results = 0
        var events: [(String, Int, String)] = []
        for line in r.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let kind = object["event"] as? String {
                let track = try #require(object["track"] as? [String: Any])
                events.append((kind, try #require(object["frame"] as? Int), track["text"] as? String ?? ""))
            } else {
                #expect(object["frame"] is Int && object["tracks"] is [Any])
                results += 1
            }
        }
        #expect(results == 50)
        #expect(events.map(\.0) == ["added", "confirmed", "removed"], "\(events)")
        #expect(events.allSatisfy { $0.2 == "FRAME OCR 42" })
        #expect(events.first?.1 == 0 && events.last?.1 == 49)
        #expect(try CLI.run(["video", video, "--events"]).status == 2)
        #expect(try CLI.run(["video", video, "--format", "jsonl", "--events", "--whole-frames"]).status == 2)
    }

    @Test(
        "The text detector on live frames (the default): the frame counter in the corner, 14 px digits the line finder leaves, becomes tracks of its own read by the CTC recognizer, their boxes the detector's in the corner; the sign stays Tesseract's one track; the report and the stats JSON count the detector's runs; --detect-every is a live-reading option"
    )
    func detectorReadsCounter() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json").path
        // At the video's own pace (2 s), so that the detector's runs come while the frames do,
        // however loaded the machine.
        let r = try CLI.run([
            "video", video, "--format", "jsonl", "--events", "--drop", "block", "--workers", "2", "--realtime",
            "--stats-json", stats,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // Every track as each event and each result showed it (the counter's digits change as
        // it is read).
        var shown: [[String: Any]] = []
        for line in r.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let track = object["track"] as? [String: Any] { shown.append(track) }
            shown += object["tracks"] as? [[String: Any]] ?? []
        }
        let sign = shown.filter { $0["text"] as? String == "FRAME OCR 42" }
        #expect(Set(sign.compactMap { $0["id"] as? Int }).count == 1, "\(shown)")
        #expect(sign.allSatisfy { $0["engine"] as? String == "tesseract" }, "\(sign)")
        // The counter: found by the detector (the finder finds it now and then too), read by the
        // CTC recognizer (the detector's lines are its; Tesseract reads the digits poorly).
        let counters = shown.filter { $0["text"] as? String != "FRAME OCR 42" }
        #expect(counters.contains { $0["detected"] as? Bool == true }, "\(shown)")
        // Each of its readings one to three characters (its digits, or a digit read as a letter:
        // 8 as B), in the corner.
        for t in counters {
            let text = t["text"] as? String ?? ""
            let box = try #require((t["box"] as? [String: Any])?["normalized"] as? [String: Any])
            #expect(t["engine"] as? String == "ctc" && (1...3).contains(text.count), "\(t)")
            #expect((box["x"] as? Double ?? 0) > 0.85 && (box["y"] as? Double ?? 0) > 0.75, "\(t)")
        }
        #expect(r.stderr.contains("detector: runs "), "\(r.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
        let detector = try #require(json["detector"] as? [String: Any])
        #expect((detector["runs"] as? Int ?? 0) >= 2 && detector["failed"] as? Int == 0, "\(detector)")
        #expect((detector["p50Ms"] as? Double ?? 0) > 0 && (detector["busyShare"] as? Double ?? 2) <= 1)
        #expect(try CLI.run(["video", video, "--whole-frames", "--detect-every", "5"]).status == 2)
        #expect(try CLI.run(["video", video, "--detect-every", "-1"]).status == 2)
    }

    @Test("--annotate writes every source frame, at the source's rate, with the tracks drawn")
    func annotate() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("annotated.mp4").path
        let stats = dir.appendingPathComponent("stats.json").path
        // Live reading as fast as frames decode: most frames are dropped, and still written.
        let r = try CLI.run(["video", video, "--workers", "2", "--annotate", out, "--stats-json", stats])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("annotated video: \(out) (50 frames, 320x120 at 25 fps; "), "\(r.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any])
        let annotation = try #require(json["annotation"] as? [String: Any])
        let own = try #require(annotation["framesWithOwnResult"] as? Int)
        let earlier = try #require(annotation["framesWithEarlierResult"] as? Int)
        #expect(annotation["framesWritten"] as? Int == 50 && own + earlier == 50)
        #expect(own >= 1 && own <= json["processed"] as? Int ?? 0)

        // The file reads back as a video of 50 frames (every one processed under `block`; with
        // --no-auto, since what is read does not matter here: the automatic mode spent 37 s on the
        // 50 annotated frames, most of the suite's time).
        let back = try CLI.run([
            "video", out, "--whole-frames", "--format", "jsonl", "--drop", "block", "--workers", "2", "--no-auto",
        ])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.split(separator: "\n").count == 50)

        // With every frame processed, every frame has its own result.
        let all = try CLI.run(["video", video, "--drop", "block", "--whole-frames", "--annotate", out])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stderr.contains("annotated video: \(out) (50 frames, 320x120 at 25 fps; 50 with their own result)"))
    }

    @Test("--annotate to a path that cannot be written fails before reading")
    func annotateErrors() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = try CLI.run(["video", video, "--annotate", dir.appendingPathComponent("out.xyz").path])
        #expect(unknown.status == 1 && unknown.stderr.contains("no default codec"), "\(unknown.stderr)")
        #expect(unknown.stdout.isEmpty)
        let missing = try CLI.run(["video", video, "--annotate", "/nonexistent/dir/out.mp4"])
        #expect(missing.status == 1 && missing.stderr.contains("No such file"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
    }

    @Test("--realtime paces frames by their timestamps (2 s of video takes ≥ 1.9 s)")
    func realtime() throws {
        let start = ContinuousClock.now
        let r = try CLI.run(["video", video, "--realtime", "--budget", "500ms", "--workers", "2"])
        let elapsed = ContinuousClock.now - start
        #expect(r.status == 0, "\(r.stderr)")
        #expect(elapsed >= .milliseconds(1900))
        #expect(r.stdout.contains("frames: submitted 50"))
    }

    @Test("a directory of numbered images, with --frame-rate")
    func imageDirectory() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = CLI.fixture("testocr.png")
        for n in [1, 2, 10] {
            try FileManager.default.copyItem(atPath: page, toPath: dir.appendingPathComponent("\(n).png").path)
        }
        let r = try CLI.run([
            "video", dir.path, "--whole-frames", "--frame-rate", "4", "--drop", "block", "--workers", "1",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let results = r.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(
            results.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
                "#0 0.000", "#1 0.250", "#2 0.500",
            ])
        // Multi-line text is joined with " | ".
        #expect(results.allSatisfy { $0.contains("12 point text to test the | ocr code") })
    }

    @Test(
        "bad usage exits 2",
        arguments: [
            ["video"], ["video", "a.mp4", "b.mp4"], ["--drop", "oldest"], ["--budget", "fast"], ["--budget", "-5ms"],
            ["--budget", "3e-23"], ["--stall-timeout", "0.0001us"],
            ["--workers", "0"], ["--queue", "none"], ["--fps", "0"], ["--format", "csv"], ["--frame-rate", "0"],
            ["--nope"],
        ])
    func badUsage(arguments: [String]) throws {
        let args = arguments.first == "video" ? arguments : ["video", video] + arguments
        let r = try CLI.run(args)
        #expect(r.status == 2, "\(args): \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("a missing file or a text file exits 1 with a message")
    func unreadable() throws {
        let missing = try CLI.run(["video", "/nonexistent/clip.mp4"])
        #expect(missing.status == 1 && missing.stderr.contains("No such file"))
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.txt")
        try "not a video".write(to: text, atomically: true, encoding: .utf8)
        let r = try CLI.run(["video", text.path])
        #expect(r.status == 1 && r.stderr.contains("not a video"))
    }

    @Test("help and usage mention the command")
    func help() throws {
        let h = try CLI.run(["video", "--help"])
        #expect(h.status == 0 && h.stdout.contains("Usage: frameocr video") && h.stdout.contains("--realtime"))
        #expect(h.stdout.contains("--stats-json") && h.stdout.contains("--threshold") && h.stdout.contains("--psm"))
        #expect(try CLI.run(["--help"]).stdout.contains("frameocr video SOURCE"))
    }
}
