extension Recognizer {
    /// Mean word confidence below which a page is read again as sparse text.
    static let sparseReadingBelow: Float = 0.9
    /// How much more confident (mean word confidence) a sparse reading's words must be to
    /// replace the page's words where they overlap.
    static let sparseReplaceMargin: Float = 0.1
    /// Confidence every word of a sparse group that overlaps no page word needs to be added.
    static let sparseAddedConfidence: Float = 0.9
    /// The binarizations Tesseract uses for the sparse readings' layout, in the order they are
    /// merged.
    static let sparseBinarizations: [EngineBinarization] = [.otsu, .sauvola]

    /// When `result` is a poorly read page, reads `prepared` (the frame it was read from) again
    /// as sparse text, once per binarization, and merges each reading into it word by word
    /// (``AutomaticPreprocessing/sparseReading``).
    ///
    /// A page here is an image that automatic preprocessing found to hold more than one line and
    /// at least ``AutomaticPreprocessing/minimumPageComponents`` text-like components, read to
    /// completion with a block or page mode (PSM 3, 4 or 6: the options' or the one automatic
    /// preprocessing chose), with a mean word confidence below 0.9. Tesseract reads a block as lines that run across the whole block, so a form's
    /// fields, a table's columns, or a receipt's label and price far apart run together or are
    /// lost; PSM 11 finds each piece of text on its own. It reads twice: with Otsu's threshold
    /// over the whole image (Tesseract's default) and with Leptonica's tiled Sauvola, a
    /// threshold per pixel that keeps faint and unevenly lit print; the layouts differ, and so do
    /// the words each finds. Each merge
    /// (``ResultBuilder/merge(_:with:margin:addedConfidence:overlap:)``) keeps the words read so
    /// far unless the sparse reading's words over the same stretch are more confident by 0.1,
    /// and adds sparse words where there are none when they are at least 0.9 confident: the
    /// binarization is chosen per stretch of text by confidence. Boxes are upright-frame pixels
    /// in every reading (same transform), so the merged words are too. The decision is in
    /// ``PreprocessingDecisions/sparseReading`` and its reason; the time in
    /// ``StageTimings/automatic``.
    ///
    /// Cost: two more recognitions of the page, each about as long as the first.
    /// - Throws: ``FrameOCRError`` from recognition.
    func readSparseText(in result: inout RecognitionResult, prepared: PreprocessedFrame, automatic: AutomaticPreprocessing,
                        options: Options?) throws(FrameOCRError) {
        guard let decisions = result.preprocessing, result.status == .complete, !decisions.singleLine,
              decisions.textComponents >= automatic.minimumPageComponents,
              let pageConfidence = result.confidence, pageConfidence < Self.sparseReadingBelow else { return }
        var sparse = options ?? configuration.defaultOptions
        let mode = decisions.pageSegmentationMode ?? sparse.pageSegmentationMode
        guard [.auto, .autoOnly, .autoWithOSD, .singleColumn, .singleBlock].contains(mode) else { return }
        let clock = ContinuousClock()
        let started = clock.now
        sparse.pageSegmentationMode = .sparseText
        var frame = prepared
        frame.decisions?.pageSegmentationMode = nil  // the options' mode (PSM 11) and binarization apply
        frame.decisions?.binarization = nil
        var blocks = result.blocks
        var readings: [SparseReadingDecision.Reading] = []
        for binarization in Self.sparseBinarizations {
            sparse.binarization = binarization
            let reading = try recognize(frame, options: sparse)
            let (merged, count) = ResultBuilder.merge(blocks, with: reading.blocks, margin: Self.sparseReplaceMargin,
                                                      addedConfidence: Self.sparseAddedConfidence)
            blocks = merged
            readings.append(SparseReadingDecision.Reading(
                binarization: binarization, confidence: Double(reading.confidence ?? 0), replacedWords: count.replaced,
                replacingWords: count.replacing, addedWords: count.added))
        }
        let merged = ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
        result.timings.automatic += clock.now - started
        let decision = SparseReadingDecision(pageConfidence: Double(pageConfidence), readings: readings,
                                             mergedConfidence: Double(merged.confidence ?? 0))
        result.preprocessing?.sparseReading = decision
        let each = readings.map { r in
            String(format: "%@ %.2f: %d words replaced by %d, %d added", "\(r.binarization)", r.confidence, r.replacedWords,
                   r.replacingWords, r.addedWords)
        }
        let summary = String(format: "sparse text: mean word confidence %.2f < %.2f: read again with PSM 11 (", pageConfidence,
                             Self.sparseReadingBelow) + each.joined(separator: "; ") + ")"
        guard readings.contains(where: { $0.replacedWords + $0.addedWords > 0 }) else {
            result.preprocessing?.reasons.append(summary + ": no word clearly more confident, kept the page's reading")
            return
        }
        result.blocks = merged.blocks
        result.text = merged.text
        result.confidence = merged.confidence
        result.preprocessing?.reasons.append(summary + String(format: ": merged, mean word confidence %.2f", decision.mergedConfidence))
    }
}
