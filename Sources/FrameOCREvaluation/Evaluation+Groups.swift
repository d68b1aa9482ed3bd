import Foundation

extension Evaluation {
    /// The groups of folders FrameOCR's accuracy targets are set on (`docs/accuracy.md`), each
    /// summed up by one figure.
    public enum Group: String, Hashable, Sendable, Codable, CaseIterable {
        /// Clean print in reading order (`tesseract-test`, `uw3-lines`, `pytesseract`,
        /// `tesseract-js`): the mean CER over their images.
        case clean
        /// Receipts and forms (`sroie`, `funsd`, `wildreceipt`): word recall over all their
        /// reference words.
        case documents
        /// Scene words, plate crops, scene photos and passports (`scene-words`,
        /// `license-plates/crops`, `icdar2015`, `mrz`): word recall over all their reference
        /// words. The whole car photos of `license-plates` are in no group.
        case hard
        /// Clean folders under synthetic uneven light (`frameocr eval --light`, folders named
        /// `FOLDER@LIGHT`): the mean CER over their images, to be set beside ``clean``.
        case unevenLight = "uneven-light"

        /// The group of a folder as `frameocr eval` reports it (`uw3-lines/test`,
        /// `license-plates/crops`, `tesseract-test@shadow`), or nil.
        public static func forFolder(named folder: String) -> Group? {
            let halves = folder.split(separator: "@", maxSplits: 1)
            // A robustness variant (`FOLDER@rotate-3`) is in no group: it has its own table.
            if halves.count > 1, SyntheticLight.Kind(rawValue: String(halves[1])) == nil { return nil }
            let relit = halves.count > 1
            let parts = (halves.first ?? "").lowercased().split(separator: "/").map(String.init)
            guard let last = parts.last else { return nil }
            let clean: Set<String> = ["tesseract-test", "uw3-lines", "pytesseract", "tesseract-js"]
            if parts.contains(where: clean.contains) { return relit ? .unevenLight : .clean }
            if relit { return nil }
            if parts.contains("license-plates") { return last == "crops" ? .hard : nil }
            switch last {
            case "sroie", "funsd", "wildreceipt": return .documents
            case "scene-words", "icdar2015", "mrz": return .hard
            default: return nil
            }
        }

        /// Whether the group's figure is a mean CER (lower is better) rather than a word recall.
        public var isScoredByCER: Bool { self == .clean || self == .unevenLight }
    }

    /// One group's figure over some of its images.
    public struct GroupSummary: Hashable, Sendable, Codable {
        public var group: Group
        public var images: Int
        /// Mean CER over the images (the figure of ``Group/clean`` and ``Group/unevenLight``).
        public var meanCER: Double
        /// Reference words found / reference words over all the images (the figure of the other
        /// groups).
        public var wordRecall: Double
        public var referenceWords: Int
        /// The group's figure: ``meanCER`` or ``wordRecall`` (see ``Group/isScoredByCER``).
        public var value: Double { group.isScoredByCER ? meanCER : wordRecall }
    }

    /// Sums up scored images per ``Group``, in the groups' declaration order; folders in no group
    /// are left out, and groups without images are not listed.
    public static func summarizeGroups(_ rows: [(folder: String, score: Score)]) -> [GroupSummary] {
        var byGroup: [Group: [Score]] = [:]
        for r in rows {
            if let g = Group.forFolder(named: r.folder) { byGroup[g, default: []].append(r.score) }
        }
        return Group.allCases.compactMap { g in
            guard let scores = byGroup[g], !scores.isEmpty else { return nil }
            let found = scores.map(\.wordsFound).reduce(0, +)
            let total = scores.map(\.referenceWords).reduce(0, +)
            return GroupSummary(
                group: g, images: scores.count, meanCER: scores.map(\.cer).reduce(0, +) / Double(scores.count),
                wordRecall: total == 0 ? 1 : Double(found) / Double(total), referenceWords: total)
        }
    }
}
