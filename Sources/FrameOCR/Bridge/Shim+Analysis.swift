internal import CFrameOCR

// The shim's measurements for automatic preprocessing and the reading strategies
// (`include/focr_auto.h`, `focr_lines.h`, `focr_document.h`, `focr_mrz.h`): each returns a Swift mirror of the C struct it
// fills (`Analysis/`), so policy code never reads a C field.
extension Shim {
    /// `focr_auto_analyze`: polarity, light and text size of `src` (gray8, upright), writing `src`
    /// with its light-on-dark regions inverted into `normalized` (gray8, same size).
    static func analyze(_ src: PixelBuffer, into normalized: PixelBuffer, stage: FrameOCRError.Stage)
        throws(FrameOCRError) -> TextAnalysis
    {
        var a = focr_text_analysis()
        try run(src, into: normalized, stage) { s, d in focr_auto_analyze(s, 0, d, &a) }
        return TextAnalysis(
            tilesX: Int(a.tiles_x), tilesY: Int(a.tiles_y), invertedRegions: Int(a.inverted_tiles),
            darkRegions: Int(a.dark_tiles),
            components: Int(a.components), textHeight: a.text_height, textHeightP75: a.text_height_p75,
            textAspect: a.text_aspect,
            edgeComponents: Int(a.edge_components), contrast: a.contrast, backgroundSpread: a.background_spread,
            threshold: a.threshold, markedRegions: Int(a.marked_tiles), lostRegions: Int(a.lost_tiles),
            inkBand: a.ink_band)
    }

    /// `focr_dominant_line`: the dominant line of large text of `src` drawn alone into `drawn`.
    static func dominantLine(_ src: PixelBuffer, into drawn: PixelBuffer) throws(FrameOCRError) -> LineMeasurement {
        var line = focr_text_line()
        try run(src, into: drawn, .threshold) { s, d in focr_dominant_line(s, d, &line) }
        return LineMeasurement(
            box: PixelRect(x: Int(line.x), y: Int(line.y), width: Int(line.width), height: Int(line.height)),
            characters: Int(line.characters), characterHeight: line.character_height, characterAspect: nil,
            inverted: line.inverted != 0, clutter: line.clutter)
    }

    /// `focr_text_lines`: up to `maximumLines` lines of large text (characters at least
    /// `minimumHeight` pixels tall) of `src`, drawn alone into `drawn`, most ink first.
    static func textLines(
        _ src: PixelBuffer, minimumHeight: Int, maximumLines: Int,
        into drawn: PixelBuffer
    ) throws(FrameOCRError) -> [LineMeasurement] {
        var found = [focr_line_box](repeating: focr_line_box(), count: maximumLines)
        var count: Int32 = 0
        try run(src, into: drawn, .threshold) { s, d in
            found.withUnsafeMutableBufferPointer {
                focr_text_lines(s, Int32(minimumHeight), Int32($0.count), d, $0.baseAddress, &count)
            }
        }
        return found.prefix(Int(count)).map { line in
            LineMeasurement(
                box: PixelRect(x: Int(line.x), y: Int(line.y), width: Int(line.width), height: Int(line.height)),
                characters: Int(line.characters), characterHeight: line.character_height,
                characterAspect: line.character_aspect)
        }
    }

    /// `focr_clear_line_edges`: the surface beyond a label's edges in `line` (gray8, modified in
    /// place), outside `text` (pixels of `line`), set to the paper's level; the regions cleared.
    @discardableResult
    static func clearLineEdges(_ line: PixelBuffer, keeping text: PixelRect) throws(FrameOCRError) -> Int {
        var cleared: Int32 = 0
        let status = withImage(line) {
            focr_clear_line_edges(
                $0, Int32(clamping: text.x), Int32(clamping: text.y), Int32(clamping: text.width),
                Int32(clamping: text.height), &cleared)
        }
        try check(status, .threshold)
        return Int(cleared)
    }

    /// `focr_find_skew`: how far the text lines of `gray` are turned (degrees clockwise as
    /// displayed) and Leptonica's confidence.
    static func findSkew(_ gray: PixelBuffer, maximumDegrees: Double) throws(FrameOCRError) -> (
        degrees: Double, confidence: Double
    ) {
        var angle: Float = 0
        var confidence: Float = 0
        let status = withImage(gray) { focr_find_skew($0, Float(maximumDegrees), &angle, &confidence) }
        try check(status, .threshold)
        return (Double(angle), Double(confidence))
    }

    /// `focr_find_document`: the largest bright, roughly rectangular region of `gray`.
    static func findDocument(_ gray: PixelBuffer) throws(FrameOCRError) -> DocumentMeasurement {
        var doc = focr_document()
        let status = withImage(gray) { focr_find_document($0, &doc) }
        try check(status, .crop)
        // The outline's x, y pairs: a C array of floats, copied out element by element.
        let corners = max(0, min(Int(FOCR_DOCUMENT_MAX_CORNERS), Int(doc.corners)))
        let points = withUnsafePointer(to: doc.points) { tuple in
            tuple.withMemoryRebound(to: Float.self, capacity: 2 * Int(FOCR_DOCUMENT_MAX_CORNERS)) {
                Array(UnsafeBufferPointer(start: $0, count: 2 * corners))
            }
        }
        return DocumentMeasurement(
            box: PixelRect(x: Int(doc.x), y: Int(doc.y), width: Int(doc.width), height: Int(doc.height)),
            areaFraction: Double(doc.area_fraction), rectangularity: Double(doc.rectangularity),
            paper: Double(doc.paper), surroundings: Double(doc.surroundings), edgeContact: Double(doc.edge_contact),
            angleDegrees: Double(doc.angle_degrees), outline: points)
    }

    /// `focr_flatten_document`: `src` divided by its paper's brightness (a closing with a square
    /// of `kernel` pixels), white outside `outline` (x, y pairs; empty: none).
    static func flattenDocument(_ src: PixelBuffer, outline: [Float], kernel: Int, into dst: PixelBuffer)
        throws(FrameOCRError)
    {
        try run(src, into: dst, .crop) { s, d in
            focr_flatten_document(s, outline, Int32(outline.count / 2), Int32(kernel), d)
        }
    }

    /// `focr_mrz_chevrons`: per character cell of the MRZ line boxed by `box` in `gray`, whether
    /// its glyph is the filler chevron; nil when the shim refuses the box.
    static func mrzChevrons(_ gray: PixelBuffer, box: Rect, cells: Int) -> [Bool]? {
        var out = [UInt8](repeating: 0, count: cells)
        let status = withImage(gray) {
            focr_mrz_chevrons(
                $0, Int32(box.x.rounded()), Int32(box.y.rounded()), Int32(box.width.rounded()),
                Int32(box.height.rounded()),
                Int32(cells), &out)
        }
        return status == FOCR_OK ? out.map { $0 != 0 } : nil
    }
}
