import Foundation
import Testing

@testable import FrameOCRCommandLine

@Suite("frameocr recognize: batches (--from, --format jsonl, --jobs, --skip-done)")
struct BatchTests {
    let files = [CLI.fixture("testocr.png"), CLI.fixture("test_la.png"), CLI.fixture("phototest.tif")]

    static func rows(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func listFile(_ paths: [String]) throws -> (dir: URL, list: String) {
        let dir = try CLI.temporaryDirectory()
        let list = dir.appendingPathComponent("list.txt").path
        try (paths.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        return (dir, list)
    }

    @Test(
        "--from with --format jsonl and 2 jobs: one row per image with its file, the CLI's text, an error row for a missing file"
    )
    func jsonl() throws {
        let missing = "/nonexistent/none.png"
        let (dir, list) = try listFile(files + [missing])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["recognize", "--from", list, "--format", "jsonl", "--jobs", "2"])
        #expect(r.status == 1, "a failed image makes the status 1")
        let rows = try Self.rows(r.stdout)
        #expect(rows.count == 4)
        let byFile = Dictionary(uniqueKeysWithValues: rows.map { ($0["file"] as? String ?? "", $0) })
        #expect(Set(byFile.keys) == Set(files + [missing]))
        for f in files {
            let single = try CLI.run(["recognize", f])
            #expect((byFile[f]?["text"] as? String).map { $0 + "\n" } == single.stdout, "\(f)")
        }
        let error = try #require(byFile[missing]?["error"] as? [String: Any])
        #expect(error["code"] as? String == "io" && error["stage"] as? String == "load")
        #expect(r.stderr.contains(missing))
    }

    @Test("Text output with 2 jobs keeps the input's order; --from - reads the list from standard input")
    func orderAndStandardInput() throws {
        let r = try CLI.run(["recognize", "--jobs", "2", "--no-auto"] + files)
        let headers = r.stdout.split(separator: "\n").filter { $0.hasPrefix("==> ") }
        #expect(headers.map(String.init) == files.map { "==> \($0) <==" })
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.executable)
        p.arguments = ["recognize", "--from", "-", "--format", "jsonl", "--no-auto"]
        let input = Pipe()
        let output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data((files.joined(separator: "\r\n") + "\r\n\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let rows = try Self.rows(String(decoding: data, as: UTF8.self))
        #expect(rows.compactMap { $0["file"] as? String } == files, "one job: the list's order")
    }

    @Test("--skip-done resumes an interrupted run: a row cut short is ended, every image ends up once without error")
    func resume() throws {
        let (dir, list) = try listFile(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.jsonl").path
        let first = try CLI.run(["recognize", "--from", list, "--format", "jsonl", "--output", out, "--no-auto"])
        #expect(first.status == 0)
        // The run as if killed while writing its second row.
        let full = try String(contentsOfFile: out, encoding: .utf8)
        let lines = full.split(separator: "\n", omittingEmptySubsequences: false)
        let cut = String(lines[0]) + "\n" + String(lines[1].prefix(40))
        try cut.write(toFile: out, atomically: true, encoding: .utf8)
        let firstFile = try #require(try Self.rows(String(lines[0])).first?["file"] as? String)
        let resumed = try CLI.run([
            "recognize", "--from", list, "--format", "jsonl", "--output", out, "--skip-done", out, "--no-auto",
        ])
        #expect(resumed.status == 0)
        let after = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(after.count == 4, "the row kept, the cut line, two new rows: \(after.count)")
        #expect(after[1] == String(lines[1].prefix(40)), "the cut row is left as it was, ended by a newline")
        let parsed = after.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let done = parsed.compactMap { $0["file"] as? String }
        #expect(done.sorted() == files.sorted(), "each image once: \(done)")
        #expect(done.first == firstFile)
        // Nothing left to do: nothing is written.
        let again = try CLI.run([
            "recognize", "--from", list, "--format", "jsonl", "--output", out, "--skip-done", out, "--no-auto",
        ])
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 4)
    }

    @Test("--output writes into the file in place, as a shell's > does: a symbolic link stays a link, for every format")
    func outputInPlace() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.txt").path
        let link = dir.appendingPathComponent("link.txt").path
        try "old contents, longer than what replaces them\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for format in ["text", "jsonl"] {
            let r = try CLI.run([
                "recognize", files[1], "--no-auto", "--psm", "7", "--format", format, "--output", link,
            ])
            #expect(r.status == 0)
            let kind = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
            #expect(kind == .typeSymbolicLink, "\(format): --output replaced the link with a file")
            let written = try String(contentsOfFile: target, encoding: .utf8)
            #expect(!written.contains("old contents") && !written.isEmpty, "\(format): \(written)")
        }
    }

    @Test("Usage: --skip-done needs jsonl, --jobs in 1…64, an unreadable list")
    func usage() throws {
        #expect(try CLI.run(["recognize", files[0], "--skip-done", "x.jsonl"]).status == 2)
        #expect(try CLI.run(["recognize", files[0], "--jobs", "0"]).status == 2)
        #expect(try CLI.run(["recognize", "--from", "/nonexistent/list.txt"]).status == 2)
    }

    @Test("The progress line: images done, the rate, the time left")
    func progress() {
        #expect(
            ProgressLine.describe(done: 50, total: 200, skipped: 0, elapsed: .seconds(10))
                == "50/200 images · 5.0 images/s · 0m 30s left")
        #expect(
            ProgressLine.describe(done: 10, total: 100_010, skipped: 7, elapsed: .seconds(5))
                == "10/100010 images (7 done before) · 2.0 images/s · 13h 53m left")
        #expect(
            ProgressLine.describe(done: 3, total: 3, skipped: 0, elapsed: .seconds(1)) == "3/3 images · 3.0 images/s")
    }
}
