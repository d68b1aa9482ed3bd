import Foundation

/// Reads one line of text alone, and puts its words in the place of the page's: the part the
/// dominant-line and text-line strategies share (``DominantLineReading``, ``TextLinesReading``).
/// A line read alone replaces the page's words on it when it reads
/// ``SecondReadings/clearlyBetter`` more confidently.
enum LineReader {
    /// Reads the line drawn alone (black on white) in `drawn` at `box` — the part of `gray`'s
    /// upright region that covers `region` of the upright frame (`drawn` may be a reduced copy) —
    /// scaled so that its characters (or ``AutomaticPreprocessing/lineHeightFraction`` of the
    /// box, if taller: capitals and ascenders over lower case) are
    /// ``LineReadingOptions/textHeight`` tall by the single-line rule the page step uses (left at
    /// its size within ``LineReadingOptions/scaleTolerance``), widened to
    /// ``LineReadingOptions/targetAspect`` when `characterAspect` (median width/height of whole
    /// characters) is below it (by at most ``LineReadingOptions/maximumStretch``, with
    /// ``AutomaticPreprocessing/stretchCondensed``), given a white border of half that height and
    /// read with PSM 7. Boxes come back in upright-frame pixels.
    /// - Parameter characterHeight: in pixels of `drawn`.
    /// - Returns: the reading and the decisions taken for it (one reason line).
    /// - Throws: ``FrameOCRError`` from the rescale, the border or recognition.
    static func read(
        _ gray: PreprocessedFrame, drawn: PixelBuffer, box: PixelRect, region: PixelRect, characterHeight: Double,
        characterAspect: Double?, context: ReadingContext
    ) throws(FrameOCRError) -> (RecognitionResult, PreprocessingDecisions) {
        try read(
            gray, drawn: drawn, box: box, region: region, characterHeight: characterHeight,
            characterAspect: characterAspect, automatic: context.automatic, pool: context.pool
        ) { (candidate) throws(FrameOCRError) in try context.read(candidate, options: context.options) }
    }

    /// ``read(_:drawn:box:region:characterHeight:characterAspect:context:)`` with its settings
    /// given one by one: `automatic`'s line settings (``AutomaticPreprocessing/lines``) and scale
    /// limits, and `recognize`, which reads the prepared line (PSM 7 is in its
    /// decisions). `clearEdges` (pixels of `drawn`, within `box`): `drawn` is gray (dark text
    /// on light), not drawn, and the surface beyond a label's edges around this box of text is
    /// set to the paper's level first (on a copy; `focr_clear_line_edges`), so that the engine
    /// does not read an edge as `|` or `]`.
    static func read(
        _ gray: PreprocessedFrame, drawn: PixelBuffer, box: PixelRect, region: PixelRect, characterHeight: Double,
        characterAspect: Double?, automatic: AutomaticPreprocessing,
        clearEdges text: PixelRect? = nil, pool: PixelBufferPool?,
        recognize: (PreprocessedFrame) throws(FrameOCRError) -> RecognitionResult
    ) throws(FrameOCRError) -> (RecognitionResult, PreprocessingDecisions) {
        var candidate = gray
        candidate.image = try drawn.cropped(to: box)
        if let text {
            candidate.image = try candidate.image.copy(pool: pool)
            let keeping = PixelRect(x: text.x - box.x, y: text.y - box.y, width: text.width, height: text.height)
            try Shim.clearLineEdges(
                candidate.image, keeping: keeping)
        }
        candidate.transform.region = region
        candidate.transform.scaleX = Double(box.width) / Double(region.width)
        candidate.transform.scaleY = Double(box.height) / Double(region.height)
        var decisions = PreprocessingDecisions()
        decisions.singleLine = true
        decisions.textHeight = characterHeight / candidate.transform.scaleY
        decisions.textAspect = characterAspect
        let textHeight = max(characterHeight, AutomaticPreprocessing.lineHeightFraction * Double(box.height))
        let factor = automatic.singleLineFactor(textHeight: textHeight)
        let target = automatic.lines.targetAspect
        var stretch = 1.0
        if automatic.stretchCondensed, let aspect = characterAspect, aspect > 0, aspect < target {
            stretch = min(automatic.lines.maximumStretch, target / aspect)
        }
        if factor != 1 || stretch != 1 {
            decisions.scale = try candidate.rescale(by: factor, stretch: stretch, pool: pool)
            decisions.stretch = stretch
        }
        decisions.border = max(
            AutomaticPreprocessing.minimumBorder,
            Int((AutomaticPreprocessing.borderTextHeights * automatic.lines.textHeight).rounded()))
        try candidate.pad(by: decisions.border, pool: pool)
        decisions.pageSegmentationMode = .singleLine
        decisions.reasons = [
            String(
                format: "scale ×%.2f to %.0f px, stretch ×%.2f, border %d px, PSM 7", candidate.transform.scaleY,
                automatic.lines.textHeight, stretch, decisions.border)
        ]
        candidate.decisions = decisions
        return (try recognize(candidate), decisions)
    }

    /// Replaces the words of the reading whose centres lie inside `area` (upright-frame pixels)
    /// with `read`'s words when `read` is at least `minimum` and ``SecondReadings/clearlyBetter`` more confident
    /// (mean word confidence) than they are (0 when there are none). The new words go into the
    /// page's line that held the first word replaced, ordered by their left edges; with no word
    /// there, `read`'s blocks go before the first block that starts below the area's middle.
    /// - Returns: whether the words were replaced, and how many words of the page were on the
    ///   area with their mean confidence.
    static func replaceWords(
        on area: Rect, with read: RecognitionResult, minimum: Float,
        in context: inout ReadingContext
    ) -> (done: Bool, count: Int, confidence: Float) {
        let onLine = { (w: TextWord) in isCentred(w, in: area) }
        let (count, replacedConfidence) = words(on: area, of: context.result)
        guard let confidence = read.confidence, confidence >= minimum,
            confidence > replacedConfidence + SecondReadings.clearlyBetter,
            !read.words.isEmpty
        else { return (false, count, replacedConfidence) }
        var blocks = context.result.blocks
        var host: (block: Int, line: Int)?
        for b in blocks.indices {
            for l in blocks[b].lines.indices {
                if host == nil, blocks[b].lines[l].words.contains(where: onLine) { host = (b, l) }
                blocks[b].lines[l].words.removeAll(where: onLine)
            }
        }
        if let (b, l) = host {
            blocks[b].lines[l].words = (blocks[b].lines[l].words + read.words).sorted { $0.box.rect.x < $1.box.rect.x }
            blocks[b].lines[l].confidence = ResultBuilder.mean(blocks[b].lines[l].words.compactMap(\.confidence))
        } else {
            let at = blocks.firstIndex { $0.box.rect.y > area.y + area.height / 2 } ?? blocks.count
            blocks.insert(contentsOf: read.blocks, at: at)
        }
        context.adopt(context.rebuilt(blocks))
        return (true, count, replacedConfidence)
    }

    /// Whether `word`'s centre lies inside `area` (upright-frame pixels, edges included).
    static func isCentred(_ word: TextWord, in area: Rect) -> Bool {
        let r = word.box.rect
        let cx = r.x + r.width / 2
        let cy = r.y + r.height / 2
        return cx >= area.x && cx <= area.x + area.width && cy >= area.y && cy <= area.y + area.height
    }

    /// How many of `result`'s words have their centres inside `area`, and their mean confidence
    /// (0 when there are none or none has one).
    static func words(on area: Rect, of result: RecognitionResult) -> (count: Int, confidence: Float) {
        let there = result.words.filter { isCentred($0, in: area) }
        return (there.count, ResultBuilder.mean(there.compactMap(\.confidence)) ?? 0)
    }
}
