import Foundation
import Testing

/// `--dnn-target cpu|opencl|auto` (the text detector's and the CTC recognizer's networks), in
/// processes of their own, since OpenCV reads its OpenCL settings from the environment once per
/// process. The line read is testocr.png's first line, cut out with `--roi`: `--engine ctc` reads
/// a single line whole with the CTC recognizer alone (no detector).
@Suite("frameocr --dnn-target")
struct DNNTargetCLITests {
    static let line = ["recognize", CLI.fixture("testocr.png"), "--roi", "30,86,560,42", "--engine", "ctc"]
    static let text = "This is a lot of 12 point text to test the"

    /// The result of `recognize … --format json`: its text and the reasons that name a dnn target.
    /// OpenCV writes its OpenCL build log to standard output on PoCL ("OpenCL program build log:
    /// dnn/dummy …"); the JSON starts at the first line that is "{".
    static func read(_ extra: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, text: String?, targets: [String], stderr: String
    ) {
        let r = try CLI.run(line + extra + ["--format", "json"], environment: environment)
        guard r.status == 0, let start = r.stdout.range(of: "\n{") ?? r.stdout.range(of: "{") else {
            return (r.status, nil, [], r.stderr)
        }
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdout[start.lowerBound...].utf8)) as? [String: Any])
        let reasons = (json["preprocessing"] as? [String: Any])?["reasons"] as? [String] ?? []
        return (r.status, json["text"] as? String, reasons.filter { $0.contains("dnn target") }, r.stderr)
    }

    /// Whether PoCL's CPU device is installed (CI installs it).
    static var hasPoCL: Bool {
        (try? CLI.run(["devices"]).stdout.contains("Portable Computing Language")) ?? false
    }

    @Test("Invalid values are rejected; --help names the option")
    func invalid() throws {
        for bad in ["gpu", "CPU", "", "opencl:0"] {
            let r = try CLI.run(Self.line + ["--dnn-target", bad])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("--dnn-target: \(bad) is not cpu, opencl or auto") && r.stdout.isEmpty)
        }
        let help = try CLI.run(["recognize", "--help"]).stdout
        #expect(help.contains("--dnn-target T            cpu (default) | opencl | auto"))
    }

    @Test("cpu (the default) is not noted; cpu and opencl read the line alike")
    func cpuAndOpenCL() throws {
        let plain = try Self.read([])
        let cpu = try Self.read(["--dnn-target", "cpu"])
        let cl = try Self.read(["--dnn-target", "opencl"])
        #expect(plain.status == 0 && cpu.status == 0 && cl.status == 0)
        #expect(plain.text == Self.text && cpu.text == Self.text && cl.text == Self.text)
        #expect(plain.targets.isEmpty && cpu.targets.isEmpty)
        #expect(cl.targets.count == 1, "\(cl.targets)")
        let note = try #require(cl.targets.first)
        #expect(note.hasPrefix("engines: the CTC recognizer's dnn target opencl: "), "\(note)")
    }

    @Test("auto here: the CPU, noted once with why (no device; a device that is not a GPU)")
    func autoOnTheCPU() throws {
        try #require(Self.hasPoCL, "PoCL's CPU device is installed here and in CI")
        // OpenCV takes no CPU device by itself, whatever the dnn module would allow.
        for environment in [[:], ["OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES": "1"]] {
            let r = try Self.read(["--dnn-target", "auto"], environment: environment)
            #expect(r.status == 0 && r.text == Self.text)
            #expect(
                r.targets == [
                    "engines: the CTC recognizer's dnn target auto: cpu (OpenCV has no OpenCL device: it takes a GPU "
                        + "only, unless OPENCV_OPENCL_DEVICE names another)"
                ], "\(environment): \(r.targets)")
        }
        // Named, PoCL's device is OpenCV's, but not one its dnn module runs on.
        let named = try Self.read(["--dnn-target", "auto"], environment: ["OPENCV_OPENCL_DEVICE": ":CPU:"])
        #expect(named.status == 0 && named.text == Self.text)
        let note = try #require(named.targets.first)
        #expect(named.targets.count == 1)
        #expect(
            note.hasPrefix("engines: the CTC recognizer's dnn target auto: cpu (OpenCL device ")
                && note.hasSuffix(
                    " is not a GPU: OpenCV's dnn runs on a GPU only, unless OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES=1)"),
            "\(note)")
    }

    /// The probe's divergence, measured: on PoCL's CPU device (named, all devices allowed) the
    /// recognizer's network matches the CPU at its first width (max |Δ| 2.4e-6) and gives NaN for
    /// every value at the second (OpenCV 4.6's OpenCL target, one network run at two widths), so
    /// auto stays on the CPU and reads the line right. (Explicit opencl there reads "".) About
    /// 14 s with PoCL's kernel cache warm: building OpenCV's kernels for PoCL is most of it.
    @Test("auto on PoCL with all devices allowed: the probe runs, diverges, and the CPU reads")
    func probeDiverges() throws {
        try #require(Self.hasPoCL, "PoCL's CPU device is installed here and in CI")
        let r = try Self.read(
            ["--dnn-target", "auto"],
            environment: ["OPENCV_OPENCL_DEVICE": ":CPU:", "OPENCV_DNN_OPENCL_ALLOW_ALL_DEVICES": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.text == Self.text)
        let note = try #require(r.targets.first)
        #expect(r.targets.count == 1)
        #expect(
            note.hasPrefix("engines: the CTC recognizer's dnn target auto: cpu (OpenCL device ")
                && note.contains(" diverged from the CPU on the probe: "), "\(note)")
        // Not finite: NaN at the second width.
        let notFinite = note.split(separator: ": ").last?.split(separator: " ").first.flatMap { Int($0) } ?? 0
        #expect(notFinite > 0, "\(note)")
    }
}
