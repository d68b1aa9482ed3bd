import Foundation
import FrameOCR
import Synchronization

/// Prometheus' text exposition format (version 0.0.4): `# HELP` and `# TYPE` lines, then the
/// samples, each family once.
package struct PrometheusText {
    package private(set) var text = ""

    package init() {}

    /// The upper bounds (`le`) of every histogram, seconds: 1 ms to 60 s.
    package static let bounds: [Double] = [
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
    ]

    /// A family's header.
    package mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// One sample: `name{labels} value`.
    package mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name + Self.labels(labels) + " " + Self.number(value) + "\n"
    }

    /// A histogram's samples (`_bucket` for each bound and `+Inf`, `_sum`, `_count`) from a
    /// ``LatencyHistogram`` (its buckets are finer: each bound's count is
    /// ``LatencyHistogram/count(atMost:)``).
    package mutating func histogram(_ name: String, _ labels: [(String, String)] = [], _ h: LatencyHistogram) {
        for bound in Self.bounds {
            let count = h.count(atMost: .nanoseconds(Int64(bound * 1e9)))
            sample(name + "_bucket", labels + [("le", Self.number(bound))], Double(count))
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], Double(h.count))
        sample(name + "_sum", labels, h.sum.seconds)
        sample(name + "_count", labels, Double(h.count))
    }

    static func labels(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        let escaped = labels.map { key, value in
            let v = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\(key)=\"\(v)\""
        }
        return "{" + escaped.joined(separator: ",") + "}"
    }

    /// A value as Prometheus reads it: integers without a point, others in full.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

/// What `serve --http` counts for `GET /metrics`: requests by path and status, their latency,
/// the recognition stages' latency, requests in flight, waiting for a worker, and workers busy. Bounded: one histogram
/// per path served and per stage, counters per (path, status).
package final class ServiceMetrics: Sendable {
    private struct State {
        var requests: [String: [Int: UInt64]] = [:]
        var latency: [String: LatencyHistogram] = [:]
        var stages: [String: LatencyHistogram] = [:]
    }
    private let state = Mutex(State())
    private let inFlight = Atomic<Int>(0)
    private let busy = Atomic<Int>(0)
    private let waiting = Atomic<Int>(0)
    /// The server whose transport counts are exposed too (weak: the server owns the handler
    /// that owns these metrics).
    private let transport = Mutex<WeakServer>(WeakServer())
    private struct WeakServer { weak var server: HTTPServer? }
    /// The paths counted by name; any other is counted as "other" (a scanner's random paths
    /// would otherwise grow the counters without bound).
    let paths: Set<String>
    let workers: Int

    package init(paths: Set<String>, workers: Int) {
        self.paths = paths
        self.workers = workers
    }

    /// A request started / ended.
    package func started() { inFlight.add(1, ordering: .relaxed) }
    package func finished(path: String, status: Int, elapsed: Duration) {
        inFlight.subtract(1, ordering: .relaxed)
        let key = paths.contains(path) ? path : "other"
        state.withLock { s in
            s.requests[key, default: [:]][status, default: 0] += 1
            s.latency[key, default: LatencyHistogram()].record(elapsed)
        }
    }

    /// A recognition ran (a worker busy for its span) and took `timings`.
    package func recognizing(_ on: Bool) { busy.add(on ? 1 : -1, ordering: .relaxed) }
    /// A request waits for a worker (the queue's depth), or stopped waiting.
    package func queued(_ on: Bool) { waiting.add(on ? 1 : -1, ordering: .relaxed) }
    package func recognized(_ timings: StageTimings) {
        state.withLock { s in
            // `stages` ends with the whole recognition's, "total".
            for (name, duration) in timings.stages where duration > .zero {
                s.stages[name, default: LatencyHistogram()].record(duration)
            }
        }
    }

    /// Exposes `server`'s transport counts (bodies held, connections cut off, bodies refused).
    package func attach(_ server: HTTPServer) { transport.withLock { $0.server = server } }

    /// Requests in flight now.
    package var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// The exposition.
    package func exposition(version: String) -> String {
        let s = state.withLock { $0 }
        var p = PrometheusText()
        p.family("frameocr_build_info", "gauge", "FrameOCR's version and Tesseract's; always 1.")
        p.sample("frameocr_build_info", [("version", version), ("tesseract", Recognizer.tesseractVersion)], 1)
        p.family("frameocr_http_requests_total", "counter", "HTTP requests answered, by path and status code.")
        for (path, codes) in s.requests.sorted(by: { $0.key < $1.key }) {
            for (code, n) in codes.sorted(by: { $0.key < $1.key }) {
                p.sample("frameocr_http_requests_total", [("path", path), ("code", String(code))], Double(n))
            }
        }
        p.family(
            "frameocr_http_request_duration_seconds", "histogram",
            "From a request's headers to its response, by path.")
        for (path, h) in s.latency.sorted(by: { $0.key < $1.key }) {
            p.histogram("frameocr_http_request_duration_seconds", [("path", path)], h)
        }
        p.family(
            "frameocr_stage_duration_seconds", "histogram",
            "Time of each recognition stage that ran (StageTimings), the whole recognition as stage total.")
        for (stage, h) in s.stages.sorted(by: { $0.key < $1.key }) {
            p.histogram("frameocr_stage_duration_seconds", [("stage", stage)], h)
        }
        p.family("frameocr_http_requests_in_flight", "gauge", "Requests being answered now.")
        p.sample("frameocr_http_requests_in_flight", [], Double(inFlight.load(ordering: .relaxed)))
        p.family("frameocr_workers", "gauge", "Recognitions that may run at once (--workers).")
        p.sample("frameocr_workers", [], Double(workers))
        p.family("frameocr_workers_busy", "gauge", "Recognitions running now.")
        p.sample("frameocr_workers_busy", [], Double(busy.load(ordering: .relaxed)))
        p.family("frameocr_http_requests_waiting", "gauge", "Requests waiting for a worker (the queue's depth).")
        p.sample("frameocr_http_requests_waiting", [], Double(waiting.load(ordering: .relaxed)))
        if let server = transport.withLock({ $0.server }) {
            let t = server.statistics
            p.family("frameocr_http_body_bytes", "gauge", "Bytes held for request bodies being received or answered.")
            p.sample("frameocr_http_body_bytes", [], Double(t.bodyBytes))
            p.family(
                "frameocr_http_connections_cut_total", "counter",
                "Connections cut off: headers later than --header-timeout, or a body later than --upload-timeout.")
            p.sample("frameocr_http_connections_cut_total", [("reason", "headers")], Double(t.cutHeaders))
            p.sample("frameocr_http_connections_cut_total", [("reason", "body")], Double(t.cutBodies))
            p.family(
                "frameocr_http_bodies_refused_total", "counter",
                "Bodies refused (503 busy) because the bodies held filled --max-body-memory.")
            p.sample("frameocr_http_bodies_refused_total", [], Double(t.refusedBusy))
        }
        p.family(
            "frameocr_neural_device_fallbacks_total", "counter",
            "Neural engines made whose network fell back to the CPU from the --device asked for (not listed, or not matching the CPU on the probe)."
        )
        p.sample("frameocr_neural_device_fallbacks_total", [], Double(NeuralRuntime.deviceFallbacks))
        p.family("process_resident_memory_bytes", "gauge", "Resident memory of the frameocr process, bytes.")
        p.sample("process_resident_memory_bytes", [], Double(Self.residentBytes()))
        return p.text
    }

    /// The process's resident set (`/proc/self/statm`'s second field × the page size); 0 when
    /// it cannot be read.
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
