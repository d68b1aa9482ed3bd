internal import CFrameOCR

extension Recognizer {
    /// Mean word confidence below which a reading is second-guessed by reading the dominant line
    /// of large text alone.
    static let confidentPageReading: Float = 0.9
    /// How much more confident (mean word confidence) a second reading must be to replace words.
    static let clearlyBetter: Float = 0.15
    /// Ink around the dominant line, per pixel of its own ink, below which it is not read alone.
    static let minimumClutter: Float = 0.1

    /// When `result` reads poorly (mean word confidence below 0.9) and the image holds a line of
    /// large text (characters at least a quarter of its height, `focr_dominant_line`: a licence
    /// plate's number, a cropped word of a sign) with other ink around it (at least a tenth of
    /// its own: a plate's frame, state name, emblems), reads that line alone — its characters black on
    /// white, everything around them removed, scaled so that they (or 70 % of the line's box, if
    /// taller: capitals over lower case) are ``AutomaticPreprocessing/lineTextHeight`` tall, a white border, PSM 7 — and that
    /// reading's words replace the page's words on that line (their centres inside its box) when
    /// its mean word confidence is higher than theirs (0 when there are none) by 0.15. The decision is in
    /// ``PreprocessingDecisions/dominantLine`` and its reasons; boxes are in upright-frame pixels
    /// as always (the page's transform stays the result's).
    /// - Throws: ``FrameOCRError`` from preprocessing or recognition.
    func readDominantLine(in result: inout RecognitionResult, frame: PixelBuffer, pipeline: Pipeline, options: Options?,
                          pool: PixelBufferPool?) throws(FrameOCRError) {
        guard let automatic = pipeline.automatic, (result.confidence ?? 0) < Self.confidentPageReading else { return }
        let clock = ContinuousClock()
        let started = clock.now
        var plain = pipeline
        plain.automatic = nil
        plain.orientation = result.transform.orientation
        let gray = try plain.run(frame, pool: pool)
        // The line is cut from the unscaled upright region (a caller's `scale` leaves it alone).
        guard gray.transform.scaleX == 1, gray.transform.scaleY == 1, gray.transform.padding == 0 else { return }
        let drawn = try PixelBuffer.destination(nil, pool: pool, width: gray.image.width, height: gray.image.height, format: .gray8,
                                                stage: .threshold)
        var line = focr_text_line()
        try gray.image.run(into: drawn, .threshold) { s, d in focr_dominant_line(s, d, &line) }
        // Without clutter around it the page's reading already saw the line as it is.
        guard line.characters >= 3, line.clutter >= Self.minimumClutter else {
            result.timings.automatic += clock.now - started
            return
        }
        let box = PixelRect(x: Int(line.x), y: Int(line.y), width: Int(line.width), height: Int(line.height))
        var candidate = gray
        candidate.image = try drawn.cropped(to: box)
        candidate.transform.region = PixelRect(x: gray.transform.region.x + box.x, y: gray.transform.region.y + box.y,
                                               width: box.width, height: box.height)
        // One line: its characters scaled to the single-line height, a white border of half
        // that, PSM 7.
        var decisions = PreprocessingDecisions()
        decisions.singleLine = true
        decisions.textHeight = Double(line.character_height)
        // Lower-case characters are x-height tall: the line's box (ascenders, capitals) bounds the text.
        let textHeight = max(Double(line.character_height), 0.7 * Double(line.height))
        let factor = min(max(automatic.lineTextHeight / textHeight, 1 / automatic.maximumScale), automatic.maximumScale)
        if abs(factor - 1) > 0.05 { decisions.scale = try AutomaticPreprocessing.rescale(&candidate, factor: factor, pool: pool) }
        decisions.border = max(8, Int((0.5 * automatic.lineTextHeight).rounded()))
        try AutomaticPreprocessing.pad(&candidate, border: decisions.border, pool: pool)
        decisions.pageSegmentationMode = .singleLine
        decisions.reasons = [String(format: "scale ×%.2f to %.0f px, border %d px, PSM 7", decisions.scale, automatic.lineTextHeight,
                                    decisions.border)]
        candidate.decisions = decisions
        let read = try recognize(candidate, options: options)
        let elapsed = clock.now - started
        result.timings.automatic += elapsed
        let upright = PixelRect(x: candidate.transform.region.x, y: candidate.transform.region.y, width: box.width, height: box.height)
        // The page's words on the line (their centres inside its box) are what the line's reading
        // would replace.
        let area = Rect(upright)
        func onLine(_ w: TextWord) -> Bool {
            let r = w.box.rect
            let cx = r.x + r.width / 2, cy = r.y + r.height / 2
            return cx >= area.x && cx <= area.x + area.width && cy >= area.y && cy <= area.y + area.height
        }
        let replaced = result.words.filter(onLine)
        let replacedConfidence = ResultBuilder.mean(replaced.compactMap(\.confidence)) ?? 0
        let summary = String(format: "dominant line: %d characters about %.0f px tall%@ at %@ read alone: mean word confidence %.2f against %.2f of the %d words there",
                             line.characters, line.character_height, line.inverted != 0 ? " (light on dark)" : "",
                             "\(upright)", read.confidence ?? 0, replacedConfidence, replaced.count)
        guard let confidence = read.confidence, confidence > replacedConfidence + Self.clearlyBetter else {
            result.preprocessing?.reasons.append(summary + ": kept the page's reading")
            return
        }
        var blocks = result.blocks
        for b in blocks.indices {
            for l in blocks[b].lines.indices { blocks[b].lines[l].words.removeAll(where: onLine) }
        }
        // The line's reading goes in reading order: before the first block that starts below it.
        let at = blocks.firstIndex { $0.box.rect.y > area.y + area.height / 2 } ?? blocks.count
        blocks.insert(contentsOf: read.blocks, at: at)
        let merged = ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
        result.blocks = merged.blocks
        result.text = merged.text
        result.confidence = merged.confidence
        result.preprocessing?.dominantLine = upright
        result.preprocessing?.reasons.append(summary + ": its words replace them")
        result.preprocessing?.reasons += decisions.reasons.map { "dominant line: " + $0 }
    }
}
