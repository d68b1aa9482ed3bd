import Dispatch
import Foundation
import FrameOCR
import Synchronization

/// The endpoints of `frameocr serve --http` (docs/http.md): `POST /v1/recognize`, `GET /metrics`,
/// `GET /healthz` and `GET /v1/version`. Recognition goes through the `--stdio` worker's
/// ``Server`` (its options, recognizers and pool), at most ``Server/workers`` at once: a request
/// past them waits for a worker on its connection's thread, while other connections (a scrape of
/// `/metrics`, a health check) are answered at once.
package final class HTTPService: Sendable {
    package let server: Server
    package let metrics: ServiceMetrics
    private let slots: DispatchSemaphore
    /// Set on SIGINT/SIGTERM: a request that arrives now (on a kept-alive connection) gets 503
    /// and `Connection: close`; the ones received before are answered.
    package let draining = Atomic<Bool>(false)
    /// Set when the drain's time is up: requests still waiting for a worker give up with 503.
    package let abandoning = Atomic<Bool>(false)

    /// The raw-pixel description's keys (``PixelDescription/keys``) as headers (a query parameter
    /// wins over its header).
    static let pixelHeaders = [
        "pixelFormat": "X-Pixel-Format", "width": "X-Width", "height": "X-Height", "bytesPerRow": "X-Bytes-Per-Row",
    ]
    static let paths: Set<String> = ["/v1/recognize", "/metrics", "/healthz", "/v1/version"]

    package init(server: Server) {
        self.server = server
        metrics = ServiceMetrics(paths: Self.paths, workers: server.workers)
        slots = DispatchSemaphore(value: server.workers)
    }

    /// The response to one request; counted in ``metrics``.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        metrics.started()
        let path = request.path
        let response =
            draining.load(ordering: .relaxed)
            ? Self.error(
                503, ServeFailure("shuttingDown", "the server is stopping"), headers: [("Connection", "close")])
            : route(request, path: path)
        metrics.finished(path: path, status: response.status, elapsed: ContinuousClock.now - start)
        return response
    }

    func route(_ request: HTTPRequest, path: String) -> HTTPResponse {
        let method = request.method
        let allowed: String
        switch path {
        case "/v1/recognize": allowed = "POST"
        case "/metrics", "/healthz", "/v1/version": allowed = "GET"
        default:
            return Self.error(404, ServeFailure("notFound", "no endpoint \(path) (see docs/http.md)"))
        }
        guard method == allowed || (allowed == "GET" && method == "HEAD") else {
            return Self.error(
                405, ServeFailure("methodNotAllowed", "\(path) takes \(allowed), not \(method)"),
                headers: [("Allow", allowed)])
        }
        switch path {
        case "/healthz":
            return HTTPResponse(status: 200, contentType: "application/json", text: #"{"status":"ok"}"#)
        case "/v1/version":
            var o = JSONOutput.Object()
            o.add("frameocr", ToolVersion.current)
            o.add("tesseract", Recognizer.tesseractVersion)
            o.add("protocol", ServeProtocol.version)
            return HTTPResponse(status: 200, contentType: "application/json", text: o.json)
        case "/metrics":
            return HTTPResponse(
                status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                text: metrics.exposition(version: ToolVersion.current))
        default:
            return recognize(request)
        }
    }

    /// `POST /v1/recognize`.
    func recognize(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let (settings, pixels) = try self.settings(request)
            // The engines for the request's languages and engine mode: made once, kept. A
            // language with no model installed is the request's mistake (400), whatever code the
            // engine gave it.
            do { _ = try server.recognizer(for: settings.configuration) } catch {
                return Self.error(400, ServeFailure(error))
            }
            // The body is the server's buffer, valid during this call: raw pixels are wrapped, not
            // copied, and recognized before it returns.
            return try request.withBody { body in
                guard !body.isEmpty else { throw ServeFailure("badRequest", "the body is empty: send an image") }
                let source: ServeRequest.Source
                if let pixels {
                    source = .pixels(try pixels.frame(body, limits: settings.limits))
                } else {
                    source = .encoded([UInt8](body))
                }
                // Waits for a worker; gives up when the drain's time is up.
                metrics.queued(true)
                while slots.wait(timeout: .now() + 0.2) == .timedOut {
                    if abandoning.load(ordering: .relaxed) {
                        metrics.queued(false)
                        throw ServeFailure("shuttingDown", "the server stopped before a worker was free")
                    }
                }
                metrics.queued(false)
                metrics.recognizing(true)
                defer {
                    metrics.recognizing(false)
                    slots.signal()
                }
                let (rendering, result) = try onWorker {
                    try self.server.recognize(ServeRequest(settings: settings, source: source))
                }
                metrics.recognized(result.timings)
                switch rendering {
                case .object(let json): return HTTPResponse(status: 200, contentType: "application/json", text: json)
                case .text(let text):
                    let type: String
                    switch settings.format {
                    case .tsv: type = "text/tab-separated-values; charset=utf-8"
                    case .hocr: type = "text/html; charset=utf-8"
                    default: type = "text/plain; charset=utf-8"
                    }
                    return HTTPResponse(status: 200, contentType: type, text: text)
                }
            }
        } catch {
            let failure = ServeFailure(error)
            return Self.error(Self.status(for: failure), failure)
        }
    }

    /// Runs `body` on one of Dispatch's pool threads and waits for it: recognition runs on the
    /// few threads the pool keeps, as `serve --stdio`'s does, not on each connection's own
    /// (libmicrohttpd's thread per connection comes and goes with it, and the per-thread state of
    /// the engines' libraries — OpenMP's, Tesseract's — would be made anew on every one).
    func onWorker<T>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.result = Result { try body() }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// A result handed from a pool thread to the waiting connection thread.
    private final class ResultBox<T>: @unchecked Sendable {  // written before the waiter is signalled
        var result: Result<T, Error>?
    }

    /// The request's settings from its query parameters (`recognize`'s options under the stdio
    /// protocol's keys) over the server's, and its raw-pixel description (nil: an image file).
    func settings(_ request: HTTPRequest) throws -> (ServeSettings, PixelDescription?) {
        var values = server.parser.defaults
        var flags = server.parser.defaultFlags
        var pixel: [String: String] = [:]
        for (key, value) in request.queryItems {
            if let option = ServeProtocol.valuedKeys[key] {
                values[option] = value
            } else if let flag = ServeProtocol.flagKeys[key] {
                switch value {
                case "", "true", "1": flags.insert(flag)
                case "false", "0": flags.remove(flag)
                default: throw ServeFailure("badRequest", "\(key): true or false, not '\(value)'")
                }
            } else if PixelDescription.keys.contains(key) {
                pixel[key] = value
            } else {
                throw ServeFailure("badRequest", "unknown parameter '\(key)'")
            }
        }
        for (key, header) in Self.pixelHeaders where pixel[key] == nil {
            if let value = request.header(header) { pixel[key] = value }
        }
        return (try server.parser.settings(values: values, flags: flags), try PixelDescription { pixel[$0] })
    }

    /// The HTTP status for a failure: the client's mistakes 4xx, the server's 5xx.
    static func status(for f: ServeFailure) -> Int {
        switch f.code {
        case "badRequest", FrameOCRError.Code.invalidParameter.rawValue, FrameOCRError.Code.invalidBuffer.rawValue,
            FrameOCRError.Code.invalidROI.rawValue:
            return 400
        // An OpenCL device the request's `backend` names that is not there.
        case FrameOCRError.Code.noOpenCLDevice.rawValue, FrameOCRError.Code.openCLDeviceUnsupported.rawValue:
            return 400
        case FrameOCRError.Code.imageTooLarge.rawValue: return 413
        case "shuttingDown": return 503
        case FrameOCRError.Code.unsupportedFormat.rawValue: return 415
        case FrameOCRError.Code.decode.rawValue: return 422
        default: return 500
        }
    }

    /// `{"error":{"code","stage"?,"message"}}` with `status`.
    static func error(_ status: Int, _ f: ServeFailure, headers: [(String, String)] = []) -> HTTPResponse {
        var o = JSONOutput.Object()
        o.add("error", json: RecognitionOutput.errorObject(code: f.code, stage: f.stage, message: f.message))
        return HTTPResponse(status: status, contentType: "application/json", text: o.json, headers: headers)
    }
}
