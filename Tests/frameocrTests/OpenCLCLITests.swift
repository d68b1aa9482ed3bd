import Foundation
import Testing

@Suite("frameocr with OpenCL: devices, backends, fallback and errors")
struct OpenCLCLITests {
    let page = CLI.fixture("testocr.png")

    /// An ICD folder with no vendor file: the loader finds no platform (OCL_ICD_VENDORS).
    func emptyICD() throws -> URL { try CLI.temporaryDirectory() }

    @Test("devices lists PoCL's CPU device and says our kernels build there")
    func devices() throws {
        let r = try CLI.run(["devices"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Portable Computing Language"))
        #expect(r.stdout.contains("FrameOCR kernels ok"))
        // The neural runtime's line: OpenVINO from the checkout's build tree (`make openvino`).
        #expect(
            r.stdout.contains("Neural runtime: OpenVINO 2026.4.1-")
                && r.stdout.contains("/.build/openvino/lib/libopenvino_c.so.2641)"), "\(r.stdout)")
        let j = try CLI.run(["devices", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [[String: Any]])
        #expect(list.contains { ($0["kernels"] as? String) == "ok" && ($0["isCPU"] as? Bool) == true })
    }

    @Test("--backend opencl and cpu give the same text and preprocessed bytes")
    func sameResults() throws {
        let cpu = try CLI.run(["recognize", page, "--threshold", "gaussian:31:10", "--orientation", "up"])
        let cl = try CLI.run([
            "recognize", page, "--threshold", "gaussian:31:10", "--orientation", "up", "--backend", "opencl",
        ])
        #expect(cpu.status == 0 && cl.status == 0)
        #expect(cl.stdout == cpu.stdout && cl.stdout.contains("lazy fox"))
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("cpu.png").path
        let b = dir.appendingPathComponent("cl.png").path
        #expect(
            try CLI.run([
                "preprocess", page, a, "--roi", "3,5,500,300", "--orientation", "left", "--threshold", "mean:15:5",
            ]).status == 0)
        #expect(
            try CLI.run([
                "preprocess", page, b, "--roi", "3,5,500,300", "--orientation", "left", "--threshold", "mean:15:5",
                "--backend", "opencl",
            ]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
        let json = try CLI.run(["recognize", page, "--backend", "opencl", "--format", "json"])
        #expect(json.stdout.contains("\"backend\" : \"opencl:pthread"))
    }

    @Test("No OpenCL platform: opencl is a clear error, auto falls back to cpu and says so")
    func noPlatform() throws {
        let icd = try emptyICD()
        defer { try? FileManager.default.removeItem(at: icd) }
        let env = ["OCL_ICD_VENDORS": icd.path]
        let devices = try CLI.run(["devices"], environment: env)
        #expect(devices.status == 0 && devices.stdout.contains("No OpenCL platform or device found"))
        let cl = try CLI.run(["recognize", page, "--backend", "opencl"], environment: env)
        #expect(cl.status == 1)
        #expect(cl.stderr.contains("no OpenCL device") && cl.stdout.isEmpty)
        let auto = try CLI.run(["recognize", page, "--backend", "auto", "--format", "json"], environment: env)
        #expect(auto.status == 0)
        #expect(
            auto.stdout.contains("\"backend\" : \"cpu\"")
                && auto.stdout.contains("\"backendFallback\" : \"no OpenCL device\""))
        #expect(auto.stdout.contains("lazy fox"))
    }

    @Test("A kernel that does not build is reported with the compiler's log; auto falls back")
    func kernelBuildFailure() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let kernels = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Kernels")
        for f in ["gray.cl", "orient.cl", "adaptive_threshold.cl"] {
            var text = try String(contentsOf: kernels.appendingPathComponent(f), encoding: .utf8)
            if f == "gray.cl" { text += "\n__kernel void broken(__global int *p { }\n" }
            try text.write(to: dir.appendingPathComponent(f), atomically: true, encoding: .utf8)
        }
        let env = ["FRAMEOCR_KERNELS_DIR": dir.path, "FRAMEOCR_OPENCL_DEVICE": "0"]
        let out = dir.appendingPathComponent("o.png").path
        let r = try CLI.run(["preprocess", page, out, "--backend", "opencl"], environment: env)
        #expect(r.status == 1)
        #expect(r.stderr.contains("clBuildProgram failed"))
        #expect(r.stderr.contains("error"))  // the build log
        let auto = try CLI.run(["recognize", page, "--backend", "auto", "--format", "json"], environment: env)
        #expect(auto.status == 0 && auto.stdout.contains("\"backendFallback\" : \"clBuildProgram failed"))
    }

    @Test("--backend with an unknown name is a usage error")
    func badBackend() throws {
        let r = try CLI.run(["recognize", page, "--backend", "cuda"])
        #expect(r.status == 2 && r.stderr.contains("--backend"))
    }

    @Test("FRAMEOCR_OPENCL_CACHE keeps the built program on disk; a corrupt entry is rebuilt")
    func programCache() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["FRAMEOCR_OPENCL_CACHE": dir.path, "FRAMEOCR_OPENCL_DEVICE": "0"]
        let first = try CLI.run(["devices"], environment: env)
        #expect(
            first.status == 0 && first.stdout.contains("FrameOCR kernels ok")
                && !first.stdout.contains("from FRAMEOCR_OPENCL_CACHE"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".clbin") }
        #expect(files.count == 1)
        let second = try CLI.run(["devices"], environment: env)
        #expect(second.stdout.contains("FrameOCR kernels ok (program from FRAMEOCR_OPENCL_CACHE)"))
        // A damaged binary is not trusted: the program is built from source again and still works.
        try Data("not a program".utf8).write(to: dir.appendingPathComponent(files[0]))
        let third = try CLI.run(["recognize", page, "--backend", "opencl"], environment: env)
        #expect(third.status == 0 && third.stdout.contains("lazy fox"))
        let fourth = try CLI.run(["devices"], environment: env)
        #expect(fourth.stdout.contains("(program from FRAMEOCR_OPENCL_CACHE)"))
    }
}
