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
    /// - Parameter uprightGray: the frame's upright gray region without automatic preprocessing
    ///   (``uprightGray(_:of:pipeline:orientation:pool:)``), made on first use and shared with
    ///   ``readTextLines``.
    func readDominantLine(in result: inout RecognitionResult, frame: PixelBuffer, pipeline: Pipeline, options: Options?,
                          pool: PixelBufferPool?, uprightGray: inout PreprocessedFrame?) throws(FrameOCRError) {
        guard let automatic = pipeline.automatic, (result.confidence ?? 0) < Self.confidentPageReading else { return }
        let clock = ContinuousClock()
        let started = clock.now
        let gray = try Self.uprightGray(&uprightGray, of: frame, pipeline: pipeline, orientation: result.transform.orientation, pool: pool)
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
        let upright = PixelRect(x: gray.transform.region.x + box.x, y: gray.transform.region.y + box.y, width: box.width, height: box.height)
        let (read, decisions) = try readLineAlone(gray, drawn: drawn, box: box, region: upright, characterHeight: Double(line.character_height),
                                                  characterAspect: nil, automatic: automatic, options: options, pool: pool)
        result.timings.automatic += clock.now - started
        let replaced = Self.replaceWords(on: Rect(upright), with: read, in: &result, minimum: 0)
        let summary = String(format: "dominant line: %d characters about %.0f px tall%@ at %@ read alone: mean word confidence %.2f against %.2f of the %d words there",
                             line.characters, line.character_height, line.inverted != 0 ? " (light on dark)" : "",
                             "\(upright)", read.confidence ?? 0, replaced.confidence, replaced.count)
        guard replaced.done else {
            result.preprocessing?.reasons.append(summary + ": kept the page's reading")
            return
        }
        result.preprocessing?.dominantLine = upright
        result.preprocessing?.reasons.append(summary + ": its words replace them")
        result.preprocessing?.reasons += decisions.reasons.map { "dominant line: " + $0 }
    }

    /// `frame` through `pipeline` without its automatic preprocessing, in `orientation`: the
    /// upright gray region the line readings cut their lines from. Made once per frame and kept
    /// in `cache`.
    static func uprightGray(_ cache: inout PreprocessedFrame?, of frame: PixelBuffer, pipeline: Pipeline, orientation: Orientation,
                            pool: PixelBufferPool?) throws(FrameOCRError) -> PreprocessedFrame {
        if let cache { return cache }
        var plain = pipeline
        plain.automatic = nil
        plain.orientation = orientation
        let gray = try plain.run(frame, pool: pool)
        cache = gray
        return gray
    }

    /// Reads one line of text drawn alone (black on white) in `drawn` at `box` — the part of
    /// `gray`'s upright region that covers `region` of the upright frame (``readDominantLine`` and
    /// ``readTextLines`` draw it; `drawn` may be a reduced copy) — scaled so that its characters
    /// (or 70 % of the box, if taller: capitals and ascenders over lower case) are
    /// ``AutomaticPreprocessing/lineTextHeight`` tall, widened to
    /// ``AutomaticPreprocessing/lineTargetAspect`` when `characterAspect` (median width/height of
    /// whole characters) is below it (by at most ``AutomaticPreprocessing/maximumStretch``, with
    /// ``AutomaticPreprocessing/stretchCondensed``), given a white border of half that height and
    /// read with PSM 7. Boxes come back in upright-frame pixels.
    /// - Parameter characterHeight: in pixels of `drawn`.
    /// - Returns: the reading and the decisions taken for it (one reason line).
    /// - Throws: ``FrameOCRError`` from the rescale, the border or recognition.
    func readLineAlone(_ gray: PreprocessedFrame, drawn: PixelBuffer, box: PixelRect, region: PixelRect, characterHeight: Double,
                       characterAspect: Double?, automatic: AutomaticPreprocessing, options: Options?,
                       pool: PixelBufferPool?) throws(FrameOCRError) -> (RecognitionResult, PreprocessingDecisions) {
        var candidate = gray
        candidate.image = try drawn.cropped(to: box)
        candidate.transform.region = region
        candidate.transform.scaleX = Double(box.width) / Double(region.width)
        candidate.transform.scaleY = Double(box.height) / Double(region.height)
        var decisions = PreprocessingDecisions()
        decisions.singleLine = true
        decisions.textHeight = characterHeight / candidate.transform.scaleY
        decisions.textAspect = characterAspect
        let textHeight = max(characterHeight, 0.7 * Double(box.height))
        let factor = min(max(automatic.lineTextHeight / textHeight, 1 / automatic.maximumScale), automatic.maximumScale)
        var stretch = 1.0
        if automatic.stretchCondensed, let aspect = characterAspect, aspect > 0, aspect < automatic.lineTargetAspect {
            stretch = min(automatic.maximumStretch, automatic.lineTargetAspect / aspect)
        }
        if abs(factor - 1) > 0.05 || stretch != 1 {
            decisions.scale = try AutomaticPreprocessing.rescale(&candidate, factor: factor, stretch: stretch, pool: pool)
            decisions.stretch = stretch
        }
        decisions.border = max(8, Int((0.5 * automatic.lineTextHeight).rounded()))
        try AutomaticPreprocessing.pad(&candidate, border: decisions.border, pool: pool)
        decisions.pageSegmentationMode = .singleLine
        decisions.reasons = [String(format: "scale ×%.2f to %.0f px, stretch ×%.2f, border %d px, PSM 7", candidate.transform.scaleY,
                                    automatic.lineTextHeight, stretch, decisions.border)]
        candidate.decisions = decisions
        return (try recognize(candidate, options: options), decisions)
    }
}
