import Foundation
import FrameOCR

enum RecognizeCommand {
    static let help = """
        Usage: frameocr recognize IMAGE… [options]

        Reads each image, preprocesses it and prints the recognized text.

        Output:
          --format F                text (default) | json | tsv | hocr
          --output FILE             write to FILE instead of standard output
          --annotate FILE           also write the image with each recognized line's box, text
                                    and confidence drawn on it (each word's when there are no
                                    lines), upright; the extension picks the format (.png, .jpg,
                                    .tif, .bmp, .webp). One IMAGE only

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)

        With several images, text output separates them with a "==> IMAGE <==" line, json output
        is an array of objects (each with a "file" key), tsv continues page_num, and hocr writes one
        document per image, one after another.
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(
            raw, valued: CommonOptions.valued.union(["format", "output", "annotate"]),
            flagNames: CommonOptions.flags.union(["help"]))
        if a.flag("help") {
            print(help)
            return 0
        }
        let files = a.positionals
        guard !files.isEmpty else { throw UsageError("recognize needs at least one IMAGE") }
        let annotate = a.value("annotate")
        if annotate != nil, files.count != 1 { throw UsageError("--annotate takes one IMAGE, got \(files.count)") }
        let format = a.value("format") ?? "text"
        guard ["text", "json", "tsv", "hocr"].contains(format) else {
            throw UsageError("--format: '\(format)' is not text, json, tsv or hocr")
        }
        let pipeline = try CommonOptions.pipeline(a)
        let configuration = try CommonOptions.recognizer(a)
        let recognizer = try Recognizer(configuration: configuration, maxIdleEngines: 1)
        let pool = PixelBufferPool(capacity: 8)

        var out = ""
        var jsonObjects: [String] = []
        var failures = 0
        for (index, file) in files.enumerated() {
            do {
                let image = try PixelBuffer(contentsOfFile: file)
                let result = try recognizer.recognize(image, pipeline: pipeline, pool: pool)
                switch format {
                case "json":
                    jsonObjects.append(jsonWithFile(result, file: file, pretty: files.count == 1))
                case "tsv":
                    out += result.tsv(pageNumber: index + 1, includeHeader: index == 0)
                case "hocr":
                    out += result.hocr(imageName: file, language: configuration.languages.joined(separator: "+"))
                default:
                    if files.count > 1 { out += "==> \(file) <==\n" }
                    out += result.text + "\n"
                }
                if let annotate { try writeAnnotated(image, result, to: annotate) }
            } catch {
                // Parameter and region errors are the same for every file: stop with usage status.
                if error.code == .invalidParameter || error.code == .invalidROI { throw error }
                printError("frameocr: \(file): \(error.description)")
                failures += 1
            }
        }
        if format == "json" {
            out =
                files.count == 1
                ? (jsonObjects.first ?? "") + "\n" : "[\n" + jsonObjects.joined(separator: ",\n") + "\n]\n"
            if jsonObjects.isEmpty { out = files.count == 1 ? "" : "[]\n" }
        }
        try write(out, to: a.value("output"))
        return failures == 0 ? 0 : 1
    }

    /// `image` made upright as the recognizer did (its boxes are in that frame), with every line
    /// (or word) drawn on it, written to `path`; where it went is said on standard error.
    static func writeAnnotated(_ image: PixelBuffer, _ result: RecognitionResult, to path: String)
        throws(FrameOCRError)
    {
        var image = image
        image.orientation = result.transform.orientation
        let annotations = Annotation.annotations(for: result)
        try image.annotated(with: annotations).write(toFile: path)
        printError(
            "annotated image: \(path) (\(annotations.count) boxes, \(image.uprightWidth)x\(image.uprightHeight))")
    }

    /// The result's JSON with a leading "file" key.
    static func jsonWithFile(_ result: RecognitionResult, file: String, pretty: Bool) -> String {
        let body = String(decoding: result.jsonData(prettyPrinted: pretty), as: UTF8.self)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let escaped = String(decoding: (try? encoder.encode(file)) ?? Data("\"\"".utf8), as: UTF8.self)
        // Insert after the opening brace; the encoder emits "{" first.
        let rest = body.dropFirst()
        return pretty ? "{\n  \"file\" : \(escaped)," + rest : "{\"file\":\(escaped)," + rest
    }

    static func write(_ text: String, to path: String?) throws {
        guard let path else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw FrameOCRError(.io, "\(path): \(error.localizedDescription)", stage: .write)
        }
    }
}
