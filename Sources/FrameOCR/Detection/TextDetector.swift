import Foundation

/// Finds text in cluttered frames — signs, shop fronts, labels in a scene — with a neural text
/// detector: regions of text as turned rectangles (``DetectedText``), for the recognizer to read
/// line by line.
///
/// The model is a DB text detector (Liao et al., "Real-time Scene Text Detection with
/// Differentiable Binarization", AAAI 2020) in ONNX, run by OpenVINO (``NeuralRuntime``;
/// `focr_detect.h`), with DB's post-processing: the probability map thresholded, each region's
/// smallest turned rectangle scored by its mean probability and grown by the unclip distance.
/// FrameOCR uses PP-OCRv4's detector (PaddleOCR, Apache-2.0), which `make text-detector` (run by
/// `make deps`) installs unchanged from the rapidocr-onnxruntime 1.4.4 wheel, as
/// ``defaultModelPath``.
///
/// It is `Sendable`: call ``detect(_:)`` from any number of threads. Each concurrent caller gets
/// its own handle (a compiled network and its infer request are not for two threads at once),
/// made on first use and kept for reuse, up to the number of active processors or four,
/// whichever is fewer. One compiled network serves every input size (the model's height and width
/// are dynamic).
///
/// The detector's code is in the media library (`CFrameOCRMedia`), with image files and video: a
/// package that depends on the `FrameOCR` product links it in; this package's own programs load
/// `libFrameOCRMedia.so` when the first detector is made, and OpenVINO with it (`dlopen`), so that
/// a process that never makes one does not pay for them (`docs/layout.md`, `docs/openvino.md`).
///
/// The network runs on the CPU unless ``Configuration/device`` asks for a GPU or an NPU (OpenVINO's
/// plug-ins for Intel's), taken only after a parity probe against the CPU, else a fallback to the
/// CPU; ``deviceDecision`` says what was chosen and why (``NeuralDevice``, `docs/openvino.md`).
///
/// Cost, measured on the 2-core Debian 12 machine: see `docs/openvino.md` for the detector's time
/// per frame and its working memory at each ``Configuration/longSide``.
public final class TextDetector: Sendable {
    /// How the model is run and its map read.
    public struct Configuration: Hashable, Sendable {
        /// The ONNX model (default ``TextDetector/defaultModelPath``).
        public var modelPath: String
        /// The image is resized so that its longer side is this many pixels, both sides rounded
        /// to multiples of 32, before the model sees it (32…1920; default 736). Larger finds
        /// smaller text and costs about the square. How the default was chosen:
        /// `docs/tuning.md#text-detector`. The limit bounds the working memory, which grows with
        /// the input's area (it was first set where OpenCV 4.6's dnn module, retired, crashed).
        public var longSide: Int
        /// Probability (0…1) from which a pixel of the map is text. Default 0.3 (PP-OCR's).
        public var binaryThreshold: Double
        /// Mean probability (0…1) a region needs to be kept. Default 0.5 (PP-OCR's).
        public var boxThreshold: Double
        /// DB's unclip ratio (0…8): the shrunk region found is grown on every side by its area ×
        /// ratio / perimeter. Default 1.6 (PP-OCR's).
        public var unclipRatio: Double
        /// Regions examined at most (1…10 000; default 1000).
        public var maximumCandidates: Int
        /// Regions narrower than this, in pixels of the model's map, are dropped (1…1000;
        /// default 3).
        public var minimumSize: Double
        /// The device the network runs on (default ``NeuralDevice/cpu``), decided when the first
        /// detector of the model is made in the process: ``TextDetector/deviceDecision``.
        public var device: NeuralDevice

        public init(
            modelPath: String = TextDetector.defaultModelPath, longSide: Int = 736, binaryThreshold: Double = 0.3,
            boxThreshold: Double = 0.5, unclipRatio: Double = 1.6, maximumCandidates: Int = 1000,
            minimumSize: Double = 3, device: NeuralDevice = .cpu
        ) {
            self.modelPath = modelPath
            self.longSide = longSide
            self.binaryThreshold = binaryThreshold
            self.boxThreshold = boxThreshold
            self.unclipRatio = unclipRatio
            self.maximumCandidates = maximumCandidates
            self.minimumSize = minimumSize
            self.device = device
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the first setting out of its
        ///   range.
        public func validate() throws(FrameOCRError) {
            guard (32...1920).contains(longSide) else {
                throw .invalidParameter("longSide", "\(longSide) px not in 32…1920", stage: .detection)
            }
            for (name, value, range) in [
                ("binaryThreshold", binaryThreshold, 0.0...1), ("boxThreshold", boxThreshold, 0...1),
                ("unclipRatio", unclipRatio, 0...8), ("minimumSize", minimumSize, 1...1000),
            ] where !range.contains(value) {
                throw .invalidParameter(name, "\(value) not in \(range)", stage: .detection)
            }
            guard (1...10_000).contains(maximumCandidates) else {
                throw .invalidParameter("maximumCandidates", "\(maximumCandidates) not in 1…10000", stage: .detection)
            }
        }
    }

    /// Where `make text-detector` installs the model: `$FRAMEOCR_TEXT_DETECTOR` when set, else
    /// `/usr/local/share/frameocr/ppocrv4-det.onnx`.
    public static var defaultModelPath: String {
        if let p = getenv("FRAMEOCR_TEXT_DETECTOR"), p.pointee != 0 { return String(cString: p) }
        return "/usr/local/share/frameocr/ppocrv4-det.onnx"
    }

    public let configuration: Configuration
    /// Where the network runs and why (``Configuration/device`` decided when the first detector
    /// of the model was made in the process, with the parity probe's outcome). Every handle of the
    /// pool runs on its ``NeuralDeviceDecision/chosen`` device.
    public let deviceDecision: NeuralDeviceDecision
    /// The handles (each a compiled network and its infer request), kept for reuse.
    private let handles: HandlePool<TextDetectorHandle>

    /// Compiles the model on OpenVINO's CPU plug-in into a handle kept for the first caller (150–300
    /// ms the first time in a process); decides where the network runs (``deviceDecision``: for a
    /// device other than the CPU, OpenVINO's devices listed and, where it lists the device, the
    /// network compiled for it too and both run once on the probe image; a fallback is counted in
    /// ``NeuralRuntime/deviceFallbacks`` and its reason handed to the handler of
    /// ``NeuralRuntime/setDeviceFallbackHandler(_:)``).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a setting out of range;
    ///   ``FrameOCRError/Code/io`` when the model cannot be read (`make text-detector` installs
    ///   it); ``FrameOCRError/Code/unsupportedFormat`` when OpenVINO cannot read or compile it
    ///   (a truncated or foreign file; the message is OpenVINO's, with the path);
    ///   ``FrameOCRError/Code/neuralRuntimeMissing`` when OpenVINO is not installed (`make
    ///   openvino`); ``FrameOCRError/Code/unsupported`` when the media library is neither linked
    ///   in nor found (`libFrameOCRMedia.so`; the message says where it was looked for). A device
    ///   that fails the probe is no error: the detector runs on the CPU and ``deviceDecision``
    ///   says why.
    public init(configuration: Configuration = Configuration()) throws(FrameOCRError) {
        try configuration.validate()
        self.configuration = configuration
        let first = try TextDetectorHandle(modelPath: configuration.modelPath, device: configuration.device)
        deviceDecision = try first.decision()
        NeuralRuntime.note(deviceDecision, of: "the text detector's network")
        handles = HandlePool(first: first)
    }

    /// The text regions of `image` (`gray8`, or packed BGR/RGB/BGRA/RGBA: colour helps the model;
    /// at least 8×8 pixels), the most probable first, in `image`'s pixels as stored (its
    /// orientation is not applied).
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` or ``FrameOCRError/Code/invalidParameter``
    ///   for an image it cannot take (under 8×8), ``FrameOCRError/Code/unsupportedFormat`` for a
    ///   planar format (convert first), ``FrameOCRError/Code/inference`` when OpenVINO fails; and
    ///   when every handle is busy and a new one is made, the errors of ``init(configuration:)``
    ///   (the model file changed or removed since).
    public func detect(_ image: PixelBuffer) throws(FrameOCRError) -> [DetectedText] {
        try detect(image, longSide: configuration.longSide)
    }

    /// ``detect(_:)`` with the model's input resized so that its longer side is `longSide`
    /// pixels (32…1920) instead of ``Configuration/longSide``: a caller that knows the text is
    /// small asks for more (the scene reading sizes the input as PP-OCR does, by its shorter
    /// side: ``shortSideInput(width:height:shortSide:)``). Every size runs on the one compiled
    /// network; a size first seen costs OpenVINO a compile of its kernels on its first run.
    /// - Throws: the errors of ``detect(_:)``; ``FrameOCRError/Code/invalidParameter`` for a
    ///   `longSide` out of range.
    public func detect(_ image: PixelBuffer, longSide: Int) throws(FrameOCRError) -> [DetectedText] {
        var c = configuration
        c.longSide = longSide
        try c.validate()
        return try handles.with(
            make: { () throws(FrameOCRError) in
                try TextDetectorHandle(modelPath: configuration.modelPath, device: configuration.device)
            },
            { (handle) throws(FrameOCRError) in try handle.detect(image, c) })
    }

    /// The most pixels ``shortSideInput(width:height:shortSide:)`` gives the detector's input:
    /// 1,048,576 (a 1308×736 input, a 1280×720 frame's, fits). The detector's working memory grows
    /// with its input's pixels (about 200 MB a megapixel with PP-OCRv4's detector on OpenVINO's
    /// CPU plug-in), so a 2:1 panorama is searched at 1448×724, not 1472×736, and a 4000×3000
    /// photo at 981×736, not at 1920×1440 (`docs/openvino.md#memory`).
    public static let maximumInputPixels = 1 << 20

    /// The longer side of the input that makes a `width`×`height` image's shorter side
    /// `shortSide` pixels, as PP-OCR sizes its detector's input (`limit_type: min`), scaled down
    /// as well as up, and smaller where the input would hold more than ``maximumInputPixels``; at
    /// most 1920 (the largest ``Configuration/longSide``), at least 32.
    public static func shortSideInput(width: Int, height: Int, shortSide: Int) -> Int {
        let (short, long) = (max(1, min(width, height)), max(width, height))
        let aspect = Double(long) / Double(short)
        let scale = min(
            Double(shortSide) / Double(short), (Double(maximumInputPixels) / aspect).squareRoot() / Double(short))
        return min(1920, max(32, Int((Double(long) * scale).rounded())))
    }
}
