import CFrameOCR
import Foundation
import Testing

@testable import FrameOCR

/// The media library's OpenVINO room (Sources/CFrameOCRMedia/openvino/runtime.cpp,
/// focr_openvino.h): the runtime found in the build tree and loaded once, and models it cannot
/// read refused with a typed error. Needs `make openvino` (run by `make deps`).
@Suite("OpenVINO: the runtime, loaded with dlopen")
struct OpenVINORuntimeTests {
    @Test("Loaded from the checkout's build tree: the pinned release, the folders in order")
    func loaded() throws {
        let info = try NeuralRuntime.load()
        #expect(info.version.hasPrefix(NeuralRuntime.expectedVersion + "-"), "\(info.version)")
        #expect(info.library.hasSuffix("/.build/openvino/lib/libopenvino_c.so.2641"), "\(info.library)")
        #expect(
            info.searchedFolders == [
                URL(fileURLWithPath: info.library).deletingLastPathComponent().path,
                "/usr/local/lib/frameocr/openvino/lib",
            ])
        // A second call answers with the same runtime.
        #expect(try NeuralRuntime.load() == info)
        var c = focr_openvino_info()
        #expect(focr_openvino_runtime(&c) == FOCR_OK && c.loaded == 1)
        #expect(focr_openvino_runtime(nil) == FOCR_E_INVALID_ARGUMENT)
    }

    @Test(
        "The CPU's capabilities and OpenVINO's devices listed (the CPU alone: `make openvino` installs its plug-in only); the process's configuration set, read back and refused out of range"
    )
    func configuration() throws {
        let info = try NeuralRuntime.load()
        #expect(info.capabilities.contains("FP32"), "\(info.capabilities)")
        #expect(info.devices == ["CPU"], "\(info.devices)")
        let before = NeuralRuntime.configuration
        defer { try? NeuralRuntime.configure(before) }
        #expect(before == NeuralRuntime.Configuration(workers: 1, threads: 0, precision: .auto))
        // Set on the Swift side, handed to the media library as an engine is made.
        let wanted = NeuralRuntime.Configuration(workers: 3, threads: 2, precision: .bf16)
        try NeuralRuntime.configure(wanted)
        #expect(NeuralRuntime.configuration == wanted)
        _ = try TextAngleClassifier()
        var c = focr_openvino_config()
        #expect(focr_openvino_configuration(&c) == FOCR_OK && c.workers == 3 && c.threads == 2 && c.precision == 2)
        for (workers, threads, precision) in [(0, 0, 0), (257, 0, 0), (1, -1, 0), (1, 1025, 0), (1, 0, 3)]
            as [(Int32, Int32, Int32)]
        {
            var bad = focr_openvino_config(workers: workers, threads: threads, precision: precision)
            #expect(focr_openvino_configure(&bad) == FOCR_E_INVALID_ARGUMENT, "\(workers) \(threads) \(precision)")
        }
        #expect(focr_openvino_configure(nil) == FOCR_E_INVALID_ARGUMENT)
        // Refused values leave the configuration as it was.
        #expect(focr_openvino_configuration(&c) == FOCR_OK && c.workers == 3)
        for bad in [
            NeuralRuntime.Configuration(workers: 0), .init(workers: 257), .init(threads: -1), .init(threads: 1025),
        ] {
            do {
                try NeuralRuntime.configure(bad)
                Issue.record("\(bad) accepted")
            } catch {
                #expect(error.code == .invalidParameter, "\(error)")
            }
        }
        #expect(NeuralRuntime.configuration == wanted)
    }

    /// `count` bytes of `path` into a temporary file (a truncated download), removed by the caller.
    static func truncated(_ path: String, _ count: Int) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(count)
        let out = NSTemporaryDirectory() + "frameocr-truncated-\(UUID().uuidString).onnx"
        try bytes.write(to: URL(fileURLWithPath: out))
        return out
    }

    @Test("Truncated, empty or foreign models: each engine refuses them with a typed error naming the file")
    func badModels() throws {
        let detector = try Self.truncated(TextDetector.defaultModelPath, 100_000)
        let recognizer = try Self.truncated(TextLineRecognizer.defaultModelPath, 4096)
        let empty = try Self.truncated(TextLineRecognizer.defaultModelPath, 0)
        let text = NSTemporaryDirectory() + "frameocr-not-a-model-\(UUID().uuidString).onnx"
        try Data("not a model\n".utf8).write(to: URL(fileURLWithPath: text))
        defer { for f in [detector, recognizer, empty, text] { try? FileManager.default.removeItem(atPath: f) } }

        var out: OpaquePointer?
        for path in [detector, text] {
            #expect(focr_text_detector_create(path, 0, &out) == FOCR_E_UNSUPPORTED && out == nil)
            let message = String(cString: focr_last_error())
            #expect(message.contains(path) && message.contains("OpenVINO"), "\(message)")
        }
        #expect(
            focr_text_recognizer_create(recognizer, TextLineRecognizer.defaultKeysPath, 0, &out) == FOCR_E_UNSUPPORTED)
        #expect(String(cString: focr_last_error()).contains(recognizer))
        #expect(focr_text_recognizer_create(empty, TextLineRecognizer.defaultKeysPath, 0, &out) == FOCR_E_IO)
        #expect(String(cString: focr_last_error()).contains("empty model file"))
        #expect(focr_text_angle_classifier_create(text, &out) == FOCR_E_UNSUPPORTED && out == nil)
        // Through the Swift API: the same, typed.
        #expect(throws: FrameOCRError.self) {
            try TextDetector(configuration: .init(modelPath: detector))
        }
        do {
            _ = try TextLineRecognizer(configuration: .init(modelPath: recognizer))
            Issue.record("a truncated model was accepted")
        } catch {
            #expect(error.code == .unsupportedFormat && error.message.contains(recognizer), "\(error)")
        }
    }
}
