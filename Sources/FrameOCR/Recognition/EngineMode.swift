/// Tesseract's OCR engine mode (OEM), as `tesseract --oem N`.
public enum EngineMode: Int32, Sendable, CaseIterable, Codable {
    case tesseractOnly = 0
    case lstmOnly = 1
    case tesseractAndLSTM = 2
    /// Whatever the installed models support (LSTM with Debian's `tesseract-ocr-eng`).
    case `default` = 3
}
