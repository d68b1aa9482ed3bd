import Foundation
import FrameOCR

/// The worker protocol of `frameocr serve --stdio` (docs/serve.md), version ``version``: JSON
/// Lines, a request per line on standard input, a response per line on standard output; from
/// version 2, a request line may be followed by a payload of raw pixels (`"bytes"` of them).
package enum ServeProtocol {
    /// The newest version: a request may name any of ``versions``, and its response carries the
    /// one it named (1 when it named none) as `"protocol"`.
    package static let version = 2
    /// The versions this worker speaks: 1 (requests name an image file or carry one in base64)
    /// and 2 (also raw pixels after the line).
    package static let versions: ClosedRange<Int> = 1...2
    /// Request keys that take a value: JSON key → `recognize` option.
    package static let valuedKeys: [String: String] = [
        "lang": "lang", "psm": "psm", "oem": "oem", "roi": "roi", "roiNormalized": "roi-normalized",
        "scanRegion": "scan-region", "orientation": "orientation", "threshold": "threshold", "scale": "scale",
        "whitelist": "whitelist", "blacklist": "blacklist", "dpi": "dpi", "alternates": "alternates",
        "backend": "backend", "format": "format",
    ]
    /// Request keys that are switches (`true` or `false`): JSON key → `recognize` flag.
    package static let flagKeys: [String: String] = ["strictRoi": "strict-roi", "noAuto": "no-auto"]
    /// The request keys that are not options: the request's own, and version 2's raw pixels
    /// (their description, and `bytes`, the payload's length).
    static let requestKeys: Set<String> = Set(["id", "protocol", "path", "image", "bytes"]).union(PixelDescription.keys)
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
