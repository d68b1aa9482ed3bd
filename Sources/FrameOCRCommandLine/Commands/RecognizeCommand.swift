import Foundation
import FrameOCR
import FrameOCREvaluation

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
        \(CommonOptions.precisionHelp)
        \(CommonOptions.timeLimitHelp)

        With several images, text output separates them with a "==> IMAGE <==" line, json output
        is an array of objects (each with a "file" key), tsv continues page_num, and hocr writes one
        document per image, one after another.
        """

    /// The options `recognize` takes: with a value, and flags.
    package static let valued = CommonOptions.valued.union([
        "format", "output", "annotate", "from", "jobs", "skip-done", "time-limit", "precision",
    ])
    package static let flags = CommonOptions.flags.union(["help"])

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(raw, valued: valued, flagNames: flags)
        if a.flag("help") {
            print(help)
            return 0
        }
        var files = a.positionals
        if let list = a.value("from") { files += try PathList.read(list) }
        guard !files.isEmpty || a.value("from") != nil else {
            throw UsageError("recognize needs at least one IMAGE (or --from FILE)")
        }
        let annotate = a.value("annotate")
        if annotate != nil, files.count != 1 { throw UsageError("--annotate takes one IMAGE, got \(files.count)") }
        let name = a.value("format") ?? "text"
        guard let format = RecognitionOutput.Format(rawValue: name) else {
            throw UsageError("--format: '\(name)' is not text, json, jsonl, tsv or hocr")
        }
        let jobs = try a.int("jobs") ?? 1
        guard (1...64).contains(jobs) else { throw UsageError("--jobs: \(jobs) not in 1…64") }
        let pipeline = try CommonOptions.pipeline(a)
        let configuration = try CommonOptions.recognizer(a)
        try CommonOptions.configureNeuralRuntime(a, workers: jobs)
        let limits = try CommonOptions.limits(a)
        let timeLimit = try CommonOptions.timeLimit(a)
        // Made once the first image has decoded (a run of refused files never loads a model).
        let recognizer = FirstUse { () throws(FrameOCRError) in
            try Recognizer(configuration: configuration, maxIdleEngines: jobs)
        }
        let pool = PixelBufferPool(capacity: 8 * jobs)
        let output = RecognitionOutput(format: format, language: configuration.languages.joined(separator: "+"))
        if format == .jsonl {
            return try BatchRun(
                recognizer: recognizer, pipeline: pipeline, limits: limits, timeLimit: timeLimit, pool: pool,
                jobs: jobs,
                output: a.value("output"),
                skipDone: a.value("skip-done")
            ).run(files)
        }
        guard a.value("skip-done") == nil else { throw UsageError("--skip-done goes with --format jsonl") }

        let count = files.count
        let rendered = try recognizeAll(files, jobs: jobs) { index, file throws(FrameOCRError) in
            let image = try PixelBuffer(contentsOfFile: file, limits: limits)
            let result = try recognizer.value().recognize(
                image, pipeline: pipeline, timeLimit: timeLimit, pool: pool)
            if let annotate { try writeAnnotated(image, result, to: annotate) }
            return output.piece(result, file: file, index: index, count: count)
        }
        // A recognizer that cannot be made (a language not installed) fails the run (reported
        // after the files, which decoded first; not at all when every file was refused).
        if let error = recognizer.failure { throw error }
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
        try FileOutput.write(output.document(pieces, count: files.count), to: a.value("output"))
        return failures == 0 ? 0 : 1
    }

    /// `body` for every file, `jobs` at a time (the job loop), each file's outcome at its index.
    /// A parameter or region error is the same for every file: it is thrown (a usage error,
    /// exit 2).
    static func recognizeAll(
        _ files: [String], jobs: Int, _ body: @escaping @Sendable (Int, String) throws(FrameOCRError) -> String
    ) throws(FrameOCRError) -> [Result<String, FrameOCRError>] {
        let all = JobLoop.map(files.count, jobs: jobs) { i, _ -> Result<String, FrameOCRError> in
            do throws(FrameOCRError) { return .success(try body(i, files[i])) } catch { return .failure(error) }
        }
        for case .failure(let e) in all where e.code == .invalidParameter || e.code == .invalidROI { throw e }
        return all
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
}
