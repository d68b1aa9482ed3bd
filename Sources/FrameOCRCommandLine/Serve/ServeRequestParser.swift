import Foundation
import FrameOCR

/// A request line, parsed (``ServeRequestParser/parse(_:)``).
package struct ParsedLine {
    package var id: RequestID = .none
    /// The protocol version its response carries: the request's; 1 when it named none or the
    /// line is not a JSON object; the newest when it named one this worker does not speak.
    package var version = 1
    /// The payload bytes that follow the line (protocol 2's `bytes`; 0: none): read, or skipped,
    /// whatever else is wrong with the request.
    package var payloadBytes = 0
    package var request: Result<ServeRequest, ServeFailure>
}

/// Request lines parsed and checked against the protocol and the options, before anything is
/// read or recognized; each request's options resolved against the server's own.
package struct ServeRequestParser: Sendable {
    /// The server's option values (`recognize`'s names) and flags: every request's defaults.
    let defaults: [String: String]
    let defaultFlags: Set<String>

    package init(defaults: [String: String], flags: Set<String>) {
        self.defaults = defaults
        defaultFlags = flags
    }

    /// A request line parsed: the request's `id` (none when it has none or the line is not a
    /// JSON object), the version its response carries, the length of the payload that follows
    /// it, and the request or why it cannot be carried out. Reads no file.
    package func parse(_ line: [UInt8]) -> ParsedLine {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)),
            let request = object as? [String: Any]
        else { return ParsedLine(id: .none, request: .failure(ServeFailure("badRequest", "not a JSON object"))) }
        // `bytes` first: the payload is read (or skipped) whatever else is wrong with the request,
        // so that the next line is read where it starts.
        let payload = request["bytes"].map(Self.payloadLength) ?? .success(0)
        var parsed = ParsedLine(
            id: .none, version: request["protocol"].map { Self.version($0) ?? ServeProtocol.version } ?? 1,
            payloadBytes: (try? payload.get()) ?? 0, request: .failure(ServeFailure("badRequest", "")))
        do {
            parsed.id = try Self.id(request["id"])
            _ = try payload.get()
            parsed.request = .success(try self.request(request))
        } catch {
            parsed.request = .failure(ServeFailure(error))
        }
        return parsed
    }

    /// A `protocol` value: one of ``ServeProtocol/versions``, else nil.
    static func version(_ value: Any) -> Int? {
        guard let n = value as? NSNumber, !isBool(n), let v = Int(exactly: n.doubleValue),
            ServeProtocol.versions.contains(v)
        else { return nil }
        return v
    }

    /// `bytes`: a whole number ≥ 0.
    static func payloadLength(_ value: Any) -> Result<Int, ServeFailure> {
        guard let n = value as? NSNumber, !isBool(n), let bytes = Int(exactly: n.doubleValue), bytes >= 0 else {
            return .failure(ServeFailure("badRequest", "bytes: the payload's length, a whole number of bytes"))
        }
        return .success(bytes)
    }

    /// One JSON request's keys, checked and resolved against the server's defaults.
    func request(_ request: [String: Any]) throws -> ServeRequest {
        var version = 1
        if let v = request["protocol"] {
            guard let k = Self.version(v) else {
                throw ServeFailure(
                    "unsupportedProtocol",
                    "protocol \(v): this worker speaks \(ServeProtocol.versions.map(String.init).joined(separator: " and "))"
                )
            }
            version = k
        }
        var values = defaults
        var flags = defaultFlags
        for (key, value) in request where !ServeProtocol.requestKeys.contains(key) {
            if let option = ServeProtocol.valuedKeys[key] {
                values[option] = try Self.optionValue(value, key: key)
            } else if let flag = ServeProtocol.flagKeys[key] {
                guard Self.isBool(value), let on = value as? Bool else {
                    throw ServeFailure("badRequest", "\(key): must be true or false")
                }
                if on { flags.insert(flag) } else { flags.remove(flag) }
            } else {
                throw ServeFailure("badRequest", "unknown key '\(key)'")
            }
        }
        let settings = try self.settings(values: values, flags: flags)
        let pixels = try PixelDescription { key in
            guard let value = request[key] else { return nil }
            if key == "pixelFormat" {
                guard let name = value as? String else { throw ServeFailure("badRequest", "pixelFormat: a string") }
                return name
            }
            guard let n = value as? NSNumber, !Self.isBool(n), let k = Int(exactly: n.doubleValue) else {
                throw ServeFailure("badRequest", "\(key): a positive integer")
            }
            return String(k)
        }
        let sources = [request["path"] != nil, request["image"] != nil, pixels != nil].filter { $0 }.count
        guard sources == 1 else {
            throw ServeFailure(
                "badRequest",
                sources == 0
                    ? "a request needs \"path\", \"image\" or raw pixels (\"pixelFormat\", … and \"bytes\")"
                    : "give one of \"path\", \"image\" and raw pixels, not more")
        }
        if let pixels {
            guard version >= 2 else { throw ServeFailure("badRequest", "raw pixels need \"protocol\": 2") }
            guard request["bytes"] != nil else {
                throw ServeFailure("badRequest", "raw pixels need \"bytes\", the length of the payload after the line")
            }
            return ServeRequest(settings: settings, source: .payload(pixels))
        }
        if request["bytes"] != nil {
            throw ServeFailure(
                "badRequest", "a payload (\"bytes\") is raw pixels: give \"pixelFormat\", \"width\", \"height\"")
        }
        switch (request["path"], request["image"]) {
        case (let p as String, nil): return ServeRequest(settings: settings, source: .path(p))
        case (nil, let b as String):
            guard let data = Data(base64Encoded: b) else { throw ServeFailure("badRequest", "image: not base64") }
            return ServeRequest(settings: settings, source: .encoded([UInt8](data)))
        default: throw ServeFailure("badRequest", "\"path\" and \"image\" are strings")
        }
    }

    /// `recognize`'s pipeline, configuration and format from option values and flags.
    package func settings(values: [String: String], flags: Set<String>) throws -> ServeSettings {
        var raw: [String] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { raw += ["--\(name)", value] }
        for flag in flags.sorted() { raw.append("--\(flag)") }
        let a = try Arguments(
            raw, valued: CommonOptions.valued.union(["format", "time-limit"]), flagNames: CommonOptions.flags)
        let name = a.value("format") ?? "json"
        guard let format = RecognitionOutput.Format(rawValue: name), ServeProtocol.formats.contains(format) else {
            throw UsageError("format: '\(name)' is not json, text, tsv or hocr")
        }
        return ServeSettings(
            pipeline: try CommonOptions.pipeline(a), configuration: try CommonOptions.recognizer(a), format: format,
            limits: try CommonOptions.limits(a), timeLimit: try CommonOptions.timeLimit(a))
    }

    /// Whether a value JSONSerialization made is `true` or `false` (a number of its own kind,
    /// `objCType` "c"; `is Bool` holds for the numbers 0 and 1 too).
    package static func isBool(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// A request's `id`: a string or a number as given, none when absent.
    static func id(_ id: Any?) throws -> RequestID {
        switch id {
        case nil: return .none
        case let s as String: return .string(s)
        case let n as NSNumber:
            if isBool(n) { throw ServeFailure("badRequest", "id: a string or a number, not true or false") }
            return .number(n)
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
}
