extension ResultBuilder {
    /// What ``merge(_:with:margin:addedConfidence:overlap:score:)`` did.
    struct MergeCount: Hashable {
        /// Words of the page replaced, and the other reading's words put in their place.
        var replaced = 0
        var replacing = 0
        /// Words of the other reading added where the page had none.
        var added = 0
    }

    /// Merges two readings of the same preprocessed image word by word, by their boxes and
    /// confidences.
    ///
    /// Words whose boxes (upright-frame pixels) overlap by more than `overlap` of the smaller
    /// box are grouped, transitively, across the two readings: one group is a stretch of text
    /// both readings saw, split into words their own way. In a group, the `other` reading's
    /// words replace the page's when their mean confidence is higher by more than `margin`
    /// (0…1; a missing confidence counts as 0); they go where the page's first word of the group
    /// was, in left-to-right order. A group with only `other` words (text the page's reading
    /// missed) is added when every word is at least `addedConfidence` confident: into the page's
    /// line that its centre lies in vertically (the nearest one horizontally when several do),
    /// in left-to-right order, or as a block of its own (boxed by the other reading's line)
    /// before the first block that starts below it. Lines, blocks and texts are then rebuilt (``finish(_:status:transform:)``); the page's
    /// lines keep their boxes.
    ///
    /// - Parameters:
    ///   - page: the page's reading, kept wherever it is not clearly worse.
    ///   - other: the second reading, in the same upright-frame pixels.
    ///   - score: what a word's confidence is taken to be in the comparisons (default: the
    ///     engine's confidence, 0 when missing); ``agreementScore(_:weight:)`` adds the other
    ///     readings' agreement to it.
    /// - Returns: the merged blocks and the counts.
    static func merge(
        _ page: [TextBlock], with other: [TextBlock], margin: Float, addedConfidence: Float,
        overlap: Double = 0.3,
        score: (TextWord) -> Float = { $0.confidence ?? 0 }
    ) -> (blocks: [TextBlock], count: MergeCount) {
        struct Position {
            var block: Int
            var line: Int
            var word: Int
        }
        var pagePositions: [Position] = []
        var pageWords: [TextWord] = []
        for b in page.indices {
            for l in page[b].lines.indices {
                for w in page[b].lines[l].words.indices where !page[b].lines[l].words[w].text.isEmpty {
                    pagePositions.append(Position(block: b, line: l, word: w))
                    pageWords.append(page[b].lines[l].words[w])
                }
            }
        }
        var otherWords: [TextWord] = []
        var otherLineBoxes: [TextBox] = []  // the other reading's line box of each of its words
        for line in other.flatMap(\.lines) {
            for w in line.words where !w.text.isEmpty {
                otherWords.append(w)
                otherLineBoxes.append(line.box)
            }
        }
        let n = pageWords.count
        // Union-find over page words (0..<n) and other words (n...).
        var parent = Array(0..<(n + otherWords.count))
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for (j, o) in otherWords.enumerated() {
            let r = o.box.rect
            for (i, p) in pageWords.enumerated() where p.box.rect.overlapFraction(with: r) > overlap {
                parent[root(i)] = root(n + j)
            }
        }
        var groups: [Int: (page: [Int], other: [Int])] = [:]
        for i in 0..<n { groups[root(i), default: ([], [])].page.append(i) }
        for j in otherWords.indices { groups[root(n + j), default: ([], [])].other.append(j) }

        func meanConfidence(_ words: [TextWord]) -> Float {
            words.isEmpty ? 0 : words.map(score).reduce(0, +) / Float(words.count)
        }
        func leftToRight(_ js: [Int]) -> [TextWord] {
            js.map { otherWords[$0] }.sorted { ($0.box.rect.x, $0.box.rect.y) < ($1.box.rect.x, $1.box.rect.y) }
        }
        var count = MergeCount()
        // For each page word: nil keeps it; [] drops it; words replace it.
        var replacement = [[TextWord]?](repeating: nil, count: n)
        var additions: [(words: [TextWord], lineBox: TextBox)] = []
        for group in groups.values {
            let theirs = group.other.map { otherWords[$0] }
            if group.page.isEmpty {
                if theirs.allSatisfy({ score($0) >= addedConfidence }) {
                    additions.append((leftToRight(group.other), otherLineBoxes[group.other.min()!]))
                    count.added += theirs.count
                }
                continue
            }
            guard !theirs.isEmpty, meanConfidence(theirs) > meanConfidence(group.page.map { pageWords[$0] }) + margin
            else { continue }
            let first = group.page.min()!
            for i in group.page { replacement[i] = [] }
            replacement[first] = leftToRight(group.other)
            count.replaced += group.page.count
            count.replacing += theirs.count
        }
        var blocks = page
        // Rebuild each line's words from the back so that earlier indices stay valid.
        for (i, p) in pagePositions.enumerated().reversed() {
            if let words = replacement[i] {
                blocks[p.block].lines[p.line].words.replaceSubrange(p.word...p.word, with: words)
            }
        }
        for (words, lineBox) in additions.sorted(by: { $0.words[0].box.rect.y < $1.words[0].box.rect.y }) {
            let box = Rect(bounding: words.flatMap { $0.box.quad.points })
            let cy = box.y + box.height / 2
            var target: (block: Int, line: Int, gap: Double)?
            for b in blocks.indices {
                for l in blocks[b].lines.indices {
                    let r = blocks[b].lines[l].box.rect
                    guard cy >= r.y, cy <= r.y + r.height else { continue }
                    let gap = max(0, r.x - (box.x + box.width), box.x - (r.x + r.width))
                    if target == nil || gap < target!.gap { target = (b, l, gap) }
                }
            }
            if let t = target {
                var line = blocks[t.block].lines[t.line].words
                for w in words {
                    let at = line.firstIndex { $0.box.rect.x > w.box.rect.x } ?? line.count
                    line.insert(w, at: at)
                }
                blocks[t.block].lines[t.line].words = line
            } else {
                let at = blocks.firstIndex { $0.box.rect.y > cy } ?? blocks.count
                let line = TextLine(text: "", confidence: nil, box: lineBox, paragraph: 0, words: words)
                blocks.insert(TextBlock(text: "", confidence: nil, box: lineBox, lines: [line]), at: at)
            }
        }
        return (blocks, count)
    }

    /// For every word of `readings` — several readings of the same image, boxes in the same
    /// upright-frame pixels — the number of *other* readings that hold a word with the same
    /// text whose box overlaps it by more than `overlap` of the smaller box (0…readings − 1).
    ///
    /// Independent readings that err rarely err the same way, so a word several of them agree on
    /// is more likely right than a lone word read with slightly higher confidence: the voting
    /// idea of ROVER (Fiscus, "A post-processing system to yield reduced word error rates:
    /// Recognizer Output Voting Error Reduction", 1997), here by box instead of by alignment.
    /// Words are keyed by value: the same word (text, box, confidence) in two readings agrees
    /// with each, so it gets the same count from both.
    static func agreement(_ readings: [[TextBlock]], overlap: Double = 0.5) -> [TextWord: Int] {
        var byText: [String: [(reading: Int, box: Rect)]] = [:]
        for (r, blocks) in readings.enumerated() {
            for line in blocks.flatMap(\.lines) {
                for w in line.words where !w.text.isEmpty { byText[w.text, default: []].append((r, w.box.rect)) }
            }
        }
        var count: [TextWord: Int] = [:]
        for (r, blocks) in readings.enumerated() {
            for line in blocks.flatMap(\.lines) {
                for w in line.words where !w.text.isEmpty {
                    let agreeing = Set(
                        byText[w.text, default: []].lazy
                            .filter { $0.reading != r && $0.box.overlapFraction(with: w.box.rect) > overlap }.map(
                                \.reading))
                    count[w] = max(count[w] ?? 0, agreeing.count)
                }
            }
        }
        return count
    }

    /// A ``merge(_:with:margin:addedConfidence:overlap:score:)`` score for readings voted on by
    /// ``agreement(_:overlap:)``: a word's confidence (0 when missing) plus `weight` × the
    /// fraction of the other readings that agree with it, so a word all readings agree on gains
    /// `weight`.
    static func agreementScore(_ readings: [[TextBlock]], weight: Float) -> (TextWord) -> Float {
        let agreeing = agreement(readings)
        let others = Float(max(readings.count - 1, 1))
        return { w in (w.confidence ?? 0) + weight * Float(agreeing[w] ?? 0) / others }
    }
}
