import Foundation
import FrameOCR

/// `frameocr serve --stdio`: a long-lived worker that reads requests as JSON Lines on standard
/// input and writes one response line per request on standard output, as each completes. The
/// protocol (``ServeProtocol``) is in `docs/serve.md`; the worker is ``Server``. `serve --http
/// ADDR:PORT`: the same requests over HTTP (``HTTPService``, docs/http.md).
package enum ServeCommand {
    /// Requests read at most: a longer line gets an error response (`--max-request-bytes`).
    static let defaultMaximumRequestBytes = 64 << 20

    static let help = """
        Usage: frameocr serve --stdio [options]
               frameocr serve --http ADDR:PORT [options]

        A long-lived worker: one JSON request per line on standard input, one JSON response per
        line on standard output, in the order they complete. Models stay loaded between requests.
        Protocol versions 1 and 2; see docs/serve.md.

          request   {"id": "7", "path": "a.png", "psm": 6}   or   {"id": 8, "image": "<base64>"}
                    or, protocol 2, raw pixels in a payload after the line's newline:
                    {"protocol": 2, "id": 9, "pixelFormat": "bgra8", "width": W, "height": H,
                     "bytesPerRow": B, "bytes": N}  then N bytes
                    options as keys: lang, psm, oem, roi, roiNormalized, scanRegion, strictRoi,
                    orientation, threshold, scale, whitelist, blacklist, dpi, alternates,
                    noAuto, backend, format (json | text | tsv | hocr)
          response  {"protocol":1,"id":"7","status":"ok","ms":41.2,"result":{…}}
                    {"protocol":1,"id":"7","status":"error","error":{"code":"io","stage":"load","message":"…"}}

        Over HTTP (docs/http.md): POST /v1/recognize (the body an image file, or raw pixels with
        ?pixelFormat=nv12&width=W&height=H[&bytesPerRow=B]; the keys above as query parameters),
        GET /metrics (Prometheus), GET /healthz, GET /v1/version. Errors are
        {"error":{"code":…,"message":…}} with a 4xx or 5xx status. SIGINT or SIGTERM: no new
        connection is taken, the requests in flight finish, exit 0.

        Options:
          --stdio                   speak JSON Lines on standard input and output
          --http ADDR:PORT          serve HTTP on ADDR (IPv4 or localhost) and PORT (0: any free
                                    port); the address listened on is printed to standard error
          --max-connections N       HTTP connections open at once, 1…1024 (default 64)
          --idle-timeout D          close an HTTP connection idle this long (default 10s)
          --upload-timeout D        cut off a client whose body takes longer (default 30s)
          --header-timeout D        cut off a client whose request headers take longer, from
                                    its connection or its previous response (default 10s)
          --max-body-memory N       bytes held for HTTP bodies across all connections; a body
                                    that does not fit gets 503 busy (default 256 MiB, at least
                                    --max-request-bytes)
          --workers N               requests in flight at once, 1…64 (default: active processors);
                                    no more is read from standard input while N are in flight
          --max-request-bytes N     longest request line, or HTTP body, 1024…1073741824
                                    (default 64 MiB; a longer HTTP body is answered 413)
          any option of recognize   the default for every request; a request's keys override it

        At the end of standard input the requests in flight are finished and the worker exits 0.
        A bad request (bad JSON, an unknown key, a missing or corrupt image, bad options) gets an
        error response and the worker goes on.

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)
        \(CommonOptions.precisionHelp)
        \(CommonOptions.timeLimitHelp)
        """

    /// The options `serve` takes: with a value, and flags.
    package static let valued = CommonOptions.valued.union([
        "workers", "max-request-bytes", "format", "time-limit", "http", "max-connections", "idle-timeout",
        "upload-timeout", "header-timeout", "max-body-memory", "precision",
    ])
    /// The server's own options: not request defaults.
    static let serverOptions: Set<String> = [
        "workers", "max-request-bytes", "http", "max-connections", "idle-timeout", "upload-timeout",
        "header-timeout", "max-body-memory", "precision",
    ]
    package static let flags = CommonOptions.flags.union(["help", "stdio"])

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(raw, valued: valued, flagNames: flags)
        if a.flag("help") {
            print(help)
            return 0
        }
        let http = a.value("http")
        guard a.flag("stdio") != (http != nil) else {
            throw UsageError("serve needs --stdio (standard input and output) or --http ADDR:PORT, one of them")
        }
        guard a.positionals.isEmpty else {
            throw UsageError("serve takes no IMAGE (requests name them): \(a.positionals[0])")
        }
        let workers = try a.int("workers") ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...64).contains(workers) else { throw UsageError("--workers: \(workers) not in 1…64") }
        try CommonOptions.configureNeuralRuntime(a, workers: workers)
        let limit = try a.int("max-request-bytes") ?? defaultMaximumRequestBytes
        guard (1024...(1 << 30)).contains(limit) else {
            throw UsageError("--max-request-bytes: \(limit) not in 1024…1073741824")
        }
        var values = a.namedValues
        for option in serverOptions { values[option] = nil }
        let parser = ServeRequestParser(defaults: values, flags: a.givenFlags.subtracting(["stdio"]))
        let server = Server(parser: parser, workers: workers)
        // The server's own options are checked once, before any request: a mistake there is a
        // usage error (exit 2), not an error response per request.
        let settings = try parser.settings(values: values, flags: parser.defaultFlags)
        // The default engines are loaded before the first request is read.
        _ = try server.recognizer(for: settings.configuration)
        guard let http else { return server.serve(maximumRequestBytes: limit) }
        var limits = HTTPLimits()
        limits.maximumBodyBytes = limit
        limits.maximumConnections = try a.int("max-connections") ?? limits.maximumConnections
        guard (1...1024).contains(limits.maximumConnections) else {
            throw UsageError("--max-connections: \(limits.maximumConnections) not in 1…1024")
        }
        if let memory = try a.int("max-body-memory") {
            guard memory >= limit, memory <= 1 << 40 else {
                throw UsageError("--max-body-memory: \(memory) not in --max-request-bytes (\(limit))…1099511627776")
            }
            limits.maximumBodyMemory = memory
        } else {
            limits.maximumBodyMemory = max(limits.maximumBodyMemory, limit)
        }
        for (name, keyPath) in [
            ("idle-timeout", \HTTPLimits.idleTimeout), ("upload-timeout", \HTTPLimits.uploadTimeout),
            ("header-timeout", \HTTPLimits.headerTimeout),
        ] {
            guard let d = try a.duration(name) else { continue }
            guard d >= .seconds(1), d <= .seconds(3600) else { throw UsageError("--\(name): between 1s and 1h") }
            limits[keyPath: keyPath] = d
        }
        let (address, port) = try listenAddress(http)
        return try serveHTTP(HTTPService(server: server), address: address, port: port, limits: limits)
    }

    /// `ADDR:PORT` (or `PORT` alone, on 127.0.0.1).
    static func listenAddress(_ text: String) throws -> (String, Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let (address, portText) =
            parts.count == 1 ? ("127.0.0.1", text) : (parts.dropLast().joined(separator: ":"), String(parts.last!))
        guard parts.count <= 2, !address.isEmpty, let port = Int(portText), (0...65535).contains(port) else {
            throw UsageError("--http: '\(text)' is not ADDR:PORT (e.g. 127.0.0.1:8080)")
        }
        return (address, port)
    }

    /// Serves until SIGINT or SIGTERM; then takes no new connection, lets the requests in flight
    /// finish (at most ``drainTimeout``), stops and returns 0.
    static func serveHTTP(_ service: HTTPService, address: String, port: Int, limits: HTTPLimits) throws -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }
        let server = try HTTPServer(address: address, port: port, limits: limits, handler: service.handle)
        service.metrics.attach(server)
        printError("frameocr serve: listening on http://\(address):\(server.port)")
        stop.wait()
        // No new connection; a new request on an open one gets 503; every request received is
        // answered and its response sent (at most `drainTimeout`; then those still waiting for
        // a worker give up).
        server.quiesce()
        service.draining.store(true, ordering: .relaxed)
        let deadline = ContinuousClock.now + drainTimeout
        while server.activeRequests > 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        service.abandoning.store(true, ordering: .relaxed)
        server.stop()
        return 0
    }

    /// How long a stop waits for the requests in flight.
    static let drainTimeout: Duration = .seconds(60)
}
