/// The machine readable zone strategy (``SecondReadings/machineReadableZone``): finds a machine
/// readable zone in the reading (two or three consecutive lines that look like one,
/// ``MachineReadableZone/looksLikeLine(_:)``), reads its region of the frame again with only the
/// MRZ alphabet (PSM 6, the same pipeline with the region set and no smoothing: OCR-B needs
/// none, and the filler glyphs are measured on the zone's own pixels), measures the filler
/// glyphs (`focr_mrz_chevrons`) and repairs the reading
/// (``MachineReadableZone/repair(_:format:chevrons:cells:)``). The repaired lines replace the
/// MRZ lines of the reading (one word each, boxed by the second reading) and the zone is
/// recorded in ``PreprocessingDecisions/machineReadableZone``; when a zone is read, no other
/// strategy runs. The reading is unchanged when no zone is found or the second reading does
/// not hold the zone's lines.
struct MachineReadableZoneReading: ReadingStrategy {
    /// The zone's box is grown by this many characters on the left and right,
    static let marginCharacters = 2.0
    /// and by this many lines above and below.
    static let marginLines = 0.5
    /// A line of the second reading counts as a zone line when it holds at least this many
    /// tenths of the layout's characters.
    static let minimumLineTenths = 6
    /// The grown box must be at least this many pixels on both sides.
    static let minimumSide = 8.0

    func isOn(in readings: SecondReadings) -> Bool { readings.machineReadableZone }

    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        let result = context.result
        // Consecutive MRZ-like lines (in reading order, across blocks): the last run of 2 or 3.
        var run: [(block: Int, line: Int)] = []
        var best: [(block: Int, line: Int)] = []
        for b in result.blocks.indices {
            for l in result.blocks[b].lines.indices {
                if MachineReadableZone.looksLikeLine(result.blocks[b].lines[l].text) {
                    run.append((b, l))
                    if (2...3).contains(run.count) { best = run }
                } else {
                    run = []
                }
            }
        }
        let lines = best.map { result.blocks[$0.block].lines[$0.line] }
        let meanLength =
            Double(lines.map { $0.text.filter { !$0.isWhitespace }.count }.reduce(0, +)) / Double(max(1, lines.count))
        guard let format = MachineReadableZone.format(lineCount: lines.count, meanLength: meanLength) else {
            return false
        }

        // The zone's box, grown by two characters horizontally and half a line vertically.
        let union = Rect(bounding: lines.flatMap { $0.box.quad.points })
        let lineHeight = union.height / Double(lines.count)
        let charWidth = union.width / Double(format.lineLength)
        let frameWidth = Double(result.transform.uprightWidth)
        let frameHeight = Double(result.transform.uprightHeight)
        let x0 = max(0, union.x - Self.marginCharacters * charWidth)
        let y0 = max(0, union.y - Self.marginLines * lineHeight)
        let x1 = min(frameWidth, union.x + union.width + Self.marginCharacters * charWidth)
        let y1 = min(frameHeight, union.y + union.height + Self.marginLines * lineHeight)
        guard x1 - x0 >= Self.minimumSide, y1 - y0 >= Self.minimumSide else { return false }
        var p = context.pipeline
        p.region = .pixels(PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0)))
        p.orientation = .known(result.transform.orientation)
        p.automatic?.smoothing = false
        var prepared = try p.run(context.frame, pool: context.pool)
        prepared.decisions?.pageSegmentationMode = nil
        var mrzOptions = context.options
        mrzOptions.characterWhitelist = MachineReadableZone.alphabet
        mrzOptions.characterBlacklist = nil
        mrzOptions.pageSegmentationMode = .singleBlock
        let reread = try context.read(prepared, options: mrzOptions)
        let minimumLength = format.lineLength * Self.minimumLineTenths / 10
        let readLines = reread.lines.filter { $0.text.filter { !$0.isWhitespace }.count >= minimumLength }
        guard readLines.count == format.lineCount else {
            context.note("mrz: \(lines.count) MRZ-like lines, but the second reading held \(readLines.count): kept")
            return false
        }
        // Filler glyphs, measured in the second reading's image.
        let chevrons = readLines.map { line in
            let r = Rect(bounding: line.box.quad.map(prepared.transform.outputPoint(fromUpright:)).points)
            return Shim.mrzChevrons(prepared.image, box: r, cells: format.lineLength)
                ?? Array(repeating: false, count: format.lineLength)
        }
        // The character cell (0…n−1) each symbol's box centre falls in, for finding an inserted character.
        let cells = readLines.map { line in
            let pitch = line.box.rect.width / Double(format.lineLength)
            return line.words.flatMap(\.symbols).map {
                Int(($0.box.rect.x + $0.box.rect.width / 2 - line.box.rect.x) / pitch)
            }
        }
        let zone = MachineReadableZone.repair(readLines.map(\.text), format: format, chevrons: chevrons, cells: cells)

        var blocks = result.blocks
        for (i, at) in best.enumerated() {
            let old = blocks[at.block].lines[at.line]
            let new = readLines[i]
            let symbols = new.words.flatMap(\.symbols)
            let word = TextWord(
                text: zone.lines[i], confidence: new.confidence, box: new.box,
                symbols: symbols.count == zone.lines[i].count ? symbols : [])
            blocks[at.block].lines[at.line] = TextLine(
                text: zone.lines[i], confidence: new.confidence, box: new.box,
                paragraph: old.paragraph, words: [word])
        }
        context.adopt(context.rebuilt(blocks))
        let passing = zone.checks.filter(\.valid).count
        context.result.preprocessing?.machineReadableZone = zone
        context.note(
            "mrz: \(zone.format.rawValue.uppercased()) (\(format.lineCount)×\(format.lineLength)) read again with the MRZ alphabet; "
                + "\(zone.corrections) characters corrected; \(passing) of \(zone.checks.count) check digits hold")
        return true
    }
}
