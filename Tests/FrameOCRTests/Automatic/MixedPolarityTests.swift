import Foundation
import FrameOCREvaluation
import Testing

@testable import FrameOCR

/// Pages of mixed polarity (issue 28): a band of light text on a dark ground above, among or below
/// lines of dark text on paper. Generated here in two fonts, with bands of one to five lines at the
/// top, in the middle and at the bottom, not one image: each page reads at a CER of at most 0.03,
/// the band is turned to dark on light at its own edge, and a band that covers more than half the
/// page does not make the light half pass for a sheet to cut out.
@Suite("Mixed polarity", .tags(.tesseract))
struct MixedPolarityTests {
    typealias Page = GeneratedPage
    static let fonts = [Page.dejaVu + "DejaVuSans.ttf", Page.liberation + "LiberationSerif-Regular.ttf"]
    /// The font's pixel height (12 pt at 200 ppi) and the page's width.
    static let em = 33
    static let width = 1_400

    static func page(font: String, band: ClosedRange<Int>) throws -> (PixelBuffer, top: Int, bottom: Int) {
        try Page.make(font: font, em: em, width: width, band: band)
    }

    static let automatic = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())

    @Test(
        "A band of light text of 1–5 lines at the top, in the middle or at the bottom reads at CER ≤ 0.03, turned",
        arguments: [0...0, 0...1, 0...4, 3...4, 4...4, 6...8, 8...8], [0, 1])
    func band(_ band: ClosedRange<Int>, font: Int) throws {
        let (image, _, _) = try Self.page(font: Self.fonts[font], band: band)
        let result = try sharedRecognizer.recognize(image, pipeline: Self.automatic)
        let cer = TextMetrics.characterErrorRate(hypothesis: result.text, reference: Page.text)
        let d = try #require(result.preprocessing)
        #expect(cer <= 0.03, "band \(band), font \(font): CER \(cer)\n\(result.text)\n\(d.reasons)")
        #expect(d.invertedRegions > 0, "\(d.reasons)")
        #expect(d.documentCrop == nil, "\(d.reasons)")
    }

    @Test("The band turns at its own edge: its ground becomes 225, the paper beside it stays 255")
    func edge() throws {
        for (band, font) in [(0...1, 0), (4...4, 1), (6...8, 0)] {
            let (image, top, bottom) = try Self.page(font: Self.fonts[font], band: band)
            let (normalized, analysis) = try TextAnalysis.measure(image, pool: nil)
            #expect(analysis.invertedRegions > 0)
            let p = normalized.packedBytes()
            // Column 10 lies left of every line's text (which starts at x = em): ground or paper.
            let column = (0..<image.height).map { p[$0 * Self.width + 10] }
            // Within a few pixels of the band's edges (the shrunk copy's pixel, about 5 px here)
            // the turn follows the edge; beyond them every pixel is exact.
            let slack = 6
            for y in 0..<image.height where y < top - slack || y >= bottom + slack {
                #expect(column[y] == Page.paper, "band \(band): row \(y) \(column[y]) outside \(top)..<\(bottom)")
            }
            for y in (top + slack)..<(bottom - slack) {
                #expect(column[y] == 255 - Page.ground, "band \(band): row \(y) \(column[y]) inside \(top)..<\(bottom)")
            }
        }
    }

    @Test("A band over more than half the page keeps the light half from being cut out as a sheet")
    func notASheet() throws {
        let (image, _, _) = try Self.page(font: Self.fonts[0], band: 0...4)
        let result = try sharedRecognizer.recognize(image, pipeline: Self.automatic)
        let d = try #require(result.preprocessing)
        #expect(d.documentCrop == nil)
        let reason = try #require(d.reasons.first { $0.hasPrefix("document crop:") }, "\(d.reasons)")
        #expect(reason.contains("part of a page"), "\(reason)")
        #expect(result.text.contains("the judge vowed to move forty miles by noon."), "\(result.text)")
    }
}
