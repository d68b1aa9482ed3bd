import Dispatch
import Foundation
import FrameOCR
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `frameocr serve --stdio`: a long-lived worker that reads requests as JSON Lines on standard
/// input and writes one response line per request on standard output, as each completes. The
/// protocol (version ``protocolVersion``) is in `docs/serve.md`.
package enum ServeCommand {
    /// The protocol's version: every response carries it as `"protocol"`; a request may name it.
    static let protocolVersion = 1
    /// Requests read at most: a longer line gets an error response (`--max-request-bytes`).
    static let defaultMaximumRequestBytes = 64 << 20

    static let help = """
        Usage: frameocr serve --stdio [options]

        A long-lived worker: one JSON request per line on standard input, one JSON response per
        line on standard output, in the order they complete. Models stay loaded between requests.
        Protocol version \(protocolVersion); see docs/serve.md.

          request   {"id": "7", "path": "a.png", "psm": 6}   or   {"id": 8, "image": "<base64>"}
                    options as keys: lang, psm, oem, roi, roiNormalized, scanRegion, strictRoi,
                    orientation, threshold, scale, whitelist, blacklist, dpi, alternates,
                    noAuto, backend, format (json | text | tsv | hocr)
          response  {"protocol":1,"id":"7","status":"ok","ms":41.2,"result":{…}}
                    {"protocol":1,"id":"7","status":"error","error":{"code":"io","stage":"load","message":"…"}}

        Options:
          --stdio                   speak JSON Lines on standard input and output (required)
          --workers N               requests in flight at once, 1…64 (default: active processors);
                                    no more is read from standard input while N are in flight
          --max-request-bytes N     longest request line, 1024…1073741824 (default 64 MiB)
          any option of recognize   the default for every request; a request's keys override it

        At the end of standard input the requests in flight are finished and the worker exits 0.
        A bad request (bad JSON, an unknown key, a missing or corrupt image, bad options) gets an
        error response and the worker goes on.

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)
        """

    /// Request keys that take a value: JSON key → `recognize` option.
    package static let valuedKeys: [String: String] = [
        "lang": "lang", "psm": "psm", "oem": "oem", "roi": "roi", "roiNormalized": "roi-normalized",
        "scanRegion": "scan-region", "orientation": "orientation", "threshold": "threshold", "scale": "scale",
        "whitelist": "whitelist", "blacklist": "blacklist", "dpi": "dpi", "alternates": "alternates",
        "backend": "backend", "format": "format",
    ]
    /// Request keys that are switches (`true` or `false`): JSON key → `recognize` flag.
    package static let flagKeys: [String: String] = ["strictRoi": "strict-roi", "noAuto": "no-auto"]
    /// The formats a response's result can have: `json` an object, the others a string.
    package static let formats: Set<String> = ["json", "text", "tsv", "hocr"]

    /// The options `serve` takes: with a value, and flags.
    package static let valued = CommonOptions.valued.union(["workers", "max-request-bytes", "format"])
    package static let flags = CommonOptions.flags.union(["help", "stdio"])

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(raw, valued: valued, flagNames: flags)
        if a.flag("help") {
            print(help)
            return 0
        }
        guard a.flag("stdio") else { throw UsageError("serve needs --stdio (standard input and output)") }
        guard a.positionals.isEmpty else {
            throw UsageError("serve takes no IMAGE (requests name them): \(a.positionals[0])")
        }
        let workers = try a.int("workers") ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...64).contains(workers) else { throw UsageError("--workers: \(workers) not in 1…64") }
        let limit = try a.int("max-request-bytes") ?? defaultMaximumRequestBytes
        guard (1024...(1 << 30)).contains(limit) else {
            throw UsageError("--max-request-bytes: \(limit) not in 1024…1073741824")
        }
        var values = a.namedValues
        values["workers"] = nil
        values["max-request-bytes"] = nil
        let server = Server(defaults: values, flags: a.givenFlags.subtracting(["stdio"]), workers: workers)
        // The server's own options are checked once, before any request: a mistake there is a
        // usage error (exit 2), not an error response per request.
        let settings = try server.settings(values: values, flags: server.defaultFlags)
        // The default engines are loaded before the first request is read.
        _ = try server.recognizer(for: settings.configuration)
        return server.serve(maximumRequestBytes: limit)
    }
}

/// What one request asks for, its options resolved against the server's defaults.
package struct ServeSettings {
    package var pipeline: Pipeline
    package var configuration: Recognizer.Configuration
    package var format: String
    /// The server's `--max-pixels` (not a request key: requests cannot raise it).
    var limits: ImageLimits
}

/// A request, checked: its settings and where its image comes from.
package struct ServeRequest {
    enum Source {
        /// `"path"`: a file the worker reads.
        case path(String)
        /// `"image"`: the encoded file's bytes (base64 in the request).
        case encoded([UInt8])
    }
    var settings: ServeSettings
    var source: Source
}

/// The engine-level part of a configuration: requests that share it share a ``Recognizer``
/// (and so its loaded engines).
struct EngineKey: Hashable {
    var languages: [String]
    var tessdataPath: String?
    var engineMode: Int32
    var userWords: [String]
    var userPatterns: [String]

    init(_ c: Recognizer.Configuration) {
        languages = c.languages
        tessdataPath = c.tessdataPath
        engineMode = c.engineMode.rawValue
        userWords = c.userWords
        userPatterns = c.userPatterns
    }
}

/// A request that could not be carried out: the response's `error` object.
package struct ServeFailure: Error {
    var code: String
    var stage: String?
    var message: String

    init(_ code: String, _ message: String, stage: String? = nil) {
        self.code = code
        self.message = message
        self.stage = stage
    }

    init(_ error: Error) {
        switch error {
        case let e as ServeFailure: self = e
        case let e as UsageError: self.init("badRequest", e.description)
        case let e as FrameOCRError: self.init(e.code.rawValue, e.message, stage: e.stage.rawValue)
        default: self.init("internal", "\(error)")
        }
    }
}

/// The worker behind `serve --stdio`: reads request lines, runs up to `workers` at once on
/// Dispatch's global queue, and writes each response as one `write(2)` of one line.
package final class Server: Sendable {
    let defaults: [String: String]
    let defaultFlags: Set<String>
    let workers: Int
    /// Recognizers by engine settings, at most ``maximumRecognizers`` (least recently used out).
    private let recognizers = Mutex<[(key: EngineKey, recognizer: Recognizer)]>([])
    private let pool: PixelBufferPool
    /// Standard output failed (the reader went away): stop reading, exit 1.
    private let outputBroken = Atomic<Bool>(false)
    private let output = Mutex<Void>(())
    /// Recognizers kept for different engine settings (languages, engine mode).
    static let maximumRecognizers = 4

    package init(defaults: [String: String], flags: Set<String>, workers: Int) {
        self.defaults = defaults
        defaultFlags = flags
        self.workers = workers
        pool = PixelBufferPool(capacity: 8 * workers)
    }

    /// Reads standard input to its end, answering each request; returns the exit status: 0, or 1
    /// when standard output could not be written.
    func serve(maximumRequestBytes: Int) -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // a reader that goes away is a failed write, not a killed worker
        let slots = DispatchSemaphore(value: workers)
        let group = DispatchGroup()
        var reader = LineReader(descriptor: 0, maximumLineBytes: maximumRequestBytes)
        while let line = reader.next(), !outputBroken.load(ordering: .relaxed) {
            // Back-pressure: no more is read while `workers` requests are in flight.
            slots.wait()
            group.enter()
            DispatchQueue.global().async {
                defer {
                    slots.signal()
                    group.leave()
                }
                let response: String
                switch line {
                case .line(let bytes): response = self.respond(to: bytes)
                case .tooLong(let bytes):
                    response = Self.response(
                        id: "null", start: .now,
                        failure: ServeFailure(
                            "badRequest", "request line longer than \(maximumRequestBytes) bytes (\(bytes) read)"))
                }
                self.write(response)
            }
        }
        group.wait()
        return outputBroken.load(ordering: .relaxed) ? 1 : 0
    }

    /// The response line (no newline) to one request line.
    func respond(to line: [UInt8]) -> String {
        let start = ContinuousClock.now
        let (id, parsed) = parse(line)
        do {
            let result = try carryOut(try parsed.get())
            return Self.response(id: id, start: start, result: result)
        } catch {
            return Self.response(id: id, start: start, failure: ServeFailure(error))
        }
    }

    /// A request line parsed and checked against the protocol and the options, before anything
    /// is read or recognized: the request's `id` as JSON (`null` when it has none or the line is
    /// not a JSON object), and the request or why it cannot be carried out. Reads no file.
    package func parse(_ line: [UInt8]) -> (id: String, request: Result<ServeRequest, ServeFailure>) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)),
            let request = object as? [String: Any]
        else { return ("null", .failure(ServeFailure("badRequest", "not a JSON object"))) }
        let id: String
        do { id = try Self.idJSON(request["id"]) } catch { return ("null", .failure(ServeFailure(error))) }
        do { return (id, .success(try self.request(request))) } catch { return (id, .failure(ServeFailure(error))) }
    }

    /// One JSON request's keys, checked and resolved against the server's defaults.
    func request(_ request: [String: Any]) throws -> ServeRequest {
        if let v = request["protocol"] {
            guard let n = v as? Int, n == ServeCommand.protocolVersion else {
                throw ServeFailure(
                    "unsupportedProtocol", "protocol \(v): this worker speaks \(ServeCommand.protocolVersion)")
            }
        }
        var values = defaults
        var flags = defaultFlags
        for (key, value) in request where !["id", "protocol", "path", "image"].contains(key) {
            if let option = ServeCommand.valuedKeys[key] {
                values[option] = try Self.optionValue(value, key: key)
            } else if let flag = ServeCommand.flagKeys[key] {
                guard Self.isBool(value), let on = value as? Bool else {
                    throw ServeFailure("badRequest", "\(key): must be true or false")
                }
                if on { flags.insert(flag) } else { flags.remove(flag) }
            } else {
                throw ServeFailure("badRequest", "unknown key '\(key)'")
            }
        }
        let settings = try self.settings(values: values, flags: flags)
        switch (request["path"], request["image"]) {
        case (let p as String, nil): return ServeRequest(settings: settings, source: .path(p))
        case (nil, let b as String):
            guard let data = Data(base64Encoded: b) else { throw ServeFailure("badRequest", "image: not base64") }
            return ServeRequest(settings: settings, source: .encoded([UInt8](data)))
        case (nil, nil): throw ServeFailure("badRequest", "a request needs \"path\" or \"image\"")
        case (_?, _?): throw ServeFailure("badRequest", "give \"path\" or \"image\", not both")
        default: throw ServeFailure("badRequest", "\"path\" and \"image\" are strings")
        }
    }

    /// Reads and recognizes a parsed request; returns the result's JSON (an object, or a string
    /// for the text formats).
    func carryOut(_ request: ServeRequest) throws -> String {
        let settings = request.settings
        let image: PixelBuffer
        var path: String?
        switch request.source {
        case .path(let p):
            path = p
            image = try PixelBuffer(contentsOfFile: p, limits: settings.limits)
        case .encoded(let bytes): image = try PixelBuffer(encoded: bytes, limits: settings.limits)
        }
        let recognizer = try recognizer(for: settings.configuration)
        let result = try recognizer.recognize(
            image, pipeline: settings.pipeline, options: settings.configuration.defaultOptions, pool: pool)
        switch settings.format {
        case "text": return Self.jsonString(result.text)
        case "tsv": return Self.jsonString(result.tsv(pageNumber: 1, includeHeader: true))
        case "hocr":
            return Self.jsonString(
                result.hocr(
                    imageName: path ?? "image",
                    language: settings.configuration.languages.joined(separator: "+")))
        default:
            if let path { return RecognizeCommand.jsonWithFile(result, file: path, pretty: false) }
            return String(decoding: result.jsonData(prettyPrinted: false), as: UTF8.self)
        }
    }

    /// `recognize`'s pipeline, configuration and format from option values and flags.
    package func settings(values: [String: String], flags: Set<String>) throws -> ServeSettings {
        var raw: [String] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { raw += ["--\(name)", value] }
        for flag in flags.sorted() { raw.append("--\(flag)") }
        let a = try Arguments(
            raw, valued: CommonOptions.valued.union(["format"]), flagNames: CommonOptions.flags)
        let format = a.value("format") ?? "json"
        guard ServeCommand.formats.contains(format) else {
            throw UsageError("format: '\(format)' is not json, text, tsv or hocr")
        }
        return ServeSettings(
            pipeline: try CommonOptions.pipeline(a), configuration: try CommonOptions.recognizer(a), format: format,
            limits: try CommonOptions.limits(a))
    }

    /// The recognizer for `configuration`'s engine settings: made once, with one engine loaded
    /// per worker, then shared by every request with the same settings.
    func recognizer(for configuration: Recognizer.Configuration) throws(FrameOCRError) -> Recognizer {
        let key = EngineKey(configuration)
        if let r = recognizers.withLock({ list -> Recognizer? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let hit = list.remove(at: i)
            list.append(hit)
            return hit.recognizer
        }) {
            return r
        }
        // Made outside the lock (a model load takes a while); two requests racing may both make
        // one, and the second one made is kept.
        let made = try Recognizer(configuration: configuration, maxIdleEngines: workers)
        try made.prepareEngines(workers)  // one per worker: no model load on a request's path
        recognizers.withLock { list in
            list.removeAll { $0.key == key }
            list.append((key, made))
            if list.count > Self.maximumRecognizers { list.removeFirst(list.count - Self.maximumRecognizers) }
        }
        return made
    }

    /// Writes `line` and a newline to standard output in one piece; marks the output broken when
    /// that fails.
    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        output.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    outputBroken.store(true, ordering: .relaxed)
                    return
                }
                offset += n
            }
        }
    }

    // MARK: JSON

    /// Whether a value JSONSerialization made is `true` or `false` (a number of its own kind,
    /// `objCType` "c"; `is Bool` holds for the numbers 0 and 1 too).
    package static func isBool(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// A request's `id` as JSON: a string or a number as given, `null` when absent.
    static func idJSON(_ id: Any?) throws -> String {
        switch id {
        case nil: return "null"
        case let s as String: return jsonString(s)
        case let n as NSNumber:
            if isBool(n) { throw ServeFailure("badRequest", "id: a string or a number, not true or false") }
            let data = try JSONSerialization.data(withJSONObject: [n])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        default: throw ServeFailure("badRequest", "id: a string or a number")
        }
    }

    /// A request key's value as a `recognize` option's: strings as they are, numbers in full, and
    /// four numbers (a region) as `x,y,w,h`.
    static func optionValue(_ value: Any, key: String) throws -> String {
        switch value {
        case let s as String: return s
        case let n as NSNumber:
            if isBool(n) { throw ServeFailure("badRequest", "\(key): not true or false") }
            return n.stringValue
        case let list as [Any]:
            let numbers = list.compactMap { isBool($0) ? nil : ($0 as? NSNumber)?.stringValue }
            guard numbers.count == 4, list.count == 4 else { throw ServeFailure("badRequest", "\(key): four numbers") }
            return numbers.joined(separator: ",")
        default: throw ServeFailure("badRequest", "\(key): a string or a number")
        }
    }

    /// `s` as a JSON string literal (quoted and escaped, slashes left as they are): the one
    /// escaper of the command line's hand-built JSON (responses, rows, the `file` key).
    static func jsonString(_ s: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: (try? encoder.encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let d = ContinuousClock.now - start
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return String(format: "%.3f", ms)
    }

    package static func response(id: String, start: ContinuousClock.Instant, result: String) -> String {
        "{\"protocol\":\(ServeCommand.protocolVersion),\"id\":\(id),\"status\":\"ok\",\"ms\":"
            + milliseconds(since: start) + ",\"result\":" + result + "}"
    }

    package static func response(id: String, start: ContinuousClock.Instant, failure: ServeFailure) -> String {
        var error = "{\"code\":" + jsonString(failure.code)
        if let stage = failure.stage { error += ",\"stage\":" + jsonString(stage) }
        error += ",\"message\":" + jsonString(failure.message) + "}"
        return "{\"protocol\":\(ServeCommand.protocolVersion),\"id\":\(id),\"status\":\"error\",\"ms\":"
            + milliseconds(since: start) + ",\"error\":" + error + "}"
    }
}

/// Lines of a file descriptor (or of any `read`), read in 64 KiB pieces, each at most
/// `maximumLineBytes` long: a longer one is skipped to its end and reported by its length, carriage
/// return included. One carriage return before the newline is dropped; lines that are then empty or
/// only spaces and tabs are skipped; a last line without a newline counts like the others.
package struct LineReader {
    package enum Item: Equatable {
        case line([UInt8])
        case tooLong(Int)
    }

    let maximumLineBytes: Int
    /// Fills the buffer's start and returns the bytes it read: 0 at the end, < 0 on an error (which
    /// ends the input too; `EINTR` is retried by the descriptor's reader).
    private let read: (UnsafeMutableRawBufferPointer) -> Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0  // buffer[start..<scanned] holds no newline: each byte is searched once
    private var ended = false
    private var skipping = 0  // bytes of an over-long line skipped so far (0: not skipping)
    private var chunk = [UInt8](repeating: 0, count: 65536)  // what one read fills, reused

    /// Reads `descriptor` with `read(2)`.
    init(descriptor: Int32, maximumLineBytes: Int) {
        self.init(maximumLineBytes: maximumLineBytes) { chunk in
            while true {
                let n = Glibc.read(descriptor, chunk.baseAddress, chunk.count)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
    }

    /// Reads with `read`, which fills the buffer it is given (64 KiB) from its start.
    package init(maximumLineBytes: Int, read: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.maximumLineBytes = maximumLineBytes
        self.read = read
    }

    package mutating func next() -> Item? {
        while true {
            if let nl = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<nl]
                let skipped = skipping
                start = nl + 1
                scanned = start
                skipping = 0
                if let item = Self.item(line, skipped: skipped, maximum: maximumLineBytes) { return item }
                continue
            }
            // No newline in what is buffered: keep it (up to the limit), then read more.
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            scanned = buffer.count
            if buffer.count > maximumLineBytes {
                skipping += buffer.count
                buffer.removeAll(keepingCapacity: true)
                scanned = 0
            }
            if ended {
                guard !buffer.isEmpty || skipping > 0 else { return nil }
                let item = Self.item(buffer[...], skipped: skipping, maximum: maximumLineBytes)
                // Nothing is left: the next call must not search from the old end (a last line
                // without a newline once trapped the worker here, found by frameocr-fuzz serve).
                buffer.removeAll()
                (start, scanned, skipping) = (0, 0, 0)
                return item
            }
            let read = self.read
            let n = chunk.withUnsafeMutableBytes { read($0) }
            if n <= 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[0..<min(n, chunk.count)])
            }
        }
    }

    /// What one line (without its newline) is, after `skipped` bytes of it were already dropped:
    /// too long, a line, or nil (blank).
    private static func item(_ line: ArraySlice<UInt8>, skipped: Int, maximum: Int) -> Item? {
        if skipped > 0 || line.count > maximum { return .tooLong(skipped + line.count) }
        let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        if text.allSatisfy({ $0 == 32 || $0 == 9 }) { return nil }
        return .line(Array(text))
    }
}
