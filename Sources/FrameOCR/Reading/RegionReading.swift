import Foundation

/// One text line — a region the text detector found, or a frame that is a single line — read
/// alone by the CTC line recognizer (``TextLineRecognizer``), and the choice between its reading
/// and Tesseract's where both read the line (``EngineSelection/auto``).
///
/// The line is cut out upright from the upright colour frame (``PixelBuffer/croppedTurned``:
/// the region's turned rectangle, its size), read, and its characters' extents are turned back
/// into the upright frame: each word's box is the quad of its characters' span across the line's
/// height, so that boxes follow a turned region.
enum RegionReading {
    /// `region` (its center in pixels of `image`) read by `recognizer`: a line of words whose
    /// boxes are in upright-frame pixels (`image`'s pixels moved by `origin`, the upright frame's
    /// pixel where `image` starts), in a frame of `frameWidth`×`frameHeight`. nil when nothing
    /// was read. The model's time is added to `timings.lineRecognition`. `options`: the call's
    /// (``RecognitionOptions/includeSymbols``: whether the words carry their characters as
    /// symbols; ``RecognitionOptions/alternates``: the choices each symbol carries, as a
    /// Tesseract reading's would).
    /// `degrees`: the turn the region is cut out with (default its own angle;
    /// ``readUpright(_:crops:of:origin:frameWidth:frameHeight:recognizer:suspects:options:timings:pool:)``
    /// tries 180° more for a region that may be upside down).
    static func read(
        _ region: DetectedText, of image: PixelBuffer, origin: Point, frameWidth: Int, frameHeight: Int,
        recognizer: TextLineRecognizer, degrees: Double? = nil, options: RecognitionOptions,
        timings: inout StageTimings, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> TextLine? {
        let degrees = degrees ?? region.angleDegrees
        let crop = try cut(region, of: image, degrees: degrees, pool: pool)
        let reading = try timed(&timings.lineRecognition) { () throws(FrameOCRError) in
            try recognizer.recognizeLine(crop, choices: options.includeSymbols ? options.alternates : 0)
        }
        return line(
            reading, of: region, crop: crop, degrees: degrees, origin: origin, frameWidth: frameWidth,
            frameHeight: frameHeight, options: options)
    }

    /// `reading`, of `crop` (`region` cut out turned by `degrees`), as a line of words whose boxes
    /// are in upright-frame pixels (see ``read(_:of:origin:frameWidth:frameHeight:recognizer:degrees:options:timings:pool:)``);
    /// nil when nothing was read.
    static func line(
        _ reading: LineRecognition, of region: DetectedText, crop: PixelBuffer, degrees: Double, origin: Point,
        frameWidth: Int, frameHeight: Int, options: RecognitionOptions
    ) -> TextLine? {
        let (w, h) = (crop.width, crop.height)
        let t = degrees * .pi / 180
        let (c, s) = (cos(t), sin(t))
        // A point of the crop (pixels from its top-left) in the upright frame.
        func upright(_ x: Double, _ y: Double) -> Point {
            let u = x - Double(w) / 2
            let v = y - Double(h) / 2
            return Point(
                x: origin.x + region.center.x + u * c - v * s, y: origin.y + region.center.y + u * s + v * c)
        }
        func box(_ x0: Double, _ x1: Double) -> TextBox {
            TextBox(
                upright: Quad(
                    topLeft: upright(x0, 0), topRight: upright(x1, 0), bottomRight: upright(x1, Double(h)),
                    bottomLeft: upright(x0, Double(h))), frameWidth: frameWidth, frameHeight: frameHeight)
        }
        var words: [TextWord] = []
        var current: [RecognizedCharacter] = []
        func close() {
            guard let first = current.first, let last = current.last else { return }
            let confidences = current.compactMap(\.confidence)
            let symbolList =
                options.includeSymbols
                ? current.map {
                    TextSymbol(
                        text: $0.text, confidence: $0.confidence, box: box($0.box.x, $0.box.maxX), choices: $0.choices)
                } : []
            words.append(
                TextWord(
                    text: current.map(\.text).joined(),
                    confidence: ResultBuilder.mean(confidences),
                    box: box(first.box.x, last.box.maxX), symbols: symbolList, engine: .ctc))
            current = []
        }
        for ch in reading.characters {
            if ch.text.allSatisfy(\.isWhitespace) { close() } else { current.append(ch) }
        }
        close()
        guard !words.isEmpty else { return nil }
        let lineBox = box(
            reading.characters.first(where: { !$0.text.allSatisfy(\.isWhitespace) })?.box.x ?? 0,
            reading.characters.last(where: { !$0.text.allSatisfy(\.isWhitespace) })?.box.maxX ?? Double(w))
        return TextLine(
            text: words.map(\.text).joined(separator: " "),
            confidence: ResultBuilder.mean(words.compactMap(\.confidence)),
            box: lineBox, paragraph: 0, words: words)
    }

    /// `region` (its center in pixels of `image`) cut out turned by `degrees`: its rectangle, its
    /// size, level (`focr_crop_turned`).
    static func cut(
        _ region: DetectedText, of image: PixelBuffer, degrees: Double, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> PixelBuffer {
        let w = max(1, Int(region.width.rounded()))
        let h = max(1, Int(region.height.rounded()))
        return try image.croppedTurned(center: region.center, width: w, height: h, degrees: degrees, pool: pool)
    }

    /// Which of the regions whose level crops are `crops` (``cut(_:of:degrees:pool:)`` at their
    /// angles) may be upside down: those `classifier` finds upside down (at least its
    /// ``TextAngleClassifier/Configuration/threshold``; the crops classified together,
    /// ``TextAngleClassifier/upsideDownProbabilities(_:)``) — or all of them, when more than half of them are
    /// (a frame taken upside down: the classifier, weak on a word alone, misses some of its
    /// regions; together they say how the frame is turned). nil without a classifier. Its time is
    /// added to `timings.lineRecognition`.
    static func suspects(
        _ crops: [PixelBuffer], classifier: TextAngleClassifier?, timings: inout StageTimings
    ) throws(FrameOCRError) -> [Bool]? {
        guard let classifier else { return nil }
        let probabilities = try timed(&timings.lineRecognition) { () throws(FrameOCRError) in
            try classifier.upsideDownProbabilities(crops)
        }
        return vote(probabilities.map { $0 >= classifier.configuration.threshold })
    }

    /// The frame's vote on the classifier's findings, region by region: all suspects when more
    /// than half of them are, else `found` as it is.
    static func vote(_ found: [Bool]) -> [Bool] {
        found.filter { $0 }.count * 2 > found.count ? found.map { _ in true } : found
    }

    /// `regions` read the right way up, each from its level crop (`crops[i]`: cut out at its
    /// angle, ``cut(_:of:degrees:pool:)``; the crops the classifier saw), the crops read together
    /// (``TextLineRecognizer/recognizeLines(_:choices:)``: the lines of one input width in one
    /// run of the network); a `suspect` (``suspects(_:classifier:timings:)``) that reads poorly
    /// (below ``SecondReadings/poorBelow``) is cut out again turned 180° more, these read together
    /// too, and the more confident of its two readings kept (the classifier alone is not trusted:
    /// on ICDAR's word crops it found 3 of 43 upright ones upside down at 0.9, and 13 at 0.5; the
    /// CTC reading's confidence tells the two ways apart better). Per region, in their order: its
    /// line (nil when nothing was read) and `upsideDown`, whether the reading kept is the turned
    /// one (nil when `suspects` is nil: no classifier). The model's time is added to
    /// `timings.lineRecognition`.
    static func readUpright(
        _ regions: [DetectedText], crops: [PixelBuffer], of image: PixelBuffer, origin: Point, frameWidth: Int,
        frameHeight: Int, recognizer: TextLineRecognizer, suspects: [Bool]?, options: RecognitionOptions,
        timings: inout StageTimings, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> [(line: TextLine?, upsideDown: Bool?)] {
        let choices = options.includeSymbols ? options.alternates : 0
        func lines(_ crops: [PixelBuffer], _ indices: [Int], turn: Double, _ timings: inout StageTimings)
            throws(FrameOCRError) -> [TextLine?]
        {
            let readings = try timed(&timings.lineRecognition) { () throws(FrameOCRError) in
                try recognizer.recognizeLines(crops, choices: choices)
            }
            return zip(indices, zip(readings, crops)).map { i, rc in
                line(
                    rc.0, of: regions[i], crop: rc.1, degrees: regions[i].angleDegrees + turn, origin: origin,
                    frameWidth: frameWidth, frameHeight: frameHeight, options: options)
            }
        }
        let level = try lines(crops, Array(regions.indices), turn: 0, &timings)
        guard let suspects else { return level.map { ($0, nil) } }
        // A level reading at SecondReadings.poorBelow or more stands: a crop upside down seldom
        // reads that well (1 of the 43 turned ICDAR and plate word crops did; 4 of the 13 upright
        // suspects did, and need no second reading).
        let again = regions.indices.filter { suspects[$0] && (level[$0]?.confidence ?? 0) < SecondReadings.poorBelow }
        var turnedCrops: [PixelBuffer] = []
        for i in again {
            turnedCrops.append(try cut(regions[i], of: image, degrees: regions[i].angleDegrees + 180, pool: pool))
        }
        let turned = try lines(turnedCrops, again, turn: 180, &timings)
        var read = level.map { (line: $0, upsideDown: Bool?.some(false)) }
        for (i, t) in zip(again, turned) {
            if let t, (t.confidence ?? 0) > (level[i]?.confidence ?? 0) { read[i] = (t, true) }
        }
        return read
    }

    /// The regions' lines (`blocks`, one line each) in reading order: a line whose vertical
    /// center lies within the height of a row's first line joins that row (regions of one line of
    /// text — words the detector found apart — side by side), the rows top to bottom, each row's
    /// lines left to right and merged into one line of one block.
    /// Boxes are in the upright frame of `frameWidth`×`frameHeight` pixels.
    static func rows(_ blocks: [TextBlock], frameWidth: Int, frameHeight: Int) -> [TextBlock] {
        func midY(_ b: TextBlock) -> Double { b.box.rect.y + b.box.rect.height / 2 }
        var rows: [[TextBlock]] = []
        for b in blocks.sorted(by: { midY($0) < midY($1) }) {
            let y = midY(b)
            if let r = rows.indices.last(where: { y >= rows[$0][0].box.rect.y && y <= rows[$0][0].box.rect.maxY }) {
                rows[r].append(b)
            } else {
                rows.append([b])
            }
        }
        return rows.map { row in
            let ordered = row.sorted { $0.box.rect.x < $1.box.rect.x }
            guard ordered.count > 1 else { return ordered[0] }
            let words = ordered.flatMap { $0.lines.flatMap(\.words) }
            let box = TextBox(
                upright: Rect(bounding: ordered.flatMap { $0.box.quad.points }), frameWidth: frameWidth,
                frameHeight: frameHeight)
            let line = TextLine(
                text: words.map(\.text).joined(separator: " "),
                confidence: ResultBuilder.mean(words.compactMap(\.confidence)), box: box, paragraph: 0, words: words)
            return block(line)
        }
    }

    /// A block holding `line` alone.
    static func block(_ line: TextLine) -> TextBlock {
        TextBlock(text: line.text, confidence: line.confidence, box: line.box, lines: [line])
    }

    /// The reading to keep of one line read by both engines: Tesseract's when it is not poor (its
    /// mean word confidence at least ``SecondReadings/poorBelow``: on clean print it is right,
    /// and the CTC model, whose probabilities run near 1 on clean lines, misreads a letter now
    /// and then); otherwise the CTC reading, unless Tesseract's is clearly more confident (by more
    /// than ``SecondReadings/clearlyBetter``, the line readings' margin: the two engines'
    /// confidences are not on one scale, Tesseract's running lower on the same lines); whichever
    /// exists when one is missing. How it was chosen: `docs/tuning.md#engines`.
    static func choose(ctc: TextLine?, tesseract: [TextBlock]) -> (blocks: [TextBlock], engine: RecognitionEngine)? {
        let words = tesseract.flatMap { $0.lines.flatMap(\.words) }.filter { !$0.text.isEmpty }
        let tesseractConfidence = ResultBuilder.mean(words.compactMap(\.confidence)) ?? 0
        switch (ctc, words.isEmpty) {
        case (nil, true): return nil
        case (nil, false): return (tesseract, .tesseract)
        case (let line?, true): return ([block(line)], .ctc)
        case (let line?, false):
            if tesseractConfidence >= SecondReadings.poorBelow
                || tesseractConfidence > (line.confidence ?? 0) + SecondReadings.clearlyBetter
            {
                return (tesseract, .tesseract)
            }
            return ([block(line)], .ctc)
        }
    }
}
