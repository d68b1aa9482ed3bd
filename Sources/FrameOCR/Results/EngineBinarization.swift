/// The binarization Tesseract applies before it finds lines and words (its `thresholding_method`
/// variable, Tesseract 5). Only layout analysis sees the binary image: the LSTM recognizer reads
/// each word's gray levels either way. FrameOCR's own thresholding (``Pipeline/threshold``)
/// happens before Tesseract and is what the recognizer then reads.
public enum EngineBinarization: Int32, Sendable, CaseIterable, Codable {
    /// One Otsu threshold for the whole image (Tesseract's default).
    case otsu = 0
    /// Leptonica's tiled Sauvola (`pixSauvolaBinarizeTiled`, Sauvola & Pietikäinen 2000): a
    /// threshold per pixel from the mean and deviation of a window 0.33 inch wide (100 px at
    /// the default 300 ppi), k = 0.34. Copes with uneven light and faint print.
    case sauvola = 1
    /// Leptonica's tiled adaptive Otsu (`pixOtsuAdaptiveThreshold`): one Otsu threshold per tile
    /// of 0.33 inch, smoothed between tiles.
    case adaptiveOtsu = 2
}
