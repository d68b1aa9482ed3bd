/// Finds the lines of large text of an upright gray region and draws each alone, black on white
/// (`focr_text_lines`): what the text-line strategy (``TextLinesReading``) and the live reader
/// (``LiveReading``) read line by line.
enum LineFinder {
    /// Height, in pixels, that the smallest characters sought have in the image searched for
    /// lines (larger images are reduced to it, `cv::resize` INTER_AREA: a 3300×2550 page costs
    /// what a video frame does, about 10 ms instead of 250).
    static let searchedCharacterHeight: Double = 32

    /// A line found: where it is drawn, and what it covers.
    struct Line: Sendable {
        /// Its box in ``Found/drawn``'s pixels.
        var box: PixelRect
        /// The region of the upright frame it covers (upright-frame pixels).
        var upright: PixelRect
        /// The measurement (`characterHeight` in ``Found/drawn``'s pixels).
        var measurement: LineMeasurement
    }

    /// The lines of one region, most ink first, and the image they are drawn in.
    struct Found: Sendable {
        var lines: [Line]
        /// The lines drawn alone, black on white, at the searched size.
        var drawn: PixelBuffer
        /// Searched pixels per upright pixel (1: searched at full size).
        var scaleY: Double
    }

    /// The lines of `source` (gray8, dark text on light: polarity normalized), an image of the
    /// upright `region` of a frame (upright-frame pixels): `region`'s size, or a reduced copy of
    /// it (the live reader's, when its budget asks for one), with characters at least
    /// `minimumHeight` upright pixels tall, at most `maximumLines` of them. The lines' `upright`
    /// boxes are in upright-frame pixels whatever the size of `source`.
    static func find(
        in source: PixelBuffer, region: PixelRect, minimumHeight: Double, maximumLines: Int,
        pool: PixelBufferPool?
    ) throws(FrameOCRError) -> Found {
        // The region's size: the source's, or larger when the source is a reduced copy.
        let width = region.width
        let height = region.height
        var searched = source
        let reduction = min(1, searchedCharacterHeight / (minimumHeight * Double(source.height) / Double(height)))
        if reduction < 1 {
            searched = try source.resized(
                width: max(1, Int((Double(source.width) * reduction).rounded())),
                height: max(1, Int((Double(source.height) * reduction).rounded())), pool: pool)
        }
        // Searched pixels per upright pixel.
        let rx = Double(searched.width) / Double(width)
        let ry = Double(searched.height) / Double(height)
        let drawn = try PixelBuffer.destination(
            nil, pool: pool, width: searched.width, height: searched.height, format: .gray8, stage: .threshold)
        let smallest = Int(max(3, (minimumHeight * ry).rounded(.up)))
        let measured = try Shim.textLines(searched, minimumHeight: smallest, maximumLines: maximumLines, into: drawn)
        let lines = measured.map { line in
            // The box in the searched image, and the region of the upright frame it covers.
            let box = line.box
            let x0 = Int((Double(box.x) / rx).rounded(.down))
            let y0 = Int((Double(box.y) / ry).rounded(.down))
            let x1 = min(width, Int((Double(box.maxX) / rx).rounded(.up)))
            let y1 = min(height, Int((Double(box.maxY) / ry).rounded(.up)))
            let upright = PixelRect(
                x: region.x + x0, y: region.y + y0, width: x1 - x0, height: y1 - y0)
            return Line(box: box, upright: upright, measurement: line)
        }
        return Found(lines: lines, drawn: drawn, scaleY: ry)
    }
}
