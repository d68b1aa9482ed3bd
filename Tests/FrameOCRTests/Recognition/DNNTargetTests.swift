import Foundation
import Testing

@testable import FrameOCR

/// Where the dnn engines' networks run (``DNNTarget``, ``DNNTargetDecision``; `focr_dnn.h`): the
/// text detector's and the CTC line recognizer's, each decided once when the engine is made. On
/// the 2-core Debian 12 machine OpenCV has no OpenCL device of its own (PoCL's is a CPU device,
/// which OpenCV takes only when `OPENCV_OPENCL_DEVICE` names it), so `auto` stays on the CPU
/// without a probe; the probe itself, and its divergence on PoCL, is run by the command-line
/// tests (`Tests/frameocrTests/DNNTargetCLITests.swift`), in a process of their own.
@Suite("dnn target: cpu, opencl and auto for the detector and the line recognizer")
struct DNNTargetTests {
    /// Whether OpenCV may have an OpenCL device here that its dnn module runs on: set by the
    /// environment (a GPU machine is told by the decision itself).
    static let openCVDeviceNamed = ProcessInfo.processInfo.environment["OPENCV_OPENCL_DEVICE"] != nil

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
            // On a GPU (or with a device named), the probe decides; else nothing runs on OpenCL.
            guard d.deviceType != .gpu && !Self.openCVDeviceNamed else {
                #expect(d.probe != nil || !d.runsOnOpenCL, "\(d)")
                continue
            }
            #expect(d.chosen == .cpu && !d.runsOnOpenCL && d.probe == nil, "\(d)")
            #expect(
                d.reason == "no OpenCL platform"
                    || d.reason.hasPrefix("OpenCV has no OpenCL device: it takes a GPU only"), "\(d.reason)")
            #expect(d.description.hasPrefix("auto: cpu ("))
            // The query's cost: the OpenCL runtime loaded (PoCL's: about 25 ms) and asked.
            #expect(d.time < .seconds(2), "\(d.time)")
            print(String(format: "dnn target auto decided in %.1f ms: %@", d.time.milliseconds, d.description))
        }
        // Same text as the CPU's.
        let image = try TextLineRecognizerTests.line("AB12 CDE")
        #expect(try recognizer.recognizeLine(image).text == "AB12 CDE")
    }

    @Test("Explicit opencl and cpu read a rendered word alike; the decision says where OpenCV runs it")
    func explicitOpenCL() throws {
        let cl = try TextLineRecognizer(configuration: .init(target: .openCL))
        let d = cl.targetDecision
        #expect(d.requested == .openCL && d.chosen == .openCL && d.probe == nil)
        if !d.runsOnOpenCL {
            #expect(d.reason.hasPrefix("asked for OpenCL, but OpenCV runs it on the CPU: "), "\(d.reason)")
        } else {
            #expect(d.reason.hasPrefix("asked for OpenCL: OpenCV runs it on OpenCL device "), "\(d.reason)")
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
        #expect(detector.targetDecision.chosen == .openCL)
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
