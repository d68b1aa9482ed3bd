import Foundation
import Synchronization
import Testing

@testable import FrameOCR

/// Where the neural engines' networks run (``NeuralDevice``, ``NeuralDeviceDecision``;
/// `focr_dnn.h`): the text detector's and the CTC line recognizer's, decided once per model and
/// device in a process, on OpenVINO's devices. `make openvino` installs its CPU plug-in only, so
/// OpenVINO lists the CPU alone here: `gpu` and `npu` fall back to the CPU (counted, logged),
/// `auto` keeps to it without a fallback. Serialized: the fallback count and its handler are the
/// process's, and no other suite asks for a device but the CPU.
@Suite("neural device: cpu, gpu, npu and auto for the detector and the line recognizer", .serialized)
struct NeuralDeviceTests {
    /// What OpenVINO lists here, for the reasons.
    static let devices = "CPU"
    static let plugins = "its GPU and NPU plug-ins, for Intel devices, are not among the files `make openvino` installs"

    @Test("The devices' names: cpu, gpu, npu, auto (the command line's); OpenVINO lists the CPU alone here")
    func names() throws {
        #expect(NeuralDevice.allCases.map(\.rawValue) == ["cpu", "gpu", "npu", "auto"])
        #expect(NeuralDevice(rawValue: "opencl") == nil)
        let data = try JSONEncoder().encode([NeuralDevice.npu])
        #expect(String(decoding: data, as: UTF8.self) == "[\"npu\"]")
        #expect(try NeuralRuntime.load().devices == [Self.devices])
    }

    @Test("cpu, the default: nothing listed, no probe, no fallback")
    func cpu() throws {
        let before = NeuralRuntime.deviceFallbacks
        let recognizer = try TextLineRecognizer()
        let detector = try TextDetector()
        for d in [recognizer.deviceDecision, detector.deviceDecision] {
            #expect(d.requested == .cpu && d.chosen == .cpu && !d.fellBack)
            #expect(d.devices == nil && d.device == nil && d.probe == nil)
            #expect(d.reason == "asked for the CPU")
            #expect(d.description == "cpu: cpu (asked for the CPU)")
        }
        #expect(NeuralRuntime.deviceFallbacks == before)
    }

    @Test("gpu and npu here: the CPU, a fallback counted once per engine and logged with its reason; the same text")
    func fallback() throws {
        let lines = Mutex<[String]>([])
        NeuralRuntime.setDeviceFallbackHandler { line in lines.withLock { $0.append(line) } }
        defer { NeuralRuntime.setDeviceFallbackHandler(nil) }
        let cpu = try TextLineRecognizerTests.recognizer()
        let image = try TextLineRecognizerTests.line("AB12 CDE")
        for (device, name) in [(NeuralDevice.gpu, "GPU"), (.npu, "NPU")] {
            let before = NeuralRuntime.deviceFallbacks
            lines.withLock { $0 = [] }
            let recognizer = try TextLineRecognizer(configuration: .init(device: device))
            let detector = try TextDetector(configuration: .init(device: device))
            let reason =
                "asked for the \(name), but OpenVINO lists none (its devices: \(Self.devices); \(Self.plugins))"
            for d in [recognizer.deviceDecision, detector.deviceDecision] {
                #expect(d.requested == device && d.chosen == .cpu && d.fellBack, "\(d)")
                #expect(d.devices == [Self.devices] && d.device == nil && d.probe == nil, "\(d)")
                #expect(d.reason == reason, "\(d.reason)")
                #expect(d.description == "\(device.rawValue): cpu (\(reason))")
                #expect(d.time < .seconds(2), "\(d.time)")
            }
            #expect(NeuralRuntime.deviceFallbacks == before + 2)
            #expect(
                lines.withLock { $0 } == [
                    "the CTC recognizer's network: \(reason)", "the text detector's network: \(reason)",
                ])
            // A second engine of the model takes the decision made (no listing again) and counts.
            let again = try TextLineRecognizer(configuration: .init(device: device))
            #expect(again.deviceDecision == recognizer.deviceDecision)
            #expect(NeuralRuntime.deviceFallbacks == before + 3)
            // The CPU reads as it does asked for.
            #expect(try recognizer.recognizeLine(image).text == "AB12 CDE")
            #expect(try recognizer.recognizeLine(image) == (try cpu.recognizeLine(image)))
        }
    }

    @Test(
        "auto here: the CPU, no fallback (nothing but the CPU listed), the reason says so; the detector finds the CPU's regions"
    )
    func auto() throws {
        let before = NeuralRuntime.deviceFallbacks
        let recognizer = try TextLineRecognizer(configuration: .init(device: .auto))
        let detector = try TextDetector(configuration: .init(device: .auto))
        for d in [recognizer.deviceDecision, detector.deviceDecision] {
            #expect(d.requested == .auto && d.chosen == .cpu && !d.fellBack && d.probe == nil, "\(d)")
            #expect(
                d.reason == "auto: OpenVINO lists no GPU or NPU (its devices: \(Self.devices); \(Self.plugins))",
                "\(d.reason)")
            #expect(d.description.hasPrefix("auto: cpu (auto: OpenVINO lists no GPU or NPU"))
        }
        #expect(NeuralRuntime.deviceFallbacks == before)
        let scene = try SceneTextTests.scene()
        let onCPU = try SceneTextTests.detector().detect(scene)
        #expect(try detector.detect(scene) == onCPU && !onCPU.isEmpty)
    }

    @Test("A decision encodes to JSON and back")
    func codable() throws {
        let d = NeuralDeviceDecision(
            requested: .gpu, chosen: .cpu, fellBack: true, devices: ["CPU", "GPU.0"], device: "GPU.0",
            reason: "asked for the GPU, runs on the CPU: GPU.0 diverged from the CPU on the probe: …",
            probe: .init(
                maximumDifference: 0.5, tolerance: 0.001, nonFinite: 3, mismatches: 2, compared: 120, diverged: true,
                cpuTime: .milliseconds(40), deviceTime: .milliseconds(900)),
            time: .milliseconds(1000))
        let back = try JSONDecoder().decode(NeuralDeviceDecision.self, from: JSONEncoder().encode(d))
        #expect(back == d)
    }
}
