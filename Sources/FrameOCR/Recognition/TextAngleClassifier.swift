import Foundation

/// Says whether a line of text is the right way up or turned 180°: the CTC engine's crops of
/// scene text (``RecognitionEngine/ctc``), before they are read, as PP-OCR's pipeline does.
///
/// The model is PP-OCR's text direction classifier (PaddleOCR's "ch" mobile v2.0 model,
/// Apache-2.0, as the rapidocr-onnxruntime 1.4.4 wheel ships it: a MobileNetV3 with two classes,
/// 0° and 180°), installed unchanged by `make deps` as ``defaultModelPath``. It runs on OpenVINO's
/// CPU plug-in, f32 (``NeuralRuntime``; `focr_text_angle_classifier_classify_batch`,
/// `focr_recognize.h`): the crop resized to 48 rows keeping its aspect, at most 192 columns (a
/// longer line squeezed), normalized as the recognizer's input, padded to 48×192, run once
/// (`docs/openvino.md` has its time).
///
/// The crop must be the line turned level (the detector's region turned by its angle): the
/// classifier tells its two readings apart, upright and upside down. A region the detector found
/// standing (turned about 90°) is turned level by its angle either way round, and the classifier
/// says which way was right.
///
/// It is `Sendable`: call it from any number of threads; each concurrent caller gets its own
/// network (a pool, as ``TextLineRecognizer``'s).
public final class TextAngleClassifier: Sendable {
    /// Which model, and when a crop counts as upside down.
    public struct Configuration: Hashable, Sendable {
        /// The ONNX model (default ``TextAngleClassifier/defaultModelPath``).
        public var modelPath: String
        /// A crop counts as upside down (``TextAngleClassifier/isUpsideDown(_:)``) when the model
        /// gives 180° at least this probability (0.5…1; default 0.5, the more probable class;
        /// PP-OCR turns a crop at 0.9, its `cls_thresh`). The scene reading reads such a crop both
        /// ways and keeps the more confident reading. How it was chosen: `docs/tuning.md#engines`.
        public var threshold: Double

        public init(modelPath: String = TextAngleClassifier.defaultModelPath, threshold: Double = 0.5) {
            self.modelPath = modelPath
            self.threshold = threshold
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` when ``threshold`` is outside 0.5…1.
        public func validate() throws(FrameOCRError) {
            guard threshold >= 0.5 && threshold <= 1 else {
                throw .invalidParameter("threshold", "\(threshold) not in 0.5…1", stage: .recognition)
            }
        }
    }

    /// Where `make deps` installs the model: `$FRAMEOCR_TEXT_ANGLE_CLASSIFIER` when set, else
    /// `/usr/local/share/frameocr/ppocr-cls.onnx`.
    public static var defaultModelPath: String {
        if let p = getenv("FRAMEOCR_TEXT_ANGLE_CLASSIFIER"), p.pointee != 0 { return String(cString: p) }
        return "/usr/local/share/frameocr/ppocr-cls.onnx"
    }

    public let configuration: Configuration
    /// The handles (each with its network), kept for reuse.
    private let handles: HandlePool<TextAngleClassifierHandle>

    /// Loads the model and runs it once on a blank input to check its output (its first network,
    /// kept for the first caller).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a threshold out of range;
    ///   ``FrameOCRError/Code/io`` when the model cannot be read (`make deps` installs it);
    ///   ``FrameOCRError/Code/unsupportedFormat`` when OpenVINO cannot read, compile or run it
    ///   or its output is not two classes; ``FrameOCRError/Code/neuralRuntimeMissing`` when
    ///   OpenVINO is not installed (`make openvino`); ``FrameOCRError/Code/unsupported`` when the
    ///   media library is neither linked in nor found. All with stage ``FrameOCRError/Stage/recognition``.
    public init(configuration: Configuration = Configuration()) throws(FrameOCRError) {
        try configuration.validate()
        self.configuration = configuration
        handles = HandlePool(first: try TextAngleClassifierHandle(modelPath: configuration.modelPath))
    }

    /// The probability, 0…1, that the line in `image` is turned 180°.
    /// - Parameter image: `gray8`, or packed BGR/RGB/BGRA/RGBA (any `bytesPerRow`), at least 1×1
    ///   pixels, as stored: a line's crop turned level, the text about as tall as the image.
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` for an image it cannot take,
    ///   ``FrameOCRError/Code/unsupportedFormat`` for a planar format,
    ///   ``FrameOCRError/Code/inference`` when OpenVINO fails; when a new handle is made, the errors of ``init(configuration:)``.
    public func upsideDownProbability(_ image: PixelBuffer) throws(FrameOCRError) -> Double {
        try upsideDownProbabilities([image])[0]
    }

    /// ``upsideDownProbability(_:)`` of each of `images`, in their order, read together: up to 8
    /// crops in one run of the network (`focr_text_angle_classifier_classify_batch`; each resized
    /// and padded as it is alone, so each gives its probability alone, to float rounding), about
    /// half the time a crop of reading them one by one. Empty for no images.
    /// - Throws: what ``upsideDownProbability(_:)`` throws; an image it cannot take is named by its
    ///   index (`srcs[3]`).
    public func upsideDownProbabilities(_ images: [PixelBuffer]) throws(FrameOCRError) -> [Double] {
        guard !images.isEmpty else { return [] }
        let p = try handles.with(
            make: { () throws(FrameOCRError) in try TextAngleClassifierHandle(modelPath: configuration.modelPath) },
            { (handle) throws(FrameOCRError) in try handle.upsideDown(images) })
        return p.map(Double.init)
    }

    /// Whether the line in `image` is upside down: ``upsideDownProbability(_:)`` at least
    /// ``Configuration/threshold``. Throws what ``upsideDownProbability(_:)`` throws.
    public func isUpsideDown(_ image: PixelBuffer) throws(FrameOCRError) -> Bool {
        try upsideDownProbability(image) >= configuration.threshold
    }
}
