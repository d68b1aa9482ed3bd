import Foundation
import FrameOCR

/// Recognition quality over a labelled image set: images `X.ext` with ground truth `X.gt.txt`
/// beside them (UTF-8, one line of text per line), scored per image and summed up per folder.
///
/// What ``Evaluation`` measures per image (``Score``):
/// - CER and WER (``TextMetrics``: Levenshtein over characters and over words of the
///   whitespace-normalized texts), meaningful only where the ground truth is in reading order;
/// - bag-of-words recall: the reference words (with multiplicity) that occur in the recognized
///   text, in any order — the figure for ground truth that is not in reading order.
///
/// How a folder is scored is its ``Scoring`` (``Scoring/forFolder(named:)`` knows the folders of
/// FrameOCR's evaluation corpus; the rest are scored in reading order, case-sensitively).
public enum Evaluation {
    /// How recognized text is compared with one folder's ground truth.
    public struct Scoring: Hashable, Sendable, Codable {
        /// The ground truth lists the text in reading order (CER and WER apply). When false the
        /// folder is scored by word recall only. Default true.
        public var readingOrder: Bool
        /// Compare case-insensitively (both texts lower-cased). Default false.
        public var caseInsensitive: Bool
        /// The ground truth has its spaces removed (WildReceipt): a reference word counts as
        /// found when it occurs inside the recognized text with all whitespace removed.
        /// Default false.
        public var spacesRemoved: Bool
        /// The ground truth holds only letters and digits (licence plates: a plate string leaves
        /// out the separators and emblems between a plate's characters, `725·SLV` is `725SLV`): a
        /// reference word counts as found when it occurs inside the recognized text's letters and
        /// digits. Default false.
        public var alphanumericOnly: Bool
        /// A reference word that begins or ends with one of ``edgeSymbols`` also counts as found
        /// when a recognized word is the reference without that first or last character, or
        /// without both (`[06]` by `06`, `NOTHING?` by `NOTHING`; `(06)` is not `[06]`): the
        /// Robust Reading Competition's end-to-end rule for ICDAR 2015 (its `transcription_match`,
        /// which also compares upper-cased: set ``caseInsensitive`` with it). Only with word
        /// recall (``readingOrder`` false). Default false.
        public var edgeSymbolsOptional: Bool

        /// The characters a reference word may lose at either end under ``edgeSymbolsOptional``:
        /// the competition's `SPECIAL_CHARACTERS`.
        public static let edgeSymbols: Set<Character> = [
            "!", "?", ".", ":", ",", "*", "\"", "(", ")", "·", "[", "]", "/", "'",
        ]

        public init(
            readingOrder: Bool = true, caseInsensitive: Bool = false, spacesRemoved: Bool = false,
            alphanumericOnly: Bool = false, edgeSymbolsOptional: Bool = false
        ) {
            self.readingOrder = readingOrder
            self.caseInsensitive = caseInsensitive
            self.spacesRemoved = spacesRemoved
            self.alphanumericOnly = alphanumericOnly
            self.edgeSymbolsOptional = edgeSymbolsOptional
        }

        /// The scoring of a folder of the evaluation corpus (`../shared/data/SOURCES.md`), by the
        /// folder's last path component: `funsd` (ground truth in annotation order), `icdar2015`
        /// (annotation order; matched as the competition's end-to-end task matches words:
        /// case-insensitively, a reference word's first or last special character optional,
        /// ``edgeSymbolsOptional``), `mrz` (ground truth covers only the MRZ lines), `sroie` (annotation order,
        /// transcriptions upper-cased: case-insensitive) and `wildreceipt` (annotation order,
        /// spaces removed) are scored by recall; every other folder in reading order, and
        /// `license-plates` (and its `crops`) on letters and digits only (OpenALPR's plate
        /// strings drop the separators a plate shows).
        public static func forFolder(named path: String) -> Scoring {
            if path.lowercased().split(separator: "/").contains("license-plates") {
                return Scoring(alphanumericOnly: true)
            }
            return switch (path as NSString).lastPathComponent.lowercased() {
            case "funsd", "mrz": Scoring(readingOrder: false)
            case "icdar2015": Scoring(readingOrder: false, caseInsensitive: true, edgeSymbolsOptional: true)
            case "sroie": Scoring(readingOrder: false, caseInsensitive: true)
            case "wildreceipt": Scoring(readingOrder: false, spacesRemoved: true)
            default: Scoring()
            }
        }
    }

    /// One image's figures.
    public struct Score: Hashable, Sendable, Codable {
        /// Character error rate, 0… (may exceed 1); see ``TextMetrics/characterErrorRate(hypothesis:reference:)``.
        public var cer: Double
        /// Word error rate, 0….
        public var wer: Double
        /// Reference words found (with multiplicity) and reference words in all.
        public var wordsFound: Int
        public var referenceWords: Int
        public init(cer: Double, wer: Double, wordsFound: Int, referenceWords: Int) {
            self.cer = cer
            self.wer = wer
            self.wordsFound = wordsFound
            self.referenceWords = referenceWords
        }

        /// `wordsFound / referenceWords` (1 for an empty reference).
        public var recall: Double { referenceWords == 0 ? 1 : Double(wordsFound) / Double(referenceWords) }
    }

    /// Scores `hypothesis` against `reference` under `scoring`.
    public static func score(hypothesis: String, reference: String, scoring: Scoring = Scoring()) -> Score {
        let h = scoring.caseInsensitive ? hypothesis.lowercased() : hypothesis
        let r = scoring.caseInsensitive ? reference.lowercased() : reference
        let words = TextMetrics.normalized(r).split(separator: " ")
        let found =
            scoring.alphanumericOnly
            ? foundInside(words, String(h.unicodeScalars.filter(CharacterSet.alphanumerics.contains)))
            : scoring.spacesRemoved
                ? foundInside(words, h) : foundAsWords(words, h, edgeSymbolsOptional: scoring.edgeSymbolsOptional)
        return Score(
            cer: TextMetrics.characterErrorRate(hypothesis: h, reference: r),
            wer: TextMetrics.wordErrorRate(hypothesis: h, reference: r),
            wordsFound: found, referenceWords: words.count)
    }

    /// Reference words that are words of the hypothesis, each hypothesis word used once; with
    /// `edgeSymbolsOptional`, a reference word also as any of its forms without a first or last
    /// character of ``Scoring/edgeSymbols`` (the word itself tried first).
    private static func foundAsWords(_ reference: [Substring], _ hypothesis: String, edgeSymbolsOptional: Bool = false)
        -> Int
    {
        var bag: [Substring: Int] = [:]
        for w in TextMetrics.normalized(hypothesis).split(separator: " ") { bag[w, default: 0] += 1 }
        var found = 0
        for w in reference {
            let forms = edgeSymbolsOptional ? edgeForms(w) : [w]
            if let form = forms.first(where: { bag[$0, default: 0] > 0 }) {
                bag[form]! -= 1
                found += 1
            }
        }
        return found
    }

    /// `word`, then `word` without its first, without its last, and without both characters,
    /// each only where that character is one of ``Scoring/edgeSymbols`` and something is left.
    private static func edgeForms(_ word: Substring) -> [Substring] {
        let symbols = Scoring.edgeSymbols
        let first = word.first.map(symbols.contains) ?? false
        let last = word.last.map(symbols.contains) ?? false
        var forms = [word]
        if first && word.count > 1 { forms.append(word.dropFirst()) }
        if last && word.count > 1 { forms.append(word.dropLast()) }
        if first && last && word.count > 2 { forms.append(word.dropFirst().dropLast()) }
        return forms
    }

    /// Reference words that occur inside the hypothesis with its whitespace removed, each
    /// stretch of the hypothesis used once (longest reference words are placed first).
    private static func foundInside(_ reference: [Substring], _ hypothesis: String) -> Int {
        var text = Array(hypothesis.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        var found = 0
        for w in reference.sorted(by: { $0.unicodeScalars.count > $1.unicodeScalars.count }) {
            let needle = Array(w.unicodeScalars)
            guard !needle.isEmpty, needle.count <= text.count else { continue }
            for start in 0...(text.count - needle.count) where text[start] == needle[0] {
                if Array(text[start..<(start + needle.count)]) == needle {
                    // A used stretch becomes a separator that no word contains.
                    text.replaceSubrange(start..<(start + needle.count), with: [" "])
                    found += 1
                    break
                }
            }
        }
        return found
    }

    /// One labelled image: the image file, its ground truth file and the folder it is reported
    /// under.
    public struct Sample: Hashable, Sendable, Codable {
        public var image: String
        public var groundTruth: String
        /// The folder's path relative to the parent of the directory that was searched (e.g.
        /// `license-plates/crops` for `data/license-plates` searched recursively).
        public var folder: String
    }

    /// Image extensions that are evaluated.
    public static let imageExtensions: Set<String> = [
        "png", "tif", "tiff", "jpg", "jpeg", "bmp", "pbm", "pgm", "ppm", "pnm", "webp", "gif", "jp2",
    ]

    /// The labelled samples at `path`: ``samples(in:)`` for a directory; for an image file with
    /// its `X.gt.txt` beside it, that one sample, in the folder named by its directory's last
    /// component (`uw3-lines/test/x.png` alone is in folder `test`, in no group, its half by
    /// the hash of its name: a directory scan names it `uw3-lines/test`).
    /// - Throws: ``FrameOCRError/Code/io`` when the path does not exist, a directory cannot be
    ///   read, or a file is not an image with its ground truth beside it.
    public static func samples(at path: String) throws(FrameOCRError) -> [Sample] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FrameOCRError(.io, "\(path): no such file or directory", stage: .load)
        }
        if isDirectory.boolValue { return try samples(in: path) }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let gt = url.deletingPathExtension().path + ".gt.txt"
        guard imageExtensions.contains(url.pathExtension.lowercased()), FileManager.default.fileExists(atPath: gt)
        else {
            throw FrameOCRError(.io, "\(path): not an image with an X.gt.txt beside it", stage: .load)
        }
        return [Sample(image: url.path, groundTruth: gt, folder: url.deletingLastPathComponent().lastPathComponent)]
    }

    /// Every image under `directory` (searched recursively, hidden entries skipped) with an
    /// `X.gt.txt` beside it, sorted by folder and file name. Images that share a base name with
    /// another extension (`a.jpg`, `a.png`) share that ground truth.
    /// - Throws: ``FrameOCRError/Code/io`` when `directory` cannot be read.
    public static func samples(in directory: String) throws(FrameOCRError) -> [Sample] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FrameOCRError(.io, "\(directory): not a directory", stage: .load)
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        let base = root.deletingLastPathComponent().path
        var out: [Sample] = []
        var pending = [root.path]
        while let dir = pending.popLast() {
            guard let names = try? fm.contentsOfDirectory(atPath: dir) else {
                throw FrameOCRError(.io, "\(dir): cannot list the directory", stage: .load)
            }
            for name in names where !name.hasPrefix(".") {
                let path = dir + "/" + name
                var sub: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &sub) else { continue }
                if sub.boolValue {
                    pending.append(path)
                    continue
                }
                guard imageExtensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
                let gt = dir + "/" + (name as NSString).deletingPathExtension + ".gt.txt"
                guard fm.fileExists(atPath: gt) else { continue }
                var folder = String(dir.dropFirst(base.count))
                while folder.hasPrefix("/") { folder.removeFirst() }
                out.append(Sample(image: path, groundTruth: gt, folder: folder))
            }
        }
        return out.sorted { ($0.folder, $0.image) < ($1.folder, $1.image) }
    }

    /// One folder's figures: means over its images, and recall over all its reference words.
    public struct FolderSummary: Hashable, Sendable, Codable {
        public var folder: String
        public var images: Int
        public var scoring: Scoring
        /// Mean and median CER over the images; mean WER.
        public var meanCER: Double
        public var medianCER: Double
        public var meanWER: Double
        /// Reference words found / reference words, over all the folder's images.
        public var wordRecall: Double
        /// Mean seconds per image.
        public var secondsPerImage: Double
    }

    /// Sums up scored images per folder, in the order folders first appear in `rows`.
    /// - Parameter scoring: each folder's scoring, reported with its figures (default
    ///   ``Scoring/forFolder(named:)``; it should be the one the rows were scored with).
    public static func summarize(
        _ rows: [(folder: String, score: Score, seconds: Double)],
        scoring: (String) -> Scoring = Scoring.forFolder(named:)
    ) -> [FolderSummary] {
        var order: [String] = []
        var groups: [String: [(score: Score, seconds: Double)]] = [:]
        for r in rows {
            if groups[r.folder] == nil { order.append(r.folder) }
            groups[r.folder, default: []].append((r.score, r.seconds))
        }
        return order.map { folder in
            let g = groups[folder]!
            let n = Double(g.count)
            let cers = g.map(\.score.cer).sorted()
            let median =
                cers.count % 2 == 1 ? cers[cers.count / 2] : (cers[cers.count / 2 - 1] + cers[cers.count / 2]) / 2
            let found = g.map(\.score.wordsFound).reduce(0, +)
            let total = g.map(\.score.referenceWords).reduce(0, +)
            return FolderSummary(
                folder: folder, images: g.count, scoring: scoring(folder),
                meanCER: cers.reduce(0, +) / n, medianCER: median,
                meanWER: g.map(\.score.wer).reduce(0, +) / n,
                wordRecall: total == 0 ? 1 : Double(found) / Double(total),
                secondsPerImage: g.map(\.seconds).reduce(0, +) / n)
        }
    }

    /// The `tesseract` command, run once per image: the reference that evaluations and
    /// benchmarks compare FrameOCR with.
    public enum TesseractCommand {
        /// The `tesseract` executable on `PATH`, or nil.
        public static func path() -> String? {
            for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
                let p = "\(dir)/tesseract"
                if FileManager.default.isExecutableFile(atPath: p) { return p }
            }
            return nil
        }

        /// Runs `command FILE stdout ARGUMENTS…` with `OMP_THREAD_LIMIT=1` (its fastest setting
        /// on a small machine; with its OpenMP defaults it is several times slower) and returns
        /// what it printed. Its standard error is discarded.
        /// - Throws: ``FrameOCRError/Code/tesseract`` when it cannot start or exits non-zero.
        public static func run(_ command: String, _ file: String, arguments: [String] = []) throws(FrameOCRError)
            -> String
        {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: command)
            p.arguments = [file, "stdout"] + arguments
            var env = ProcessInfo.processInfo.environment
            env["OMP_THREAD_LIMIT"] = "1"
            p.environment = env
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            do { try p.run() } catch {
                throw FrameOCRError(.tesseract, "\(command) could not start: \(error)", stage: .recognition)
            }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            guard p.terminationStatus == 0 else {
                throw FrameOCRError(
                    .tesseract, "\(command) \(file) exited with \(p.terminationStatus)", stage: .recognition)
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
