import Foundation
import Testing

@testable import FrameOCR

/// Where the neural engines' networks run (``DNNTarget``, ``DNNTargetDecision``; `focr_dnn.h`): the
/// text detector's and the CTC line recognizer's, each decided once when the engine is made, on
/// OpenVINO's devices. `make openvino` installs its CPU plug-in only, so OpenVINO lists no GPU
/// here: `opencl` and `auto` fall back to the CPU with the reason, without a probe.
@Suite("dnn target: cpu, opencl and auto for the detector and the line recognizer")
struct DNNTargetTests {
    @Test("The targets' names: cpu, opencl, auto (the command line's)")
    func names() throws {
        #expect(DNNTarget.allCases.map(\.rawValue) == ["cpu", "opencl", "auto"])
        #expect(DNNTarget(rawValue: "gpu") == nil)
        let data = try JSONEncoder().encode([DNNTarget.openCL])
        #expect(String(decoding: data, as: UTF8.self) == "[\"opencl\"]")
    }

    @Test("cpu, the default: nothing queried, no probe")
    func cpu() throws {
        let recognizer = try TextLineRecognizer()
        let detector = try TextDetector()
        for d in [recognizer.targetDecision, detector.targetDecision] {
            #expect(d.requested == .cpu && d.chosen == .cpu && !d.runsOnOpenCL)
            #expect(d.device == nil && d.deviceType == nil && d.probe == nil)
            #expect(d.reason == "asked for the CPU")
            #expect(d.description == "cpu: cpu (asked for the CPU)")
        }
    }

    @Test("auto on a machine without an OpenCL GPU: the CPU, with the reason, without a probe")
    func auto() throws {
        let recognizer = try TextLineRecognizer(configuration: .init(target: .auto))
        let detector = try TextDetector(configuration: .init(target: .auto))
        for d in [recognizer.targetDecision, detector.targetDecision] {
            #expect(d.requested == .auto)
            // With OpenVINO's GPU (an Intel GPU and its plug-in), the probe decides; else the CPU.
            guard d.deviceType != .gpu else {
                #expect(d.probe != nil, "\(d)")
                continue
            }
            #expect(d.chosen == .cpu && !d.runsOnOpenCL && d.probe == nil, "\(d)")
            #expect(d.reason.hasPrefix("OpenVINO lists no GPU (its devices: CPU"), "\(d.reason)")
            #expect(d.description.hasPrefix("auto: cpu ("))
            // The query's cost: OpenVINO's devices listed (the runtime is already loaded).
            #expect(d.time < .seconds(2), "\(d.time)")
            print(String(format: "dnn target auto decided in %.1f ms: %@", d.time.milliseconds, d.description))
        }
        // Same text as the CPU's.
        let image = try TextLineRecognizerTests.line("AB12 CDE")
        #expect(try recognizer.recognizeLine(image).text == "AB12 CDE")
    }

    @Test("Explicit opencl and cpu read a rendered word alike; the decision says where it runs and why")
    func explicitOpenCL() throws {
        let cl = try TextLineRecognizer(configuration: .init(target: .openCL))
        let d = cl.targetDecision
        #expect(d.requested == .openCL && d.probe == nil)
        if !d.runsOnOpenCL {
            #expect(d.chosen == .cpu)
            #expect(
                d.reason.hasPrefix("asked for OpenCL, but it runs on the CPU: OpenVINO lists no GPU"), "\(d.reason)")
        } else {
            #expect(d.chosen == .openCL && d.reason.hasPrefix("asked for OpenCL: OpenVINO's GPU"), "\(d.reason)")
        }
        let cpu = try TextLineRecognizerTests.recognizer()
        for text in ["AB12 CDE", "HELLO"] {
            let image = try TextLineRecognizerTests.line(text)
            let a = try cpu.recognizeLine(image)
            let b = try cl.recognizeLine(image)
            #expect(b.text == text && b.text == a.text)
            #expect(b.characters.map(\.box) == a.characters.map(\.box))
        }
        // The detector too: the same regions, within a pixel.
        let detector = try TextDetector(configuration: .init(target: .openCL))
        #expect(detector.targetDecision.requested == .openCL)
        let scene = try SceneTextTests.scene()
        let onCPU = try SceneTextTests.detector().detect(scene)
        let onOpenCL = try detector.detect(scene)
        #expect(onCPU.count == onOpenCL.count && !onCPU.isEmpty)
        for (a, b) in zip(onCPU, onOpenCL) {
            #expect(abs(a.center.x - b.center.x) < 1 && abs(a.center.y - b.center.y) < 1, "\(a) \(b)")
        }
    }

    @Test("A decision encodes to JSON and back")
    func codable() throws {
        let d = DNNTargetDecision(
            requested: .auto, chosen: .cpu, runsOnOpenCL: false, device: "gpu0", deviceType: .gpu,
            reason: "OpenCL device gpu0 diverged from the CPU on the probe: …",
            probe: .init(
                maximumDifference: 0.5, tolerance: 0.001, nonFinite: 3, mismatches: 2, compared: 120, diverged: true,
                cpuTime: .milliseconds(40), openCLTime: .milliseconds(900)),
            time: .milliseconds(1000))
        let back = try JSONDecoder().decode(DNNTargetDecision.self, from: JSONEncoder().encode(d))
        #expect(back == d)
    }
}
