extension Recognizer {
    /// Mean word confidence below which a page is read again as sparse text.
    static let sparseReadingBelow: Float = 0.9
    /// How much more confident (mean word confidence) a sparse reading's words must be to
    /// replace the page's words where they overlap.
    static let sparseReplaceMargin: Float = 0.1
    /// Confidence every word of a sparse group that overlaps no page word needs to be added.
    static let sparseAddedConfidence: Float = 0.9
    /// Weight of the other readings' agreement in a word's score
    /// (``ResultBuilder/agreementScore(_:weight:)``): a word every other reading agrees on gains
    /// 0.4 over its confidence.
    static let agreementWeight: Float = 0.4

    /// One further reading of a poorly read page: the image it reads, and how.
    struct PageReading {
        var asCaptured: Bool
        var pageSegmentationMode: PageSegmentationMode
        var binarization: EngineBinarization
    }

    /// The further readings, in the order they are merged: the preprocessed page as sparse text
    /// laid out with Otsu and with Sauvola; the upright image as captured as one block with Otsu
    /// and as a page with Sauvola.
    static let pageReadings = [
        PageReading(asCaptured: false, pageSegmentationMode: .sparseText, binarization: .otsu),
        PageReading(asCaptured: false, pageSegmentationMode: .sparseText, binarization: .sauvola),
        PageReading(asCaptured: true, pageSegmentationMode: .singleBlock, binarization: .otsu),
        PageReading(asCaptured: true, pageSegmentationMode: .auto, binarization: .sauvola),
    ]

    /// When `result` is a poorly read page, reads it four more times (``pageReadings``), lets the
    /// five readings vote, and merges each new reading into it word by word
    /// (``AutomaticPreprocessing/sparseReading``).
    ///
    /// A page here is an image that automatic preprocessing found to hold more than one line and
    /// at least ``AutomaticPreprocessing/minimumPageComponents`` text-like components, read to
    /// completion with a block or page mode (PSM 3, 4 or 6: the options' or the one automatic
    /// preprocessing chose), with a mean word confidence below 0.9. Tesseract reads a block as
    /// lines that run across the whole block, so a form's fields, a table's columns, or a
    /// receipt's label and price far apart run together or are lost; PSM 11 finds each piece of
    /// text on its own. The sparse readings are laid out with Otsu's threshold over the whole
    /// image (Tesseract's default) and with Leptonica's tiled Sauvola, a threshold per pixel that
    /// keeps faint and unevenly lit print. The readings of the image as captured (no rescale,
    /// smoothing or skew correction; `uprightGray`, shared with the line readings) see the print
    /// as the `tesseract` command does, and get right some words the preparation loses.
    ///
    /// Every word is scored by its confidence plus 0.4 × the fraction of the other four
    /// readings that read the same text over it (``ResultBuilder/agreementScore(_:weight:)``: a
    /// vote, as in ROVER). Each merge
    /// (``ResultBuilder/merge(_:with:margin:addedConfidence:overlap:score:)``) keeps the words
    /// read so far unless the new reading's words over the same stretch score 0.1 higher, and
    /// adds new words where there are none when they score at least 0.9: the reading is chosen
    /// per stretch of text, never for the whole image. Boxes are upright-frame pixels in every
    /// reading, so the merged words are too. The decision is in
    /// ``PreprocessingDecisions/sparseReading`` and its reason; the time in
    /// ``StageTimings/automatic``.
    ///
    /// Cost: two more recognitions of the page at its prepared size and two at the size
    /// captured (cheaper where the page was scaled up).
    /// - Parameters:
    ///   - prepared: the frame `result` was read from.
    ///   - frame, pipeline, pool: what `prepared` was made from, for the image as captured.
    ///   - uprightGray: as in ``readDominantLine(in:frame:pipeline:options:pool:uprightGray:)``.
    /// - Throws: ``FrameOCRError`` from recognition.
    func readSparseText(in result: inout RecognitionResult, prepared: PreprocessedFrame, automatic: AutomaticPreprocessing,
                        options: Options?, frame: PixelBuffer, pipeline: Pipeline, pool: PixelBufferPool?,
                        uprightGray: inout PreprocessedFrame?) throws(FrameOCRError) {
        guard let decisions = result.preprocessing, result.status == .complete, !decisions.singleLine,
              decisions.textComponents >= automatic.minimumPageComponents,
              let pageConfidence = result.confidence, pageConfidence < Self.sparseReadingBelow else { return }
        let mode = decisions.pageSegmentationMode ?? (options ?? configuration.defaultOptions).pageSegmentationMode
        guard [.auto, .autoOnly, .autoWithOSD, .singleColumn, .singleBlock].contains(mode) else { return }
        let clock = ContinuousClock()
        let started = clock.now
        var preparedAgain = prepared
        preparedAgain.decisions?.pageSegmentationMode = nil  // the reading's own mode and binarization apply
        preparedAgain.decisions?.binarization = nil
        var readings: [RecognitionResult] = []
        for how in Self.pageReadings {
            let image = how.asCaptured
                ? try Self.uprightGray(&uprightGray, of: frame, pipeline: pipeline, orientation: result.transform.orientation, pool: pool)
                : preparedAgain
            var o = options ?? configuration.defaultOptions
            o.pageSegmentationMode = how.pageSegmentationMode
            o.binarization = how.binarization
            readings.append(try recognize(image, options: o))
        }
        let score = ResultBuilder.agreementScore([result.blocks] + readings.map(\.blocks), weight: Self.agreementWeight)
        var blocks = result.blocks
        var decided: [SparseReadingDecision.Reading] = []
        for (how, reading) in zip(Self.pageReadings, readings) {
            let (merged, count) = ResultBuilder.merge(blocks, with: reading.blocks, margin: Self.sparseReplaceMargin,
                                                      addedConfidence: Self.sparseAddedConfidence, score: score)
            blocks = merged
            decided.append(SparseReadingDecision.Reading(
                pageSegmentationMode: how.pageSegmentationMode, binarization: how.binarization, asCaptured: how.asCaptured,
                confidence: Double(reading.confidence ?? 0), replacedWords: count.replaced, replacingWords: count.replacing,
                addedWords: count.added))
        }
        let merged = ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
        result.timings.automatic += clock.now - started
        let decision = SparseReadingDecision(pageConfidence: Double(pageConfidence), readings: decided,
                                             mergedConfidence: Double(merged.confidence ?? 0))
        result.preprocessing?.sparseReading = decision
        let each = decided.map { r in
            String(format: "%@ PSM %d %@ %.2f: %d words replaced by %d, %d added", r.asCaptured ? "as captured" : "prepared",
                   r.pageSegmentationMode.rawValue, "\(r.binarization)", r.confidence, r.replacedWords, r.replacingWords, r.addedWords)
        }
        let summary = String(format: "sparse text: mean word confidence %.2f < %.2f: read again, voted and merged (", pageConfidence,
                             Self.sparseReadingBelow) + each.joined(separator: "; ") + ")"
        guard decided.contains(where: { $0.replacedWords + $0.addedWords > 0 }) else {
            result.preprocessing?.reasons.append(summary + ": no word clearly more confident, kept the page's reading")
            return
        }
        result.blocks = merged.blocks
        result.text = merged.text
        result.confidence = merged.confidence
        result.preprocessing?.reasons.append(summary + String(format: ": merged, mean word confidence %.2f", decision.mergedConfidence))
    }
}
