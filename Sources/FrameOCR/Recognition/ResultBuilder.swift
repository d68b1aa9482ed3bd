/// Builds the block › line › word › symbol tree from the shim's flat element list, mapping every
/// box from output-image pixels to the upright frame.
enum ResultBuilder {
    static func build(_ raw: RawRecognition, transform: FrameTransform) -> RecognitionResult {
        var blocks: [TextBlock] = []
        var paragraph = -1
        func box(_ e: RawElement) -> TextBox {
            TextBox(outputLeft: e.left, top: e.top, right: e.right, bottom: e.bottom, transform: transform)
        }
        for e in raw.elements {
            switch e.level {
            case 0:
                blocks.append(TextBlock(text: "", confidence: nil, box: box(e), lines: []))
                paragraph = -1
            case 1:
                paragraph += 1
            case 2:
                guard !blocks.isEmpty else { continue }
                blocks[blocks.count - 1].lines.append(
                    TextLine(text: "", confidence: e.confidence, box: box(e), paragraph: max(0, paragraph), words: []))
            case 3:
                guard !blocks.isEmpty, !blocks[blocks.count - 1].lines.isEmpty else { continue }
                let word = TextWord(
                    text: e.text.trimmingWhitespace(), confidence: e.confidence, box: box(e), symbols: [])
                let b = blocks.count - 1
                blocks[b].lines[blocks[b].lines.count - 1].words.append(word)
            default:
                guard let b = blocks.indices.last, let l = blocks[b].lines.indices.last,
                    let w = blocks[b].lines[l].words.indices.last
                else { continue }
                blocks[b].lines[l].words[w].symbols.append(
                    TextSymbol(text: e.text, confidence: e.confidence, box: box(e), choices: e.alternates))
            }
        }
        return finish(blocks, status: raw.timedOut ? .budgetExceeded : .complete, transform: transform)
    }

    /// The result of a block tree whose words are set: line, block and page texts from the words
    /// (so they match exactly), confidences, and lines and blocks without words dropped.
    static func finish(_ blocks: [TextBlock], status: RecognitionResult.Status, transform: FrameTransform)
        -> RecognitionResult
    {
        var blocks = blocks
        for b in blocks.indices {
            blocks[b].lines.removeAll { $0.words.allSatisfy { $0.text.isEmpty } }
            for l in blocks[b].lines.indices {
                blocks[b].lines[l].words.removeAll { $0.text.isEmpty }
                blocks[b].lines[l].text = blocks[b].lines[l].words.map(\.text).joined(separator: " ")
            }
            var text = ""
            for (i, line) in blocks[b].lines.enumerated() {
                if i > 0 { text += line.paragraph != blocks[b].lines[i - 1].paragraph ? "\n\n" : "\n" }
                text += line.text
            }
            blocks[b].text = text
            blocks[b].confidence = mean(blocks[b].lines.flatMap(\.words).compactMap(\.confidence))
        }
        blocks.removeAll { $0.lines.isEmpty }
        let words = blocks.flatMap { $0.lines.flatMap(\.words) }
        return RecognitionResult(
            text: blocks.map(\.text).joined(separator: "\n\n"),
            confidence: mean(words.compactMap(\.confidence)),
            blocks: blocks, status: status, transform: transform,
            regionClamped: false, timings: StageTimings(), backend: .cpu)
    }

    static func mean(_ values: [Float]) -> Float? {
        values.isEmpty ? nil : values.reduce(0, +) / Float(values.count)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
