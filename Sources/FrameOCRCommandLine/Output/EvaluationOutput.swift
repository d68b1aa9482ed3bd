import Foundation
import FrameOCR
import FrameOCREvaluation

/// `frameocr eval`'s reports of an ``EvaluationRun``'s rows: a table for people (per image, per
/// folder, per folder and half, per group), JSON and CSV.
enum EvaluationOutput {
    typealias Row = EvaluationRun.ImageRow

    enum Format: String {
        /// Per image, per folder, per folder and half, per group, for people.
        case table
        /// Images, folders (with their halves) and groups.
        case json
        /// One row per image and side.
        case csv
    }

    /// `rows` in `format`.
    static func render(_ rows: [Row], as format: Format) -> String {
        switch format {
        case .table: table(rows)
        case .json: json(rows)
        case .csv: csv(rows)
        }
    }

    static func f3(_ x: Double) -> String { String(format: "%.3f", x) }

    static func table(_ rows: [Row]) -> String {
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
        let ours = EvaluationRun.summaries(rows) { $0.frameocr }
        let theirs = Dictionary(
            uniqueKeysWithValues: EvaluationRun.summaries(rows) { $0.tesseract }.map { ($0.folder, $0) })
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
        let groups = EvaluationRun.groupFigures(rows)
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
        let robust = EvaluationRun.robustFigures(rows)
        if !robust.isEmpty {
            out +=
                "\nRobustness variants (mean CER over pages scored in reading order; noise: standard deviation "
                + "over seeds; Δ: against the same pages as stored)\n"
            let stored = robust.first { $0.variant == "as-stored" }?.meanCER
            var rlines: [[String]] = [
                ["variant", "images", "seeds", "CER", "tuning", "held-out", "noise", "Δ", "recall"]
            ]
            for r in robust {
                let delta = r.meanCER.flatMap { m in stored.map { String(format: "%+.3f", m - $0) } } ?? "-"
                rlines.append(
                    [r.variant, "\(r.images)", "\(r.seeds)"]
                        + [r.meanCER, r.tuning, r.heldOut].map { $0.map(f3) ?? "-" }
                        + [f3(r.noise), delta, f3(r.wordRecall)])
            }
            out += render(rlines)
        }
        return out
    }

    /// The robustness gate's verdict for people: one line per figure, then the outcome.
    static func gateReport(_ checks: [EvaluationRun.RobustCheck], baseline: String) -> String {
        guard !checks.isEmpty else { return "robustness gate: FAILED: \(baseline) holds no figure" }
        var lines = checks.map { c in
            "  \(c.variant): \(c.figure) \(c.current.map(f3) ?? "-") "
                + String(format: "(baseline %.3f, tolerance %.3f) ", c.baseline, c.tolerance)
                + (c.failure.map { "FAILED: " + $0 } ?? "ok")
        }
        let failed = checks.filter { $0.failure != nil }.count
        lines.insert(
            "robustness gate against \(baseline): "
                + (failed == 0 ? "passed" : "FAILED (\(failed) of \(checks.count))"), at: 0)
        return lines.joined(separator: "\n")
    }

    /// The rows of the per-folder-and-half table: each folder's tuning and held-out figures.
    static func halvesTable(_ rows: [Row], compare: Bool) -> [[String]] {
        var lines: [[String]] = [
            ["folder", "half", "images", "CER", "recall"] + (compare ? ["CER tess", "recall tess"] : [])
        ]
        for (half, ours, theirs) in EvaluationRun.halfSummaries(rows) {
            func cer(_ s: Evaluation.FolderSummary) -> String {
                s.scoring.readingOrder ? f3(s.meanCER) : "(\(f3(s.meanCER)))"
            }
            var line = [ours.folder, half.rawValue, "\(ours.images)", cer(ours), f3(ours.wordRecall)]
            if compare, let t = theirs { line += [cer(t), f3(t.wordRecall)] }
            lines.append(line)
        }
        return lines
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

    static func json(_ rows: [Row]) -> String {
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
            var images: [Row]
            var folders: [FolderRow]
            var groups: [EvaluationRun.GroupRow]
            /// The robustness suite's figures (empty without `--robust`).
            var robust: [EvaluationRun.RobustFigure]
        }
        let theirs = Dictionary(
            uniqueKeysWithValues: EvaluationRun.summaries(rows) { $0.tesseract }.map { ($0.folder, $0) })
        let byHalf = EvaluationRun.halfSummaries(rows)
        let folders = EvaluationRun.summaries(rows) { $0.frameocr }.map { o in
            FolderRow(
                folder: o.folder, images: o.images, scoredBy: o.scoring.readingOrder ? "cer" : "recall",
                frameocr: o, tesseract: theirs[o.folder],
                halves: byHalf.filter { $0.frameocr.folder == o.folder }.map {
                    HalfRow(half: $0.half, frameocr: $0.frameocr, tesseract: $0.tesseract)
                })
        }
        let report = Report(
            images: rows, folders: folders, groups: EvaluationRun.groupFigures(rows),
            robust: EvaluationRun.robustFigures(rows))
        return JSONOutput.encode(report, pretty: true) + "\n"
    }

    static func csv(_ rows: [Row]) -> String {
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
