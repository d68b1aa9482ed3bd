import Foundation
import FrameOCR

/// One response: `{"protocol":N,"id":…,"status":"ok"|"error","ms":…,"result"|"error":…}`.
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
    /// The protocol version the response carries: the request's (``ParsedLine/version``).
    package var version: Int

    package init(id: RequestID, elapsed: Duration, outcome: Outcome, version: Int = 1) {
        self.id = id
        self.elapsed = elapsed
        self.outcome = outcome
        self.version = version
    }

    /// The response line (no newline).
    package var line: String {
        var object = JSONOutput.Object()
        object.add("protocol", version)
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

/// A request that could not be carried out: the response's `error` object.
package struct ServeFailure: Error {
    package var code: String
    package var stage: String?
    package var message: String

    package init(_ code: String, _ message: String, stage: String? = nil) {
        self.code = code
        self.message = message
        self.stage = stage
    }

    package init(_ error: Error) {
        switch error {
        case let e as ServeFailure: self = e
        case let e as UsageError: self.init("badRequest", e.description)
        case let e as FrameOCRError: self.init(e.code.rawValue, e.message, stage: e.stage.rawValue)
        default: self.init("internal", "\(error)")
        }
    }
}
