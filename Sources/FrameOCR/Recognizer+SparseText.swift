extension Recognizer {
    /// Mean word confidence below which a page is read again as sparse text.
    static let sparseReadingBelow: Float = 0.9
    /// How much more confident (mean word confidence) the sparse reading's words must be to
    /// replace the page's words where they overlap.
    static let sparseReplaceMargin: Float = 0.1
    /// Confidence every word of a sparse group that overlaps no page word needs to be added.
    static let sparseAddedConfidence: Float = 0.9
    /// Fewest text-like components for a page to be read again (as for skew: a few words are
    /// no page).
    static let sparseMinimumComponents = 30
    /// The binarization Tesseract uses for the sparse reading's layout.
    static let sparseBinarization: EngineBinarization = .sauvola

    /// When `result` is a poorly read page, reads `prepared` (the frame it was read from) again
    /// as sparse text and merges the two readings word by word
    /// (``AutomaticPreprocessing/sparseReading``).
    ///
    /// A page here is an image that automatic preprocessing found to hold more than one line and
    /// at least 30 text-like components, read with a block or page mode (PSM 3, 4 or 6, the
    /// options' or the one automatic preprocessing chose) to completion, with a mean word
    /// confidence below 0.9. Tesseract reads a block as lines that run across the whole block, so
    /// a form's fields, a table's columns or a receipt's label and price far apart run together
    /// or are lost; PSM 11 finds each piece of text on its own, and with Sauvola's binarization
    /// (Leptonica, tiled: a threshold per pixel from its window's mean and deviation) its layout
    /// keeps faint and unevenly lit print. The merge
    /// (``ResultBuilder/merge(_:with:margin:addedConfidence:overlap:)``) keeps the page's words
    /// unless the sparse reading's words over the same stretch are more confident by 0.1, and adds
    /// sparse words where the page has none when they are at least 0.9 confident. Boxes are
    /// upright-frame pixels in both readings (same transform), so the merged words are too.
    /// The decision is in ``PreprocessingDecisions/sparseReading`` and its reason.
    ///
    /// Cost: one more recognition of the page (about as long as the first).
    /// - Throws: ``FrameOCRError`` from recognition.
    func readSparseText(in result: inout RecognitionResult, prepared: PreprocessedFrame, options: Options?) throws(FrameOCRError) {
        guard let decisions = result.preprocessing, result.status == .complete, !decisions.singleLine,
              decisions.textComponents >= Self.sparseMinimumComponents,
              let pageConfidence = result.confidence, pageConfidence < Self.sparseReadingBelow else { return }
        var sparse = options ?? configuration.defaultOptions
        let mode = decisions.pageSegmentationMode ?? sparse.pageSegmentationMode
        guard [.auto, .autoOnly, .autoWithOSD, .singleColumn, .singleBlock].contains(mode) else { return }
        let clock = ContinuousClock()
        let started = clock.now
        sparse.pageSegmentationMode = .sparseText
        sparse.binarization = Self.sparseBinarization
        var frame = prepared
        frame.decisions?.pageSegmentationMode = nil  // the options' mode (PSM 11) applies
        let second = try recognize(frame, options: sparse)
        let (blocks, count) = ResultBuilder.merge(result.blocks, with: second.blocks, margin: Self.sparseReplaceMargin,
                                                  addedConfidence: Self.sparseAddedConfidence)
        let merged = ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
        result.timings.automatic += clock.now - started
        let decision = SparseReadingDecision(
            pageConfidence: Double(pageConfidence), sparseConfidence: Double(second.confidence ?? 0), binarization: sparse.binarization,
            replacedWords: count.replaced, replacingWords: count.replacing, addedWords: count.added,
            mergedConfidence: Double(merged.confidence ?? 0))
        result.preprocessing?.sparseReading = decision
        let summary = String(format: "sparse text: mean word confidence %.2f < %.2f: read again with PSM 11 and %@ binarization (%.2f)",
                             pageConfidence, Self.sparseReadingBelow, "\(sparse.binarization)", decision.sparseConfidence)
        guard count.replaced + count.added > 0 else {
            result.preprocessing?.reasons.append(summary + ": no word clearly more confident, kept the page's reading")
            return
        }
        result.blocks = merged.blocks
        result.text = merged.text
        result.confidence = merged.confidence
        result.preprocessing?.reasons.append(
            summary + String(format: ": %d words replaced by %d more confident ones, %d added; merged %.2f", count.replaced,
                             count.replacing, count.added, decision.mergedConfidence))
    }
}
