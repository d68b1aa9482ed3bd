/// The one error type of FrameOCR: a code, a message and the stage that failed.
///
/// Invalid input throws; a missed deadline is not an error (it is a result status).
public struct FrameOCRError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A parameter is out of its documented range (the message names it).
        public static let invalidParameter = Code(rawValue: "invalidParameter")
        /// A buffer's size, stride, plane count or format is inconsistent.
        public static let invalidBuffer = Code(rawValue: "invalidBuffer")
        /// A region of interest is empty, negative, outside the frame or (strict mode) clamped.
        public static let invalidROI = Code(rawValue: "invalidROI")
        /// The operation does not support this pixel format.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// This process cannot do the operation: the code for it is not in it. Image files, video
        /// and the text detector are in the media library (`CFrameOCRMedia`), which a package that
        /// depends on the `FrameOCR` product links in; a program built against the `FrameOCR`
        /// target (this package's own) loads `libFrameOCRMedia.so` on first use, from beside the
        /// program or `$FRAMEOCR_MEDIA_LIBRARY`, and throws this when it is not there (the message
        /// says where it was looked for).
        public static let unsupported = Code(rawValue: "unsupported")
        /// A file, directory or camera device is missing or unreadable, or a stream or pipeline
        /// cannot be opened (connection refused, no such stream, a missing GStreamer element).
        public static let io = Code(rawValue: "io")
        /// A file exists but is not a decodable image.
        public static let decode = Code(rawValue: "decode")
        /// OpenCV raised an exception (caught in the shim).
        public static let openCV = Code(rawValue: "openCV")
        /// Tesseract failed to load its models or to recognize.
        public static let tesseract = Code(rawValue: "tesseract")
        /// Memory could not be allocated.
        public static let outOfMemory = Code(rawValue: "outOfMemory")
        /// An OpenCL call or kernel build failed.
        public static let openCL = Code(rawValue: "openCL")
        /// No OpenCL device to run on: no platform or device at all (no ICD installed), none
        /// matching the index or name asked for, or, for ``Backend/automatic``, no GPU.
        public static let noOpenCLDevice = Code(rawValue: "noOpenCLDevice")
        /// The OpenCL device lacks what FrameOCR's kernels need (local memory, work-group size;
        /// the message says what it has and what they need).
        public static let openCLDeviceUnsupported = Code(rawValue: "openCLDeviceUnsupported")
        /// A live video source (a camera, a network stream, a GStreamer pipeline) delivered no
        /// frame within its stall timeout, or did not open within its open timeout; with a
        /// reconnect policy, also when every reconnect attempt failed (the message says how
        /// many, and why the last one did). See ``VideoSource/Options``.
        public static let streamStalled = Code(rawValue: "streamStalled")
        /// An image file's header, a decoded image, a video stream's frames or a raw frame are
        /// larger than ``ImageLimits`` allow (the message gives the size and the limit). Checked
        /// before the pixels are allocated wherever the size is known first.
        public static let imageTooLarge = Code(rawValue: "imageTooLarge")
        /// OpenVINO, the runtime of the neural engines (``TextDetector``, ``TextLineRecognizer``,
        /// ``TextAngleClassifier``), is not installed or cannot be loaded. The message names the
        /// library looked for, the folders searched (`$FRAMEOCR_OPENVINO_DIR`, the checkout's
        /// `.build/openvino/lib`, `/usr/local/lib/frameocr/openvino`) and `make openvino`, which
        /// installs it. Tesseract's reading never needs it.
        public static let neuralRuntimeMissing = Code(rawValue: "neuralRuntimeMissing")
        /// OpenVINO failed: a model it cannot compile, or an inference that failed (its message,
        /// with the model's path).
        public static let inference = Code(rawValue: "inference")
        /// Anything else raised inside the shim.
        public static let internalError = Code(rawValue: "internal")
    }

    /// The pipeline stage or API that failed (`annotation`: drawing boxes and labels for people,
    /// ``PixelBuffer/annotated(with:into:pool:)`` and ``AnnotatedVideoRecorder``; `detection`:
    /// the scene-text detector, ``TextDetector``).
    public enum Stage: String, Sendable, Codable {
        case buffer, backend, load, colorConversion, crop, rotation, scale, threshold, recognition, write,
            orientationDetection, annotation, detection
    }

    public var code: Code
    public var message: String
    public var stage: Stage

    public init(_ code: Code, _ message: String, stage: Stage) {
        self.code = code
        self.message = message
        self.stage = stage
    }

    public var description: String { "\(stage.rawValue): \(message)" }

    package static func invalidParameter(_ name: String, _ detail: String, stage: Stage) -> FrameOCRError {
        FrameOCRError(.invalidParameter, "\(name): \(detail)", stage: stage)
    }
}
