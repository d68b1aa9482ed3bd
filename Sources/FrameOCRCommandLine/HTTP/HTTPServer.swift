internal import CFrameOCRHTTP
import Foundation

/// An HTTP request as ``HTTPServer``'s handler sees it: borrowed from the connection for the
/// handler's call only.
package struct HTTPRequest {
    fileprivate let raw: OpaquePointer

    /// "GET", "POST", …
    package var method: String { String(cString: focr_http_method(raw)) }
    /// The path, without the query ("/v1/recognize").
    package var path: String { String(cString: focr_http_path(raw)) }

    /// A query argument's value ("" for a key given without one; nil: absent).
    package func query(_ key: String) -> String? { focr_http_query(raw, key).map { String(cString: $0) } }
    /// A header's value (the name in any case; nil: absent).
    package func header(_ name: String) -> String? { focr_http_header(raw, name).map { String(cString: $0) } }

    /// Every query argument, in order ("" for a key without value).
    package var queryItems: [(key: String, value: String)] {
        final class Box { var items: [(key: String, value: String)] = [] }
        let box = Box()
        withExtendedLifetime(box) {
            focr_http_each_query(raw, Unmanaged.passUnretained(box).toOpaque()) { context, key, value in
                let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
                box.items.append((key.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
            }
        }
        return box.items
    }

    /// Calls `body` with the request's body, valid inside the closure only (the server's buffer:
    /// no copy).
    package func withBody<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var size = 0
        let base = focr_http_body(raw, &size)
        return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : size))
    }
}

/// A response: an HTTP status, a content type, extra headers, and a body, whole or streamed.
package struct HTTPResponse {
    package var status: Int
    package var contentType: String
    package var body: [UInt8]
    package var headers: [(String, String)] = []
    /// A streamed body (nil: ``body``): called on the connection's thread each time the client
    /// has taken what was sent, it writes the next part into the buffer and returns its length
    /// (> 0), or returns -1 to end. It may block for the next part, for a second or so at most.
    package var stream: (@Sendable (UnsafeMutableRawBufferPointer) -> Int)?
    /// Called once when the stream is over (it ended, the client went away, the server stopped).
    package var streamEnded: (@Sendable () -> Void)?

    package init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    package init(status: Int, contentType: String, text: String, headers: [(String, String)] = []) {
        self.init(status: status, contentType: contentType, body: Array(text.utf8), headers: headers)
    }
}

/// A streamed body's closure, kept alive for the C side until the stream is freed.
private final class StreamBox {
    let next: @Sendable (UnsafeMutableRawBufferPointer) -> Int
    let ended: (@Sendable () -> Void)?
    init(_ next: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Int, ended: (@Sendable () -> Void)?) {
        self.next = next
        self.ended = ended
    }
    deinit { ended?() }
}

/// The limits of an ``HTTPServer`` (`focr_http_limits`).
package struct HTTPLimits: Sendable {
    /// Connections open at once; more are refused.
    package var maximumConnections = 64
    /// A connection idle (nothing received or sent) this long is closed.
    package var idleTimeout: Duration = .seconds(10)
    /// From a request's headers to the end of its body; a slower client is cut off.
    package var uploadTimeout: Duration = .seconds(30)
    /// From a connection's opening, or its previous response, to the end of the next request's
    /// headers; a slower client is cut off.
    package var headerTimeout: Duration = .seconds(10)
    /// The largest body taken: a larger declared length is answered 413 before it is read.
    package var maximumBodyBytes = 64 << 20
    /// The bytes held for bodies across all connections (raised to ``maximumBodyBytes`` when
    /// below it): a body that does not fit is answered 503 before it is read.
    package var maximumBodyMemory = 256 << 20

    package init() {}
}

/// An HTTP/1.1 server (`focr_http_*` over libmicrohttpd, `Sources/CFrameOCRHTTP`): a thread per
/// connection, each request answered by `handler` on its connection's thread (it may block:
/// other connections go on). Stopped by ``stop()`` or when released.
package final class HTTPServer: @unchecked Sendable {
    /// Holds the handler for the C callback; released with the server.
    private final class Context {
        let handler: (HTTPRequest) -> HTTPResponse
        init(_ handler: @escaping (HTTPRequest) -> HTTPResponse) { self.handler = handler }
    }

    private var server: OpaquePointer?
    private let context: Context
    /// The port listened on (the one given, or the one the system chose for 0).
    package let port: Int

    /// Listens on `address` (IPv4, or "localhost") and `port` (0: any free one).
    /// - Throws: ``UsageError`` when the address does not parse or cannot be listened on.
    package init(address: String, port: Int, limits: HTTPLimits, handler: @escaping (HTTPRequest) -> HTTPResponse)
        throws
    {
        guard (0...65535).contains(port) else { throw UsageError("port \(port) not in 0…65535") }
        context = Context(handler)
        var l = focr_http_limits()
        l.max_connections = UInt32(clamping: limits.maximumConnections)
        l.idle_timeout_s = UInt32(clamping: max(1, limits.idleTimeout.components.seconds))
        l.upload_timeout_s = UInt32(clamping: max(1, limits.uploadTimeout.components.seconds))
        l.header_timeout_s = UInt32(clamping: max(1, limits.headerTimeout.components.seconds))
        l.max_body_bytes = UInt64(max(1, limits.maximumBodyBytes))
        l.max_body_total = UInt64(max(1, limits.maximumBodyMemory))
        var error = [CChar](repeating: 0, count: 256)
        let started = focr_http_start(
            address, UInt16(port), &l,
            { context, request in
                let handler = Unmanaged<Context>.fromOpaque(context!).takeUnretainedValue().handler
                let answer = handler(HTTPRequest(raw: request!))
                // focr_http_respond copies everything before these pointers go.
                let headers = answer.headers.map { "\($0.0): \($0.1)\n" }.joined()
                answer.contentType.withCString { type in
                    headers.withCString { h in
                        answer.body.withUnsafeBufferPointer { body in
                            var response = focr_http_response(
                                status: Int32(answer.status), content_type: type, body: body.baseAddress,
                                body_size: body.count, headers: headers.isEmpty ? nil : h)
                            if let stream = answer.stream {
                                let box = Unmanaged.passRetained(StreamBox(stream, ended: answer.streamEnded))
                                    .toOpaque()
                                _ = focr_http_respond_stream(
                                    request, &response,
                                    { box, buffer, capacity in
                                        let next = Unmanaged<StreamBox>.fromOpaque(box!).takeUnretainedValue().next
                                        return Int64(
                                            next(UnsafeMutableRawBufferPointer(start: buffer, count: capacity)))
                                    }, { box in Unmanaged<StreamBox>.fromOpaque(box!).release() }, box)
                            } else {
                                _ = focr_http_respond(request, &response)
                            }
                        }
                    }
                }
            }, Unmanaged.passUnretained(context).toOpaque(), &error, error.count)
        guard let started else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw UsageError("--http: \(message)")
        }
        server = started
        self.port = Int(focr_http_port(started))
    }

    /// Requests from their headers until their response has been sent (uploading, waiting for a
    /// worker, being answered, or being sent).
    package var activeRequests: Int { server.map { Int(focr_http_active($0)) } ?? 0 }

    /// What the transport counted (`focr_http_statistics`).
    package struct Statistics: Sendable, Equatable {
        /// Bytes held for request bodies now.
        package var bodyBytes = 0
        /// Connections cut off: headers later than ``HTTPLimits/headerTimeout``, a body later
        /// than ``HTTPLimits/uploadTimeout``.
        package var cutHeaders = 0
        package var cutBodies = 0
        /// Bodies refused (503) or connections closed because ``HTTPLimits/maximumBodyMemory``
        /// was held.
        package var refusedBusy = 0
    }

    /// The transport's counts now (zero once stopped).
    package var statistics: Statistics {
        guard let server else { return Statistics() }
        var s = focr_http_stats()
        focr_http_statistics(server, &s)
        return Statistics(
            bodyBytes: Int(s.body_bytes), cutHeaders: Int(s.cut_headers), cutBodies: Int(s.cut_bodies),
            refusedBusy: Int(s.refused_busy))
    }

    /// Stops accepting connections; the open ones go on.
    package func quiesce() {
        if let server { focr_http_quiesce(server) }
    }

    /// Closes every connection and stops; idempotent.
    package func stop() {
        if let server { focr_http_stop(server) }
        server = nil
    }

    deinit { stop() }
}
