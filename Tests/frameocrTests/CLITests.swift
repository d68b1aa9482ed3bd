import Foundation
import Testing

/// Runs the built `frameocr` executable (next to the test bundle in .build/<config>/).
struct CLI {
    /// A built product of this package (next to the test bundle in .build/<config>/).
    static func product(_ name: String) -> String {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test runner may be inside the .xctest bundle on some platforms.
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent(name).path
    }

    static let executable = product("frameocr")

    /// Fixture files of the library's tests.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FrameOCRTests/Fixtures/\(name)").path
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `frameocr` (or another product, `executable`) with `arguments` and extra `environment`.
    static func run(_ arguments: [String], environment: [String: String] = [:], executable: String = executable) throws
        -> Output
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        // Files, not pipes: nothing can block on a full pipe.
        let dir = try temporaryDirectory()
        let outURL = dir.appendingPathComponent("stdout")
        let errURL = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        p.standardOutput = out
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        try out.close()
        try err.close()
        defer { try? FileManager.default.removeItem(at: dir) }
        return Output(
            status: p.terminationStatus, stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

@Suite("frameocr command line")
struct CLITests {
    let page = CLI.fixture("testocr.png")

    @Test("--version and --help")
    func versionAndHelp() throws {
        let v = try CLI.run(["--version"])
        #expect(v.status == 0 && v.stdout.hasPrefix("frameocr ") && v.stdout.contains("tesseract 5"))
        for args in [["--help"], ["recognize", "--help"], ["preprocess", "--help"]] {
            let h = try CLI.run(args)
            #expect(h.status == 0 && h.stdout.contains("Usage:"), "\(args)")
        }
        #expect(try CLI.run(["recognize", "--help"]).stdout.contains("--scan-region"))
    }

    @Test("text output of a real page")
    func text() throws {
        let r = try CLI.run(["recognize", page])
        #expect(r.status == 0)
        #expect(r.stdout.contains("The quick brown dog jumped over the"))
        #expect(r.stdout.hasPrefix("This is a lot of 12 point text"))
    }

    @Test("--time-limit: past it the first reading is the result, status budgetExceeded; none and a bad value")
    func timeLimit() throws {
        let cut = try CLI.run(["recognize", page, "--format", "json", "--time-limit", "1us"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(cut.stdout.utf8)) as? [String: Any])
        #expect(json["status"] as? String == "budgetExceeded")
        #expect((json["text"] as? String)?.contains("The quick brown dog jumped over the") == true)
        let reasons = (json["preprocessing"] as? [String: Any])?["reasons"] as? [String] ?? []
        #expect(reasons.contains { $0.hasPrefix("time limit reached") }, "\(reasons)")
        // The default (30 s) and none: the page reads whole.
        for extra in [[], ["--time-limit", "none"]] {
            let r = try CLI.run(["recognize", page, "--format", "json"] + extra)
            let j = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            #expect(j["status"] as? String == "complete", "\(extra)")
        }
        let bad = try CLI.run(["recognize", page, "--time-limit", "soon"])
        #expect(bad.status == 2 && bad.stderr.contains("--time-limit"))
    }

    @Test("json output: the result tree with boxes in upright pixels")
    func json() throws {
        let r = try CLI.run(["recognize", page, "--format", "json"])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["file"] as? String == page)
        #expect(object["status"] as? String == "complete")
        #expect((object["text"] as? String)?.contains("lazy fox") == true)
        let frame = try #require(object["frame"] as? [String: Any])
        #expect(frame["width"] as? Int == 640 && frame["height"] as? Int == 480)
        let blocks = try #require(object["blocks"] as? [[String: Any]])
        let lines = try #require(blocks.first?["lines"] as? [[String: Any]])
        let words = try #require(lines.first?["words"] as? [[String: Any]])
        #expect(words.first?["text"] as? String == "This")
        let box = try #require(words.first?["box"] as? [String: Any])
        let quad = try #require(box["quad"] as? [[Double]])
        #expect(quad.count == 4)
        let normalized = try #require(box["normalized"] as? [String: Any])
        let x = try #require(box["x"] as? Double)
        let nx = try #require(normalized["x"] as? Double)
        #expect(abs(nx - x / 640) < 1e-6)
        let timings = try #require(object["timings"] as? [String: Double])
        #expect((timings["recognitionMs"] ?? 0) > 0)
    }

    @Test("tsv output has tesseract's columns and one row per word")
    func tsv() throws {
        let r = try CLI.run(["recognize", page, "--format", "tsv"])
        #expect(r.status == 0)
        let rows = r.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(
            rows.first?.joined(separator: ",")
                == "level,page_num,block_num,par_num,line_num,word_num,left,top,width,height,conf,text")
        #expect(rows.dropFirst().allSatisfy { $0.count == 12 })
        #expect(rows[1].prefix(10).joined(separator: ",") == "1,1,0,0,0,0,0,0,640,480")
        let words = rows.filter { $0.first == "5" }
        #expect(words.count >= 50)
        #expect(words.first?.last == "This")
        #expect(words.allSatisfy { Double($0[10]).map { $0 >= 0 && $0 <= 100 } ?? false })
    }

    @Test("hocr output")
    func hocr() throws {
        let r = try CLI.run(["recognize", page, "--format", "hocr"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("class=\"ocr_page\""))
        #expect(r.stdout.contains("bbox 0 0 640 480"))
        #expect(r.stdout.contains("class=\"ocrx_word\""))
        #expect(r.stdout.contains(">quick</span>"))
        #expect(r.stdout.contains("x_wconf"))
    }

    @Test("--output writes the file; a region reads only its text")
    func outputAndRegion() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.txt").path
        let r = try CLI.run(["recognize", page, "--scan-region", "0,0,100,25", "--output", file])
        #expect(r.status == 0 && r.stdout.isEmpty)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("12 point"))
        #expect(!text.contains("lazy"))
    }

    @Test("recognize --annotate writes the upright page with every line's box; the text output is unchanged")
    func annotate() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("annotated.png").path
        let plain = try CLI.run(["recognize", page])
        let r = try CLI.run(["recognize", page, "--annotate", out, "--orientation", "right"])
        #expect(r.status == 0, "\(r.stderr)")
        // Stored 640×480 with .right: the upright image, the one the boxes are in, is 480×640.
        #expect(r.stderr.hasPrefix("annotated image: \(out) ("), "\(r.stderr)")
        #expect(r.stderr.contains(" boxes, 480x640)"))
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        // PNG signature, then IHDR's width and height (big-endian).
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let size = (data[16..<20].reduce(0) { $0 << 8 | Int($1) }, data[20..<24].reduce(0) { $0 << 8 | Int($1) })
        #expect(size == (480, 640))
        // Without --orientation the page is read upright, and prints the same text.
        let same = try CLI.run(["recognize", page, "--annotate", out])
        #expect(same.status == 0 && same.stdout == plain.stdout)
        #expect(same.stderr.contains(" boxes, 640x480)"))
        let boxes = Int(same.stderr.split(separator: "(").last?.split(separator: " ").first ?? "") ?? 0
        #expect(boxes >= 5, "\(same.stderr)")

        let two = try CLI.run(["recognize", page, page, "--annotate", out])
        #expect(two.status == 2 && two.stderr.contains("--annotate takes one IMAGE"))
        let missing = try CLI.run(["recognize", page, "--annotate", "/nonexistent/dir/a.png"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/dir/a.png"))
    }

    @Test("preprocess writes the image the recognizer would see")
    func preprocess() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("pre.png").path
        let r = try CLI.run([
            "preprocess", page, out, "--roi", "10,20,300,100", "--orientation", "right", "--threshold", "mean:15:5",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // Upright of a 640×480 stored page with .right is 480×640; the region is 300×100.
        #expect(r.stderr.contains("300x100"))
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test(
        "bad input exits non-zero with a clear message",
        arguments: [
            (["recognize", "/nonexistent/missing.png"], Int32(1), "missing.png"),
            (["recognize", CLI.fixture("testocr.png"), "--threshold", "mean:10"], Int32(2), "blockSize"),
            (["recognize", CLI.fixture("testocr.png"), "--roi", "0,0,0,10"], Int32(2), "region"),
            (["recognize", CLI.fixture("testocr.png"), "--roi", "5000,5000,10,10"], Int32(2), "outside"),
            (["recognize", CLI.fixture("testocr.png"), "--psm", "14"], Int32(2), "--psm"),
            (["recognize", CLI.fixture("testocr.png"), "--format", "pdf"], Int32(2), "--format"),
            (["recognize", CLI.fixture("testocr.png"), "--bogus"], Int32(2), "--bogus"),
            (["recognize"], Int32(2), "IMAGE"),
            (["frobnicate"], Int32(2), "unknown command"),
        ])
    func badInput(arguments: [String], status: Int32, message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == status)
        #expect(r.stderr.contains(message), "stderr: \(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("a truncated PNG and a text file named .png fail; the other files are still read")
    func badFilesAmongGood() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let truncated = dir.appendingPathComponent("truncated.png")
        let full = try Data(contentsOf: URL(fileURLWithPath: page))
        try full.prefix(200).write(to: truncated)
        let text = dir.appendingPathComponent("notes.png")
        try Data("just some text, not an image\n".utf8).write(to: text)
        let r = try CLI.run(["recognize", truncated.path, page, text.path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("truncated.png") && r.stderr.contains("notes.png"))
        #expect(r.stderr.contains("not a decodable image"))
        #expect(r.stdout.contains("==> \(page) <=="))
        #expect(r.stdout.contains("The quick brown dog"))
    }
}

/// The result tree the engine's one-pass walk gives, against what the walk before it gave.
@Suite("Recognition output: the result tree against recorded output")
struct GoldenOutputTests {
    @Test(
        "recognize --format json --no-auto --psm 6: text, boxes, confidences and symbols as recorded at 8a531d4 (alternates, off by default since, emptied; each word's engine, added since, dropped)",
        arguments: ["phototest.tif", "receipt-on-desk.png", "boxed-form.png"])
    func sameTree(name: String) throws {
        let r = try CLI.run(["recognize", CLI.fixture(name), "--format", "json", "--no-auto", "--psm", "6"])
        #expect(r.status == 0, "\(r.stderr)")
        var now = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        now["timings"] = nil
        now["file"] = nil
        // Each word's "engine" (issue 27) is newer than the recording: every word here is
        // Tesseract's (no automatic preprocessing, so no CTC reading); dropped after checking.
        func dropEngines(_ o: Any) -> Any {
            if let d = o as? [String: Any] {
                if let e = d["engine"] as? String { #expect(e == "tesseract") }
                return d.filter { $0.key != "engine" }.mapValues(dropEngines)
            }
            if let a = o as? [Any] { return a.map(dropEngines) }
            return o
        }
        now = try #require(dropEngines(now) as? [String: Any])
        let recorded = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: CLI.fixture("golden/\(name).noauto.json"))))
                as? [String: Any])
        // Both through the same parser and writer, so that only values count, not their spelling.
        let canonical = { (o: [String: Any]) throws -> String in
            String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
        }
        let (a, b) = (try canonical(now), try canonical(recorded))
        #expect(a == b, "first difference at \(zip(a, b).prefix { $0 == $1 }.count): \(a.prefix(200))")
    }
}

@Suite("recognize --alternates")
struct AlternatesOptionTests {
    @Test("--alternates 2: each character has one or two choices, the first its own text; out of 0…3 is a usage error")
    func alternates() throws {
        let r = try CLI.run([
            "recognize", CLI.fixture("phototest.tif"), "--format", "json", "--no-auto", "--alternates", "2",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let symbols = ((json["blocks"] as? [[String: Any]]) ?? []).flatMap { ($0["lines"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["words"] as? [[String: Any]]) ?? [] }.flatMap { ($0["symbols"] as? [[String: Any]]) ?? [] }
        #expect(symbols.count > 200)
        var seconds = 0
        for s in symbols {
            let choices = (s["alternates"] as? [[String: Any]]) ?? []
            #expect((1...2).contains(choices.count))
            #expect(choices.first?["text"] as? String == s["text"] as? String)
            #expect(choices.first?["confidence"] as? Double == s["confidence"] as? Double)
            if choices.count == 2, let c = choices[1]["confidence"] as? Double, c < choices[0]["confidence"] as! Double
            {
                seconds += 1
            }
        }
        // 106 of the page's 225 characters have a second choice.
        #expect(seconds * 3 > symbols.count, "\(seconds) second choices less likely than the first")
        for bad in ["4", "-1", "x"] {
            let b = try CLI.run(["recognize", CLI.fixture("phototest.tif"), "--alternates", bad])
            #expect(b.status == 2 && b.stderr.contains("--alternates"), "\(bad): \(b.stderr)")
        }
    }
}

/// The image-file and video code is a library of its own (libFrameOCRMedia.so), opened on first use.
@Suite("libFrameOCRMedia.so: loaded on the first image file, video or text detector")
struct MediaLibraryTests {
    @Test(
        "frameocr links neither imgcodecs nor videoio (nor GDAL, FFmpeg, GStreamer); the media library does; neither links OpenCV's dnn, protobuf or OpenVINO"
    )
    func linkedLibraries() throws {
        func linked(_ path: String) throws -> String {
            try CLI.run([path], executable: "/usr/bin/ldd").stdout
        }
        let program = try linked(CLI.executable)
        #expect(program.contains("libtesseract") && program.contains("libopencv_imgproc"))
        for heavy in [
            "libopencv_imgcodecs", "libopencv_videoio", "libopencv_dnn", "libgdal", "libavcodec", "libgstreamer",
            "libprotobuf",
        ] {
            #expect(!program.contains(heavy), "frameocr links \(heavy)")
        }
        let media = try linked(CLI.product("libFrameOCRMedia.so"))
        #expect(media.contains("libopencv_imgcodecs") && media.contains("libopencv_videoio"))
        // The networks run on OpenVINO, opened with dlopen on the first one made (focr_openvino.h).
        for absent in ["libtesseract", "libopencv_dnn", "libprotobuf", "libopenvino"] {
            #expect(!media.contains(absent), "the media library links \(absent)")
        }
    }

    @Test(
        "The lean OpenCV link (the checkout's pkg-config files): frameocr needs core, imgproc and calib3d, the media library imgcodecs and videoio besides; no Qt, VTK, GDAL or highgui"
    )
    func leanLink() throws {
        // The NEEDED entries of the binary itself (not ldd's closure): with Debian's opencv4.pc every
        // one of its 55 modules would be one.
        func needed(_ path: String) throws -> [String] {
            let dynamic = try CLI.run(["-d", path], executable: "/usr/bin/readelf")
            #expect(dynamic.status == 0, "\(dynamic.stderr)")
            return dynamic.stdout.split(separator: "\n").compactMap { line in
                guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["),
                    let close = line.lastIndex(of: "]")
                else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        }
        func openCVModules(_ libraries: [String]) -> Set<String> {
            Set(
                libraries.filter { $0.hasPrefix("libopencv_") }.map {
                    String($0.dropFirst("libopencv_".count).prefix { $0 != "." })
                })
        }
        let program = try needed(CLI.executable)
        #expect(openCVModules(program) == ["core", "imgproc", "calib3d"], "\(program)")
        let media = try needed(CLI.product("libFrameOCRMedia.so"))
        #expect(
            openCVModules(media) == ["core", "imgproc", "calib3d", "imgcodecs", "videoio"], "\(media)")
        for library in program + media {
            for heavy in ["Qt", "vtk", "gdal", "opencv_highgui", "opencv_viz"] {
                #expect(!library.contains(heavy), "\(library) is linked")
            }
        }
    }

    @Test(
        "Without the library beside the program: --version and a TIFF page work, an image only OpenCV reads is a clear error (exit 1), FRAMEOCR_MEDIA_LIBRARY finds it"
    )
    func missingLibrary() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let alone = dir.appendingPathComponent("frameocr").path
        try FileManager.default.copyItem(atPath: CLI.executable, toPath: alone)
        let version = try CLI.run(["--version"], executable: alone)
        #expect(version.status == 0 && version.stdout.hasPrefix("frameocr "))
        // Leptonica decodes the page: no media library needed.
        let page = try CLI.run(["recognize", CLI.fixture("phototest.tif"), "--no-auto"], executable: alone)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.hasPrefix("This is a lot of 12 point text to test the"))
        // A 16-bit PNG is OpenCV's to decode.
        let sixteen = CLI.fixture("gray16_4x2.png")
        let missing = try CLI.run(["recognize", sixteen, "--no-auto"], executable: alone)
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("a 16-bit PNG") && missing.stderr.contains("libFrameOCRMedia.so")
                && missing.stderr.contains("FRAMEOCR_MEDIA_LIBRARY"), "\(missing.stderr)")
        // A truncated PNG is a decode error, with or without the library OpenCV's decoder is in.
        let truncated = dir.appendingPathComponent("truncated.png")
        let png = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("testocr.png")))
        try png.prefix(png.count / 2).write(to: truncated)
        let cut = try CLI.run(["recognize", truncated.path, "--format", "jsonl"], executable: alone)
        #expect(cut.status == 1 && cut.stdout.contains("\"code\":\"decode\""), "\(cut.stdout)")
        let found = try CLI.run(
            ["recognize", sixteen, "--no-auto"],
            environment: ["FRAMEOCR_MEDIA_LIBRARY": CLI.product("libFrameOCRMedia.so")],
            executable: alone)
        #expect(found.status == 0, "\(found.stderr)")
    }
}
