import Dispatch
import Foundation
import FrameOCR
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

package enum RecognizeCommand {
    static let help = """
        Usage: frameocr recognize IMAGE… [options]
               frameocr recognize --from FILE|- --format jsonl [--jobs N] [--skip-done OUT.jsonl] [options]

        Reads each image, preprocesses it and prints the recognized text.

        Output:
          --format F                text (default) | json | jsonl | tsv | hocr. jsonl: one object
                                    per line and image, with its "file" (or its "error"), written
                                    as each image completes
          --output FILE             write to FILE instead of standard output
          --annotate FILE           also write the image with each recognized line's box, text
                                    and confidence drawn on it (each word's when there are no
                                    lines), upright; the extension picks the format (.png, .jpg,
                                    .tif, .bmp, .webp). One IMAGE only

        Batches:
          --from FILE|-             also read the images listed in FILE (or standard input), one
                                    path per line
          --jobs N                  images recognized at once, 1…64 (default 1); text, json, tsv
                                    and hocr keep the input's order, jsonl the order of completion
          --skip-done OUT.jsonl     with --format jsonl: skip the images OUT.jsonl already holds
                                    without an error, and, when --output is OUT.jsonl too, append
                                    to it: an interrupted run resumes where it stopped
          On a terminal, standard error shows the images done, images/s and the time left.

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)

        With several images, text output separates them with a "==> IMAGE <==" line, json output
        is an array of objects (each with a "file" key), tsv continues page_num, and hocr writes one
        document per image, one after another.
        """

    /// The options `recognize` takes: with a value, and flags.
    package static let valued = CommonOptions.valued.union([
        "format", "output", "annotate", "from", "jobs", "skip-done",
    ])
    package static let flags = CommonOptions.flags.union(["help"])

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(raw, valued: valued, flagNames: flags)
        if a.flag("help") {
            print(help)
            return 0
        }
        var files = a.positionals
        if let list = a.value("from") { files += try pathList(list) }
        guard !files.isEmpty || a.value("from") != nil else {
            throw UsageError("recognize needs at least one IMAGE (or --from FILE)")
        }
        let annotate = a.value("annotate")
        if annotate != nil, files.count != 1 { throw UsageError("--annotate takes one IMAGE, got \(files.count)") }
        let format = a.value("format") ?? "text"
        guard ["text", "json", "jsonl", "tsv", "hocr"].contains(format) else {
            throw UsageError("--format: '\(format)' is not text, json, jsonl, tsv or hocr")
        }
        let jobs = try a.int("jobs") ?? 1
        guard (1...64).contains(jobs) else { throw UsageError("--jobs: \(jobs) not in 1…64") }
        let pipeline = try CommonOptions.pipeline(a)
        let configuration = try CommonOptions.recognizer(a)
        let limits = try CommonOptions.limits(a)
        let recognizer = try Recognizer(configuration: configuration, maxIdleEngines: jobs)
        let pool = PixelBufferPool(capacity: 8 * jobs)
        if format == "jsonl" {
            return try BatchRun(
                recognizer: recognizer, pipeline: pipeline, limits: limits, pool: pool, jobs: jobs,
                output: a.value("output"),
                skipDone: a.value("skip-done")
            ).run(files)
        }
        guard a.value("skip-done") == nil else { throw UsageError("--skip-done goes with --format jsonl") }

        let many = files.count > 1
        let rendered = try recognizeAll(files, jobs: jobs) { index, file throws(FrameOCRError) in
            let image = try PixelBuffer(contentsOfFile: file, limits: limits)
            let result = try recognizer.recognize(image, pipeline: pipeline, pool: pool)
            if let annotate { try writeAnnotated(image, result, to: annotate) }
            switch format {
            case "json": return jsonWithFile(result, file: file, pretty: !many)
            case "tsv": return result.tsv(pageNumber: index + 1, includeHeader: index == 0)
            case "hocr": return result.hocr(imageName: file, language: configuration.languages.joined(separator: "+"))
            default: return (many ? "==> \(file) <==\n" : "") + result.text + "\n"
            }
        }
        var failures = 0
        var pieces: [String] = []
        for (file, r) in zip(files, rendered) {
            switch r {
            case .success(let piece): pieces.append(piece)
            case .failure(let error):
                printError("frameocr: \(file): \(error.description)")
                failures += 1
            }
        }
        var out = pieces.joined()
        if format == "json" {
            out = files.count == 1 ? (pieces.first ?? "") + "\n" : "[\n" + pieces.joined(separator: ",\n") + "\n]\n"
            if pieces.isEmpty { out = files.count == 1 ? "" : "[]\n" }
        }
        try write(out, to: a.value("output"))
        return failures == 0 ? 0 : 1
    }

    /// `body` for every file, `jobs` at a time, each file's outcome at its index. A parameter or
    /// region error is the same for every file: it is thrown (a usage error, exit 2).
    static func recognizeAll(
        _ files: [String], jobs: Int, _ body: @escaping @Sendable (Int, String) throws(FrameOCRError) -> String
    ) throws(FrameOCRError) -> [Result<String, FrameOCRError>] {
        let results = Mutex([Result<String, FrameOCRError>?](repeating: nil, count: files.count))
        concurrently(files.count, jobs: jobs) { i in
            let r: Result<String, FrameOCRError>
            do throws(FrameOCRError) { r = .success(try body(i, files[i])) } catch { r = .failure(error) }
            results.withLock { $0[i] = r }
        }
        let all = results.withLock { $0.map { $0! } }
        for case .failure(let e) in all where e.code == .invalidParameter || e.code == .invalidROI { throw e }
        return all
    }

    /// `body(i)` for every i in 0..<count on `jobs` threads (Dispatch's `concurrentPerform`), each
    /// thread taking the next index as it finishes one: indices start in order, finish in any.
    static func concurrently(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> Void) {
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(1, count))) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(i)
            }
        }
    }

    /// The paths listed in `source` (a file, or `-` for standard input), one per line; blank
    /// lines are skipped and a carriage return before the newline is dropped.
    static func pathList(_ source: String) throws -> [String] {
        let data: Data
        if source == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: source) else {
                throw UsageError("--from: cannot read \(source)")
            }
            data = d
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
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
        let escaped = Server.jsonString(file)
        // Insert after the opening brace; the encoder emits "{" first.
        let rest = body.dropFirst()
        return pretty ? "{\n  \"file\" : \(escaped)," + rest : "{\"file\":\(escaped)," + rest
    }

    static func write(_ text: String, to path: String?) throws {
        guard let path else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let handle = try openForWriting(path, append: false)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } catch {
            throw FrameOCRError(.io, "\(path): \(error.localizedDescription)", stage: .write)
        }
    }

    /// `path` opened for writing as a shell's `>` (or, with `append`, `>>`) opens it: created
    /// when missing (mode 0644 less the umask), else truncated or appended to in place — never
    /// replaced by a new file, so `--output /dev/null`, a named pipe or a symbolic link stay
    /// what they are (`open(2)` with `O_CREAT` and `O_TRUNC` or `O_APPEND`).
    /// - Throws: ``FrameOCRError/Code/io`` when it cannot be opened.
    static func openForWriting(_ path: String, append: Bool) throws(FrameOCRError) -> FileHandle {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else {
            throw FrameOCRError(.io, "\(path): \(String(cString: strerror(errno)))", stage: .write)
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}
