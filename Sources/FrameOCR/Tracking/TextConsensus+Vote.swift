// The vote of ``TextConsensus`` (steps 2–4 of its comment): the pivot, every kept reading
// aligned to it (``TextAlignment``), and the tally per slot.
extension TextConsensus {
    /// The index of the pivot among the kept readings (see the type's comment).
    func pivot(_ coded: [[Int32]], _ alphabet: inout Alphabet) -> Int {
        let costs = entries.indices.map { i in
            entries.indices.reduce(0.0) { $0 + entries[$1].lineWeight * Double(distances[i][$1]) }
        }
        let least = costs.min()!
        let tied = costs.indices.filter { costs[$0] <= least + Self.tieTolerance }
        guard tied.count > 1 else { return tied[0] }
        let previous = alphabet.codes(of: Array(text))
        var best = tied[0]
        var bestDistance = TextAlignment.distance(coded[best], previous)
        for i in tied.dropFirst() {
            let d = TextAlignment.distance(coded[i], previous)
            if d <= bestDistance {  // `<=`: the newer of equals
                best = i
                bestDistance = d
            }
        }
        return best
    }

    /// Aligns, votes and sets `text`, `confidence`, `agreement` and each entry's agreement;
    /// `coded` holds the kept readings' characters as codes of `alphabet`.
    mutating func recompute(_ coded: [[Int32]], _ alphabet: inout Alphabet) {
        let k = entries.count
        let p = pivot(coded, &alphabet)
        let skeleton = coded[p]
        let n = skeleton.count
        let alignments = coded.indices.map { r in
            distances[p][r] == 0 ? TextAlignment.Alignment.identity(n) : TextAlignment.align(coded[r], to: skeleton)
        }

        // The slots in text order: gap 0's insertion slots, pivot character 0, gap 1's, …, gap n's.
        var slotCount = 0
        var gapStart = [Int](repeating: 0, count: n + 1)
        var longest = [Int](repeating: -1, count: n + 1)  // per gap: the reading with its longest run
        var pivotSlot = [Int](repeating: 0, count: n)
        for g in 0...n {
            gapStart[g] = slotCount
            var length = 0
            for r in 0..<k where alignments[r].inserted[g].count > length {
                longest[g] = r
                length = alignments[r].inserted[g].count
            }
            slotCount += length
            if g < n {
                pivotSlot[g] = slotCount
                slotCount += 1
            }
        }

        // votes[s * k + r]: reading r's vote in slot s (a code; -1: ε) and its weight.
        let nothing: Int32 = -1
        var votes = [Int32](repeating: nothing, count: slotCount * k)
        var weights = [Double](repeating: 0, count: slotCount * k)
        for r in 0..<k {
            let e = entries[r]
            for s in 0..<slotCount { weights[s * k + r] = e.lineWeight }
            for (j, q) in alignments[r].matched.enumerated() {
                guard let q else { continue }
                votes[pivotSlot[j] * k + r] = coded[r][q]
                weights[pivotSlot[j] * k + r] = e.weights[q]
            }
            for g in 0...n where !alignments[r].inserted[g].isEmpty {
                let run = alignments[r].inserted[g]
                let l = longest[g]
                let places = TextAlignment.fit(coded[r][run], onto: coded[l][alignments[l].inserted[g]])
                for (q, place) in zip(run, places) {
                    votes[(gapStart[g] + place) * k + r] = coded[r][q]
                    weights[(gapStart[g] + place) * k + r] = e.weights[q]
                }
            }
        }

        // Tally each slot; the pivot's vote wins ties.
        var winners = [Int32](repeating: nothing, count: slotCount)
        var consensus: [Character] = []
        var confidenceSum = 0.0
        var candidates: [(vote: Int32, weight: Double, confidence: Double, voters: Int)] = []
        for s in 0..<slotCount {
            candidates.removeAll(keepingCapacity: true)
            var total = 0.0
            for r in 0..<k {
                let v = votes[s * k + r]
                let w = weights[s * k + r]
                total += w
                if let c = candidates.firstIndex(where: { $0.vote == v }) {
                    candidates[c].weight += w
                    candidates[c].confidence += entries[r].lineConfidence
                    candidates[c].voters += 1
                } else {
                    candidates.append((v, w, entries[r].lineConfidence, 1))
                }
            }
            var best = candidates.firstIndex { $0.vote == votes[s * k + p] }!
            for c in candidates.indices where candidates[c].weight > candidates[best].weight + Self.tieTolerance {
                best = c
            }
            let winner = candidates[best]
            winners[s] = winner.vote
            if winner.vote != nothing {
                consensus.append(alphabet.symbols[Int(winner.vote)])
                confidenceSum += winner.weight / total * (winner.confidence / Double(winner.voters))
            }
        }

        // Agreement: per reading, then over all.
        var agreeing = 0.0
        var counted = 0.0
        for r in 0..<k {
            var a = 0.0
            var t = 0.0
            for s in 0..<slotCount where votes[s * k + r] != nothing || winners[s] != nothing {
                t += weights[s * k + r]
                if votes[s * k + r] == winners[s] { a += weights[s * k + r] }
            }
            entries[r].agreement = t > 0 ? a / t : 1
            agreeing += a
            counted += t
        }

        text = String(consensus)
        agreement = counted > 0 ? agreeing / counted : 1
        if consensus.isEmpty {
            let empty = entries.filter { $0.characters.isEmpty }
            let all = entries.reduce(0.0) { $0 + $1.lineWeight }
            let share = empty.reduce(0.0) { $0 + $1.lineWeight } / all
            let mean = empty.isEmpty ? 0 : empty.reduce(0.0) { $0 + $1.lineConfidence } / Double(empty.count)
            confidence = Float(share * mean)
        } else {
            confidence = Float(confidenceSum / Double(consensus.count))
        }
    }
}
