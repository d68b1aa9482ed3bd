import Foundation
import Testing

/// Issue 28, item 3: a still is decoded by Leptonica, which Tesseract loads anyway, so reading it
/// does not load the media library (OpenCV's imgcodecs, and GDAL with it); OpenCV decodes only
/// what Leptonica does not read. Which libraries a run loads is read from the dynamic loader's own
/// trace (`LD_DEBUG=files`); its peak resident size from GNU time (`/usr/bin/time`, installed by
/// the Makefile).
@Suite("A lean still: Leptonica decodes, the media library stays unloaded")
struct LeanStillTests {
    /// The libraries `arguments` made the dynamic loader open, by file name.
    static func loaded(_ arguments: [String]) throws -> (output: CLI.Output, libraries: Set<String>) {
        let out = try CLI.run(arguments, environment: ["LD_DEBUG": "files"])
        var libraries = Set<String>()
        for line in out.stderr.split(separator: "\n") {
            guard let range = line.range(of: "file=") else { continue }
            let path = line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != "[" }
            libraries.insert(String(path.split(separator: "/").last ?? ""))
        }
        return (out, libraries)
    }

    static func media(_ libraries: Set<String>) -> [String] {
        libraries.filter {
            $0.hasPrefix("libFrameOCRMedia") || $0.hasPrefix("libgdal") || $0.hasPrefix("libopencv_imgcodecs")
        }
        .sorted()
    }

    @Test(
        "Pages in PNG, TIFF, WebP, GIF and a JPEG read without the media library",
        arguments: ["testocr.png", "phototest.tif", "testocr.webp", "testocr.gif", "mrz-td3-utopia.jpg"])
    func noMediaLibrary(file: String) throws {
        let (out, libraries) = try Self.loaded(["recognize", CLI.fixture(file)])
        #expect(out.status == 0)
        #expect(libraries.contains { $0.hasPrefix("liblept") }, "the trace names what was loaded")
        #expect(Self.media(libraries) == [], "\(file)")
        #expect(!out.stdout.isEmpty)
    }

    @Test("A 16-bit PNG goes to OpenCV: the media library is loaded for it")
    func sixteenBitLoadsTheMediaLibrary() throws {
        let (out, libraries) = try Self.loaded(["recognize", CLI.fixture("gray16_4x2.png")])
        #expect(out.status == 0)
        #expect(Self.media(libraries).contains { $0.hasPrefix("libFrameOCRMedia") })
    }

    /// The peak resident size of one `frameocr` run, KiB (GNU time's `%M`).
    static func peakKiB(_ arguments: [String]) throws -> (status: Int32, kib: Int) {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("time.txt").path
        let out = try CLI.run(
            ["-f", "%M", "-o", report, CLI.executable] + arguments, executable: "/usr/bin/time")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kib = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "\(text)")
        // GNU time exits with the command's status (or prints it first when it is not 0).
        return (out.status, kib)
    }

    @Test("recognize phototest.tif peaks under 80 MB; a 60000×60000 header is refused in a process under 50 MB")
    func peakResidentSize() throws {
        let page = try Self.peakKiB(["recognize", CLI.fixture("phototest.tif")])
        #expect(page.status == 0)
        #expect(page.kib < 80 * 1000, "\(page.kib) KiB")
        let huge = try Self.peakKiB(["recognize", CLI.fixture("limits/png-60000x60000.png")])
        #expect(huge.status == 1)
        #expect(huge.kib < 50 * 1000, "\(huge.kib) KiB")
    }
}
