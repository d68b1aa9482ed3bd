/// The string algorithms of the consensus (``TextConsensus``): the Levenshtein distance, a
/// reading's alignment to the pivot with traceback, and the fit of an inserted run onto the
/// longest run inserted at the same place. Generic over the element: the consensus runs them on
/// characters coded as small integers, `TextMetrics` (FrameOCREvaluation) on Unicode scalars and
/// words — the one edit distance of FrameOCR.
package enum TextAlignment {
    /// How one reading lies on the pivot.
    struct Alignment: Hashable {
        /// Per pivot element, the index of the reading's element matched or substituted to it;
        /// nil where the reading lacks it.
        var matched: [Int?]
        /// Per gap (0…n: before pivot element 0, …, after the last), the reading's elements
        /// inserted there.
        var inserted: [Range<Int>]

        /// The alignment of a reading equal to the pivot (n elements).
        static func identity(_ n: Int) -> Alignment {
            Alignment(matched: Array(0..<n), inserted: [Range<Int>](repeating: 0..<0, count: n + 1))
        }
    }

    /// The Levenshtein distance between `a` and `b`: the fewest insertions, deletions and
    /// substitutions (each costing 1) that turn one into the other. 0 for equal sequences, the
    /// other's length when one is empty. O(|a|·|b|) time, O(|b|) memory.
    package static func distance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        if a == b { return 0 }
        if a.isEmpty || b.isEmpty { return a.count + b.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            let x = a[i - 1]
            for j in 1...b.count {
                let diagonal = previous[j - 1] + (x == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(diagonal, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Aligns `reading` to `pivot` by Levenshtein distance with traceback from the end; a tie
    /// prefers match/substitution, then deletion (a pivot element the reading lacks), then
    /// insertion. O(n·m) time and memory.
    static func align<T: Equatable>(_ reading: [T], to pivot: [T]) -> Alignment {
        let n = pivot.count
        let m = reading.count
        let width = m + 1
        var d = [Int](repeating: 0, count: (n + 1) * width)
        for j in 0...m { d[j] = j }
        for i in 0...n { d[i * width] = i }
        if n > 0 && m > 0 {
            for i in 1...n {
                let x = pivot[i - 1]
                for j in 1...m {
                    let diagonal = d[(i - 1) * width + j - 1] + (x == reading[j - 1] ? 0 : 1)
                    d[i * width + j] = Swift.min(diagonal, d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1)
                }
            }
        }
        var alignment = Alignment(
            matched: [Int?](repeating: nil, count: n), inserted: [Range<Int>](repeating: 0..<0, count: n + 1))
        var i = n
        var j = m
        while i > 0 || j > 0 {
            let here = d[i * width + j]
            if i > 0 && j > 0 && here == d[(i - 1) * width + j - 1] + (pivot[i - 1] == reading[j - 1] ? 0 : 1) {
                alignment.matched[i - 1] = j - 1
                i -= 1
                j -= 1
            } else if i > 0 && here == d[(i - 1) * width + j] + 1 {
                i -= 1
            } else {
                let run = alignment.inserted[i]
                alignment.inserted[i] = (j - 1)..<(run.isEmpty ? j : run.upperBound)
                j -= 1
            }
        }
        return alignment
    }

    /// Places the elements of `run` on the insertion slots of `longest` (|run| ≤ |longest|) by
    /// the edit distance without insertions: each element is matched or substituted to one
    /// slot, in order; the other slots are skipped. Traced from the end; a tie prefers
    /// match/substitution. Returns the slot of each element. O(|longest|·|run|).
    static func fit<T: Equatable>(_ run: ArraySlice<T>, onto longest: ArraySlice<T>) -> [Int] {
        let run = Array(run)
        let longest = Array(longest)
        let n = longest.count
        let m = run.count
        if m == n || m == 0 { return Array(0..<m) }
        let width = m + 1
        let never = Int.max / 2
        var f = [Int](repeating: never, count: (n + 1) * width)
        for i in 0...n {
            f[i * width] = i
            if i > 0 {
                for j in 1...Swift.min(i, m) {
                    let diagonal = f[(i - 1) * width + j - 1] + (longest[i - 1] == run[j - 1] ? 0 : 1)
                    f[i * width + j] = Swift.min(diagonal, f[(i - 1) * width + j] + 1)
                }
            }
        }
        var slots = [Int](repeating: 0, count: m)
        var i = n
        var j = m
        while j > 0 {
            if f[i * width + j] == f[(i - 1) * width + j - 1] + (longest[i - 1] == run[j - 1] ? 0 : 1) {
                slots[j - 1] = i - 1
                j -= 1
            }
            i -= 1
        }
        return slots
    }
}
