/// A single line (a crop of a word, a plate, a label's line: ``PreprocessingDecisions/singleLine``)
/// that Tesseract read poorly (mean word confidence below ``SecondReadings/poorBelow``) read whole
/// by the CTC line recognizer too, and the more confident of its reading and Tesseract's kept
/// (``RegionReading/choose(ctc:tesseract:)``), under ``EngineSelection/auto`` — unless the line
/// sits in a loose crop (the crop more than 2.5 times as tall as its text: the CTC recognizer
/// reads the crop whole, and the text would be small in it).
/// Under ``EngineSelection/ctc`` the CTC reading is the result and Tesseract does not read the
/// line (``SceneTextReading/readEarly(_:)`` ends the plan before the page is read).
///
/// Runs after the line strategies (which may have improved Tesseract's reading of the line) and
/// notes which engine's reading was kept.
struct EngineChoiceReading: ReadingStrategy {
    func isOn(in readings: SecondReadings) -> Bool { true }

    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        // Tesseract's reading of the line stands when it is not poor (RegionReading.choose): the
        // CTC recognizer is not asked.
        let tesseract = context.result.confidence
        guard context.engine == .auto, let p = context.result.preprocessing, p.singleLine,
            (tesseract ?? 0) < SecondReadings.poorBelow
        else { return false }
        // A line in a loose crop (the crop more than looseLineCrop times as tall as its ink):
        // the CTC recognizer reads the crop whole, where the text would be small. Tesseract's
        // reading of the line, scaled by its ink band, stands.
        if p.looseLine {
            context.note("engines: a single line in a loose crop: Tesseract's reading stands")
            return false
        }
        guard let line = try Self.readWhole(&context) else { return false }
        guard let (blocks, engine) = RegionReading.choose(ctc: line, tesseract: context.result.blocks) else {
            return false
        }
        if engine == .ctc { context.adopt(context.rebuilt(blocks)) }
        context.note(
            String(
                format: "engines: a single line: ctc read %@ (%.2f), tesseract %.2f: %@'s kept", "\"\(line.text)\"",
                line.confidence ?? 0, tesseract ?? 0, engine.rawValue))
        return false
    }

    /// The upright region read whole as one line by the CTC recognizer (nil when there is none or
    /// it read nothing).
    static func readWhole(_ context: inout ReadingContext) throws(FrameOCRError) -> TextLine? {
        guard let recognizer = try context.lineRecognizer() else { return nil }
        let (image, origin) = try context.uprightColour()
        let whole = DetectedText(
            center: Point(x: Double(image.width) / 2, y: Double(image.height) / 2), width: Double(image.width),
            height: Double(image.height), angleDegrees: 0, score: 1)
        return try RegionReading.read(
            whole, of: image, origin: origin, frameWidth: context.result.transform.uprightWidth,
            frameHeight: context.result.transform.uprightHeight, recognizer: recognizer,
            options: context.options, timings: &context.result.timings, pool: context.pool)
    }
}
