import Foundation
import Testing

/// `--engine tesseract|ctc|auto` (issue 27): who reads, and each word saying so in the JSON.
@Suite("frameocr --engine")
struct EngineCLITests {
    /// The words of a `--format json` run, as (text, engine) pairs.
    static func words(_ stdout: String) throws -> [(String, String?)] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let blocks = json["blocks"] as? [[String: Any]] ?? []
        return blocks.flatMap { ($0["lines"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["words"] as? [[String: Any]]) ?? [] }
            .map { ($0["text"] as? String ?? "", $0["engine"] as? String) }
    }

    @Test("ctc reads the sample's lines itself, every word says ctc; tesseract says tesseract; a bad value exits 2")
    func engines() throws {
        let page = CLI.fixture("testocr.png")
        let ctc = try CLI.run(["recognize", page, "--engine", "ctc", "--format", "json"])
        #expect(ctc.status == 0, "\(ctc.stderr)")
        let ctcWords = try Self.words(ctc.stdout)
        #expect(ctcWords.count >= 40 && ctcWords.allSatisfy { $0.1 == "ctc" }, "\(ctcWords.prefix(5))")
        #expect(ctcWords.contains { $0.0 == "brown" } && ctcWords.contains { $0.0 == "quick" })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ctc.stdout.utf8)) as? [String: Any])
        let timings = try #require(json["timings"] as? [String: Double])
        #expect((timings["lineRecognitionMs"] ?? 0) > 0 && (timings["recognitionMs"] ?? 1) == 0)

        let tesseract = try CLI.run(["recognize", page, "--engine", "tesseract", "--format", "json"])
        #expect(tesseract.status == 0, "\(tesseract.stderr)")
        let tesseractWords = try Self.words(tesseract.stdout)
        #expect(!tesseractWords.isEmpty && tesseractWords.allSatisfy { $0.1 == "tesseract" })

        let bad = try CLI.run(["recognize", page, "--engine", "rapid"])
        #expect(bad.status == 2 && bad.stderr.contains("--engine: rapid is not tesseract, ctc or auto"))
    }
}

/// OpenVINO, the neural engines' runtime, absent or broken (issue 42): a typed error naming what is
/// missing and how to install it; Tesseract's reading unaffected. `FRAMEOCR_OPENVINO_DIR`, when
/// set, is the only folder searched, so each run below sees only the folder it names.
@Suite("frameocr without OpenVINO")
struct MissingRuntimeCLITests {
    @Test("No runtime: --engine ctc exits 1 with the file, the folder and `make openvino`; Tesseract still reads")
    func missing() throws {
        let page = CLI.fixture("testocr.png")
        let empty = NSTemporaryDirectory() + "frameocr-no-openvino-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let environment = ["FRAMEOCR_OPENVINO_DIR": empty]
        let ctc = try CLI.run(["recognize", page, "--engine", "ctc"], environment: environment)
        #expect(ctc.status == 1, "\(ctc.stdout)")
        #expect(
            ctc.stderr.contains("libopenvino_c.so.2641") && ctc.stderr.contains(empty)
                && ctc.stderr.contains("make openvino"), "\(ctc.stderr)")
        #expect(!ctc.stderr.contains("Fatal error") && !ctc.stderr.contains("Backtrace"))
        let tesseract = try CLI.run(["recognize", page, "--engine", "tesseract"], environment: environment)
        #expect(tesseract.status == 0, "\(tesseract.stderr)")
        #expect(tesseract.stdout.contains("quick brown"), "\(tesseract.stdout)")
    }

    @Test("A runtime file that is no library: a typed error saying it cannot be loaded, never a crash")
    func broken() throws {
        let folder = NSTemporaryDirectory() + "frameocr-bad-openvino-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A truncated download: the first 4 KiB of an ELF header and nothing else.
        try Data([0x7F, 0x45, 0x4C, 0x46] + [UInt8](repeating: 0, count: 4092)).write(
            to: URL(fileURLWithPath: folder + "/libopenvino_c.so.2641"))
        let run = try CLI.run(
            ["recognize", CLI.fixture("testocr.png"), "--engine", "ctc"], environment: ["FRAMEOCR_OPENVINO_DIR": folder]
        )
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("is there but cannot be loaded") && run.stderr.contains("make openvino"),
            "\(run.stderr)")
    }
}
