import Foundation
import FrameOCR
import LiveTestSupport
import Testing

@testable import FrameOCRCommandLine

#if canImport(Glibc)
    import Glibc
#endif

/// `frameocr video SOURCE --http`: the live page in a real browser (headless Chromium), the MJPEG
/// stream with two viewers, the events, the tracks and the metrics, while the reader keeps its
/// budget.
@Suite("frameocr video --http: the live page, MJPEG, events, tracks, metrics", .serialized)
struct HTTPLiveTests {
    /// A `frameocr video` of a generated "FRAME OCR 42" stream played in real time (`frames` at
    /// 25 per second) with the live page, its statistics written to `stats`.
    static func start(frames: Int, stats: String) throws -> (ChildProcess, Int) {
        // The text detector off: the page is the subject, and on a machine busy with other tests
        // the detector's network beside the workers and Chromium left the page's script too
        // little time to fill its tables within Chromium's looks (a clean-clone CI run).
        let run = try ChildProcess(
            CLI.executable,
            [
                "video", LoopbackSender.textPipeline(count: frames), "--realtime", "--budget", "80ms", "--http",
                "127.0.0.1:0", "--stats-json", stats, "--detect-every", "0",
            ])
        var port: Int?
        _ = run.waitForOutput(timeout: .seconds(60)) { _, stderr in
            port = listeningPort(in: stderr, after: "live page on")
            return port != nil
        }
        guard let port else { throw HTTPTestError("no live page line: \(run.stderr)") }
        return (run, port)
    }

    /// Reads `path` for `seconds` (or until the server closes): what came, head and body.
    static func readStream(port: Int, _ path: String, seconds: Double, headers: String = "") throws -> [UInt8] {
        let fd = try HTTPReply.connect(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = HTTPReply.send(fd, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n".utf8))
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while ContinuousClock.now < deadline {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n > 0 { out += chunk[0..<n] }
        }
        return out
    }

    /// A chunked HTTP/1.1 body (after the response head) joined; a last chunk cut short is kept
    /// as far as it came.
    static func dechunked(_ raw: [UInt8]) -> [UInt8] {
        guard let end = HTTPClientReply.headEnd(raw) else { return [] }
        var i = end + 4
        var out: [UInt8] = []
        while i < raw.count {
            guard let lineEnd = (i..<max(i, raw.count - 1)).first(where: { raw[$0] == 13 && raw[$0 + 1] == 10 }),
                let size = Int(String(decoding: raw[i..<lineEnd], as: UTF8.self), radix: 16), size > 0
            else { break }
            let start = lineEnd + 2
            out += raw[start..<min(raw.count, start + size)]
            i = start + size + 2
        }
        return out
    }

    /// The JPEG parts of an MJPEG body (each `Content-Length` bytes after its part head), found
    /// in the bytes themselves (a JPEG is not UTF-8).
    static func jpegParts(_ body: [UInt8]) -> [[UInt8]] {
        let key = Array("Content-Length: ".utf8)
        var parts: [[UInt8]] = []
        var i = 0
        while i + key.count < body.count {
            guard Array(body[i..<i + key.count]) == key else {
                i += 1
                continue
            }
            var j = i + key.count
            var length = 0
            while j < body.count, body[j] >= 48, body[j] <= 57 {
                length = length * 10 + Int(body[j] - 48)
                j += 1
            }
            let start = j + 4  // "\r\n\r\n"
            guard start + length <= body.count else { break }
            parts.append(Array(body[start..<start + length]))
            i = start + length
        }
        return parts
    }

    @Test(
        "The live page in headless Chromium shows the track's text and boxes drawn; two MJPEG viewers get JPEG frames; events, tracks and metrics (promtool) are served; the reader keeps its 80 ms budget"
    )
    func livePage() throws {
        let stats = try CLI.temporaryDirectory().appendingPathComponent("stats.json").path
        let (run, port) = try Self.start(frames: 625, stats: stats)
        defer { run.kill() }

        // The track's text, through /v1/tracks, within a few seconds.
        var text: String?
        for _ in 0..<100 where text == nil {
            let tracks = try HTTPReply.fetch(port: port, "GET", "/v1/tracks").json["tracks"] as? [[String: Any]]
            text = tracks?.compactMap { $0["text"] as? String }.first { $0 == "FRAME OCR 42" }
            if text == nil { usleep(100_000) }
        }
        #expect(text == "FRAME OCR 42")

        // Two viewers of the stream at once, 3 s each: JPEG parts, whole, of the frame's size.
        final class Bodies: @unchecked Sendable {  // each thread writes its own index
            var bodies: [[UInt8]] = [[], []]
        }
        let bodies = Bodies()
        let group = DispatchGroup()
        for i in 0..<2 {
            group.enter()
            Thread {
                bodies.bodies[i] = (try? Self.readStream(port: port, "/stream.mjpg", seconds: 3)) ?? []
                group.leave()
            }.start()
        }
        // Meanwhile, the browser: the page's table holds the track, and its screenshot the
        // stream with the track's box and label drawn in colour (the frames are black on white).
        let dir = try CLI.temporaryDirectory()
        let shot = dir.appendingPathComponent("page.png").path
        let chromium = ["--headless", "--no-sandbox", "--disable-gpu", "--timeout=6000", "--window-size=800,600"]
        // The page fills its table from /v1/tracks once its script runs; a machine busy with
        // other tests may need more than one 6 s look.
        var dom = try CLI.run(chromium + ["--dump-dom", "http://127.0.0.1:\(port)/"], executable: "/usr/bin/chromium")
        for _ in 0..<2 where !dom.stdout.contains("<td>FRAME OCR 42</td>") {
            dom = try CLI.run(chromium + ["--dump-dom", "http://127.0.0.1:\(port)/"], executable: "/usr/bin/chromium")
        }
        #expect(dom.stdout.contains("<td>FRAME OCR 42</td>"), "\(dom.stdout.suffix(2000)) \(dom.stderr.suffix(500))")
        let screenshot = try CLI.run(
            chromium + ["--screenshot=\(shot)", "http://127.0.0.1:\(port)/"], executable: "/usr/bin/chromium")
        #expect(screenshot.status == 0, "\(screenshot.stderr.suffix(500))")
        let page = try PixelBuffer(contentsOfFile: shot).convertedToBGR()
        let pixels = page.packedBytes()
        var coloured = 0
        for i in stride(from: 0, to: pixels.count, by: 3) {
            let (b, g, r) = (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
            if max(b, g, r) - min(b, g, r) > 100 { coloured += 1 }
        }
        #expect(coloured > 200, "\(coloured) coloured pixels in the screenshot")

        #expect(group.wait(timeout: .now() + 30) == .success)
        for body in bodies.bodies {
            #expect(
                String(decoding: body.prefix(200), as: UTF8.self).contains("multipart/x-mixed-replace; boundary=frame"))
            let parts = Self.jpegParts(Self.dechunked(body))
            #expect(parts.count >= 5, "\(parts.count) frames in 3 s")
            #expect(parts.allSatisfy { $0.starts(with: [0xFF, 0xD8]) && $0.suffix(2) == [0xFF, 0xD9] })
            if let first = parts.first {
                let frame = try PixelBuffer(encoded: first)
                #expect(frame.width == 320 && frame.height == 120)
            }
        }

        // Server-Sent Events: the track's events, from the oldest kept.
        let events = String(decoding: try Self.readStream(port: port, "/events", seconds: 1.5), as: UTF8.self)
        #expect(events.contains("text/event-stream"))
        #expect(events.contains("event: track\ndata: {\"event\":\"added\""), "\(events.prefix(600))")
        #expect(events.contains("\"text\":\"FRAME OCR 42\""))
        #expect(events.contains("id: 1\nevent: track"))
        // A reconnecting EventSource's Last-Event-ID: only what came after it.
        let later = String(
            decoding: try Self.readStream(port: port, "/events", seconds: 1, headers: "Last-Event-ID: 1\r\n"),
            as: UTF8.self)
        #expect(!later.contains("id: 1\n"), "\(later.prefix(600))")

        // /metrics: Prometheus' checker, and the processor's figures.
        let metrics = try HTTPReply.fetch(port: port, "GET", "/metrics").text
        #expect(
            metrics.contains("frameocr_frames_submitted_total ") && metrics.contains("frameocr_tracks_added_total 1"))
        // Our two viewers and the browser's two page loads.
        let viewers = metrics.split(separator: "\n").first {
            $0.hasPrefix(#"frameocr_http_requests_total{path="/stream.mjpg",code="200"} "#)
        }
        #expect((viewers.flatMap { Int($0.split(separator: " ").last!) } ?? 0) >= 2, "\(metrics)")
        #expect(try promtoolCheck(metrics) == "")

        // The stream ends: the process exits 0, and the viewers never held the reader back.
        #expect(run.wait(timeout: .seconds(60)) == 0, "\(run.stderr)")
        let report =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        let processed = report?["processed"] as? Int ?? 0
        let over = report?["overBudget"] as? Int ?? Int.max
        #expect(processed > 300 && Double(over) <= 0.05 * Double(processed), "\(String(describing: report))")
    }
}
