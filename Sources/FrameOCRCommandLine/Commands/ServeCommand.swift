import Foundation
import FrameOCR

/// `frameocr serve --stdio`: a long-lived worker that reads requests as JSON Lines on standard
/// input and writes one response line per request on standard output, as each completes. The
/// protocol (``ServeProtocol``) is in `docs/serve.md`; the worker is ``Server``.
package enum ServeCommand {
    /// Requests read at most: a longer line gets an error response (`--max-request-bytes`).
    static let defaultMaximumRequestBytes = 64 << 20

    static let help = """
        Usage: frameocr serve --stdio [options]

        A long-lived worker: one JSON request per line on standard input, one JSON response per
        line on standard output, in the order they complete. Models stay loaded between requests.
        Protocol version \(ServeProtocol.version); see docs/serve.md.

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
        \(CommonOptions.timeLimitHelp)
        """

    /// The options `serve` takes: with a value, and flags.
    package static let valued = CommonOptions.valued.union(["workers", "max-request-bytes", "format", "time-limit"])
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
        let parser = ServeRequestParser(defaults: values, flags: a.givenFlags.subtracting(["stdio"]))
        let server = Server(parser: parser, workers: workers)
        // The server's own options are checked once, before any request: a mistake there is a
        // usage error (exit 2), not an error response per request.
        let settings = try parser.settings(values: values, flags: parser.defaultFlags)
        // The default engines are loaded before the first request is read.
        _ = try server.recognizer(for: settings.configuration)
        return server.serve(maximumRequestBytes: limit)
    }
}
