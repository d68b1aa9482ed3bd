/// Which engine reads text: Tesseract, the CTC line recognizer (``TextLineRecognizer``), or each
/// where it reads best (``RecognizerConfiguration/engine``; the command line's `--engine`).
///
/// - ``tesseract``: Tesseract reads everything, as before the CTC engine existed: pages, lines
///   and the regions the text detector finds in a scene.
/// - ``ctc``: the CTC recognizer reads every line: a single line (a crop) whole, anything else
///   as the text detector's regions, each cut out upright; Tesseract is not asked (nor its
///   orientation detection: the regions' geometry turns them).
/// - ``auto`` (the default): a frame measured to be a scene — uneven light without a page in it,
///   its text covering little of it by the detector (``SecondReadings/sceneMaximumTextCover``) —
///   is read as regions by the CTC recognizer alone; a single line is read by both
///   and the more confident reading, calibrated per engine, is kept; pages, documents and clean
///   lines are read by Tesseract, and a page that still reads as a scene afterwards has its
///   regions read by both. How the rules were chosen: `docs/tuning.md#engines`.
///
/// Each word says which engine read it (``TextWord/engine``); the CTC recognizer's time is in
/// ``StageTimings/lineRecognition``.
public enum EngineSelection: String, Hashable, Sendable, Codable, CaseIterable {
    case tesseract
    case ctc
    case auto
}
