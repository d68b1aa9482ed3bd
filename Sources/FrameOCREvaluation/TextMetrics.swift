import FrameOCR

/// Error rates of recognized text against ground truth.
///
/// Both texts are whitespace-normalized first (runs of spaces, tabs and newlines become one
/// space; leading and trailing whitespace is dropped). CER is the Levenshtein distance over
/// characters (Unicode scalars) divided by the reference length; WER is the same over words.
/// Both are 0 for identical texts and may exceed 1 when the hypothesis is much longer.
public enum TextMetrics {
    /// Whitespace-normalized text (see the type's description).
    public static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Character error rate: edits / reference characters (an empty reference counts as 1
    /// character, so an empty hypothesis scores 0 and any other scores its length).
    public static func characterErrorRate(hypothesis: String, reference: String) -> Double {
        let h = Array(normalized(hypothesis).unicodeScalars)
        let r = Array(normalized(reference).unicodeScalars)
        return Double(levenshtein(h, r)) / Double(max(r.count, 1))
    }

    /// Word error rate: word edits / reference words.
    public static func wordErrorRate(hypothesis: String, reference: String) -> Double {
        let h = normalized(hypothesis).split(separator: " ")
        let r = normalized(reference).split(separator: " ")
        return Double(levenshtein(h, r)) / Double(max(r.count, 1))
    }

    /// Bag-of-words recall: the fraction of reference words (with multiplicity) found in the
    /// hypothesis, for ground truth that is not in reading order.
    public static func wordRecall(hypothesis: String, reference: String) -> Double {
        var bag: [Substring: Int] = [:]
        for w in normalized(hypothesis).split(separator: " ") { bag[w, default: 0] += 1 }
        let ref = normalized(reference).split(separator: " ")
        guard !ref.isEmpty else { return 1 }
        var found = 0
        for w in ref where bag[w, default: 0] > 0 {
            bag[w]! -= 1
            found += 1
        }
        return Double(found) / Double(ref.count)
    }

    /// Edit distance (insertions, deletions, substitutions each cost 1), O(n·m) time, O(m)
    /// memory: the live consensus's own (`TextAlignment.distance`, FrameOCR), so that CER and the
    /// consensus count edits alike.
    public static func levenshtein<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        TextAlignment.distance(a, b)
    }
}
