// Live reading's first part: the lines of a frame's gray region, found and joined.
extension LiveReader {
    /// The lines of one frame to read, and the image the light ones are read from.
    struct FoundLines {
        var lines: [Line]
        /// The gray region with the boxes of the lines found light on dark (``Line/normalized``)
        /// inverted, so that each reads dark on light; the gray region itself when there is none.
        var light: PixelBuffer
        /// Searched pixels per pixel of the region (1: the lines were searched at full size; below:
        /// in a reduced copy, to keep the latency budget, ``analysisReduction(pixels:smallest:left:)``).
        var reduction: Double
    }

    /// The lines of `gray`'s region to read, at most ``LiveReading/maximumLines``, the largest
    /// kept, in the finder's order.
    ///
    /// The lines of dark text on light are found in the gray region; when some of its regions
    /// hold light text on dark, the lines of the polarity-normalized region (those turned dark
    /// on light) that cross none of them are added. The normalization decides by regions of a
    /// quarter of the frame and flickers near a light label's edge on a dark surface (it can
    /// turn the label's first letter); the gray image has each dark line as it is. Each line is
    /// read from the gray region (a light one inverted within its box, ``FoundLines/light``) and
    /// profiled from it.
    ///
    /// With a `deadline`, the search runs on a copy of the region reduced (area) as far as needed
    /// for it to take at most ``analysisShare`` of the time left
    /// (``analysisReduction(pixels:smallest:left:)``); the lines' boxes are in the region's
    /// pixels either way.
    func findLines(
        in gray: PreprocessedFrame, deadline: ContinuousClock.Instant? = nil, pool: PixelBufferPool
    ) throws(FrameOCRError) -> FoundLines {
        let clock = ContinuousClock()
        // Characters down to `lowerCase` of the smallest text height are found, so that the
        // lower case of a line whose capitals are tall enough is in it; lines lower than that
        // height are not read.
        let most = min(64, Self.piecesPerLine * settings.maximumLines)
        let smallest = Self.lowerCase * settings.minimumTextHeight
        let region = gray.transform.region
        let reduction = analysisReduction(
            pixels: gray.image.width * gray.image.height, smallest: smallest, left: deadline.map { $0 - clock.now })
        let started = clock.now
        let searched = reduction < 1 ? try gray.image.scaled(by: reduction, pool: pool) : gray.image
        let (normalized, analysis) = try TextAnalysis.measure(searched, pool: pool)
        let found = try LineFinder.find(
            in: searched, region: region, minimumHeight: smallest, maximumLines: most, pool: pool)
        var candidates = Self.lines(found, region: region)
        if analysis.invertedRegions > 0 {
            // The normalized region's lines never cross one another (the finder's boxes do not).
            var light = try LineFinder.find(
                in: normalized, region: region, minimumHeight: smallest, maximumLines: most, pool: pool)
            light.lines = Array(
                light.lines.filter { l in !found.lines.contains { $0.upright.intersection(l.upright) != nil } }
                    .prefix(max(0, most - found.lines.count)))
            candidates += Self.lines(light, region: region).map { line in
                var l = line
                l.normalized = true
                return l
            }
        }
        recordAnalysis(clock.now - started, pixels: searched.width * searched.height)
        let tallEnough = candidates.filter { $0.text.height >= settings.minimumTextHeight }
        let largest = tallEnough.enumerated().sorted { a, b in
            (a.element.upright.area, -a.offset) > (b.element.upright.area, -b.offset)
        }
        let kept = Array(largest.prefix(settings.maximumLines).sorted { $0.offset < $1.offset }.map(\.element))
        return FoundLines(
            lines: kept, light: try Self.invertingBoxes(of: kept.filter(\.normalized), in: gray.image, pool: pool),
            reduction: reduction)
    }

    /// Share of the time left before a frame's deadline that the search for its lines may take
    /// (0.5: the other half reads them).
    static let analysisShare = 0.5
    /// ``analysisShare`` when the text detector runs on live frames (``LiveReading/detectEvery``):
    /// the detector finds the scene's lines, small ones included, so the search takes less of
    /// the frame's time and the reading more (chosen on the tuning half of the scene videos,
    /// `docs/live.md#the-detector-on-live-frames`).
    static let detectorAnalysisShare = 0.2
    /// With the text detector, the search's copy may be reduced until lines this many times
    /// ``LiveReading/minimumTextHeight`` are at the finder's least (3-pixel lower case): smaller
    /// lines are the detector's to find when the frame's time is short.
    static let detectorSearchHeight = 2.0
    /// The running mean cost of the search per pixel searched starts here (100 ms a megapixel:
    /// about what a 1280×720 street scene cost on the 2-core machine with two workers, 81 ms),
    /// and follows the measured costs with ``lineCostWeight`` per frame.
    static let initialAnalysisCost = 100e-9

    /// Searched pixels per pixel of a region of `pixels` pixels whose smallest characters are
    /// `smallest` pixels tall, with `left` to go before the frame's deadline: 1 without a
    /// deadline (nil), or when the search's running cost per pixel (``analysisCost``) says it fits
    /// in ``analysisShare`` of `left`; else the factor that makes it fit (the cost taken as
    /// proportional to the pixels searched), but never so small that those characters are below
    /// 3 pixels in the copy (the line finder's least). So on a frame that is large for its budget
    /// the smallest lines may go unfound rather than the frame go over budget.
    func analysisReduction(pixels: Int, smallest: Double, left: Duration?) -> Double {
        guard let left, pixels > 0 else { return 1 }
        let predicted = analysisCost.withLock { $0 } * Double(pixels)
        let allowed = (detector != nil ? Self.detectorAnalysisShare : Self.analysisShare) * max(0, left.seconds)
        guard predicted > allowed else { return 1 }
        let least = min(1, 3 / (smallest * (detector != nil ? Self.detectorSearchHeight : 1)))
        return max(least, (allowed / predicted).squareRoot())
    }

    /// Follows the search's cost: `took` for `pixels` pixels searched.
    func recordAnalysis(_ took: Duration, pixels: Int) {
        guard pixels > 0 else { return }
        let perPixel = took.seconds / Double(pixels)
        analysisCost.withLock { $0 = Self.follow($0, perPixel) }
    }

    /// `gray` with each of `lines`' boxes inverted (from `gray`'s own pixels, so that overlapping
    /// boxes are inverted once), in a copy; `gray` itself when `lines` is empty.
    static func invertingBoxes(
        of lines: [Line], in gray: PixelBuffer, pool: PixelBufferPool
    ) throws(FrameOCRError) -> PixelBuffer {
        guard !lines.isEmpty else { return gray }
        let out = try gray.copy(pool: pool)
        gray.withUnsafePlanes { source in
            out.withUnsafePlanes { target in
                for line in lines {
                    let b = line.box
                    for y in max(0, b.y)..<min(gray.height, b.maxY) {
                        let from = source[0].row(y)
                        let to = target[0].row(y)
                        for x in max(0, b.x)..<min(gray.width, b.maxX) { to[x] = 255 &- from[x] }
                    }
                }
            }
        }
        return out
    }

    /// A line to read: where it is in the upright frame and in the region's image, and its
    /// characters' height and shape (pixels of the region's image).
    struct Line: Sendable {
        /// The text's box (the finder's, joined), upright-frame pixels: what the track follows.
        var text: Rect
        /// The box read (the text's grown by ``lineMargin``), upright-frame pixels and pixels of
        /// the region's image.
        var upright: PixelRect
        var box: PixelRect
        /// The text's box in pixels of the region's image (whole pixels, outward).
        var textBox: PixelRect
        /// The text's box is within ``cutMargin`` of the region's edge.
        var cut: Bool
        var characterHeight: Double
        var characterAspect: Double?
        /// Found in the polarity-normalized region (light text on dark), and read from
        /// ``FoundLines/light``, where its box is inverted.
        var normalized = false
        /// A track's detector region the line finder did not find in this frame
        /// (``detectedLines(plans:besides:region:)``), upright-frame pixels: read from it by the
        /// CTC recognizer.
        var region: DetectedText? = nil
    }

    /// Pieces of one line are joined when they overlap vertically by at least this share of the
    /// smaller one's height and are at most this many character heights apart (a word space with
    /// a letter the finder left out: phototest's `see if`, 2×, is 2.2 heights).
    static let joinOverlap = 0.5
    static let joinGap = 3.0
    /// The finder is asked for this many pieces per line wanted (lines of mixed case come in
    /// pieces).
    static let piecesPerLine = 3
    /// The box read is the line's grown by this many character heights above and below, and
    /// twice that on the left and right, so that dots, accents and descenders are in it.
    static let lineMargin = 0.25
    /// Lower-case letters are at least this share of the height of capitals and ascenders (an
    /// x-height of 0.45…0.55 em against capitals of 0.65…0.75 em in common faces: 0.6…0.85).
    static let lowerCase = 0.6
    /// A line whose text's box comes this close to the region's edge (pixels) may be cut by it.
    static let cutMargin = 2.0

    /// The lines of `found` to read from the upright `region`: the text-line finder's pieces of one
    /// line joined (it splits lines of mixed case and wide spacing where heights change or gaps
    /// open), each grown by a margin.
    static func lines(_ found: LineFinder.Found, region: PixelRect) -> [Line] {
        struct Piece {
            var rect: Rect
            var height: Double
            var aspect: Double?
        }
        var pieces = found.lines.map { l in
            Piece(
                rect: Rect(l.upright), height: Double(l.measurement.characterHeight) / found.scaleY,
                aspect: l.measurement.characterAspect.map { Double($0) })
        }
        pieces.sort { ($0.rect.y, $0.rect.x) < ($1.rect.y, $1.rect.x) }
        var joined: [Piece] = []
        for piece in pieces {
            if let i = joined.lastIndex(where: { j in
                let top = max(j.rect.y, piece.rect.y)
                let bottom = min(j.rect.maxY, piece.rect.maxY)
                let gap = max(piece.rect.x - j.rect.maxX, j.rect.x - piece.rect.maxX, 0)
                return bottom - top >= joinOverlap * min(j.rect.height, piece.rect.height)
                    && gap <= joinGap * max(j.height, piece.height)
            }) {
                let u = joined[i].rect
                let x0 = min(u.x, piece.rect.x)
                let y0 = min(u.y, piece.rect.y)
                joined[i].rect = Rect(
                    x: x0, y: y0, width: max(u.maxX, piece.rect.maxX) - x0, height: max(u.maxY, piece.rect.maxY) - y0)
                if piece.height > joined[i].height {
                    joined[i].height = piece.height
                    joined[i].aspect = piece.aspect
                }
            } else {
                joined.append(piece)
            }
        }
        return joined.map { p in
            let my = lineMargin * p.height
            let mx = 2 * my
            let x0 = max(region.x, Int((p.rect.x - mx).rounded(.down)))
            let y0 = max(region.y, Int((p.rect.y - my).rounded(.down)))
            let x1 = min(region.maxX, Int((p.rect.maxX + mx).rounded(.up)))
            let y1 = min(region.maxY, Int((p.rect.maxY + my).rounded(.up)))
            let upright = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            let box = PixelRect(x: x0 - region.x, y: y0 - region.y, width: upright.width, height: upright.height)
            let tx = Int(p.rect.x.rounded(.down))
            let ty = Int(p.rect.y.rounded(.down))
            let textBox = PixelRect(
                x: tx - region.x, y: ty - region.y, width: Int(p.rect.maxX.rounded(.up)) - tx,
                height: Int(p.rect.maxY.rounded(.up)) - ty)
            let r = Rect(region)
            let cut =
                p.rect.x <= r.x + cutMargin || p.rect.y <= r.y + cutMargin || p.rect.maxX >= r.maxX - cutMargin
                || p.rect.maxY >= r.maxY - cutMargin
            return Line(
                text: p.rect, upright: upright, box: box, textBox: textBox, cut: cut, characterHeight: p.height,
                characterAspect: p.aspect)
        }
    }
}
