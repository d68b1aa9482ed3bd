import Foundation
import FrameOCR
import LiveTestSupport
import Synchronization
import Testing

@testable import FrameOCRCommandLine

#if canImport(Glibc)
    import Glibc
#endif

/// A `frameocr serve --http 127.0.0.1:0` child process and the port it listens on.
final class HTTPServeProcess: @unchecked Sendable {  // the child is only signalled and polled
    let child: ChildProcess
    let port: Int

    init(_ arguments: [String] = []) throws {
        child = try ChildProcess(CLI.executable, ["serve", "--http", "127.0.0.1:0"] + arguments)
        var port: Int?
        _ = child.waitForOutput(timeout: .seconds(60)) { _, stderr in
            port = listeningPort(in: stderr, after: "listening on")
            return port != nil
        }
        guard let port else { throw HTTPTestError("no listening line: \(child.stderr)") }
        self.port = port
    }

    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> HTTPReply {
        try HTTPReply.fetch(port: port, method, path, headers: headers, body: body)
    }
}

/// `promtool check metrics` (Prometheus' own checker) on `text`: "" when it passes, else what it
/// printed.
func promtoolCheck(_ text: String) throws -> String {
    let file = try CLI.temporaryDirectory().appendingPathComponent("metrics.txt")
    try Data(text.utf8).write(to: file)
    let check = try CLI.run(["-c", "promtool check metrics < '\(file.path)'"], executable: "/bin/sh")
    return check.status == 0 ? "" : check.stdout + check.stderr
}

/// The tests' name for the shared client's reply and error.
typealias HTTPReply = HTTPClientReply
typealias HTTPTestError = HTTPClientError

@Suite("frameocr serve --http: endpoints, raw frames, errors, limits, metrics, shutdown", .serialized)
struct HTTPServeTests {
    static let phototest = CLI.fixture("phototest.tif")
    static var phototestBytes: [UInt8] { [UInt8](FileManager.default.contents(atPath: phototest) ?? Data()) }

    @Test("GET /healthz and /v1/version; POST /v1/recognize reads phototest.tif as recognize does, in json and text")
    func endpoints() throws {
        let server = try HTTPServeProcess(["--workers", "2"])
        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200 && health.text == #"{"status":"ok"}"#)
        #expect(health.headers["content-type"] == "application/json")
        let version = try server.request("GET", "/v1/version").json
        #expect(version["frameocr"] as? String == ToolVersion.current)
        #expect(version["protocol"] as? Int == 2)
        #expect((version["tesseract"] as? String)?.isEmpty == false)

        let cli = try CLI.run(["recognize", Self.phototest])
        #expect(cli.status == 0)
        let text = try server.request("POST", "/v1/recognize?format=text", body: Self.phototestBytes)
        #expect(text.status == 200 && text.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(text.text == cli.stdout.trimmingCharacters(in: .newlines), "\(text.text)")
        let json = try server.request("POST", "/v1/recognize", body: Self.phototestBytes)
        #expect(json.status == 200 && json.headers["content-type"] == "application/json")
        #expect((json.json["text"] as? String)?.hasPrefix("This is a lot of 12 point text") == true, "\(json.text)")
        // Options as query parameters: a region of the first line alone, PSM 7.
        let line = try server.request(
            "POST", "/v1/recognize?format=text&psm=7&roi=30,88,560,38&noAuto", body: Self.phototestBytes)
        #expect(line.status == 200)
        #expect(
            line.text.trimmingCharacters(in: .whitespacesAndNewlines) == "This is a lot of 12 point text to test the")
    }

    /// phototest.tif as 8-bit gray pixels, its width and height.
    static func grayPixels() throws -> ([UInt8], Int, Int) {
        let gray = try PixelBuffer(contentsOfFile: phototest).convertedToGray()
        return (gray.packedBytes(), gray.width, gray.height)
    }

    @Test(
        "Raw frames: gray8, NV12 and BGRA with padded rows (query or headers) read the same text; wrong lengths and descriptions are 400s"
    )
    func rawFrames() throws {
        let server = try HTTPServeProcess(["--workers", "2"])
        let (gray, w, h) = try Self.grayPixels()
        let grayText = try server.request(
            "POST", "/v1/recognize?format=text&pixelFormat=gray8&width=\(w)&height=\(h)", body: gray)
        #expect(grayText.status == 200)
        #expect(grayText.text.contains("The quick brown dog jumped over the"), "\(grayText.text)")
        // NV12: the gray plane, then neutral chroma (⌈w/2⌉·⌈h/2⌉ pairs), by headers.
        let nv12 = gray + [UInt8](repeating: 128, count: 2 * ((w + 1) / 2) * ((h + 1) / 2))
        let nv12Text = try server.request(
            "POST", "/v1/recognize?format=text",
            headers: [("X-Pixel-Format", "nv12"), ("X-Width", "\(w)"), ("X-Height", "\(h)")], body: nv12)
        #expect(nv12Text.status == 200 && nv12Text.text == grayText.text)
        // BGRA with 64 bytes of padding per row.
        let bytesPerRow = 4 * w + 64
        var bgra = [UInt8](repeating: 7, count: bytesPerRow * h)
        for y in 0..<h {
            for x in 0..<w {
                let v = gray[y * w + x]
                bgra.replaceSubrange((y * bytesPerRow + 4 * x)..<(y * bytesPerRow + 4 * x + 4), with: [v, v, v, 255])
            }
        }
        let bgraText = try server.request(
            "POST", "/v1/recognize?format=text&pixelFormat=bgra8&width=\(w)&height=\(h)&bytesPerRow=\(bytesPerRow)",
            body: bgra)
        #expect(bgraText.status == 200 && bgraText.text == grayText.text)

        let short = try server.request(
            "POST", "/v1/recognize?pixelFormat=gray8&width=\(w)&height=\(h + 1)", body: gray)
        #expect(short.status == 400 && short.errorCode == "invalidBuffer", "\(short.text)")
        let noHeight = try server.request("POST", "/v1/recognize?pixelFormat=gray8&width=\(w)", body: gray)
        #expect(noHeight.status == 400 && noHeight.errorCode == "badRequest")
        let format = try server.request(
            "POST", "/v1/recognize?pixelFormat=yuyv&width=\(w)&height=\(h)", body: gray)
        #expect(format.status == 400 && format.text.contains("not one of"))
        let zero = try server.request("POST", "/v1/recognize?pixelFormat=gray8&width=0&height=\(h)", body: gray)
        #expect(zero.status == 400 && zero.errorCode == "badRequest")
    }

    @Test(
        "Errors: 404, 405 with Allow, unknown parameter, empty and corrupt bodies, a frame over --max-pixels, a body over the limit (413 before it is read); the service goes on"
    )
    func errors() throws {
        let server = try HTTPServeProcess(["--max-request-bytes", "200000", "--max-pixels", "10000"])
        let missing = try server.request("GET", "/v2/recognize")
        #expect(missing.status == 404 && missing.errorCode == "notFound")
        let get = try server.request("GET", "/v1/recognize")
        #expect(get.status == 405 && get.headers["allow"] == "POST" && get.errorCode == "methodNotAllowed")
        let post = try server.request("POST", "/healthz")
        #expect(post.status == 405 && post.headers["allow"] == "GET")
        let unknown = try server.request("POST", "/v1/recognize?colour=red", body: [1, 2, 3])
        #expect(unknown.status == 400 && unknown.text.contains("unknown parameter 'colour'"))
        let badFlag = try server.request("POST", "/v1/recognize?noAuto=maybe", body: [1, 2, 3])
        #expect(badFlag.status == 400 && badFlag.errorCode == "badRequest")
        let badOption = try server.request("POST", "/v1/recognize?psm=99", body: Self.phototestBytes)
        #expect(badOption.status == 400, "\(badOption.text)")
        let empty = try server.request("POST", "/v1/recognize")
        #expect(empty.status == 400 && empty.text.contains("empty"))
        // A language with no model installed is the request's mistake, not the server's.
        let language = try server.request("POST", "/v1/recognize?lang=xyz", body: Self.phototestBytes)
        #expect(language.status == 400 && language.text.contains("could not load language 'xyz'"), "\(language.text)")
        let corrupt = try server.request("POST", "/v1/recognize", body: Array("not an image at all".utf8))
        #expect(corrupt.status == 422 && corrupt.errorCode == "decode")
        let tooMany = try server.request(
            "POST", "/v1/recognize?pixelFormat=gray8&width=200&height=100", body: [UInt8](repeating: 0, count: 20000))
        #expect(tooMany.status == 413 && tooMany.errorCode == "imageTooLarge", "\(tooMany.text)")
        // A declared body over --max-request-bytes is refused before it is sent.
        let fd = try HTTPReply.connect(port: server.port)
        defer { close(fd) }
        let head = "POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Length: 900000000\r\n\r\n"
        _ = HTTPReply.send(fd, Array(head.utf8))
        let refused = try HTTPReply.parse(HTTPReply.readAll(fd))
        #expect(refused.status == 413 && refused.errorCode == "bodyTooLarge")
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    @Test(
        "Concurrent requests complete interleaved: health checks are answered while two recognitions run, and all eight recognitions read the page"
    )
    func concurrent() throws {
        let server = try HTTPServeProcess(["--workers", "2"])
        let port = server.port
        let body = Self.phototestBytes
        let start = ContinuousClock.now
        // A thread per client (blocking sockets: the cooperative pool's two threads would run two
        // clients at a time).
        final class Log: @unchecked Sendable {  // appended under `lock`
            let lock = NSLock()
            var recognitions: [(Duration, String)] = []
            var health: [(Duration, String)] = []
        }
        let log = Log()
        let group = DispatchGroup()
        func client(_ delay: Double, _ work: @escaping @Sendable () -> Void) {
            group.enter()
            Thread {
                Thread.sleep(forTimeInterval: delay)
                work()
                group.leave()
            }.start()
        }
        for _ in 0..<8 {
            client(0) {
                let r = try? HTTPReply.fetch(port: port, "POST", "/v1/recognize?format=text", body: body)
                let at = ContinuousClock.now - start
                log.lock.withLock { log.recognitions.append((at, r?.status == 200 ? r!.text : "failed")) }
            }
        }
        for i in 0..<4 {
            client(0.1 * Double(i + 1)) {
                let r = try? HTTPReply.fetch(port: port, "GET", "/healthz")
                let at = ContinuousClock.now - start
                log.lock.withLock { log.health.append((at, "\(r?.status ?? 0)")) }
            }
        }
        #expect(group.wait(timeout: .now() + 300) == .success)
        let (recognitions, health) = log.lock.withLock { (log.recognitions, log.health) }
        #expect(recognitions.count == 8 && health.count == 4)
        #expect(recognitions.allSatisfy { $0.1.contains("The quick brown dog jumped over the") })
        #expect(health.allSatisfy { $0.1 == "200" })
        // Eight recognitions on two workers take four rounds; every health check is answered
        // before the last of them (they never wait for a worker).
        let lastRecognition = recognitions.map(\.0).max()!
        #expect(health.allSatisfy { $0.0 < lastRecognition }, "\(health.map(\.0)) vs \(lastRecognition)")
    }

    @Test("A client that sends its body a byte at a time is cut off at --upload-timeout; others are served meanwhile")
    func slowClient() throws {
        let server = try HTTPServeProcess(["--upload-timeout", "1s"])
        let fd = try HTTPReply.connect(port: server.port)
        defer { close(fd) }
        _ = HTTPReply.send(fd, Array("POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n".utf8))
        let start = ContinuousClock.now
        var cut: Duration?
        for _ in 0..<40 {
            if !HTTPReply.send(fd, [0x41]) {
                cut = ContinuousClock.now - start
                break
            }
            #expect(try server.request("GET", "/healthz").status == 200)
            usleep(200_000)
        }
        // Sends fail once the server has closed the connection (the first after the close may
        // still be taken by the kernel).
        #expect(cut != nil && cut! < .seconds(5), "\(String(describing: cut))")
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    /// Sends `first`, then `piece` every 200 ms, until the server closes the connection; the time
    /// from the first send to the close (nil: still open after 8 s). A health check on another
    /// connection is answered between pieces.
    static func cutOff(_ server: HTTPServeProcess, first: String, piece: [UInt8]) throws -> Duration? {
        let fd = try HTTPReply.connect(port: server.port, timeout: .milliseconds(10))
        defer { close(fd) }
        let start = ContinuousClock.now
        _ = HTTPReply.send(fd, Array(first.utf8))
        for _ in 0..<40 {
            // A send fails, or a read sees the end, once the server has shut the connection.
            var byte: UInt8 = 0
            if !piece.isEmpty && !HTTPReply.send(fd, piece) || recv(fd, &byte, 1, 0) == 0 {
                return ContinuousClock.now - start
            }
            #expect(try server.request("GET", "/healthz").status == 200)
            usleep(200_000)
        }
        return nil
    }

    @Test(
        "A client that sends its headers a line at a time, or that stops in the middle of its body, is cut off at --header-timeout / --upload-timeout (MHD's idle timeout would wait); counted in /metrics"
    )
    func slowHeadersAndStalledBody() throws {
        let server = try HTTPServeProcess(["--header-timeout", "1s", "--upload-timeout", "1s", "--idle-timeout", "60s"])
        let headers = try Self.cutOff(server, first: "GET /healthz HTTP/1.1\r\n", piece: Array("X-A: b\r\n".utf8))
        #expect(
            headers != nil && headers! >= .milliseconds(900) && headers! < .seconds(4), "\(String(describing: headers))"
        )
        // Headers in, ten bytes of a thousand, then nothing: an idle connection MHD would keep
        // for the 60 s idle timeout.
        let stalled = try Self.cutOff(
            server, first: "POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789",
            piece: [])
        #expect(
            stalled != nil && stalled! >= .milliseconds(900) && stalled! < .seconds(4), "\(String(describing: stalled))"
        )
        // A connection that sends nothing at all is cut off at the header timeout too.
        let silent = try Self.cutOff(server, first: "", piece: [])
        #expect(silent != nil && silent! < .seconds(4), "\(String(describing: silent))")
        let text = try server.request("GET", "/metrics").text
        #expect(text.contains(#"frameocr_http_connections_cut_total{reason="headers"} 2"#), "\(text)")
        #expect(text.contains(#"frameocr_http_connections_cut_total{reason="body"} 1"#))
        #expect(try promtoolCheck(text) == "", "promtool")
    }

    @Test(
        "--max-body-memory bounds the bodies held across connections: a body that does not fit is answered 503 busy before it is read, and fits again once the first is answered"
    )
    func bodyMemory() throws {
        let server = try HTTPServeProcess(["--max-request-bytes", "100000", "--max-body-memory", "150000"])
        let head = "POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Length: 90000\r\n\r\n"
        let first = try HTTPReply.connect(port: server.port)
        defer { close(first) }
        _ = HTTPReply.send(first, Array(head.utf8) + [UInt8](repeating: 0x41, count: 1000))
        usleep(300_000)  // the first body's 90,000 bytes are held from its headers on
        let second = try HTTPReply.connect(port: server.port)
        defer { close(second) }
        _ = HTTPReply.send(second, Array(head.utf8))
        let refused = try HTTPReply.parse(HTTPReply.readAll(second))
        #expect(refused.status == 503 && refused.errorCode == "busy" && refused.headers["retry-after"] == "1")
        #expect(refused.text.contains("--max-body-memory"))
        // The first goes on: its body is read and answered (not an image: 422).
        _ = HTTPReply.send(first, [UInt8](repeating: 0x41, count: 89000))
        var reply = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while HTTPReply.headEnd(reply) == nil || !String(decoding: reply, as: UTF8.self).hasSuffix("}") {
            let n = chunk.withUnsafeMutableBytes { recv(first, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            reply += chunk[..<n]
        }
        #expect(try HTTPReply.parse(reply).status == 422)
        // The budget is back: the same body is taken again.
        let again = try server.request("POST", "/v1/recognize", body: [UInt8](repeating: 0x41, count: 90000))
        #expect(again.status == 422 && again.errorCode == "decode")
        let text = try server.request("GET", "/metrics").text
        #expect(text.contains("frameocr_http_bodies_refused_total 1") && text.contains("frameocr_http_body_bytes 0"))
    }

    @Test(
        "Requests malformed at the HTTP level get libmicrohttpd's own answer (400, 431, 505, or the connection closed), and the service goes on"
    )
    func malformed() throws {
        let server = try HTTPServeProcess()
        func answer(_ raw: String) throws -> Int {
            let fd = try HTTPReply.connect(port: server.port, timeout: .seconds(5))
            defer { close(fd) }
            _ = HTTPReply.send(fd, Array(raw.utf8))
            let bytes = HTTPReply.readAll(fd)
            return bytes.isEmpty ? 0 : try HTTPReply.parse(bytes).status
        }
        #expect(try answer("GARBAGE\r\n\r\n") == 0)  // no request line: closed without an answer
        #expect(try answer("GET /healthz HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n") == 400)
        #expect(try answer("POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n") == 400)
        #expect(
            try answer("POST /v1/recognize HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n") == 400)
        #expect(
            try answer("GET /healthz HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 40000))\r\n\r\n") == 431)
        #expect(try answer("GET /healthz HTTP/9.9\r\n\r\n") == 505)
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    @Test(
        "GET /metrics: promtool check metrics passes; requests by path and status, recognition stages and resident memory are counted"
    )
    func metrics() throws {
        let server = try HTTPServeProcess()
        for _ in 0..<3 { _ = try server.request("POST", "/v1/recognize", body: Self.phototestBytes) }
        _ = try server.request("POST", "/v1/recognize", body: [1, 2, 3])
        _ = try server.request("GET", "/nowhere")
        let metrics = try server.request("GET", "/metrics")
        #expect(metrics.status == 200 && metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.text
        #expect(text.contains(#"frameocr_http_requests_total{path="/v1/recognize",code="200"} 3"#), "\(text)")
        #expect(text.contains(#"frameocr_http_requests_total{path="/v1/recognize",code="422"} 1"#))
        #expect(text.contains(#"frameocr_http_requests_total{path="other",code="404"} 1"#))
        #expect(text.contains(#"frameocr_http_request_duration_seconds_count{path="/v1/recognize"} 4"#))
        #expect(text.contains(#"frameocr_stage_duration_seconds_count{stage="total"} 3"#))
        #expect(text.contains(#"frameocr_stage_duration_seconds_bucket{stage="recognition",le="+Inf"} 3"#))
        #expect(text.contains("frameocr_workers_busy 0") && text.contains("frameocr_http_requests_waiting 0"))
        #expect(text.contains("\nframeocr_neural_device_fallbacks_total 0\n"))
        let rss = text.split(separator: "\n").first { $0.hasPrefix("process_resident_memory_bytes ") }
        #expect((rss.flatMap { Double($0.split(separator: " ")[1]) } ?? 0) > 10e6)
        #expect(try promtoolCheck(text) == "", "promtool")
    }

    @Test(
        "SIGTERM with two requests in flight (one waiting for the worker): both are answered, the server exits 0 and takes no new connection"
    )
    func shutdown() throws {
        let server = try HTTPServeProcess(["--workers", "1"])
        let port = server.port
        let body = Self.phototestBytes
        // Each thread stores its reply under the lock (two threads writing their own element of one
        // array was a race on the array itself: TSan's report in CI's sanitize-thread step).
        final class Answers: Sendable {
            let replies = Mutex<[HTTPReply?]>([nil, nil])
            let done = DispatchGroup()
        }
        let answers = Answers()
        // Two requests on one worker: one being read, one waiting for the worker.
        for i in 0..<2 {
            answers.done.enter()
            Thread {
                let reply = try? HTTPReply.fetch(port: port, "POST", "/v1/recognize?format=text", body: body)
                answers.replies.withLock { $0[i] = reply }
                answers.done.leave()
            }.start()
        }
        // Once both are in flight (a recognition takes a few hundred milliseconds).
        usleep(150_000)
        server.child.send(SIGTERM)
        #expect(server.child.wait(timeout: .seconds(60)) == 0)
        #expect(answers.done.wait(timeout: .now() + 60) == .success)
        for reply in answers.replies.withLock({ $0 }) {
            #expect(reply?.status == 200 && reply?.text.contains("The quick brown dog") == true)
        }
        #expect(throws: HTTPTestError.self) { try HTTPReply.fetch(port: port, "GET", "/healthz") }
    }

    @Test("Usage: serve needs exactly one of --stdio and --http; a bad address or a taken port exits 2")
    func usage() throws {
        #expect(try CLI.run(["serve"]).status == 2)
        #expect(try CLI.run(["serve", "--stdio", "--http", "127.0.0.1:0"]).status == 2)
        let bad = try CLI.run(["serve", "--http", "nowhere:80"])
        #expect(bad.status == 2 && bad.stderr.contains("not an IPv4 address"), "\(bad.stderr)")
        #expect(try CLI.run(["serve", "--http", "127.0.0.1:99999"]).status == 2)
        #expect(try CLI.run(["serve", "--http", "127.0.0.1:0", "--max-connections", "0"]).status == 2)
        let memory = try CLI.run([
            "serve", "--http", "127.0.0.1:0", "--max-request-bytes", "100000", "--max-body-memory", "5000",
        ])
        #expect(memory.status == 2 && memory.stderr.contains("--max-body-memory"), "\(memory.stderr)")
        #expect(try CLI.run(["serve", "--http", "127.0.0.1:0", "--header-timeout", "0s"]).status == 2)
        let first = try HTTPServeProcess()
        let taken = try CLI.run(["serve", "--http", "127.0.0.1:\(first.port)"])
        #expect(taken.status == 2 && taken.stderr.contains("cannot listen"), "\(taken.stderr)")
    }

    @Test(
        "The Prometheus text: families, labels escaped, integers without a point, histogram buckets cumulative; exact")
    func prometheusText() {
        var p = PrometheusText()
        p.family("x_total", "counter", "A count.")
        p.sample("x_total", [("path", #"a"b\c"#)], 3)
        var h = LatencyHistogram()
        for ms in [2, 2, 40, 700] { h.record(.milliseconds(ms)) }
        p.histogram("d_seconds", [], h)
        let lines = p.text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "# HELP x_total A count." && lines[1] == "# TYPE x_total counter")
        #expect(lines[2] == #"x_total{path="a\"b\\c"} 3"#)
        let buckets = lines.filter { $0.hasPrefix("d_seconds_bucket") }
        #expect(buckets.count == PrometheusText.bounds.count + 1)
        #expect(buckets.contains(#"d_seconds_bucket{le="0.001"} 0"#))
        #expect(buckets.contains(#"d_seconds_bucket{le="0.0025"} 2"#))
        #expect(buckets.contains(#"d_seconds_bucket{le="0.05"} 3"#))
        #expect(buckets.contains(#"d_seconds_bucket{le="1"} 4"#))
        #expect(buckets.last == #"d_seconds_bucket{le="+Inf"} 4"#)
        #expect(lines.contains("d_seconds_sum 0.744") && lines.contains("d_seconds_count 4"))
    }
}
