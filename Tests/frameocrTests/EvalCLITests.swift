import Foundation
import Testing

@Suite("frameocr eval")
struct EvalCLITests {
    /// A folder `set` with phototest and testocr and their ground truth, and `set/words` with a
    /// ground truth that the image does not hold (a hand-made miss).
    static func fixtureSet() throws -> URL {
        let root = try CLI.temporaryDirectory().appendingPathComponent("set")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("words"), withIntermediateDirectories: true)
        for name in ["phototest.tif", "phototest.gt.txt", "testocr.png", "testocr.gt.txt"] {
            try fm.copyItem(atPath: CLI.fixture(name), toPath: root.appendingPathComponent(name).path)
        }
        try fm.copyItem(atPath: CLI.fixture("testocr.png"), toPath: root.appendingPathComponent("words/x.png").path)
        try "zebra xylophone quartz\n".write(
            to: root.appendingPathComponent("words/x.gt.txt"), atomically: true, encoding: .utf8)
        return root
    }

    @Test("json: per image and per folder, CER against the ground truth, recall, seconds")
    func json() throws {
        let root = try Self.fixtureSet()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let out = try CLI.run(["eval", root.path, "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let images = try #require(report["images"] as? [[String: Any]])
        #expect(images.count == 3)
        let folders = try #require(report["folders"] as? [[String: Any]])
        #expect(folders.compactMap { $0["folder"] as? String } == ["set", "set/words"])
        for image in images {
            let ours = try #require(image["frameocr"] as? [String: Any])
            let cer = try #require(ours["cer"] as? Double)
            let file = (image["file"] as? String) ?? ""
            if file.hasSuffix("x.png") {
                #expect(cer > 0.5 && (ours["recall"] as? Double) == 0)  // nothing of the reference was read
            } else {
                #expect(cer < 0.03, "\(file): \(cer)")
                #expect(((ours["recall"] as? Double) ?? 0) > 0.9)
            }
            #expect(((ours["seconds"] as? Double) ?? 0) > 0)
            #expect(ours["preprocessing"] is [String], "the automatic mode's reasons are reported")
        }
        let set = try #require(folders.first?["frameocr"] as? [String: Any])
        #expect((set["images"] as? Int) == 2 && ((set["meanCER"] as? Double) ?? 1) < 0.03)
    }

    @Test("--compare-tesseract puts the command's figures beside ours; table and csv formats")
    func compare() throws {
        let root = try Self.fixtureSet()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let table = try CLI.run(["eval", root.path, "--compare-tesseract", "--jobs", "1"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout.contains("CER tess") && table.stdout.contains("Per folder")
                && table.stdout.contains("set/words"))
        let csv = try CLI.run(["eval", root.path + "/words", "--format", "csv", "--compare-tesseract"])
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "folder,file,half,side,cer,wer,recall,words_found,reference_words,seconds,error")
        #expect(lines.count == 3 && lines[1].contains(",frameocr,") && lines[2].contains(",tesseract,"))
    }

    @Test(
        "Halves from --split (listed, else by the hash of the name), --light adds FOLDER@KIND read relit; both halves reported"
    )
    func halvesAndLight() throws {
        let root = try Self.fixtureSet()
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let split = root.deletingLastPathComponent().appendingPathComponent("split.tsv")
        try "# test\nheld-out\tset/phototest.tif\ntuning\tset/testocr.png\n".write(
            to: split, atomically: true, encoding: .utf8)
        let out = try CLI.run([
            "eval", root.path, "--format", "json", "--split", split.path, "--light", "shadow", "--jobs", "2",
        ])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let images = try #require(report["images"] as? [[String: Any]])
        #expect(images.count == 6)  // three images, as stored and under the shadow
        func image(_ folder: String, _ name: String) -> [String: Any]? {
            images.first { ($0["folder"] as? String) == folder && (($0["file"] as? String) ?? "").hasSuffix(name) }
        }
        #expect(image("set", "phototest.tif")?["half"] as? String == "held-out")
        #expect(image("set@shadow", "phototest.tif")?["half"] as? String == "held-out")
        #expect(image("set@shadow", "phototest.tif")?["light"] as? String == "shadow")
        #expect(image("set", "testocr.png")?["half"] as? String == "tuning")
        // words/x.png is not listed: FNV-1a of "x.png" is even.
        #expect(image("set/words", "x.png")?["half"] as? String == "tuning")
        // The relit page is flattened and still read.
        let relit = try #require(image("set@shadow", "phototest.tif")?["frameocr"] as? [String: Any])
        #expect(((relit["cer"] as? Double) ?? 1) < 0.05, "\(relit)")
        #expect((relit["preprocessing"] as? [String])?.contains { $0.hasPrefix("light: uneven") } == true)
        let folders = try #require(report["folders"] as? [[String: Any]])
        let set = try #require(folders.first { ($0["folder"] as? String) == "set" })
        let halves = try #require(set["halves"] as? [[String: Any]])
        #expect(halves.compactMap { $0["half"] as? String } == ["tuning", "held-out"])
        #expect(report["groups"] is [Any])
        let table = try CLI.run(["eval", root.path, "--split", split.path, "--jobs", "2"])
        #expect(table.stdout.contains("Per folder and half") && table.stdout.contains("held-out"))
    }

    @Test(
        "--robust: variants beside the page as stored, a baseline written, the gate passes on it and fails on a better one"
    )
    func robustSuite() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = dir.appendingPathComponent("baseline.json").path
        let saved = dir.appendingPathComponent("variants").path
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        let page = CLI.fixture("phototest.tif")
        let out = try CLI.run([
            "eval", page, "--robust", "scale-0.5,rotate-3", "--robust-seeds", "2", "--jobs", "2",
            "--write-robust-baseline", baseline, "--save-variants", saved,
        ])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Robustness variants") && out.stdout.contains("rotate-3"))
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [String: Any])
        let figures = try #require(written["figures"] as? [[String: Any]])
        #expect(figures.compactMap { $0["variant"] as? String } == ["as-stored", "scale-0.5", "rotate-3"])
        for f in figures {  // a clean page read exactly, as stored and as both variants
            #expect(((f["meanCER"] as? Double) ?? 1) < 0.02, "\(f)")
            #expect((f["images"] as? Int) == 1)
        }
        #expect((figures[1]["seeds"] as? Int) == 2 && (figures[1]["seedMeans"] as? [Double])?.count == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: saved).sorted()
        #expect(names.first == "Fixtures@rotate-3_phototest_s1.png" && names.count == 4)
        // The same suite against its own baseline passes.
        let gated = try CLI.run([
            "eval", page, "--robust", "scale-0.5,rotate-3", "--robust-seeds", "2", "--jobs", "2",
            "--robust-baseline", baseline, "--format", "csv",
        ])
        #expect(gated.status == 0 && gated.stderr.contains("passed"), "\(gated.stderr)")
        // A baseline that claims the rotation read at CER −0.5 (impossible: better than exact)
        // makes this run a regression: exit 3, and the figure named.
        var doctored = written
        doctored["figures"] = figures.map { f -> [String: Any] in
            var f = f
            if (f["variant"] as? String) == "rotate-3" { f["meanCER"] = -0.5 }
            return f
        }
        let worse = dir.appendingPathComponent("worse.json").path
        try JSONSerialization.data(withJSONObject: doctored).write(to: URL(fileURLWithPath: worse))
        let failed = try CLI.run([
            "eval", page, "--robust", "scale-0.5,rotate-3", "--robust-seeds", "2", "--jobs", "2",
            "--robust-baseline", worse, "--format", "csv",
        ])
        #expect(failed.status == 3, "\(failed.stderr)")
        #expect(failed.stderr.contains("rotate-3: mean CER") && failed.stderr.contains("FAILED"))
        #expect(failed.stderr.contains("scale-0.5: mean CER") && failed.stderr.contains(") ok"))
        // Other seeds: not the same suite.
        let seeds = try CLI.run([
            "eval", page, "--robust", "rotate-3", "--jobs", "2", "--robust-baseline", baseline, "--format", "csv",
        ])
        #expect(seeds.status == 3 && seeds.stderr.contains("not the same suite"), "\(seeds.stderr)")
    }

    @Test(
        "bad usage exits 2",
        arguments: [
            ["eval"], ["eval", "/nonexistent-dir"], ["eval", ".", "--format", "xml"], ["eval", ".", "--jobs", "0"],
            ["eval", ".", "--light", "sunset"], ["eval", ".", "--light-noise", "-1"], ["eval", ".", "--robust", "fog"],
            ["eval", ".", "--robust", "blur", "--robust-seeds", "0"], ["eval", ".", "--robust-baseline", "x.json"],
            ["eval", ".", "--robust", "blur", "--robust-baseline", "/nonexistent.json"],
        ])
    func badUsage(_ arguments: [String]) throws {
        let out = try CLI.run(arguments)
        #expect(
            out.status == 2 || (arguments.count == 2 && out.status == 1), "\(arguments): \(out.status) \(out.stderr)")
        #expect(!out.stderr.isEmpty)
    }
}
