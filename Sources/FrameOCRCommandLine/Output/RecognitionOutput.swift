import Foundation
import FrameOCR

/// The one renderer of recognition results, for `recognize` (a document of one image or
/// several, or JSON Lines rows) and for `serve` (a response's `result`): the formats text, json,
/// jsonl, tsv and hocr, each written here only.
package struct RecognitionOutput: Sendable {
    package enum Format: String, Sendable, CaseIterable {
        /// The recognized text.
        case text
        /// The result's JSON (docs/json.md), with a leading `"file"` when it has one.
        case json
        /// JSON Lines: one compact object per line and image (`recognize` only).
        case jsonl
        /// As `tesseract IMAGE out tsv`.
        case tsv
        /// An hOCR document.
        case hocr
    }

    /// One result rendered on its own: a JSON object, or text (which `serve` sends as a string).
    package enum Rendering: Equatable, Sendable {
        case object(String)
        case text(String)
    }

    package var format: Format
    /// The hOCR document's language: the languages, joined by `+`.
    package var language: String

    package init(format: Format, language: String) {
        self.format = format
        self.language = language
    }

    /// `result` on its own: the JSON object (with `file` first when there is one; compact or
    /// pretty-printed), the text, the TSV of page `page` (the column names on page 1 only), or
    /// the hOCR document named `file` (or `image`).
    package func render(_ result: RecognitionResult, file: String?, page: Int = 1, pretty: Bool = false) -> Rendering {
        switch format {
        case .json, .jsonl: .object(Self.json(result, file: file, pretty: pretty))
        case .text: .text(result.text)
        case .tsv: .text(result.tsv(pageNumber: page, includeHeader: page == 1))
        case .hocr: .text(result.hocr(imageName: file ?? "image", language: language))
        }
    }

    /// Image `index`'s part of a document of `count` images (``document(_:count:)`` puts them
    /// together): text with a `==> FILE <==` line before it when there are several and a
    /// newline after it; JSON pretty-printed when it is alone; TSV with continued `page_num`
    /// and one header; one hOCR document per image.
    package func piece(_ result: RecognitionResult, file: String, index: Int, count: Int) -> String {
        switch render(result, file: file, page: index + 1, pretty: count == 1) {
        case .object(let json): json
        case .text(let text) where format == .text: (count > 1 ? "==> \(file) <==\n" : "") + text + "\n"
        case .text(let text): text
        }
    }

    /// The document of `count` images from the pieces of those recognized, in order: JSON an
    /// array when there are several (`[]` when none was recognized), one object when there is
    /// one; the other formats their pieces one after another.
    package func document(_ pieces: [String], count: Int) -> String {
        guard format == .json else { return pieces.joined() }
        if count == 1 { return pieces.first.map { $0 + "\n" } ?? "" }
        return pieces.isEmpty ? "[]\n" : "[\n" + pieces.joined(separator: ",\n") + "\n]\n"
    }

    /// The result's JSON with a leading `"file"` (none when `file` is nil).
    static func json(_ result: RecognitionResult, file: String?, pretty: Bool) -> String {
        let body = String(decoding: result.jsonData(prettyPrinted: pretty), as: UTF8.self)
        guard let file else { return body }
        var leading = JSONOutput.Object()
        leading.add("file", file)
        return leading.leading(body, pretty: pretty)
    }

    /// A JSON Lines row (`recognize --format jsonl`): the result's compact JSON, `file` first.
    static func row(_ result: RecognitionResult, file: String) -> String {
        json(result, file: file, pretty: false)
    }

    /// A JSON Lines row for an image that failed: `{"file":…,"error":{…}}`.
    static func errorRow(file: String, _ error: FrameOCRError) -> String {
        var row = JSONOutput.Object()
        row.add("file", file)
        row.add(
            "error", json: errorObject(code: error.code.rawValue, stage: error.stage.rawValue, message: error.message))
        return row.json
    }

    /// `{"code":…,"stage":…,"message":…}` (no `stage` when it is nil): an error as a `recognize`
    /// row and a `serve` response carry it.
    static func errorObject(code: String, stage: String?, message: String) -> String {
        var object = JSONOutput.Object()
        object.add("code", code)
        object.add("stage", stage)
        object.add("message", message)
        return object.json
    }
}
