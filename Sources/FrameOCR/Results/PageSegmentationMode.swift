/// Tesseract's page segmentation mode (PSM), as `tesseract --psm N`.
public enum PageSegmentationMode: Int32, Sendable, CaseIterable, Codable {
    case osdOnly = 0
    case autoWithOSD = 1
    case autoOnly = 2
    /// Fully automatic page segmentation (the `tesseract` command's default).
    case auto = 3
    case singleColumn = 4
    case singleBlockVerticalText = 5
    /// A single uniform block of text (the C API's default and FrameOCR's).
    case singleBlock = 6
    case singleLine = 7
    case singleWord = 8
    case circleWord = 9
    case singleCharacter = 10
    case sparseText = 11
    case sparseTextWithOSD = 12
    case rawLine = 13
}
