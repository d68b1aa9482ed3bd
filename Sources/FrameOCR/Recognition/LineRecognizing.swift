/// A line engine: reads one upright line of text in an image of its own — a region a
/// ``TextDetector`` found, cut out and turned level; a plate; a label's line — and returns its
/// text, confidence, and each character with its box and choices (``LineRecognition``).
///
/// FrameOCR has two: ``TextLineRecognizer`` (``RecognitionEngine/ctc``: PP-OCRv4's CTC recognizer
/// on OpenVINO; scene text and plates) and ``TesseractLineRecognizer``
/// (``RecognitionEngine/tesseract``: Tesseract with PSM 7; pages, labels, machine readable
/// zones). Both are `Sendable` and keep a pool of engines: call them from any number of threads.
public protocol LineRecognizing: Sendable {
    /// The engine behind this recognizer (what each ``LineRecognition/engine`` says).
    var engine: RecognitionEngine { get }

    /// Reads the one line of text in `image`, as stored (its ``PixelBuffer/orientation`` is not
    /// applied: the text must run left to right, upright).
    /// - Parameter image: the line's crop: `gray8` or packed BGR/RGB/BGRA/RGBA, any
    ///   `bytesPerRow`, the text about as tall as the image.
    /// - Returns: the text read (empty, with a nil confidence, when there is none), boxes in
    ///   `image`'s pixels.
    /// - Throws: ``FrameOCRError`` when the image cannot be read (each conformer lists its codes).
    func recognizeLine(_ image: PixelBuffer) throws(FrameOCRError) -> LineRecognition
}
