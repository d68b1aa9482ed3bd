import Foundation

/// The text-lines strategy (``SecondReadings/textLines``).
///
/// When the reading is still poor (mean word confidence below ``SecondReadings/poorBelow``), finds
/// the lines of large text in the image and reads each alone; a line's words replace the page's
/// words on it (their centres inside its box) when the line's mean word confidence is at least
/// ``SecondReadings/minimumTextLineConfidence`` and higher than theirs (0 when there are none) by
/// ``SecondReadings/clearlyBetter``.
///
/// The lines (`focr_text_lines`) are found in the unscaled upright region, its polarity
/// normalized as the page's was (`focr_auto_analyze`): ink against a background divided out (a
/// morphological closing), rails and underlines removed, characters at least
/// ``SecondReadings/minimumTextLineHeight`` pixels and a ``SecondReadings/textLineHeightDivisor``-th of the region's
/// height tall, at most ``SecondReadings/maximumTextLines`` lines, the most ink first, none
/// overlapping the dominant line already read. Each is read alone
/// (``LineReader/read(_:drawn:box:region:characterHeight:characterAspect:context:)``). Its words
/// take the place of the page's in the page's line that held the first of them (kept in order of
/// their left edges), or, when the page had none there, come as a block of their own before the
/// first block that starts below the line. The lines taken are in
/// ``PreprocessingDecisions/textLines``, every line read is in the reasons; boxes are in
/// upright-frame pixels as always.
///
/// How its numbers were chosen: `docs/tuning.md#text-lines`.
struct TextLinesReading: ReadingStrategy {

    func isOn(in readings: SecondReadings) -> Bool { readings.textLines }

    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        guard (context.result.confidence ?? 0) < SecondReadings.poorBelow else { return false }
        let readings = context.readings
        // The lines are cut from the unscaled upright region (a caller's `scale` leaves it alone).
        guard let gray = try context.unscaledUprightGray() else { return false }
        let height = gray.image.height
        var source = gray.image
        // The page's polarity step inverted light-on-dark regions: the lines are looked for in
        // the same polarity-normalized image (measured once a frame, shared with the scene test).
        if context.automatic.polarity, (context.result.preprocessing?.invertedRegions ?? 0) > 0,
            let (normalized, a) = try context.measuredUprightGray(), a.invertedRegions > 0
        {
            source = normalized
        }
        let minimumHeight = max(readings.minimumTextLineHeight, Double(height) / SecondReadings.textLineHeightDivisor)
        let search = try LineFinder.find(
            in: source, region: gray.transform.region, minimumHeight: minimumHeight,
            maximumLines: readings.maximumTextLines,
            pool: context.pool)
        let drawn = search.drawn
        let ry = search.scaleY
        let dominant = context.result.preprocessing?.dominantLine
        for found in search.lines {
            let line = found.measurement
            let box = found.box
            let upright = found.upright
            if let dominant, upright.intersection(dominant) != nil { continue }
            // Words the page read there at 1 − clearlyBetter or more cannot be beaten: not read again.
            let characterHeight = Double(line.characterHeight) / ry  // upright pixels
            let there = LineReader.words(on: Rect(upright), of: context.result)
            if there.count > 0, there.confidence + SecondReadings.clearlyBetter >= 1 {
                context.note(
                    String(
                        format:
                            "text line: %d characters about %.0f px tall at %@: the page read its %d words with mean confidence %.2f: not read again",
                        line.characters, characterHeight, "\(upright)", there.count, there.confidence))
                continue
            }
            let (read, decisions) = try LineReader.read(
                gray, drawn: drawn, box: box, region: upright,
                characterHeight: Double(line.characterHeight),
                characterAspect: line.characterAspect.map { Double($0) }, context: context)
            let replaced = LineReader.replaceWords(
                on: Rect(upright), with: read, minimum: SecondReadings.minimumTextLineConfidence, in: &context)
            let summary = String(
                format:
                    "text line: %d characters about %.0f px tall at %@ read alone (%@): \"%@\", mean word confidence %.2f against %.2f of the %d words there",
                line.characters, characterHeight, "\(upright)", decisions.reasons.joined(), read.text,
                read.confidence ?? 0,
                replaced.confidence, replaced.count)
            if replaced.done {
                let taken = (context.result.preprocessing?.textLines ?? []) + [upright]
                context.result.preprocessing?.textLines = taken
                context.note(summary + ": its words replace them")
            } else {
                context.note(summary + ": kept the page's reading")
            }
        }
        return false
    }
}
