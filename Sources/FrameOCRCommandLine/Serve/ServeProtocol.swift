import Foundation
import FrameOCR

/// The worker protocol of `frameocr serve --stdio` (docs/serve.md), version ``version``: JSON
/// Lines, a request per line on standard input, a response per line on standard output.
package enum ServeProtocol {
    /// The protocol's version: every response carries it as `"protocol"`; a request may name it.
    package static let version = 1
    /// Request keys that take a value: JSON key → `recognize` option.
    package static let valuedKeys: [String: String] = [
        "lang": "lang", "psm": "psm", "oem": "oem", "roi": "roi", "roiNormalized": "roi-normalized",
        "scanRegion": "scan-region", "orientation": "orientation", "threshold": "threshold", "scale": "scale",
        "whitelist": "whitelist", "blacklist": "blacklist", "dpi": "dpi", "alternates": "alternates",
        "backend": "backend", "format": "format",
    ]
    /// Request keys that are switches (`true` or `false`): JSON key → `recognize` flag.
    package static let flagKeys: [String: String] = ["strictRoi": "strict-roi", "noAuto": "no-auto"]
    /// The request keys that are not options.
    static let requestKeys: Set<String> = ["id", "protocol", "path", "image"]
    /// The formats a response's result can have: `json` an object, the others a string.
    package static let formats: Set<RecognitionOutput.Format> = [.json, .text, .tsv, .hocr]
}

/// A request's `id`, echoed in its response as given: a string or a number, or none (`null`).
package enum RequestID: Equatable {
    case none
    case string(String)
    /// The number as JSONSerialization read it (it writes it back digit for digit, where a
    /// `Double` would round a 24-digit id).
    case number(NSNumber)

    /// The id as JSON.
    var json: String {
        switch self {
        case .none: return "null"
        case .string(let s): return JSONOutput.encode(s)
        case .number(let n):
            let data = (try? JSONSerialization.data(withJSONObject: [n])) ?? Data("[null]".utf8)
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
    }
}

/// What one request asks for, its options resolved against the server's defaults.
package struct ServeSettings {
    package var pipeline: Pipeline
    package var configuration: Recognizer.Configuration
    package var format: RecognitionOutput.Format
    /// The server's `--max-pixels` (not a request key: requests cannot raise it).
    var limits: ImageLimits

    /// The renderer of the result.
    var output: RecognitionOutput {
        RecognitionOutput(format: format, language: configuration.languages.joined(separator: "+"))
    }
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

/// One response: `{"protocol":1,"id":…,"status":"ok"|"error","ms":…,"result"|"error":…}`.
package struct ServeResponse {
    package enum Outcome {
        /// The result as the request's format renders it.
        case result(RecognitionOutput.Rendering)
        case failure(ServeFailure)
    }

    package var id: RequestID
    /// From reading the request to writing the response.
    package var elapsed: Duration
    package var outcome: Outcome

    package init(id: RequestID, elapsed: Duration, outcome: Outcome) {
        self.id = id
        self.elapsed = elapsed
        self.outcome = outcome
    }

    /// The response line (no newline).
    package var line: String {
        var object = JSONOutput.Object()
        object.add("protocol", ServeProtocol.version)
        object.add("id", json: id.json)
        if case .result = outcome { object.add("status", "ok") } else { object.add("status", "error") }
        object.add("ms", JSONOutput.milliseconds(elapsed))
        switch outcome {
        case .result(.object(let json)): object.add("result", json: json)
        case .result(.text(let text)): object.add("result", text)
        case .failure(let f):
            object.add("error", json: RecognitionOutput.errorObject(code: f.code, stage: f.stage, message: f.message))
        }
        return object.json
    }
}
