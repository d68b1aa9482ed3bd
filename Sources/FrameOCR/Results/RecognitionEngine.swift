/// The engine that read a line (``LineRecognition/engine``). FrameOCR reads with two, behind one
/// seam (``LineRecognizing``): each line says which one read it.
public enum RecognitionEngine: String, Hashable, Sendable, Codable, CaseIterable {
    /// Tesseract's LSTM engine, reading the line alone with PSM 7 (``TesseractLineRecognizer``):
    /// pages, labels, machine readable zones.
    case tesseract
    /// The CTC line recognizer (``TextLineRecognizer``: PP-OCRv4's network on
    /// OpenVINO): scene text and plates.
    case ctc
}
