import Foundation
import FrameOCR

/// The command line's one JSON writer. Every value is `Encodable` and encoded by one
/// `JSONEncoder` set up as the library's own JSON is (keys sorted, slashes left as they are).
///
/// JSONEncoder writes an object's keys sorted, or in no fixed order; where the order of an
/// object's keys is part of a contract — `serve`'s responses (`protocol`, `id`, `status`, `ms`,
/// then `result` or `error`) and the leading `"file"` of a result (docs/serve.md, docs/json.md) —
/// the object is an ``Object``: its members in the order they are added, each value encoded by
/// the same encoder.
enum JSONOutput {
    /// `value` as JSON: compact, or pretty-printed (two spaces, `"key" : value`).
    static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Our own value types (strings, finite numbers, Codable structs) always encode.
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    /// A duration as the JSON writes it: milliseconds, to the microsecond.
    static func milliseconds(_ d: Duration) -> Double { (d.milliseconds * 1000).rounded() / 1000 }

    /// A JSON object whose members keep the order they are added in.
    struct Object {
        private var members: [(key: String, json: String)] = []

        /// Adds `key` with `value` encoded; nothing for nil.
        mutating func add<T: Encodable>(_ key: String, _ value: T?) {
            if let value { members.append((key, JSONOutput.encode(value))) }
        }

        /// Adds `key` with a value that is JSON already (an object this writer or the library
        /// made).
        mutating func add(_ key: String, json: String) {
            members.append((key, json))
        }

        /// `{"key":value,…}`.
        var json: String {
            "{" + members.map { JSONOutput.encode($0.key) + ":" + $0.json }.joined(separator: ",") + "}"
        }

        /// This object's members first, then those of `object` (a JSON object's text, compact
        /// or pretty-printed as `pretty` says, as JSONEncoder writes it: `{` first).
        func leading(_ object: String, pretty: Bool) -> String {
            let rest = object.drop { $0 != "{" }.dropFirst()
            let empty = rest.allSatisfy { $0.isWhitespace || $0 == "}" }
            let separator = pretty ? " : " : ":"
            let own = members.map { (pretty ? "\n  " : "") + JSONOutput.encode($0.key) + separator + $0.json }
            return "{" + own.joined(separator: ",") + (empty ? (pretty ? "\n}" : "}") : "," + rest)
        }
    }

    /// A value that is written as `null` when it is nil (a synthesized `Encodable` leaves a nil
    /// optional out).
    struct OrNull<Wrapped: Encodable>: Encodable {
        var value: Wrapped?

        init(_ value: Wrapped?) { self.value = value }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            if let value { try c.encode(value) } else { try c.encodeNil() }
        }
    }
}
