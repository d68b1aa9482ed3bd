import Foundation
import FrameOCRCommandLine
import FrameOCREvaluation

// The HTTP rows (`kind` "http"), each over a `frameocr serve --http 127.0.0.1:0 --workers 2` (the
// release build beside the bench, OMP_THREAD_LIMIT=1), talked to over loopback by the bench's own
// clients (`HTTPClientReply`, one request per connection):
//   - `http-clean/cpu/batch`: the clean corpus folders' images, each POSTed once by 4 clients
//     (two per worker, so that a worker never waits for a request), against
//     `frameocr recognize --from LIST --format jsonl --jobs 2` (the baseline: the ratio is its
//     time over the server's, so ≥ 1 means the server is as fast), interleaved round by round;
//     the text of every image against the CLI's. Issue 29's target: ≥ 0.95×, the same text.
//   - `http-load/cpu/batch`: 8 clients for `--http-seconds` (default 20), or for
//     `--http-requests` requests, POSTing a small page
//     (test_la.png) as fast as they are answered: requests per second, p50/p99 latency,
//     errors, and the server's resident memory after a warm-up and at the end.

let httpCleanId = "http-clean/cpu/batch"
let httpLoadId = "http-load/cpu/batch"

/// A `frameocr serve --http` child for the rows: started, its port read from its standard error.
final class HTTPServerChild {
    let process = Process()
    let port: Int
    private let log: String

    init(frameocr: String, scratch: String, arguments: [String] = []) throws {
        log = scratch + "/http-server.log"
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw BenchError("cannot create \(log)")
        }
        process.executableURL = URL(fileURLWithPath: frameocr)
        process.arguments = ["serve", "--http", "127.0.0.1:0", "--workers", "2"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        var port: Int?
        while port == nil, ContinuousClock.now < deadline, process.isRunning {
            port = listeningPort(in: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "", after: "listening on")
            if port == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let port else {
            process.terminate()
            throw BenchError(
                "frameocr serve --http did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        self.port = port
    }

    /// The server's resident memory, from its `/metrics`.
    func residentBytes() throws -> Double {
        let metrics = try HTTPClientReply.fetch(port: port, "GET", "/metrics").text
        guard
            let line = metrics.split(separator: "\n").first(where: { $0.hasPrefix("process_resident_memory_bytes ") }),
            let value = Double(line.split(separator: " ")[1])
        else { throw BenchError("no process_resident_memory_bytes in /metrics") }
        return value
    }

    /// SIGTERM, then waits for it to exit.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// `clients` threads taking jobs 0, 1, … from a shared counter until `count` are taken or
/// `deadline` has passed: `job(i)` for each, timed. The latencies (ms, in the order they ended),
/// the failures, the jobs done and the whole time (ms).
func runClients(
    clients: Int, count: Int, until deadline: ContinuousClock.Instant? = nil, _ job: @escaping @Sendable (Int) -> Bool
) -> (latencies: [Double], failures: Int, done: Int, wallMs: Double) {
    final class Shared: @unchecked Sendable {  // under `lock`
        let lock = NSLock()
        var next = 0
        var latencies: [Double] = []
        var failures = 0
    }
    let shared = Shared()
    let group = DispatchGroup()
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<clients {
        group.enter()
        Thread {
            while true {
                let i: Int? = shared.lock.withLock {
                    guard shared.next < count, deadline.map({ clock.now < $0 }) ?? true else { return nil }
                    defer { shared.next += 1 }
                    return shared.next
                }
                guard let i else { break }
                let t = clock.now
                let ok = job(i)
                let ms = (clock.now - t).milliseconds
                shared.lock.withLock {
                    shared.latencies.append(ms)
                    if !ok { shared.failures += 1 }
                }
            }
            group.leave()
        }.start()
    }
    group.wait()
    return (shared.latencies, shared.failures, shared.latencies.count, (clock.now - start).milliseconds)
}

/// The `p` quantile (0…1) of `values`: the sorted value at index round((n − 1)·p); 0 for none.
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// Measures `http-clean`; nil when there are no clean images under `data`.
/// - Throws: ``BenchError`` when a side fails.
func measureHTTPClean(data: String, frameocr: String, runs: Int, scratch: String) throws -> CaseResult? {
    let found = try cleanImages(data: data)
    guard !found.isEmpty else { return nil }
    // Largest first, as the CLI's job loop takes them, so that both sides end on small images.
    let images = try largestFirst(found).order.map { found[$0] }
    let bodies = images.map { [UInt8](FileManager.default.contents(atPath: $0) ?? Data()) }
    let list = scratch + "/http-images.txt"
    try (images.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    let cliOut = scratch + "/http-cli.jsonl"
    let server = try HTTPServerChild(frameocr: frameocr, scratch: scratch)
    defer { server.stop() }

    final class Texts: @unchecked Sendable {  // each index written by one client
        var byImage: [String?]
        init(_ n: Int) { byImage = [String?](repeating: nil, count: n) }
    }
    let texts = Texts(images.count)
    var serverMS: [Double] = []
    var cliMS: [Double] = []
    var latencies: [Double] = []
    var failures = 0
    let port = server.port
    for _ in 0..<runs {
        cliMS.append(
            try spawnAndWait(
                [frameocr, "recognize", "--from", list, "--format", "jsonl", "--jobs", "2", "--output", cliOut],
                environment: environment))
        let run = runClients(clients: 4, count: images.count) { i in
            guard let r = try? HTTPClientReply.fetch(port: port, "POST", "/v1/recognize", body: bodies[i]),
                r.status == 200
            else { return false }
            texts.byImage[i] = r.json["text"] as? String
            return true
        }
        serverMS.append(run.wallMs)
        latencies += run.latencies
        failures += run.failures
    }

    let cliTexts = try jsonlTexts(cliOut, key: "file")
    let mismatched = images.indices.filter { cliTexts[images[$0]] == nil || cliTexts[images[$0]] != texts.byImage[$0] }
        .map { images[$0] }
    let n = images.count
    var result = CaseResult.againstCLI(
        name: "http-clean", kind: "http", runs: runs, ms: serverMS, cliMS: cliMS, images: images,
        mismatched: mismatched)
    let (timing, cli) = (Timing(serverMS), Timing(cliMS))
    let ratio = cli.p50 / timing.p50
    result.note =
        String(
            format: "%d images (tesseract-test, uw3-lines, pytesseract, tesseract-js), 4 clients on 2 workers against"
                + " --jobs 2: the server %.2f images/s, the CLI %.2f images/s (its process start and model load"
                + " included); request p50 %.0f ms, p99 %.0f ms; %d errors; target ≥ 0.95× the CLI: %.2f×", n,
            Double(n) / (timing.p50 / 1e3), Double(n) / (cli.p50 / 1e3), percentile(latencies, 0.5),
            percentile(latencies, 0.99), failures, ratio)
        + " (\(ratio >= 0.95 ? "met" : "not met")); same text as the CLI: \(n - mismatched.count)/\(n)"
    return result
}

/// Measures `http-load`: 8 clients for `seconds`, or for `requests` requests, on a small page.
/// - Throws: ``BenchError`` when the server does not start or the page is missing.
func measureHTTPLoad(root: String, frameocr: String, seconds: Double, requests: Int?, scratch: String) throws
    -> CaseResult
{
    let page = root + "/Tests/FrameOCRTests/Fixtures/test_la.png"
    guard let data = FileManager.default.contents(atPath: page) else { throw BenchError("\(httpLoadId): no \(page)") }
    let body = [UInt8](data)
    let server = try HTTPServerChild(frameocr: frameocr, scratch: scratch)
    defer { server.stop() }
    let port = server.port
    // Warm-up: every engine and buffer made once.
    _ = runClients(clients: 8, count: 32) { _ in
        (try? HTTPClientReply.fetch(port: port, "POST", "/v1/recognize", body: body))?.status == 200
    }
    let before = try server.residentBytes()
    let run = runClients(
        clients: 8, count: requests ?? .max, until: ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    ) {
        _ in (try? HTTPClientReply.fetch(port: port, "POST", "/v1/recognize", body: body))?.status == 200
    }
    let after = try server.residentBytes()
    var result = CaseResult.batch(
        name: "http-load", kind: "http", runs: 1, ms: Timing(run.latencies), images: 1, pixels: 0, jobs: 8,
        allocations: 0)
    result.megapixelsPerSecond = nil
    result.allocationsPerFrame = nil
    result.imagesPerSecond = Double(run.done) / (run.wallMs / 1e3)
    result.note = String(
        format: "8 clients for %.0f s on test_la.png, 2 workers: %d requests, %.2f requests/s, p50 %.1f ms,"
            + " p99 %.1f ms, %d errors; server RSS %.1f MB after the warm-up, %.1f MB at the end (%+.1f MB)",
        run.wallMs / 1e3, run.done, Double(run.done) / (run.wallMs / 1e3), percentile(run.latencies, 0.5),
        percentile(run.latencies, 0.99), run.failures,
        before / 1e6, after / 1e6, (after - before) / 1e6)
    return result
}

extension BenchRow {
    /// The HTTP rows: `frameocr serve --http` against the CLI, and under load.
    static let http = BenchRow(
        name: "http", needs: .scratch,
        cases: { _ in [Case(id: httpCleanId, recognizes: true), Case(id: httpLoadId, recognizes: true)] },
        measure: { run, selected, scratch in
            guard let frameocr = CommandLineBench.frameocrBesideBench(), let scratch else {
                print("http: skipped: no frameocr beside this executable (swift build -c release --product frameocr)")
                return
            }
            if selected.contains(httpCleanId) {
                if let r = try measureHTTPClean(
                    data: run.data, frameocr: frameocr, runs: run.options.recognitionRuns, scratch: scratch)
                {
                    run.report(r)
                } else {
                    print(
                        "\(httpCleanId): no clean folder (tesseract-test, uw3-lines, pytesseract, tesseract-js) under \(run.data)"
                    )
                }
            }
            if selected.contains(httpLoadId) {
                run.report(
                    try measureHTTPLoad(
                        root: run.root, frameocr: frameocr, seconds: run.options.httpSeconds,
                        requests: run.options.httpRequests, scratch: scratch))
            }
        })
}
