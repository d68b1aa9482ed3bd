import Foundation
import Testing

/// `--device cpu|gpu|npu|auto` (the text detector's and the CTC recognizer's networks, on
/// OpenVINO's devices) and `--precision`. The line read is testocr.png's first line, cut out with
/// `--roi`: `--engine ctc` reads a single line whole with the CTC recognizer alone (no detector).
/// `make openvino` installs OpenVINO's CPU plug-in only, so OpenVINO lists the CPU alone here: gpu
/// and npu fall back to the CPU, with a warning and a metric.
@Suite("frameocr --device and --precision")
struct DeviceCLITests {
    static let line = ["recognize", CLI.fixture("testocr.png"), "--roi", "30,86,560,42", "--engine", "ctc"]
    static let text = "This is a lot of 12 point text to test the"
    static let plugins = "its GPU and NPU plug-ins, for Intel devices, are not among the files `make openvino` installs"

    /// The result of `recognize … --format json`: its text and the reasons that name a device.
    static func read(_ extra: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, text: String?, devices: [String], stderr: String
    ) {
        let r = try CLI.run(line + extra + ["--format", "json"], environment: environment)
        guard r.status == 0 else { return (r.status, nil, [], r.stderr) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let reasons = (json["preprocessing"] as? [String: Any])?["reasons"] as? [String] ?? []
        return (r.status, json["text"] as? String, reasons.filter { $0.contains("'s device ") }, r.stderr)
    }

    @Test("Invalid values are rejected; --help names the option; --dnn-target, which it replaces, is unknown")
    func invalid() throws {
        for bad in ["opencl", "CPU", "", "gpu:0"] {
            let r = try CLI.run(Self.line + ["--device", bad])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains("--device: \(bad) is not cpu, gpu, npu or auto") && r.stdout.isEmpty)
        }
        let help = try CLI.run(["recognize", "--help"]).stdout
        #expect(help.contains("--device D                cpu (default) | gpu | npu | auto"))
        let old = try CLI.run(Self.line + ["--dnn-target", "cpu"])
        #expect(old.status == 2 && old.stderr.contains("--dnn-target"), "\(old.stderr)")
    }

    @Test(
        "cpu (the default) is not noted and warns of nothing; gpu and npu read the line on the CPU, warned on stderr and noted"
    )
    func fallback() throws {
        let plain = try Self.read([])
        let cpu = try Self.read(["--device", "cpu"])
        #expect(plain.status == 0 && cpu.status == 0)
        #expect(plain.text == Self.text && cpu.text == Self.text)
        #expect(plain.devices.isEmpty && cpu.devices.isEmpty)
        #expect(!plain.stderr.contains("warning") && !cpu.stderr.contains("warning"))
        for (device, name) in [("gpu", "GPU"), ("npu", "NPU")] {
            let r = try Self.read(["--device", device])
            #expect(r.status == 0 && r.text == Self.text, "\(r.stderr)")
            let reason = "asked for the \(name), but OpenVINO lists none (its devices: CPU; \(Self.plugins))"
            #expect(r.devices == ["engines: the CTC recognizer's device \(device): cpu (\(reason))"], "\(r.devices)")
            #expect(r.stderr == "frameocr: warning: the CTC recognizer's network: \(reason)\n", "\(r.stderr)")
        }
    }

    /// OpenVINO lists the CPU alone here: auto keeps to it, without a probe, and that is no
    /// fallback (nothing else was found).
    @Test("auto here: the CPU, noted once with why, no warning")
    func autoOnTheCPU() throws {
        let r = try Self.read(["--device", "auto"])
        #expect(r.status == 0 && r.text == Self.text)
        #expect(
            r.devices == [
                "engines: the CTC recognizer's device auto: cpu (auto: OpenVINO lists no GPU or NPU (its devices: CPU; "
                    + "\(Self.plugins)))"
            ], "\(r.devices)")
        #expect(!r.stderr.contains("warning"), "\(r.stderr)")
    }

    @Test("serve --device gpu: the fallback counted in /metrics (0 before the engine is made, 1 after)")
    func metric() throws {
        let server = try HTTPServeProcess(["--device", "gpu", "--engine", "ctc"])
        let before = try server.request("GET", "/metrics").text
        #expect(before.contains("\nframeocr_neural_device_fallbacks_total 0\n"), "\(before)")
        let bytes = [UInt8](FileManager.default.contents(atPath: CLI.fixture("testocr.png")) ?? Data())
        let reply = try server.request("POST", "/v1/recognize?format=text&roi=30,86,560,42", body: bytes)
        #expect(reply.status == 200 && reply.text == Self.text, "\(reply.text)")
        let after = try server.request("GET", "/metrics").text
        #expect(after.contains("\nframeocr_neural_device_fallbacks_total 1\n"), "\(after)")
        #expect(try promtoolCheck(after) == "", "promtool")
    }

    @Test(
        "--precision: f32, bf16 and auto read the line alike (f32 where the CPU lacks bf16); bad values refused; not a request key of serve"
    )
    func precision() throws {
        for p in ["auto", "f32", "bf16"] {
            let r = try Self.read(["--precision", p])
            #expect(r.status == 0 && r.text == Self.text, "\(p): \(r.stderr)")
        }
        for bad in ["fp16", "F32", ""] {
            let r = try CLI.run(Self.line + ["--precision", bad])
            #expect(r.status == 2 && r.stderr.contains("--precision: \(bad) is not auto, f32 or bf16"), "\(r.stderr)")
        }
        for command in ["recognize", "video", "serve", "eval"] {
            #expect(
                try CLI.run([command, "--help"]).stdout.contains(
                    "--precision P             auto (default) | f32 | bf16"))
        }
        // A setting of the process: serve takes it at start, a request naming it is refused.
        let worker = try ServeWorker(["--precision", "f32"])
        worker.send(#"{"id":1,"path":"\#(CLI.fixture("testocr.png"))","precision":"bf16"}"#)
        let (responses, status) = try worker.finish()
        #expect(status == 0 && responses.count == 1, "\(responses)")
        let error = try #require(responses.first?["error"] as? [String: Any], "\(responses)")
        #expect(error["code"] as? String == "badRequest", "\(error)")
        #expect((error["message"] as? String)?.contains("precision") == true, "\(error)")
    }

}
