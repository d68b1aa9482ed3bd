import Synchronization

/// OpenVINO, the runtime of the neural engines: ``TextDetector``, ``TextLineRecognizer`` and
/// ``TextAngleClassifier`` run their models on it (`focr_openvino.h`, `docs/openvino.md`).
///
/// Its C library comes from the pinned PyPI wheel `openvino` (2026.4.1, Apache-2.0), which
/// `make openvino` (run by `make deps`) downloads, checks against its SHA-256 and unpacks, only the
/// files the CPU needs (about 90 MB), into the checkout's `.build/openvino`. The media library
/// opens it with `dlopen` on the first network made and never links it, so the package builds,
/// and reads with Tesseract, without it; a neural engine then fails to be made with
/// ``FrameOCRError/Code/neuralRuntimeMissing``.
///
/// Where it is looked for (`libopenvino_c.so.2641`): `$FRAMEOCR_OPENVINO_DIR` alone when set;
/// else the checkout's `.build/openvino/lib`, then `/usr/local/lib/frameocr/openvino/lib`.
public enum NeuralRuntime {
    /// The runtime as loaded.
    public struct Info: Hashable, Sendable, Codable {
        /// The path of the C library loaded, e.g. `…/.build/openvino/lib/libopenvino_c.so.2641`.
        public var library: String
        /// OpenVINO's build number, e.g. `2026.4.1-22982-e213a147257-releases/2026/4`.
        public var version: String
        /// The folders searched, in order.
        public var searchedFolders: [String]
        /// The CPU's optimization capabilities as OpenVINO lists them, e.g. `["FP32", "INT8",
        /// "BIN", "EXPORT_IMPORT"]`; `BF16` among them where the CPU computes in bf16 (AVX-512 BF16
        /// or AMX), which ``Precision/auto`` and ``Precision/bf16`` need.
        public var capabilities: [String]
        /// The devices OpenVINO lists, e.g. `["CPU"]` (what `make openvino` installs) or `["CPU",
        /// "GPU.0", "NPU"]` where its GPU and NPU plug-ins are installed and find their devices:
        /// what ``NeuralDevice`` can choose from.
        public var devices: [String]
    }

    /// The OpenVINO release FrameOCR is built and tested against.
    public static let expectedVersion = "2026.4.1"

    /// Loads the runtime, once per process (later calls answer at once, with the same outcome),
    /// and says where from. Thread-safe. Implemented by `focr_openvino_runtime`
    /// (`Sources/CFrameOCRMedia/openvino/runtime.cpp`).
    /// - Throws: ``FrameOCRError/Code/neuralRuntimeMissing`` when the library is in none of the
    ///   folders or cannot be loaded (the message names the file, the folders and `make openvino`);
    ///   ``FrameOCRError/Code/inference`` when OpenVINO cannot start;
    ///   ``FrameOCRError/Code/unsupported`` when the media library itself is not found.
    public static func load() throws(FrameOCRError) -> Info {
        try Shim.openVINORuntime().runtime.get()
    }

    /// The precision the networks run in on the CPU (OpenVINO's `INFERENCE_PRECISION_HINT`).
    public enum Precision: String, CaseIterable, Sendable, Codable {
        /// The detector in bf16 where the CPU has it (its map barely moves: mask IoU .96–.995,
        /// 2.3–2.7× faster), the recognizer and the classifier in f32 (bf16 changed the text of 8
        /// of 113 PP-OCRv4 line crops). On a CPU without bf16, every network in f32. The default.
        case auto
        /// Every network in f32.
        case f32
        /// Every network in bf16 where the CPU has it; in f32 where it has not (OpenVINO computes
        /// in f32 there: nothing is emulated).
        case bf16

        var code: Int32 {
            switch self {
            case .auto: 0
            case .f32: 1
            case .bf16: 2
            }
        }
    }

    /// How the neural networks are compiled, for the whole process: the networks made after
    /// ``configure(_:)`` use it; those made before keep theirs.
    public struct Configuration: Hashable, Sendable, Codable {
        /// The engines that may run at once (the caller's worker threads), 1…256 (default 1):
        /// `NUM_STREAMS` of the recognizer's and the classifier's networks. The detector's stays 1:
        /// each stream holds its own working memory (at 1 MP a second one cost 156 MB for 14 % more
        /// detections a second; `docs/openvino.md#threads`).
        public var workers: Int
        /// The cores OpenVINO may use (`INFERENCE_NUM_THREADS`, the caller's core budget), 0…1024;
        /// 0 (the default): OpenVINO's choice, every core.
        public var threads: Int
        /// The precision (default ``Precision/auto``).
        public var precision: Precision

        public init(workers: Int = 1, threads: Int = 0, precision: Precision = .auto) {
            self.workers = workers
            self.threads = threads
            self.precision = precision
        }
    }

    /// Sets how the networks made from now on are compiled (``Configuration``), for the whole
    /// process: kept here and handed to OpenVINO's room (`focr_openvino_configure`) as each
    /// neural engine is made, so that setting it loads no library (a page read with Tesseract
    /// alone never loads the media library). The command line sets it from `--jobs`/`--workers`
    /// and `--precision`. Thread-safe.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for `workers` outside 1…256 or `threads`
    ///   outside 0…1024.
    public static func configure(_ configuration: Configuration) throws(FrameOCRError) {
        guard (1...256).contains(configuration.workers) else {
            throw .invalidParameter("workers", "\(configuration.workers) not in 1…256", stage: .recognition)
        }
        guard (0...1024).contains(configuration.threads) else {
            throw .invalidParameter("threads", "\(configuration.threads) not in 0…1024", stage: .recognition)
        }
        current.withLock { $0 = configuration }
    }

    /// The configuration in force (``configure(_:)``; the defaults until it is called).
    public static var configuration: Configuration { current.withLock { $0 } }

    private static let current = Mutex(Configuration())

    /// The folders searched for the library, in order (`$FRAMEOCR_OPENVINO_DIR` alone when set).
    /// Loads the runtime if it is not loaded yet (the folders are the media library's).
    public static var searchedFolders: [String] { Shim.openVINORuntime().folders }

    /// The engines made in this process whose network fell back to the CPU
    /// (``NeuralDeviceDecision/fellBack``): one per ``TextDetector`` or ``TextLineRecognizer``
    /// made. `serve` exposes it as `frameocr_neural_device_fallbacks_total`. Thread-safe.
    public static var deviceFallbacks: Int { fallbacks.withLock { $0.count } }

    /// Sets what is done with each fallback's line (``deviceFallbacks``), e.g. "the text
    /// detector's network: asked for the GPU, but OpenVINO lists none (its devices: CPU; …)": the
    /// handler is called once per engine that falls back, on the thread that makes it, after the
    /// count went up. nil (the default) drops the line. The command line sets one that writes
    /// `frameocr: warning: …` to standard error. Thread-safe.
    public static func setDeviceFallbackHandler(_ handler: (@Sendable (String) -> Void)?) {
        fallbacks.withLock { $0.handler = handler }
    }

    /// `decision`, of an engine just made (`engine`: "the text detector's network"), counted and
    /// handed to the handler when it fell back.
    static func note(_ decision: NeuralDeviceDecision, of engine: String) {
        guard decision.fellBack else { return }
        let handler = fallbacks.withLock { f in
            f.count += 1
            return f.handler
        }
        handler?("\(engine): \(decision.reason)")
    }

    private static let fallbacks = Mutex<(count: Int, handler: (@Sendable (String) -> Void)?)>((0, nil))
}
