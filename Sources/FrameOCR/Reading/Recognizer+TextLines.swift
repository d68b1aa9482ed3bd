internal import CFrameOCR

extension Recognizer {
    /// Mean word confidence a line read alone needs at least, whatever the page read there.
    static let confidentLineReading: Float = 0.5
    /// Height, in pixels, that the smallest characters sought have in the image searched for
    /// lines (larger images are reduced to it).
    static let searchedCharacterHeight: Double = 32

    /// When `result` still reads poorly (mean word confidence below 0.9), finds the lines of large
    /// text in the image (``AutomaticPreprocessing/textLines``) and reads each alone; a line's
    /// words replace the page's words on it (their centres inside its box) when the line's mean
    /// word confidence is at least 0.5 and higher than theirs (0 when there are none) by 0.15.
    ///
    /// The lines (`focr_text_lines`) are found in the unscaled upright region, its polarity
    /// normalized as the page's was (`focr_auto_analyze`): ink against a background divided
    /// out (a morphological closing), rails and underlines removed, characters at least
    /// ``AutomaticPreprocessing/minimumTextLineHeight`` pixels and a twentieth of the region's
    /// height tall, at most ``AutomaticPreprocessing/maximumTextLines`` lines, the most ink
    /// first, none overlapping the dominant line already read. Each is drawn black on white
    /// alone, scaled so that its characters (or 70 % of its box, if taller) are
    /// ``AutomaticPreprocessing/lineTextHeight`` pixels tall, widened when its letters are
    /// narrower than ``AutomaticPreprocessing/lineTargetAspect`` (median width/height; to it, at
    /// most ``AutomaticPreprocessing/maximumStretch``),
    /// given a white border of half that height and read with PSM 7.
    ///
    /// Its words take the place of the page's in the page's line that held the first of them
    /// (kept in order of their left edges), or, when the page had none there, come as a block of
    /// their own before the first block that starts below the line. The lines taken are in
    /// ``PreprocessingDecisions/textLines``, every line read is in the reasons; boxes are in
    /// upright-frame pixels as always.
    /// - Throws: ``FrameOCRError`` from preprocessing or recognition;
    ///   ``FrameOCRError/Code/invalidParameter`` for ``AutomaticPreprocessing/maximumTextLines``
    ///   outside 1…64 or ``AutomaticPreprocessing/minimumTextLineHeight`` below 3.
    /// - Parameter uprightGray: as in ``readDominantLine(in:frame:pipeline:options:pool:uprightGray:)``.
    func readTextLines(in result: inout RecognitionResult, frame: PixelBuffer, pipeline: Pipeline, options: Options?,
                       pool: PixelBufferPool?, uprightGray: inout PreprocessedFrame?) throws(FrameOCRError) {
        guard let automatic = pipeline.automatic, automatic.textLines else { return }
        guard (1...64).contains(automatic.maximumTextLines) else {
            throw .invalidParameter("maximumTextLines", "\(automatic.maximumTextLines) not in 1…64", stage: .recognition)
        }
        guard automatic.minimumTextLineHeight >= 3 else {
            throw .invalidParameter("minimumTextLineHeight", "\(automatic.minimumTextLineHeight) px is below 3", stage: .recognition)
        }
        guard (result.confidence ?? 0) < Self.confidentPageReading else { return }
        let clock = ContinuousClock()
        let started = clock.now
        defer { result.timings.automatic += clock.now - started }
        let gray = try Self.uprightGray(&uprightGray, of: frame, pipeline: pipeline, orientation: result.transform.orientation, pool: pool)
        // The lines are cut from the unscaled upright region (a caller's `scale` leaves it alone).
        guard gray.transform.scaleX == 1, gray.transform.scaleY == 1, gray.transform.padding == 0 else { return }
        let width = gray.image.width, height = gray.image.height
        var source = gray.image
        // The page's polarity step inverted light-on-dark regions: the lines are looked for in
        // the same polarity-normalized image (measured again only then).
        if automatic.polarity, (result.preprocessing?.invertedRegions ?? 0) > 0 {
            let normalized = try PixelBuffer.destination(nil, pool: pool, width: width, height: height, format: .gray8, stage: .threshold)
            var a = focr_text_analysis()
            try gray.image.run(into: normalized, .threshold) { s, d in focr_auto_analyze(s, 0, d, &a) }
            if a.inverted_tiles > 0 { source = normalized }
        }
        let minimumHeight = max(automatic.minimumTextLineHeight, Double(height) / 20)
        // A large image is searched at a reduced size (cv::resize INTER_AREA) where the smallest
        // characters sought are 32 px tall: a 3300×2550 page costs what a video frame does
        // (about 10 ms instead of 250), and the lines are drawn at that size.
        let reduction = min(1, Self.searchedCharacterHeight / minimumHeight)
        if reduction < 1 {
            source = try source.resized(width: max(1, Int((Double(width) * reduction).rounded())),
                                        height: max(1, Int((Double(height) * reduction).rounded())), pool: pool)
        }
        let rx = Double(source.width) / Double(width), ry = Double(source.height) / Double(height)
        let drawn = try PixelBuffer.destination(nil, pool: pool, width: source.width, height: source.height, format: .gray8,
                                                stage: .threshold)
        var found = [focr_line_box](repeating: focr_line_box(), count: automatic.maximumTextLines)
        var count: Int32 = 0
        let searched = Int32(max(3, (minimumHeight * ry).rounded(.up)))
        try source.run(into: drawn, .threshold) { s, d in
            found.withUnsafeMutableBufferPointer { focr_text_lines(s, searched, Int32($0.count), d, $0.baseAddress, &count) }
        }
        let dominant = result.preprocessing?.dominantLine
        for line in found.prefix(Int(count)) {
            // The box in the searched image, and the region of the upright frame it covers.
            let box = PixelRect(x: Int(line.x), y: Int(line.y), width: Int(line.width), height: Int(line.height))
            let x0 = Int((Double(box.x) / rx).rounded(.down)), y0 = Int((Double(box.y) / ry).rounded(.down))
            let x1 = min(width, Int((Double(box.maxX) / rx).rounded(.up))), y1 = min(height, Int((Double(box.maxY) / ry).rounded(.up)))
            let upright = PixelRect(x: gray.transform.region.x + x0, y: gray.transform.region.y + y0, width: x1 - x0, height: y1 - y0)
            if let dominant, upright.intersection(dominant) != nil { continue }
            // Words the page read there at 0.85 or more cannot be beaten by 0.15: not read again.
            let characterHeight = Double(line.character_height) / ry  // upright pixels
            let there = Self.words(on: Rect(upright), of: result)
            if there.count > 0, there.confidence + Self.clearlyBetter >= 1 {
                result.preprocessing?.reasons.append(String(format: "text line: %d characters about %.0f px tall at %@: the page read its %d words with mean confidence %.2f: not read again",
                                                            line.characters, characterHeight, "\(upright)", there.count,
                                                            there.confidence))
                continue
            }
            let (read, decisions) = try readLineAlone(gray, drawn: drawn, box: box, region: upright,
                                                      characterHeight: Double(line.character_height),
                                                      characterAspect: Double(line.character_aspect), automatic: automatic,
                                                      options: options, pool: pool)
            let replaced = Self.replaceWords(on: Rect(upright), with: read, in: &result, minimum: Self.confidentLineReading)
            let summary = String(format: "text line: %d characters about %.0f px tall at %@ read alone (%@): \"%@\", mean word confidence %.2f against %.2f of the %d words there",
                                 line.characters, characterHeight, "\(upright)", decisions.reasons.joined(), read.text,
                                 read.confidence ?? 0, replaced.confidence, replaced.count)
            if replaced.done {
                let taken = (result.preprocessing?.textLines ?? []) + [upright]
                result.preprocessing?.textLines = taken
                result.preprocessing?.reasons.append(summary + ": its words replace them")
            } else {
                result.preprocessing?.reasons.append(summary + ": kept the page's reading")
            }
        }
    }

    /// Replaces the words of `result` whose centres lie inside `area` (upright-frame pixels) with
    /// `read`'s words when `read` is at least `minimum` and `clearlyBetter` more confident (mean
    /// word confidence) than they are (0 when there are none). The new words go into the page's
    /// line that held the first word replaced, ordered by their left edges; with no word there,
    /// `read`'s blocks go before the first block that starts below the area's middle.
    /// - Returns: whether the words were replaced, and how many words of the page were on the
    ///   area with their mean confidence.
    static func replaceWords(on area: Rect, with read: RecognitionResult, in result: inout RecognitionResult,
                             minimum: Float) -> (done: Bool, count: Int, confidence: Float) {
        let onLine = { (w: TextWord) in isCentred(w, in: area) }
        let (count, replacedConfidence) = words(on: area, of: result)
        let replaced = (count: count, confidence: replacedConfidence)
        guard let confidence = read.confidence, confidence >= minimum, confidence > replacedConfidence + clearlyBetter,
              !read.words.isEmpty
        else { return (false, replaced.count, replaced.confidence) }
        var blocks = result.blocks
        var host: (block: Int, line: Int)?
        for b in blocks.indices {
            for l in blocks[b].lines.indices {
                if host == nil, blocks[b].lines[l].words.contains(where: onLine) { host = (b, l) }
                blocks[b].lines[l].words.removeAll(where: onLine)
            }
        }
        if let (b, l) = host {
            blocks[b].lines[l].words = (blocks[b].lines[l].words + read.words).sorted { $0.box.rect.x < $1.box.rect.x }
            blocks[b].lines[l].confidence = ResultBuilder.mean(blocks[b].lines[l].words.compactMap(\.confidence))
        } else {
            let at = blocks.firstIndex { $0.box.rect.y > area.y + area.height / 2 } ?? blocks.count
            blocks.insert(contentsOf: read.blocks, at: at)
        }
        let merged = ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
        result.blocks = merged.blocks
        result.text = merged.text
        result.confidence = merged.confidence
        return (true, replaced.count, replaced.confidence)
    }

    /// Whether `word`'s centre lies inside `area` (upright-frame pixels, edges included).
    static func isCentred(_ word: TextWord, in area: Rect) -> Bool {
        let r = word.box.rect
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2
        return cx >= area.x && cx <= area.x + area.width && cy >= area.y && cy <= area.y + area.height
    }

    /// How many of `result`'s words have their centres inside `area`, and their mean confidence
    /// (0 when there are none or none has one).
    static func words(on area: Rect, of result: RecognitionResult) -> (count: Int, confidence: Float) {
        let there = result.words.filter { isCentred($0, in: area) }
        return (there.count, ResultBuilder.mean(there.compactMap(\.confidence)) ?? 0)
    }
}
