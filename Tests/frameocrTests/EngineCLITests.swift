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
