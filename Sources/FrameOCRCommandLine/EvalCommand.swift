import Foundation
import FrameOCR
import FrameOCREvaluation
import Synchronization

/// `frameocr eval`: recognition quality over labelled folders, optionally side by side with the
/// `tesseract` command.
enum EvalCommand {
    static let help = """
        Usage: frameocr eval DIR… [options]

        Recognizes every image under each DIR (searched recursively) that has an X.gt.txt
        beside it and scores it against that ground truth: CER and WER (Levenshtein over
        characters and words of the whitespace-normalized texts), bag-of-words recall (reference
        words found in any order) and seconds per image. Reported per image and per folder.
        Folders whose ground truth is not in reading order (funsd, icdar2015, mrz, sroie,
        wildreceipt) are scored by recall; sroie case-insensitively, wildreceipt with spaces
        removed.

        Output:
          --format F                table (default) | json | csv (one row per image)
          --output FILE             write to FILE instead of standard output
          --compare-tesseract       also run the `tesseract` command (its defaults: PSM 3,
                                    with OMP_THREAD_LIMIT=1) on the same images, side by side
          --jobs N                  images recognized at once (default: active processors)

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)

        Exit status: 0 when every image was recognized, 1 when one failed (it is reported and
        left out of the figures), 2 bad usage or no labelled image found.
        """

    /// One side's figures for one image.
    struct Side: Codable {
        var cer: Double
        var wer: Double
        var recall: Double
        var wordsFound: Int
        var referenceWords: Int
        var seconds: Double
        var text: String
        /// What automatic preprocessing decided (frameocr only).
        var preprocessing: [String]?
    }

    struct ImageRow: Codable {
        var file: String
        var folder: String
        var frameocr: Side?
        var tesseract: Side?
        var error: String?
    }

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(
            raw, valued: CommonOptions.valued.union(["format", "output", "jobs"]),
            flagNames: CommonOptions.flags.union(["help", "compare-tesseract"]))
        if a.flag("help") {
            print(help)
            return 0
        }
        guard !a.positionals.isEmpty else { throw UsageError("eval needs at least one DIR") }
        let format = a.value("format") ?? "table"
        guard ["table", "json", "csv"].contains(format) else {
            throw UsageError("--format: '\(format)' is not table, json or csv")
        }
        let jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw UsageError("--jobs: must be ≥ 1") }
        let pipeline = try CommonOptions.pipeline(a)
        let limits = try CommonOptions.limits(a)
        let configuration = try CommonOptions.recognizer(a)
        var found: [Evaluation.Sample] = []
        for dir in a.positionals { found += try Evaluation.samples(in: dir) }
        let samples = found
        guard !samples.isEmpty else {
            throw UsageError("no image with an X.gt.txt beside it under \(a.positionals.joined(separator: ", "))")
        }
        let command = a.flag("compare-tesseract") ? Evaluation.TesseractCommand.path() : nil
        if a.flag("compare-tesseract") {
            guard command != nil else {
                throw FrameOCRError(.tesseract, "the tesseract command is not on PATH", stage: .recognition)
            }
        }

        let recognizer = try Recognizer(configuration: configuration, maxIdleEngines: jobs)
        try recognizer.prepareEngines(jobs)
        let rows = Mutex([ImageRow?](repeating: nil, count: samples.count))
        let next = Atomic<Int>(0)
        let languages = configuration.languages.joined(separator: "+")
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            let pool = PixelBufferPool(capacity: 4)
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < samples.count else { return }
                let s = samples[i]
                var row = ImageRow(file: s.image, folder: s.folder)
                let scoring = Evaluation.Scoring.forFolder(named: (s.image as NSString).deletingLastPathComponent)
                do {
                    let reference = try String(contentsOfFile: s.groundTruth, encoding: .utf8)
                    let clock = ContinuousClock()
                    let start = clock.now
                    let image = try PixelBuffer(contentsOfFile: s.image, limits: limits)
                    let result = try recognizer.recognize(image, pipeline: pipeline, pool: pool)
                    row.frameocr = side(
                        result.text, reference, scoring, seconds: (clock.now - start).milliseconds / 1000)
                    row.frameocr?.preprocessing = result.preprocessing?.reasons
                    if let command {
                        let t0 = clock.now
                        let theirs = try Evaluation.TesseractCommand.run(
                            command, s.image, arguments: ["-l", languages])
                        row.tesseract = side(theirs, reference, scoring, seconds: (clock.now - t0).milliseconds / 1000)
                    }
                } catch {
                    row.error = "\(error)"
                }
                rows.withLock { $0[i] = row }
            }
        }
        let all = rows.withLock { $0.compactMap { $0 } }
        for r in all where r.error != nil { printError("frameocr: \(r.file): \(r.error!)") }
        let output: String
        switch format {
        case "json": output = json(all)
        case "csv": output = csv(all)
        default: output = table(all)
        }
        try RecognizeCommand.write(output, to: a.value("output"))
        return all.contains { $0.error != nil } ? 1 : 0
    }

    static func side(_ text: String, _ reference: String, _ scoring: Evaluation.Scoring, seconds: Double) -> Side {
        let s = Evaluation.score(hypothesis: text, reference: reference, scoring: scoring)
        return Side(
            cer: s.cer, wer: s.wer, recall: s.recall, wordsFound: s.wordsFound, referenceWords: s.referenceWords,
            seconds: seconds, text: text)
    }

    /// Per-folder summaries of one side (nil: that side did not run).
    static func summaries(_ rows: [ImageRow], _ pick: (ImageRow) -> Side?) -> [Evaluation.FolderSummary] {
        // Each folder is scored by its images' full directory (`crops` under `license-plates`).
        var scorings: [String: Evaluation.Scoring] = [:]
        for r in rows {
            scorings[r.folder] = Evaluation.Scoring.forFolder(named: (r.file as NSString).deletingLastPathComponent)
        }
        return Evaluation.summarize(
            rows.compactMap { r in
                pick(r).map { s in
                    (
                        r.folder,
                        Evaluation.Score(
                            cer: s.cer, wer: s.wer, wordsFound: s.wordsFound, referenceWords: s.referenceWords),
                        s.seconds
                    )
                }
            }, scoring: { scorings[$0] ?? Evaluation.Scoring.forFolder(named: $0) })
    }

    // MARK: - Output

    static func f3(_ x: Double) -> String { String(format: "%.3f", x) }

    static func table(_ rows: [ImageRow]) -> String {
        let compare = rows.contains { $0.tesseract != nil }
        var out = "Per image" + (compare ? " (frameocr | tesseract command)" : "") + "\n"
        let header =
            compare
            ? ["folder", "image", "CER", "CER tess", "WER", "WER tess", "recall", "recall tess", "s", "s tess"]
            : ["folder", "image", "CER", "WER", "recall", "s"]
        var lines: [[String]] = []
        for r in rows {
            let name = (r.file as NSString).lastPathComponent
            guard let o = r.frameocr else {
                lines.append([r.folder, name, "error"])
                continue
            }
            if compare, let t = r.tesseract {
                lines.append([
                    r.folder, name, f3(o.cer), f3(t.cer), f3(o.wer), f3(t.wer), f3(o.recall), f3(t.recall),
                    f3(o.seconds), f3(t.seconds),
                ])
            } else {
                lines.append([r.folder, name, f3(o.cer), f3(o.wer), f3(o.recall), f3(o.seconds)])
            }
        }
        out += render([header] + lines)
        let ours = summaries(rows) { $0.frameocr }
        let theirs = Dictionary(uniqueKeysWithValues: summaries(rows) { $0.tesseract }.map { ($0.folder, $0) })
        out +=
            "\nPer folder (CER/WER are means over images; recall is over all reference words; "
            + "folders scored by recall show CER in brackets)\n"
        let fh =
            compare
            ? [
                "folder", "images", "scored by", "CER", "CER tess", "WER", "WER tess", "recall", "recall tess", "s/img",
                "s/img tess",
            ]
            : ["folder", "images", "scored by", "CER", "WER", "recall", "s/img"]
        var flines: [[String]] = []
        for o in ours {
            let by = o.scoring.readingOrder ? "CER" : "recall"
            func cer(_ s: Evaluation.FolderSummary) -> String {
                s.scoring.readingOrder ? f3(s.meanCER) : "(\(f3(s.meanCER)))"
            }
            func wer(_ s: Evaluation.FolderSummary) -> String {
                s.scoring.readingOrder ? f3(s.meanWER) : "(\(f3(s.meanWER)))"
            }
            if compare, let t = theirs[o.folder] {
                flines.append([
                    o.folder, "\(o.images)", by, cer(o), cer(t), wer(o), wer(t), f3(o.wordRecall), f3(t.wordRecall),
                    f3(o.secondsPerImage), f3(t.secondsPerImage),
                ])
            } else {
                flines.append([o.folder, "\(o.images)", by, cer(o), wer(o), f3(o.wordRecall), f3(o.secondsPerImage)])
            }
        }
        out += render([fh] + flines)
        return out
    }

    /// Columns padded to their widest cell, a rule under the header.
    static func render(_ rows: [[String]]) -> String {
        let widths = (0..<(rows.map(\.count).max() ?? 0)).map { c in
            rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0
        }
        var out = ""
        for (i, r) in rows.enumerated() {
            out +=
                r.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
            if i == 0 { out += String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)) + "\n" }
        }
        return out
    }

    static func json(_ rows: [ImageRow]) -> String {
        struct FolderRow: Codable {
            var folder: String
            var images: Int
            var scoredBy: String
            var frameocr: Evaluation.FolderSummary
            var tesseract: Evaluation.FolderSummary?
        }
        struct Report: Codable {
            var images: [ImageRow]
            var folders: [FolderRow]
        }
        let theirs = Dictionary(uniqueKeysWithValues: summaries(rows) { $0.tesseract }.map { ($0.folder, $0) })
        let folders = summaries(rows) { $0.frameocr }.map {
            FolderRow(
                folder: $0.folder, images: $0.images, scoredBy: $0.scoring.readingOrder ? "cer" : "recall",
                frameocr: $0, tesseract: theirs[$0.folder])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Report(images: rows, folders: folders))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func csv(_ rows: [ImageRow]) -> String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var out = "folder,file,side,cer,wer,recall,words_found,reference_words,seconds,error\n"
        for r in rows {
            if let e = r.error {
                out += "\(q(r.folder)),\(q(r.file)),frameocr,,,,,,,\(q(e))\n"
                continue
            }
            for (name, s) in [("frameocr", r.frameocr), ("tesseract", r.tesseract)] {
                guard let s else { continue }
                out +=
                    "\(q(r.folder)),\(q(r.file)),\(name),\(f3(s.cer)),\(f3(s.wer)),\(f3(s.recall)),\(s.wordsFound),"
                    + "\(s.referenceWords),\(String(format: "%.4f", s.seconds)),\n"
            }
        }
        return out
    }
}
