import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain HTTP/1.1 client over a socket to 127.0.0.1, for the benchmark's load rows and the
/// tests: one request per connection (`Connection: close`), the response read to its end, so
/// that nothing between it and the server hides what the server sent.
package struct HTTPClientReply {
    package var status: Int
    /// Header names lowercased.
    package var headers: [String: String]
    package var body: [UInt8]

    package var text: String { String(decoding: body, as: UTF8.self) }
    package var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
    /// `error.code` of a JSON error body.
    package var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }

    /// A connected socket to 127.0.0.1:`port` (receives time out after `timeout`).
    /// - Throws: ``HTTPClientError`` when it cannot connect.
    package static func connect(port: Int, timeout: Duration = .seconds(120)) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPClientError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let (seconds, attoseconds) = timeout.components
        var t = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let e = errno
            close(fd)
            throw HTTPClientError("connect to 127.0.0.1:\(port): errno \(e)")
        }
        return fd
    }

    /// Sends every byte; false when the connection is gone.
    package static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Everything until the server closes (or a receive times out).
    package static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }

    /// One request to 127.0.0.1:`port`: `METHOD path`, extra headers, and a body for POST.
    /// - Throws: ``HTTPClientError`` when it cannot connect or no response head comes back.
    package static func fetch(
        port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> HTTPClientReply {
        let fd = try connect(port: port)
        defer { close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        _ = send(fd, Array(head.utf8) + body)
        return try parse(readAll(fd))
    }

    /// A whole response (a body of its Content-Length, or everything after the head).
    /// - Throws: ``HTTPClientError`` without a head.
    package static func parse(_ raw: [UInt8]) throws -> HTTPClientReply {
        guard let end = headEnd(raw) else { throw HTTPClientError("no response head in \(raw.count) bytes") }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return HTTPClientReply(status: status, headers: headers, body: Array(raw[(end + 4)...]))
    }

    /// The offset of the "\r\n\r\n" that ends a response head.
    package static func headEnd(_ raw: [UInt8]) -> Int? {
        guard raw.count >= 4 else { return nil }
        return (0...(raw.count - 4)).first {
            raw[$0] == 13 && raw[$0 + 1] == 10 && raw[$0 + 2] == 13 && raw[$0 + 3] == 10
        }
    }
}

/// The port of the first line of `log` holding `marker` followed by `http://ADDR:PORT` (a
/// trailing `/` allowed), as `serve --http` ("listening on http://…") and `video --http` ("live
/// page on http://…/") print it on standard error; nil until such a line is there.
package func listeningPort(in log: String, after marker: String) -> Int? {
    guard let line = log.split(separator: "\n").first(where: { $0.contains(marker + " http://") }),
        let colon = line.lastIndex(of: ":")
    else { return nil }
    return Int(line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: "/")))
}

/// The client could not connect, or the server's answer was no HTTP response.
package struct HTTPClientError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
