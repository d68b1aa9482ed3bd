import Foundation
import LiveTestSupport
import Testing

/// The two programs in `Examples/` are built with the package; these run them on fixtures.
@Suite("Examples")
struct ExamplesTests {
    @Test(
        "still-image-example: a page stored turned, orientation unknown, is found upright; lines with four corners each"
    )
    func stillImage() throws {
        let exe = CLI.product("still-image-example")
        let out = try CLI.run([CLI.fixture("phototest-rotated-R.png")], executable: exe)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("orientation: left") == true, "\(out.stdout)")
        #expect(lines.contains("This is a lot of 12 point text to test the"))
        // phototest.gt.txt has eight lines; each comes with its quad, four corners.
        let upright = lines.filter { $0.hasPrefix("  upright: ") }
        #expect(upright.count == 8 && upright.allSatisfy { $0.filter { $0 == "(" }.count == 4 })
        // Given as known upright, the turned page is read as stored: not its text.
        let asUp = try CLI.run([CLI.fixture("phototest-rotated-R.png"), "up"], executable: exe)
        #expect(asUp.status == 0 && !asUp.stdout.contains("This is a lot of 12 point text"))
        #expect(try CLI.run([], executable: exe).status == 2)
        #expect(try CLI.run([CLI.fixture("phototest.tif"), "sideways"], executable: exe).status == 2)
    }

    @Test("label-scanner-example: the scan region's line in every frame, with characters, alternates and both quads")
    func labelScanner() throws {
        let exe = CLI.product("label-scanner-example")
        let out = try CLI.run([CLI.fixture("frame_ocr_42.mp4"), "0,25,100,50"], executable: exe)
        #expect(out.status == 0, "\(out.stderr)")
        let text = out.stdout
        let read = text.components(separatedBy: "\"FRAME OCR 42\"").count - 1
        // Under a sanitizer (make sanitize) the example's processor keeps up with fewer frames and
        // drops the rest, counted (its report line below).
        #expect(read >= (Sanitizers.active ? 10 : 45), "\(read) of 50 frames")
        #expect(text.contains("characters: F[F 0.0"))
        // The later choices on the log₁₀ scale, which prints (their confidences are ~1e-15).
        #expect(text.range(of: #"F\[F 0\.0, \S+ -\d+\.\d"#, options: .regularExpression) != nil)
        #expect(text.contains("  vision: ("))
        #expect(text.contains("submitted 50, processed "))
    }
}
