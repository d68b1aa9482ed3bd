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

        Every image is in a tuning half or a held-out half, fixed in a list (FrameOCR's own list
        of ../shared/data by default; images it does not hold go by a hash of their file name),
        and every folder and group is reported for both halves: choose thresholds on the tuning
        half, check them on the held-out half. Groups: clean (mean CER), documents and hard (word
        recall), uneven-light (mean CER of the relit clean folders).

        Output:
          --format F                table (default) | json | csv (one row per image)
          --output FILE             write to FILE instead of standard output
          --compare-tesseract       also run the `tesseract` command (its defaults: PSM 3,
                                    with OMP_THREAD_LIMIT=1) on the same images, side by side
          --jobs N                  images recognized at once (default: active processors)
          --split FILE              the halves: lines HALF<TAB>PATH, HALF tuning or held-out,
                                    PATH relative to the corpus root (default: FrameOCR's list)
          --light KINDS             also read every image under synthetic uneven light, each
                                    kind reported as FOLDER@KIND: gradient, vignette, shadow
                                    (comma-separated) or all; brightness 0.3…1 (the pages'
                                    gray multiplied by the field)
          --light-noise SIGMA       with --light: Gaussian sensor noise of SIGMA gray levels
                                    added to the relit pages (default 0)

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
        /// The folder it is reported under; `FOLDER@KIND` when read under a synthetic light.
        var folder: String
        /// `tuning` or `held-out`.
        var half: Evaluation.Half
        /// The synthetic light it was read under (nil: as stored).
        var light: SyntheticLight.Kind?
        var frameocr: Side?
        var tesseract: Side?
        var error: String?
    }

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(
            raw, valued: CommonOptions.valued.union(["format", "output", "jobs", "split", "light", "light-noise"]),
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
        let split =
            try a.value("split").map { path throws(FrameOCRError) in try Evaluation.Split(contentsOfFile: path) }
            ?? .corpus
        let lights = try self.lights(a.value("light"))
        let noise = try a.double("light-noise") ?? 0
        guard noise >= 0 && noise <= 64 else { throw UsageError("--light-noise: must be in 0…64 gray levels") }
        var found: [Evaluation.Sample] = []
        for dir in a.positionals { found += try Evaluation.samples(in: dir) }
        // Each image as stored, then under each light (its own folder, FOLDER@KIND).
        let jobsList: [(sample: Evaluation.Sample, light: SyntheticLight.Kind?)] =
            found.map { ($0, nil) } + lights.flatMap { l in found.map { ($0, l) } }
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
        let rows = Mutex([ImageRow?](repeating: nil, count: jobsList.count))
        let next = Atomic<Int>(0)
        let languages = configuration.languages.joined(separator: "+")
        let scratch = lights.isEmpty || command == nil ? nil : try temporaryDirectory()
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            let pool = PixelBufferPool(capacity: 4)
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < jobsList.count else { return }
                let (s, light) = jobsList[i]
                var row = ImageRow(
                    file: s.image, folder: s.folder + (light.map { "@" + $0.rawValue } ?? ""),
                    half: split.half(of: s).half, light: light)
                let scoring = Evaluation.Scoring.forFolder(named: (s.image as NSString).deletingLastPathComponent)
                do {
                    let reference = try String(contentsOfFile: s.groundTruth, encoding: .utf8)
                    let clock = ContinuousClock()
                    var image = try PixelBuffer(contentsOfFile: s.image, limits: limits)
                    // The light is laid on before the clock starts: it is not FrameOCR's work.
                    if let light { image = try SyntheticLight(light, noise: noise).apply(to: image) }
                    let start = clock.now
                    let result = try recognizer.recognize(image, pipeline: pipeline, pool: pool)
                    row.frameocr = side(
                        result.text, reference, scoring, seconds: (clock.now - start).milliseconds / 1000)
                    row.frameocr?.preprocessing = result.preprocessing?.reasons
                    if let command {
                        // The command reads a file: the relit page is written as PNG first.
                        var file = s.image
                        if let scratch, light != nil {
                            file = scratch + "/\(i).png"
                            try image.write(toFile: file)
                        }
                        defer { if file != s.image { try? FileManager.default.removeItem(atPath: file) } }
                        let t0 = clock.now
                        let theirs = try Evaluation.TesseractCommand.run(command, file, arguments: ["-l", languages])
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

    /// The kinds of `--light` (nil: none).
    static func lights(_ value: String?) throws(UsageError) -> [SyntheticLight.Kind] {
        guard let value else { return [] }
        if value == "all" { return SyntheticLight.Kind.allCases }
        var kinds: [SyntheticLight.Kind] = []
        for name in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let k = SyntheticLight.Kind(rawValue: trimmed) else {
                throw UsageError("--light: '\(trimmed)' is not gradient, vignette, shadow or all")
            }
            if !kinds.contains(k) { kinds.append(k) }
        }
        return kinds
    }

    /// A new private folder for the relit pages the `tesseract` command reads.
    static func temporaryDirectory() throws(FrameOCRError) -> String {
        let path = NSTemporaryDirectory() + "frameocr-eval-\(UUID().uuidString)"
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw FrameOCRError(.io, "\(path): cannot create: \(error)", stage: .load)
        }
        return path
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
        out += "\nPer folder and half (tuning: where thresholds are chosen; held-out: where they are checked)\n"
        out += render(halvesTable(rows, compare: compare))
        let groups = groupFigures(rows)
        if !groups.isEmpty {
            out += "\nGroups (clean and uneven-light: mean CER; documents and hard: word recall)\n"
            var glines: [[String]] = [
                ["group", "images", "all", "tuning", "held-out"]
                    + (compare ? ["all tess", "tuning tess", "held-out tess"] : [])
            ]
            for g in groups {
                var line = [g.group.rawValue, "\(g.frameocr.all.images)", f3(g.frameocr.all.value)]
                line += [g.frameocr.tuning, g.frameocr.heldOut].map { $0.map { f3($0.value) } ?? "-" }
                if compare, let t = g.tesseract {
                    line += [t.all, t.tuning, t.heldOut].map { $0.map { f3($0.value) } ?? "-" }
                }
                glines.append(line)
            }
            out += render(glines)
        }
        return out
    }

    /// The rows of the per-folder-and-half table: each folder's tuning and held-out figures.
    static func halvesTable(_ rows: [ImageRow], compare: Bool) -> [[String]] {
        var lines: [[String]] = [
            ["folder", "half", "images", "CER", "recall"] + (compare ? ["CER tess", "recall tess"] : [])
        ]
        for (half, ours, theirs) in halfSummaries(rows) {
            func cer(_ s: Evaluation.FolderSummary) -> String {
                s.scoring.readingOrder ? f3(s.meanCER) : "(\(f3(s.meanCER)))"
            }
            var line = [ours.folder, half.rawValue, "\(ours.images)", cer(ours), f3(ours.wordRecall)]
            if compare, let t = theirs { line += [cer(t), f3(t.wordRecall)] }
            lines.append(line)
        }
        return lines
    }

    /// Each folder's summaries per half, folders in the order they first appear, tuning first.
    static func halfSummaries(_ rows: [ImageRow]) -> [(
        half: Evaluation.Half, frameocr: Evaluation.FolderSummary, tesseract: Evaluation.FolderSummary?
    )] {
        var out: [(Evaluation.Half, Evaluation.FolderSummary, Evaluation.FolderSummary?)] = []
        let order = summaries(rows) { $0.frameocr }.map(\.folder)
        for half in Evaluation.Half.allCases {
            let these = rows.filter { $0.half == half }
            let ours = Dictionary(uniqueKeysWithValues: summaries(these) { $0.frameocr }.map { ($0.folder, $0) })
            let theirs = Dictionary(uniqueKeysWithValues: summaries(these) { $0.tesseract }.map { ($0.folder, $0) })
            for folder in order { if let o = ours[folder] { out.append((half, o, theirs[folder])) } }
        }
        return out.sorted { a, b in
            let (ia, ib) = (order.firstIndex(of: a.1.folder)!, order.firstIndex(of: b.1.folder)!)
            return ia != ib ? ia < ib : a.0 == .tuning && b.0 == .heldOut
        }
    }

    /// A group's figure over all its images and over each half (nil: no image in that half).
    struct GroupHalves: Codable {
        var all: Evaluation.GroupSummary
        var tuning: Evaluation.GroupSummary?
        var heldOut: Evaluation.GroupSummary?
    }

    struct GroupRow: Codable {
        var group: Evaluation.Group
        /// `meanCER` or `wordRecall`: which figure ``Evaluation/GroupSummary/value`` is.
        var figure: String
        var frameocr: GroupHalves
        var tesseract: GroupHalves?
    }

    /// The groups' figures (`Evaluation.summarizeGroups`) of both sides, all images and per half.
    static func groupFigures(_ rows: [ImageRow]) -> [GroupRow] {
        func halves(_ pick: (ImageRow) -> Side?) -> [Evaluation.Group: GroupHalves] {
            func summarize(_ subset: [ImageRow]) -> [Evaluation.Group: Evaluation.GroupSummary] {
                let scored = subset.compactMap { r in
                    pick(r).map {
                        (
                            folder: r.folder,
                            score: Evaluation.Score(
                                cer: $0.cer, wer: $0.wer, wordsFound: $0.wordsFound, referenceWords: $0.referenceWords)
                        )
                    }
                }
                return Dictionary(uniqueKeysWithValues: Evaluation.summarizeGroups(scored).map { ($0.group, $0) })
            }
            let all = summarize(rows)
            let tuning = summarize(rows.filter { $0.half == .tuning })
            let heldOut = summarize(rows.filter { $0.half == .heldOut })
            return all.mapValues { GroupHalves(all: $0, tuning: tuning[$0.group], heldOut: heldOut[$0.group]) }
        }
        let ours = halves { $0.frameocr }
        let theirs = halves { $0.tesseract }
        return Evaluation.Group.allCases.compactMap { g in
            ours[g].map {
                GroupRow(
                    group: g, figure: g.isScoredByCER ? "meanCER" : "wordRecall", frameocr: $0, tesseract: theirs[g])
            }
        }
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
        struct HalfRow: Codable {
            var half: Evaluation.Half
            var frameocr: Evaluation.FolderSummary
            var tesseract: Evaluation.FolderSummary?
        }
        struct FolderRow: Codable {
            var folder: String
            var images: Int
            var scoredBy: String
            var frameocr: Evaluation.FolderSummary
            var tesseract: Evaluation.FolderSummary?
            var halves: [HalfRow]
        }
        struct Report: Codable {
            var images: [ImageRow]
            var folders: [FolderRow]
            var groups: [GroupRow]
        }
        let theirs = Dictionary(uniqueKeysWithValues: summaries(rows) { $0.tesseract }.map { ($0.folder, $0) })
        let byHalf = halfSummaries(rows)
        let folders = summaries(rows) { $0.frameocr }.map { o in
            FolderRow(
                folder: o.folder, images: o.images, scoredBy: o.scoring.readingOrder ? "cer" : "recall",
                frameocr: o, tesseract: theirs[o.folder],
                halves: byHalf.filter { $0.frameocr.folder == o.folder }.map {
                    HalfRow(half: $0.half, frameocr: $0.frameocr, tesseract: $0.tesseract)
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Report(images: rows, folders: folders, groups: groupFigures(rows)))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func csv(_ rows: [ImageRow]) -> String {
        func q(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var out = "folder,file,half,side,cer,wer,recall,words_found,reference_words,seconds,error\n"
        for r in rows {
            let lead = "\(q(r.folder)),\(q(r.file)),\(r.half.rawValue)"
            if let e = r.error {
                out += "\(lead),frameocr,,,,,,,\(q(e))\n"
                continue
            }
            for (name, s) in [("frameocr", r.frameocr), ("tesseract", r.tesseract)] {
                guard let s else { continue }
                out +=
                    "\(lead),\(name),\(f3(s.cer)),\(f3(s.wer)),\(f3(s.recall)),\(s.wordsFound),"
                    + "\(s.referenceWords),\(String(format: "%.4f", s.seconds)),\n"
            }
        }
        return out
    }
}
