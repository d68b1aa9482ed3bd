import Foundation

// The rows of a run summed up: per folder, per folder and half, per group.
extension EvaluationRun {
    /// One side's summaries per folder, folders in the order they first appear (nil sides — that
    /// side did not run, or the image failed — are left out).
    package static func summaries(_ rows: [ImageRow], _ pick: (ImageRow) -> Side?) -> [Evaluation.FolderSummary] {
        // Each folder is scored by its images' full directory (`crops` under `license-plates`).
        var scorings: [String: Evaluation.Scoring] = [:]
        for r in rows {
            scorings[r.folder] = Evaluation.Scoring.forFolder(named: (r.file as NSString).deletingLastPathComponent)
        }
        return Evaluation.summarize(
            rows.compactMap { r in pick(r).map { (r.folder, $0.score, $0.seconds) } },
            scoring: { scorings[$0] ?? Evaluation.Scoring.forFolder(named: $0) })
    }

    /// Each folder's summaries per half, folders in the order they first appear, tuning first.
    package static func halfSummaries(_ rows: [ImageRow]) -> [(
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
    package struct GroupHalves: Codable, Sendable {
        package var all: Evaluation.GroupSummary
        package var tuning: Evaluation.GroupSummary?
        package var heldOut: Evaluation.GroupSummary?
    }

    package struct GroupRow: Codable, Sendable {
        package var group: Evaluation.Group
        /// `meanCER` or `wordRecall`: which figure ``Evaluation/GroupSummary/value`` is.
        package var figure: String
        package var frameocr: GroupHalves
        package var tesseract: GroupHalves?
    }

    /// The groups' figures (``Evaluation/summarizeGroups(_:)``) of both sides, all images and per
    /// half.
    package static func groupFigures(_ rows: [ImageRow]) -> [GroupRow] {
        func halves(_ pick: (ImageRow) -> Side?) -> [Evaluation.Group: GroupHalves] {
            func summarize(_ subset: [ImageRow]) -> [Evaluation.Group: Evaluation.GroupSummary] {
                let scored = subset.compactMap { r in pick(r).map { (folder: r.folder, score: $0.score) } }
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
}
