import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The measurements of an image that automatic preprocessing, the reading strategies and live
/// reading share (`Sources/FrameOCR/Analysis`).
@Suite("Analysis: text measurement and the line finder")
struct AnalysisTests {
    static func gray(_ name: String) throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: OCRFixture.path(name)).convertedToGray().copy()
    }

    @Test("TextAnalysis.measure: a page of dark print has no inverted region and hundreds of components")
    func page() throws {
        let image = try Self.gray("phototest.tif")
        let (normalized, a) = try TextAnalysis.measure(image, pool: nil)
        #expect(a.invertedRegions == 0)
        #expect(a.components > 100)
        #expect(a.textHeight > 5 && a.textHeight < 40)
        #expect((normalized.width, normalized.height, normalized.pixelFormat) == (image.width, image.height, .gray8))
    }

    @Test("TextAnalysis.measure: light text on a dark band is found and inverted in the normalized image")
    func mixedPolarity() throws {
        let image = try Self.gray("r01-mixed-polarity.png")
        let (normalized, a) = try TextAnalysis.measure(image, pool: nil)
        #expect(a.invertedRegions > 0)
        #expect(a.invertedRegions <= a.tilesX * a.tilesY)
        // The same measurement a second time, of the same pixels, is the same (no hidden state).
        #expect(try TextAnalysis.measure(image, pool: nil).analysis == a)
        #expect(normalized.width == image.width && normalized.height == image.height)
    }

    @Test("LineFinder: the same lines wherever the region lies; their upright boxes move with it")
    func lineFinderRegion() throws {
        let sign = try Self.gray("lightbox-sign.png")
        let origin = PixelRect(x: 0, y: 0, width: sign.width, height: sign.height)
        let moved = PixelRect(x: 100, y: 50, width: sign.width, height: sign.height)
        let a = try LineFinder.find(in: sign, region: origin, minimumHeight: 20, maximumLines: 4, pool: nil)
        let b = try LineFinder.find(in: sign, region: moved, minimumHeight: 20, maximumLines: 4, pool: nil)
        #expect(a.lines.count >= 3)
        #expect(a.lines.map(\.box) == b.lines.map(\.box))
        #expect(a.lines.map(\.measurement) == b.lines.map(\.measurement))
        for (l, m) in zip(a.lines, b.lines) {
            #expect(
                m.upright
                    == PixelRect(
                        x: l.upright.x + 100, y: l.upright.y + 50, width: l.upright.width, height: l.upright.height))
        }
    }
}
