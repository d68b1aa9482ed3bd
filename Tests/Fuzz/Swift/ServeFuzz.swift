import Foundation
import FrameOCRCommandLine

/// `serve --stdio`'s request path short of reading an image: the bytes go through the worker's
/// ``StandardInputLines`` in pieces, and each line through ``ServeRequestParser/parse(_:)`` to the
/// response it would get.
///
/// Input: the first byte sets the longest line (16…1036 bytes, so that over-long lines are
/// common), the second the size of the pieces read; the rest is standard input.
///
/// Checks:
/// - the reader's items equal a plain reference (split at each newline; a piece longer than the
///   limit is `tooLong` of its length; one trailing carriage return dropped; blank pieces skipped);
/// - every response is one line of JSON: an object with `"protocol": 1`, the request's own `id`
///   (when the line is an object with a string or number `id`), and `"status"` `ok` or `error`,
///   an error having a string `code` and `message`.
enum ServeFuzz {

    /// The request keys, quoted as JSON keys, and JSON's own tokens.
    static var dictionary: [String] {
        let keys = ["id", "protocol", "path", "image"] + ServeProtocol.valuedKeys.keys + ServeProtocol.flagKeys.keys
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
        while let item = reader.next() {
            items.append(item)
            check(items.count <= input.count + 1, "the line reader does not end")
        }
        let expected = reference(input, maximum: maximum)
        check(items == expected, "line reader: \(items.count) items, the reference \(expected.count)")

        for case .line(let line) in items { checkResponse(to: line) }
    }

    /// The reader's items, by the documented rules.
    static func reference(_ input: [UInt8], maximum: Int) -> [StandardInputLines.Item] {
        var pieces = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if pieces.last?.isEmpty == true { pieces.removeLast() }  // the input ends with a newline
        return pieces.compactMap { piece in
            if piece.count > maximum { return .tooLong(piece.count) }
            let text = piece.last == UInt8(ascii: "\r") ? piece.dropLast() : piece
            return text.allSatisfy { $0 == 32 || $0 == 9 } ? nil : .line(Array(text))
        }
    }

    static func checkResponse(to line: [UInt8]) {
        let (id, parsed) = fuzzParser.parse(line)
        let response: String
        switch parsed {
        case .success: response = ServeResponse(id: id, elapsed: .zero, outcome: .result(.object("{}"))).line
        case .failure(let failure): response = ServeResponse(id: id, elapsed: .zero, outcome: .failure(failure)).line
        }
        check(!response.utf8.contains(UInt8(ascii: "\n")), "a response with a newline: \(response)")
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any] else {
            fatalError("frameocr-fuzz: a response that is not a JSON object: \(response)")
        }
        check((object["protocol"] as? Int) == 1, "protocol: \(response)")
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
