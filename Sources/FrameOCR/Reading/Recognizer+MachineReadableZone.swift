internal import CFrameOCR

extension Recognizer {
    /// Finds a machine readable zone in `result` (two or three consecutive lines that look like
    /// one, ``MachineReadableZone/looksLikeLine(_:)``), reads its region of `frame` again with
    /// only the MRZ alphabet (PSM 6, the same pipeline with the region set), measures the filler
    /// glyphs (`focr_mrz_chevrons`) and repairs the reading
    /// (``MachineReadableZone/repair(_:format:chevrons:)``). The repaired lines replace the MRZ
    /// lines of `result` (one word each, boxed by the second reading) and the zone is recorded in
    /// ``PreprocessingDecisions/machineReadableZone``; `result` is unchanged when no zone is found
    /// or the second reading does not hold the zone's lines.
    /// - Throws: ``FrameOCRError`` from the second preprocessing or recognition.
    func readMachineReadableZone(in result: inout RecognitionResult, frame: PixelBuffer, pipeline: Pipeline, options: Options?,
                                 pool: PixelBufferPool?) throws(FrameOCRError) {
        // Consecutive MRZ-like lines (in reading order, across blocks): the last run of 2 or 3.
        var positions: [(block: Int, line: Int)] = []
        for b in result.blocks.indices { for l in result.blocks[b].lines.indices { positions.append((b, l)) } }
        var run: [(block: Int, line: Int)] = [], best: [(block: Int, line: Int)] = []
        for p in positions {
            if MachineReadableZone.looksLikeLine(result.blocks[p.block].lines[p.line].text) {
                run.append(p)
                if (2...3).contains(run.count) { best = run }
            } else {
                run = []
            }
        }
        let lines = best.map { result.blocks[$0.block].lines[$0.line] }
        let meanLength = Double(lines.map { $0.text.filter { !$0.isWhitespace }.count }.reduce(0, +)) / Double(max(1, lines.count))
        guard let format = MachineReadableZone.format(lineCount: lines.count, meanLength: meanLength) else { return }

        let clock = ContinuousClock()
        let started = clock.now
        // The zone's box, grown by half a line vertically and two characters horizontally.
        let union = Rect(bounding: lines.flatMap { $0.box.quad.points })
        let lineHeight = union.height / Double(lines.count)
        let charWidth = union.width / Double(format.lineLength)
        let frameWidth = Double(result.transform.uprightWidth), frameHeight = Double(result.transform.uprightHeight)
        let x0 = max(0, union.x - 2 * charWidth), y0 = max(0, union.y - 0.5 * lineHeight)
        let x1 = min(frameWidth, union.x + union.width + 2 * charWidth), y1 = min(frameHeight, union.y + union.height + 0.5 * lineHeight)
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return }
        var p = pipeline
        p.region = .pixels(PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0)))
        p.orientation = result.transform.orientation
        p.automatic?.orientation = false
        // The filler glyphs are measured on the zone's own pixels, and OCR-B needs no smoothing.
        p.automatic?.smoothing = false
        var prepared = try p.run(frame, pool: pool)
        prepared.decisions?.pageSegmentationMode = nil
        var mrzOptions = options ?? configuration.defaultOptions
        mrzOptions.characterWhitelist = MachineReadableZone.alphabet
        mrzOptions.characterBlacklist = nil
        mrzOptions.pageSegmentationMode = .singleBlock
        let reread = try recognize(prepared, options: mrzOptions)
        let readLines = reread.lines.filter { $0.text.filter { !$0.isWhitespace }.count >= format.lineLength * 6 / 10 }
        defer { result.timings.automatic += clock.now - started }
        guard readLines.count == format.lineCount else {
            result.preprocessing?.reasons.append("mrz: \(lines.count) MRZ-like lines, but the second reading held \(readLines.count): kept")
            return
        }
        // Filler glyphs, measured in the second reading's image.
        var chevrons: [[Bool]] = []
        for line in readLines {
            let q = line.box.quad.map(prepared.transform.outputPoint(fromUpright:))
            let r = Rect(bounding: q.points)
            var cells = [UInt8](repeating: 0, count: format.lineLength)
            var d = prepared.image.descriptor
            let status = withExtendedLifetime(prepared.image) {
                focr_mrz_chevrons(&d, Int32(r.x.rounded()), Int32(r.y.rounded()), Int32(r.width.rounded()), Int32(r.height.rounded()),
                                  Int32(format.lineLength), &cells)
            }
            chevrons.append(status == FOCR_OK ? cells.map { $0 != 0 } : Array(repeating: false, count: format.lineLength))
        }
        // The character cell (0…n−1) each symbol's box centre falls in, for finding an inserted character.
        let cells = readLines.map { line in
            let pitch = line.box.rect.width / Double(format.lineLength)
            return line.words.flatMap(\.symbols).map { Int(($0.box.rect.x + $0.box.rect.width / 2 - line.box.rect.x) / pitch) }
        }
        let zone = MachineReadableZone.repair(readLines.map(\.text), format: format, chevrons: chevrons, cells: cells)

        var blocks = result.blocks
        for (i, at) in best.enumerated() {
            let old = blocks[at.block].lines[at.line], new = readLines[i]
            let symbols = new.words.flatMap(\.symbols)
            let word = TextWord(text: zone.lines[i], confidence: new.confidence, box: new.box,
                                symbols: symbols.count == zone.lines[i].count ? symbols : [])
            blocks[at.block].lines[at.line] = TextLine(text: zone.lines[i], confidence: new.confidence, box: new.box,
                                                       paragraph: old.paragraph, words: [word])
        }
        let finished = ResultBuilder.finish(blocks, status: result.status, transform: result.transform)
        result.blocks = finished.blocks
        result.text = finished.text
        result.confidence = finished.confidence
        let passing = zone.checks.filter(\.valid).count
        result.preprocessing?.machineReadableZone = zone
        result.preprocessing?.reasons.append(
            "mrz: \(zone.format.rawValue.uppercased()) (\(format.lineCount)×\(format.lineLength)) read again with the MRZ alphabet; "
                + "\(zone.corrections) characters corrected; \(passing) of \(zone.checks.count) check digits hold")
    }
}
