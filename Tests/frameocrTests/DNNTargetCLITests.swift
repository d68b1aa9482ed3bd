import Foundation
import Testing

/// `--dnn-target cpu|opencl|auto` (the text detector's and the CTC recognizer's networks, on
/// OpenVINO's devices). The line read is testocr.png's first line, cut out with `--roi`:
/// `--engine ctc` reads a single line whole with the CTC recognizer alone (no detector).
@Suite("frameocr --dnn-target")
struct DNNTargetCLITests {
    static let line = ["recognize", CLI.fixture("testocr.png"), "--roi", "30,86,560,42", "--engine", "ctc"]
    static let text = "This is a lot of 12 point text to test the"

    /// The result of `recognize … --format json`: its text and the reasons that name a dnn target.
    static func read(_ extra: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, text: String?, targets: [String], stderr: String
    ) {
        let r = try CLI.run(line + extra + ["--format", "json"], environment: environment)
        guard r.status == 0 else { return (r.status, nil, [], r.stderr) }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let reasons = (json["preprocessing"] as? [String: Any])?["reasons"] as? [String] ?? []
        return (r.status, json["text"] as? String, reasons.filter { $0.contains("dnn target") }, r.stderr)
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

    /// `make openvino` installs OpenVINO's CPU plug-in only: its GPU plug-in (for Intel GPUs, on
    /// OpenCL) is not there, so OpenVINO lists the CPU alone and auto keeps to it, without a probe.
    @Test("auto here: the CPU, noted once with why (OpenVINO lists no GPU)")
    func autoOnTheCPU() throws {
        let r = try Self.read(["--dnn-target", "auto"])
        #expect(r.status == 0 && r.text == Self.text)
        #expect(
            r.targets == [
                "engines: the CTC recognizer's dnn target auto: cpu (OpenVINO lists no GPU (its devices: CPU; its "
                    + "GPU plug-in, for Intel GPUs, is not among the files `make openvino` installs))"
            ], "\(r.targets)")
    }
}
