import Foundation

/// The dominant-line strategy (``SecondReadings/dominantLine``).
///
/// When the reading is poor (mean word confidence below ``SecondReadings/poorBelow``) and the image
/// holds a line of large text (characters at least a quarter of its height, `focr_dominant_line`:
/// a licence plate's number, a cropped word of a sign) with other ink around it (at least
/// ``minimumClutter`` of its own: a plate's frame, state name, emblems), that line is read alone
/// (``LineReader/read(_:drawn:box:region:characterHeight:characterAspect:context:)``: its
/// characters black on white, everything around them removed), and that reading's words replace
/// the page's words on that line (their centres inside its box) when its mean word confidence is
/// higher than theirs (0 when there are none) by ``SecondReadings/clearlyBetter``. The decision is in
/// ``PreprocessingDecisions/dominantLine`` and its reasons.
///
/// How its numbers were chosen: `docs/tuning.md#dominant-line`.
struct DominantLineReading: ReadingStrategy {
    /// Ink around the dominant line, per pixel of its own ink, below which it is not read alone:
    /// without clutter around it the page's reading already saw the line as it is.
    static let minimumClutter: Float = 0.1
    /// Fewest characters of a dominant line.
    static let minimumCharacters = 3

    func isOn(in readings: SecondReadings) -> Bool { readings.dominantLine }

    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        guard (context.result.confidence ?? 0) < SecondReadings.poorBelow else { return false }
        // The line is cut from the unscaled upright region (a caller's `scale` leaves it alone).
        guard let gray = try context.unscaledUprightGray() else { return false }
        let drawn = try PixelBuffer.destination(
            nil, pool: context.pool, width: gray.image.width, height: gray.image.height,
            format: .gray8, stage: .threshold)
        let line = try Shim.dominantLine(gray.image, into: drawn)
        guard line.characters >= Self.minimumCharacters, line.clutter >= Self.minimumClutter else { return false }
        let box = line.box
        let upright = PixelRect(
            x: gray.transform.region.x + box.x, y: gray.transform.region.y + box.y, width: box.width,
            height: box.height)
        let (read, decisions) = try LineReader.read(
            gray, drawn: drawn, box: box, region: upright,
            characterHeight: Double(line.characterHeight), characterAspect: nil,
            context: context)
        let replaced = LineReader.replaceWords(on: Rect(upright), with: read, minimum: 0, in: &context)
        let summary = String(
            format:
                "dominant line: %d characters about %.0f px tall%@ at %@ read alone: mean word confidence %.2f against %.2f of the %d words there",
            line.characters, line.characterHeight, line.inverted ? " (light on dark)" : "", "\(upright)",
            read.confidence ?? 0,
            replaced.confidence, replaced.count)
        guard replaced.done else {
            context.note(summary + ": kept the page's reading")
            return false
        }
        context.result.preprocessing?.dominantLine = upright
        context.note(summary + ": its words replace them")
        context.result.preprocessing?.reasons += decisions.reasons.map { "dominant line: " + $0 }
        return false
    }
}
