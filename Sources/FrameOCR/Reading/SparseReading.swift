import Foundation

/// More readings of a poorly read page, voted on (``SecondReadings/sparseReading``).
///
/// A page here is an image that automatic preprocessing found to hold more than one line and
/// at least ``AutomaticPreprocessing/minimumPageComponents`` text-like components, read to
/// completion with a block or page mode (PSM 3, 4 or 6: the options' or the one automatic
/// preprocessing chose), with a mean word confidence below ``SecondReadings/poorBelow``. Tesseract reads a
/// block as lines that run across the whole block, so a form's fields, a table's columns, or a
/// receipt's label and price far apart run together or are lost; PSM 11 finds each piece of
/// text on its own. The page is read four more times (``readings``): the sparse readings are
/// laid out with Otsu's threshold over the whole image (Tesseract's default) and with
/// Leptonica's tiled Sauvola, a threshold per pixel that keeps faint and unevenly lit print; the
/// readings of the image as captured (no rescale, smoothing or skew correction; the context's
/// upright gray image, shared with the line readings) see the print as the `tesseract` command
/// does, and get right some words the preparation loses.
///
/// Every word is scored by its confidence plus ``SecondReadings/sparseAgreementWeight`` × the fraction of the other
/// four readings that read the same text over it (``ResultBuilder/agreementScore(_:weight:)``:
/// a vote, as in ROVER, Fiscus 1997). Each merge
/// (``ResultBuilder/merge(_:with:margin:addedConfidence:overlap:score:)``) keeps the words read
/// so far unless the new reading's words over the same stretch score
/// ``SecondReadings/sparseReplaceMargin`` higher, and adds new words where there are none when
/// they score at least ``SecondReadings/sparseAddedScore``: the
/// reading is chosen per stretch of text, never for the whole image. Boxes are upright-frame
/// pixels in every reading, so the merged words are too. The decision is in
/// ``PreprocessingDecisions/sparseReading`` and its reason.
///
/// How its numbers were chosen: `docs/tuning.md#more-readings-of-a-page`.
struct SparseReading: ReadingStrategy {
    /// The page modes a page is read with (and so read again from): PSM 1, 2, 3, 4, 6.
    static let pageModes: Set<PageSegmentationMode> = [.auto, .autoOnly, .autoWithOSD, .singleColumn, .singleBlock]

    /// One further reading of a poorly read page: the image it reads, and how.
    struct Reading {
        var asCaptured: Bool
        var pageSegmentationMode: PageSegmentationMode
        var binarization: EngineBinarization
    }

    /// The further readings, in the order they are merged: the preprocessed page as sparse text
    /// laid out with Otsu and with Sauvola; the upright image as captured as one block with Otsu
    /// and as a page with Sauvola.
    static let readings = [
        Reading(asCaptured: false, pageSegmentationMode: .sparseText, binarization: .otsu),
        Reading(asCaptured: false, pageSegmentationMode: .sparseText, binarization: .sauvola),
        Reading(asCaptured: true, pageSegmentationMode: .singleBlock, binarization: .otsu),
        Reading(asCaptured: true, pageSegmentationMode: .auto, binarization: .sauvola),
    ]

    func isOn(in readings: SecondReadings) -> Bool { readings.sparseReading }

    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        let result = context.result
        guard let decisions = result.preprocessing, result.status == .complete, !decisions.singleLine,
            decisions.textComponents >= context.automatic.minimumPageComponents,
            let pageConfidence = result.confidence, pageConfidence < SecondReadings.poorBelow
        else { return false }
        let mode = decisions.pageSegmentationMode ?? context.options.pageSegmentationMode
        guard Self.pageModes.contains(mode) else { return false }
        var preparedAgain = context.prepared
        preparedAgain.decisions?.pageSegmentationMode = nil  // the reading's own mode and binarization apply
        preparedAgain.decisions?.binarization = nil
        var readings: [RecognitionResult] = []
        for how in Self.readings {
            let image = how.asCaptured ? try context.uprightGray() : preparedAgain
            var o = context.options
            o.pageSegmentationMode = how.pageSegmentationMode
            o.binarization = how.binarization
            readings.append(try context.read(image, options: o))
        }
        let score = ResultBuilder.agreementScore(
            [result.blocks] + readings.map(\.blocks), weight: SecondReadings.sparseAgreementWeight)
        var blocks = result.blocks
        var decided: [SparseReadingDecision.Reading] = []
        for (how, reading) in zip(Self.readings, readings) {
            let (merged, count) = ResultBuilder.merge(
                blocks, with: reading.blocks, margin: SecondReadings.sparseReplaceMargin,
                addedConfidence: SecondReadings.sparseAddedScore, score: score)
            blocks = merged
            decided.append(
                SparseReadingDecision.Reading(
                    pageSegmentationMode: how.pageSegmentationMode, binarization: how.binarization,
                    asCaptured: how.asCaptured,
                    confidence: Double(reading.confidence ?? 0), replacedWords: count.replaced,
                    replacingWords: count.replacing,
                    addedWords: count.added))
        }
        let merged = context.rebuilt(blocks)
        let decision = SparseReadingDecision(
            pageConfidence: Double(pageConfidence), readings: decided,
            mergedConfidence: Double(merged.confidence ?? 0))
        context.result.preprocessing?.sparseReading = decision
        let each = decided.map { r in
            String(
                format: "%@ PSM %d %@ %.2f: %d words replaced by %d, %d added",
                r.asCaptured ? "as captured" : "prepared",
                r.pageSegmentationMode.rawValue, "\(r.binarization)", r.confidence, r.replacedWords, r.replacingWords,
                r.addedWords)
        }
        let summary =
            String(
                format: "sparse text: mean word confidence %.2f < %.2f: read again, voted and merged (", pageConfidence,
                SecondReadings.poorBelow) + each.joined(separator: "; ") + ")"
        guard decided.contains(where: { $0.replacedWords + $0.addedWords > 0 }) else {
            context.note(summary + ": no word clearly more confident, kept the page's reading")
            return false
        }
        context.adopt(merged)
        context.note(summary + String(format: ": merged, mean word confidence %.2f", decision.mergedConfidence))
        return false
    }
}
