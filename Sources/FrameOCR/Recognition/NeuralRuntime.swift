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

    /// The folders searched for the library, in order (`$FRAMEOCR_OPENVINO_DIR` alone when set).
    /// Loads the runtime if it is not loaded yet (the folders are the media library's).
    public static var searchedFolders: [String] { Shim.openVINORuntime().folders }
}
