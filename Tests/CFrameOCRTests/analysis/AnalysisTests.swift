import CFrameOCR
import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

// The analysis room's measurements (Sources/CFrameOCR/analysis/), called directly: the dominant
// line and the lines of large text (focr_lines.h), the MRZ's filler glyphs (focr_mrz.h). What the
// library decides from them is tested through its API in FrameOCRTests (AutomaticPreprocessingTests,
// TextLineTests, MachineReadableZoneTests).

/// `focr_dominant_line` (analysis/dominant_line.cpp) on a plate and on a page of small text.
@Suite("Analysis: the dominant line (focr_dominant_line)", .tags(.tesseract))
struct DominantLineCallTests {
    /// phototest.tif as gray8.
    static func page() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: Fixture.path("phototest.tif")).convertedToGray().copy()
    }

    static func inverted(_ b: PixelBuffer) throws -> PixelBuffer {
        try PixelBuffer(packed: b.packedBytes().map { 255 - $0 }, width: b.width, height: b.height, pixelFormat: .gray8)
    }

    @Test("focr_dominant_line: the plate's 7 characters, either polarity; none on a page of small text")
    func dominantLineMeasurement() throws {
        let gray = try PixelBuffer(contentsOfFile: Fixture.path("dominant-line-plate.png")).convertedToGray().copy()
        for inverted in [false, true] {
            let input = inverted ? try Self.inverted(gray) : gray
            let drawn = try PixelBuffer(width: input.width, height: input.height, pixelFormat: .gray8)
            var line = focr_text_line()
            try input.run(into: drawn, .threshold) { s, d in focr_dominant_line(s, d, &line) }
            #expect(line.characters == 7 && line.inverted == (inverted ? 1 : 0))
            #expect(line.x >= 24 && line.x + line.width <= 296 && line.y >= 42 && line.y + line.height <= 132)
            #expect(line.clutter >= 0.1)
            // Only the line is drawn: everything outside its box is white.
            let bytes = drawn.packedBytes()
            let outside = (0..<input.height).allSatisfy { y in
                (0..<input.width).allSatisfy { x in
                    (x >= line.x && x < line.x + line.width && y >= line.y && y < line.y + line.height)
                        || bytes[y * input.width + x] == 255
                }
            }
            #expect(outside)
        }
        let page = try Self.page()
        let drawn = try PixelBuffer(width: page.width, height: page.height, pixelFormat: .gray8)
        var none = focr_text_line()
        try page.run(into: drawn, .threshold) { s, d in focr_dominant_line(s, d, &none) }
        #expect(none.characters == 0)
        #expect(drawn.packedBytes().allSatisfy { $0 == 255 })
    }
}

/// `focr_text_lines` (analysis/text_lines.cpp) on the sign made for it (`lightbox-sign.png`,
/// `Tests/FixtureGenerators/make_sign_fixture.py`) and on small print.
@Suite("Analysis: the lines of large text (focr_text_lines)", .tags(.tesseract))
struct TextLinesCallTests {
    static func sign() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: Fixture.path("lightbox-sign.png")).convertedToGray().copy()
    }

    @Test("focr_text_lines: the three rows, each drawn alone, shaded and railed letters included; none in small print")
    func measurement() throws {
        let sign = try Self.sign()
        let drawn = try PixelBuffer(width: sign.width, height: sign.height, pixelFormat: .gray8)
        var found = [focr_line_box](repeating: focr_line_box(), count: 8)
        var count: Int32 = 0
        try sign.run(into: drawn, .threshold) { s, d in
            found.withUnsafeMutableBufferPointer { focr_text_lines(s, 27, 8, d, $0.baseAddress, &count) }
        }
        // The rows, top to bottom: 4, 5 and 6 letters of 100 px inside the panel (60…700 × 30…470).
        let rows = found.prefix(Int(count)).sorted { $0.y < $1.y }
        #expect(rows.map(\.characters) == [4, 5, 6])
        for r in rows {
            #expect(abs(r.character_height - 100) <= 3 && r.character_aspect > 0.25 && r.character_aspect < 0.45)
            #expect(r.x >= 60 && r.x + r.width <= 700 && r.y >= 30 && r.y + r.height <= 470, "\(r)")
        }
        // Only the rows are drawn: every black pixel lies in a box, and each box holds its letters' ink.
        let bytes = drawn.packedBytes()
        func inside(_ x: Int, _ y: Int) -> Bool {
            rows.contains { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }
        }
        #expect(
            (0..<sign.height).allSatisfy { y in
                (0..<sign.width).allSatisfy { x in bytes[y * sign.width + x] == 255 || inside(x, y) }
            })
        for r in rows {
            let ink = (Int(r.y)..<Int(r.y + r.height)).reduce(0) { n, y in
                n + (Int(r.x)..<Int(r.x + r.width)).filter { bytes[y * sign.width + $0] == 0 }.count
            }
            #expect(Double(ink) > 0.1 * Double(r.width * r.height), "\(r): \(ink) px of ink")
        }

        // Small print: phototest at half size (capitals and ascenders 12 px) has no line 20 px tall.
        let full = try PixelBuffer(contentsOfFile: Fixture.path("phototest.tif")).convertedToGray().copy()
        let page = try full.resized(width: full.width / 2, height: full.height / 2, pool: nil)
        let blank = try PixelBuffer(width: page.width, height: page.height, pixelFormat: .gray8)
        try page.run(into: blank, .threshold) { s, d in
            found.withUnsafeMutableBufferPointer { focr_text_lines(s, 20, 8, d, $0.baseAddress, &count) }
        }
        #expect(count == 0 && blank.packedBytes().allSatisfy { $0 == 255 }, "\(found.prefix(Int(count)))")
        // Arguments are checked.
        #expect(throws: FrameOCRError.self) {
            try page.run(into: blank, .threshold) { s, d in
                found.withUnsafeMutableBufferPointer { focr_text_lines(s, 2, 8, d, $0.baseAddress, &count) }
            }
        }
    }
}

/// `focr_mrz_chevrons` (analysis/mrz.cpp) on the ICAO "Utopia" TD3 specimen.
@Suite("Analysis: the MRZ's filler glyphs (focr_mrz_chevrons)")
struct MRZChevronCallTests {
    static let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]

    /// Chevron flags for `line`: true where the specimen has a filler.
    static func fillers(_ line: String) -> [Bool] { line.map { $0 == "<" } }

    @Test("focr_mrz_chevrons tells the filler from K in the specimen's first line")
    func chevronGlyphs() throws {
        // The first MRZ line of mrz-td3-utopia.jpg, found by reading the page.
        let image = try PixelBuffer(contentsOfFile: Fixture.path("mrz-td3-utopia.jpg")).convertedToGray().copy()
        let result = try shimTestRecognizer.recognize(
            image, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        let line = try #require(result.lines.first { $0.text == Self.td3[0] })
        let r = line.box.rect
        var cells = [UInt8](repeating: 9, count: 44)
        let status = image.withUnsafeImageDescriptor {
            focr_mrz_chevrons(
                $0, Int32(r.x), Int32(r.y), Int32(r.width.rounded()), Int32(r.height.rounded()), 44, &cells)
        }
        #expect(status == FOCR_OK)
        #expect(cells.map { $0 == 1 } == Self.fillers(Self.td3[0]))
        // Bad arguments are refused, not read out of bounds.
        #expect(
            image.withUnsafeImageDescriptor { focr_mrz_chevrons($0, 0, 0, 10, 10, 0, &cells) }
                == FOCR_E_INVALID_ARGUMENT)
        #expect(
            image.withUnsafeImageDescriptor { focr_mrz_chevrons($0, Int32(image.width), 0, 10, 10, 4, &cells) }
                == FOCR_E_INVALID_ARGUMENT)
    }
}

/// `focr_malloc_thresholds` (analysis/frames.cpp): glibc's thresholds set, values below 1 refused.
@Suite("Analysis: malloc's thresholds for streams of frames (focr_malloc_thresholds)")
struct MallocThresholdsCallTests {
    @Test("64 MiB and 32 MiB accepted by glibc; 0 or a negative value is FOCR_E_INVALID_ARGUMENT")
    func thresholds() {
        #expect(focr_malloc_thresholds(64 << 20, 32 << 20) == FOCR_OK)
        #expect(focr_malloc_thresholds(0, 32 << 20) == FOCR_E_INVALID_ARGUMENT)
        #expect(focr_malloc_thresholds(64 << 20, -1) == FOCR_E_INVALID_ARGUMENT)
    }
}
