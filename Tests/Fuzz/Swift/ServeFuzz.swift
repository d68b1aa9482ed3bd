import Foundation
import FrameOCRCommandLine

/// `serve --stdio`'s request path short of reading an image: the bytes go through the worker's
/// ``StandardInputLines`` in pieces, each line through ``ServeRequestParser/parse(_:)`` to the
/// response it would get, and a line's protocol 2 payload (`"bytes"`) through
/// ``StandardInputLines/payload(_:into:)``, kept or dropped as the worker does.
///
/// Input: the first byte sets the longest line (16…1036 bytes, so that over-long lines are
/// common), the second the size of the pieces read; the rest is standard input.
///
/// Checks:
/// - the reader's items equal a plain reference (split at each newline; a piece longer than the
///   limit is `tooLong` of its length; one trailing carriage return dropped; blank pieces skipped;
///   after a line whose request has a payload, that many bytes taken as they are), and a kept
///   payload's bytes are the input's;
/// - every response is one line of JSON: an object with the request's `"protocol"` (1 or 2), its own `id`
///   (when the line is an object with a string or number `id`), and `"status"` `ok` or `error`,
///   an error having a string `code` and `message`.
enum ServeFuzz {

    /// The request keys, quoted as JSON keys, and JSON's own tokens.
    static var dictionary: [String] {
        let keys =
            ["id", "protocol", "path", "image", "bytes", "pixelFormat", "width", "height", "bytesPerRow"]
            + ServeProtocol.valuedKeys.keys + ServeProtocol.flagKeys.keys
        return keys.map { "\"\($0)\":" } + ["true", "false", "null", "{", "}", "[", "]", "\\u0000", "\r\n", "1e308"]
    }

    static func run(_ bytes: UnsafeRawBufferPointer) {
        _ = scratchDirectory
        guard bytes.count >= 2 else { return }
        let maximum = 16 + Int(bytes[0]) * 4
        let piece = 1 + Int(bytes[1]) % 97
        let input = Array(bytes[2...])

        var offset = 0
        var reader = StandardInputLines(maximumLineBytes: maximum) { buffer in
            let n = min(piece, buffer.count, input.count - offset)
            guard n > 0 else { return 0 }
            input[offset..<offset + n].withUnsafeBytes { buffer.copyMemory(from: $0) }
            offset += n
            return n
        }
        var items: [StandardInputLines.Item] = []
        var payloads: [(count: Int, bytes: [UInt8])] = []
        while let item = reader.next() {
            items.append(item)
            check(items.count <= input.count + 1, "the line reader does not end")
            guard case .line(let line) = item else { continue }
            checkResponse(to: line)
            // The payload, kept into a buffer when it is small, else dropped (as over the limit).
            let count = fuzzParser.parse(line).payloadBytes
            guard count > 0 else { continue }
            if count <= 4096 {
                var kept = [UInt8](repeating: 0, count: count)
                let got = kept.withUnsafeMutableBytes { reader.payload(count, into: $0) }
                payloads.append((count, Array(kept.prefix(got))))
            } else {
                _ = reader.payload(count, into: nil)
                payloads.append((count, []))
            }
        }
        let (expected, expectedPayloads) = reference(input, maximum: maximum)
        check(items == expected, "line reader: \(items.count) items, the reference \(expected.count)")
        check(
            payloads.count == expectedPayloads.count
                && zip(payloads, expectedPayloads).allSatisfy {
                    $0.count == $1.count && ($0.count > 4096 || $0.bytes == $1.bytes)
                },
            "payloads: \(payloads.map(\.count)), the reference \(expectedPayloads.map(\.count))")
    }

    /// The reader's items and the payloads after them, by the documented rules.
    static func reference(_ input: [UInt8], maximum: Int) -> ([StandardInputLines.Item], [(count: Int, bytes: [UInt8])])
    {
        var items: [StandardInputLines.Item] = []
        var payloads: [(count: Int, bytes: [UInt8])] = []
        var i = 0
        while i < input.count {
            let end = input[i...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
            let piece = input[i..<end]
            i = min(input.count, end + 1)
            if piece.count > maximum {
                items.append(.tooLong(piece.count))
                continue
            }
            let text = piece.last == UInt8(ascii: "\r") ? piece.dropLast() : piece
            if text.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            items.append(.line(Array(text)))
            let count = fuzzParser.parse(Array(text)).payloadBytes
            if count > 0 {
                let available = min(count, input.count - i)
                payloads.append((count, Array(input[i..<i + available])))
                i += available
            }
        }
        return (items, payloads)
    }

    static func checkResponse(to line: [UInt8]) {
        let parsed = fuzzParser.parse(line)
        let outcome: ServeResponse.Outcome
        switch parsed.request {
        case .success: outcome = .result(.object("{}"))
        case .failure(let failure): outcome = .failure(failure)
        }
        let response = ServeResponse(id: parsed.id, elapsed: .zero, outcome: outcome, version: parsed.version).line
        check(!response.utf8.contains(UInt8(ascii: "\n")), "a response with a newline: \(response)")
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any] else {
            fatalError("frameocr-fuzz: a response that is not a JSON object: \(response)")
        }
        check([1, 2].contains(object["protocol"] as? Int), "protocol: \(response)")
        let status = object["status"] as? String
        check(status == "ok" || status == "error", "status: \(response)")
        if status == "error" {
            let error = object["error"] as? [String: Any]
            check(error?["code"] is String && error?["message"] is String, "error object: \(response)")
        }
        // The id comes back as it was sent: a string or a number (not true or false).
        if let request = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let sent = request["id"], sent is String || (sent is NSNumber && !ServeRequestParser.isBool(sent))
        {
            check((object["id"] as? NSObject)?.isEqual(sent) == true, "id \(sent): \(response)")
        }
    }
}
