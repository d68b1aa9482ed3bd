import Foundation

/// The scene-text strategy (``SecondReadings/sceneText``).
///
/// When the reading so far (the page's, and the lines read alone) says the frame is a scene — it
/// read poorly (mean word confidence below ``SecondReadings/poorBelow``), with fewer than
/// ``SecondReadings/sceneMaximumConfidentWords`` (or than a
/// ``SecondReadings/sceneConfidentWordShare``-th of its words) words of two letters or digits or
/// more read at ``SecondReadings/sceneConfidentWord`` or more, over at least
/// ``SecondReadings/sceneMinimumComponents`` text-like components, in a frame that is not a
/// single line (and, when only Tesseract reads, at least ``SecondReadings/sceneMinimumSide``
/// pixels on its smaller side, so that a crop of one object — a plate, a word — is left to the
/// line strategies): clutter that Tesseract's page layout cannot take apart — the recognizer's
/// ``TextDetector`` finds the regions of text in the upright region in colour, and each region, up
/// to ``SecondReadings/maximumSceneRegions`` (the most probable first), is cut out upright and
/// read alone as one line by the engines ``EngineSelection`` allows: the CTC line recognizer
/// (``RegionReading``) and Tesseract (``readRegion(_:of:context:)``: PSM 7), the more confident
/// reading kept (``RegionReading/choose(ctc:tesseract:)``). The reading then holds the page's
/// confident words outside every region, and each region's words that read at least
/// ``SecondReadings/minimumSceneWordConfidence`` and ``SecondReadings/clearlyBetter`` more than
/// the words read there already (their mean confidence, 0 when there are none: the line
/// strategies' rule); the page's other words — a scene's texture read as letters — are dropped.
/// It runs last, so that a sign or a plate the line strategies read well is not a scene.
///
/// With the CTC engine a photograph can be taken for a scene before its page is read
/// (``readEarly(_:)``), and only its regions are read, by the CTC recognizer alone (Tesseract
/// reads them only when the recognizer cannot be loaded).
///
/// Every region found, its reading, the engine whose reading it is and what was kept are in
/// ``PreprocessingDecisions/sceneText``; the detector's time is in ``StageTimings/detection``,
/// the CTC recognizer's in ``StageTimings/lineRecognition``. Boxes are in upright-frame pixels: a
/// region's words carry its turn (their `quad`s are turned with it).
///
/// How its numbers were chosen: `docs/tuning.md#scene-text` and `docs/tuning.md#engines`.
struct SceneTextReading: ReadingStrategy {
    /// A region's height is scaled to this many pixels before it is read (the text inside it is
    /// about ``AutomaticPreprocessing/lineHeightFraction`` of it: about
    /// ``LineReadingOptions/textHeight`` tall).
    static let regionHeight = 48.0
    /// With the CTC engine (``EngineSelection/ctc``, ``EngineSelection/auto``) the detector's
    /// input is sized as PP-OCR sizes it, its shorter side this many pixels (its longer side at
    /// most 1920): a 1280×720 photo is searched at 1312×736, where Tesseract's scene reading
    /// used ``TextDetector/Configuration/longSide`` (736×416). How it was chosen:
    /// `docs/tuning.md#engines`.
    static let sceneDetectorShortSide = 736
    /// Regions turned by less than this many degrees are read without a turn.
    static let minimumTurn = 0.5

    func isOn(in readings: SecondReadings) -> Bool { readings.sceneText }

    /// A word the page read: at least two letters or digits, at ``SecondReadings/sceneConfidentWord`` or more (a
    /// scene's texture reads as confident `|`, `\\` and single letters).
    static func isConfident(_ w: TextWord) -> Bool {
        (w.confidence ?? 0) >= SecondReadings.sceneConfidentWord
            && w.text.unicodeScalars.filter(CharacterSet.alphanumerics.contains).count >= 2
    }

    /// Whether the reading so far says the frame is a scene (see the type's overview).
    static func isScene(_ context: ReadingContext) -> Bool {
        let words = context.result.words
        let confident = words.filter(isConfident).count
        let region = context.prepared.transform.region
        return (context.result.confidence ?? 0) < SecondReadings.poorBelow
            && confident
                < max(context.readings.sceneMaximumConfidentWords, words.count / SecondReadings.sceneConfidentWordShare)
            && (context.result.preprocessing?.textComponents ?? 0) >= SecondReadings.sceneMinimumComponents
            && context.result.preprocessing?.singleLine == false
            && (min(region.width, region.height) >= SecondReadings.sceneMinimumSide || context.engine != .tesseract)
    }

    func read(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        guard Self.isScene(context) else { return false }
        let words = context.result.words
        let confident = words.filter(Self.isConfident)
        let components = context.result.preprocessing?.textComponents ?? 0
        let region = context.prepared.transform.region
        let measured = String(
            format: "%d of %d words read at %.1f or more, %d text-like components, %d×%d px", confident.count,
            words.count, SecondReadings.sceneConfidentWord, components, region.width, region.height)
        guard let found = try Self.detect(&context, measured: measured) else { return false }
        try Self.readRegions(found, context: &context, measured: measured, early: false)
        return false
    }

    /// Reads the frame as a scene before its page is read, when ``ReadingContext/engine`` allows
    /// it, and says whether it did (the plan then ends). ``EngineSelection/ctc``: a single line
    /// read whole, any other frame as the detector's regions. ``EngineSelection/auto``: a frame
    /// measured to be a photograph without a page in it — its background brightness spreads by
    /// at least ``AutomaticPreprocessing/unevenLightSpread`` levels
    /// (``PreprocessingDecisions/backgroundSpread``: uneven light, as the light step measures
    /// it), marks in at least ``SecondReadings/sceneMinimumMarkedShare`` of its polarity regions
    /// (``PreprocessingDecisions/markedRegions``: clutter, where a few words on blank paper leave
    /// most regions empty), its paper does not even out when the light step divides it by its
    /// background (``LightDecision/flattenedSpread`` at least
    /// ``SecondReadings/sceneMinimumFlattenedSpread``, or the step left it alone: a page under
    /// uneven light evens out) and it is not a single line — whose detected text
    /// regions cover less than ``SecondReadings/sceneMaximumTextCover`` of it: a page's text
    /// covers much of it, a scene's little. A frame of marks without lines of text
    /// (``SecondReadings/structurelessMinimumComponents``, ``SecondReadings/structurelessMaximumLines``,
    /// not ink on paper) takes the test whatever its light, and when the detector's quick look
    /// (``anyText(_:measured:)``) finds no text there is nothing to read: the result is empty,
    /// with its reason. Otherwise the regions found are kept for the scene
    /// reading after the page (``ReadingContext/detected``) and the page is read.
    static func readEarly(_ context: inout ReadingContext) throws(FrameOCRError) -> Bool {
        let engine = context.engine
        guard engine != .tesseract, let p = context.result.preprocessing else { return false }
        if engine == .ctc && p.singleLine {
            let line = try EngineChoiceReading.readWhole(&context)
            context.adopt(context.rebuilt(line.map { [RegionReading.block($0)] } ?? []))
            context.note("engines: ctc: a single line, read whole")
            return true
        }
        guard context.readings.sceneText, !p.singleLine else { return false }
        let region = context.prepared.transform.region
        // The spread before the light step flattened it (``LightDecision/spread``), else as measured.
        let uneven = max(p.light?.spread ?? 0, p.backgroundSpread ?? 0) >= context.automatic.unevenLightSpread
        // Marks over much of the frame: clutter, not a few words on blank paper.
        let marked = Double(p.markedRegions ?? 0) / Double(max(1, p.regions))
        // Paper that the light step evened out (its spread after the division under
        // ``SecondReadings/sceneMinimumFlattenedSpread``) is a page under uneven light; a
        // scene's light does not even out, or the step left it alone (neither a page nor ink on
        // paper: no ``LightDecision``).
        // Without the light step (``AutomaticPreprocessing/flattenLight`` off) there is no telling.
        let flattened =
            p.light.map { $0.flattenedSpread < SecondReadings.sceneMinimumFlattenedSpread }
            ?? !context.automatic.flattenLight
        let photograph = uneven && marked >= SecondReadings.sceneMinimumMarkedShare && !flattened
        var lines: Int?
        if engine == .auto && !photograph {
            // Ink on paper (Otsu's classes at least minimumPaperContrast apart) is print, whatever
            // the line finder makes of it: a few lines of italics, a scanned form.
            guard p.textComponents >= SecondReadings.structurelessMinimumComponents,
                p.contrast < AutomaticPreprocessing.minimumPaperContrast
            else { return false }
            let found = try linesOfText(&context)
            guard found <= SecondReadings.structurelessMaximumLines else { return false }
            lines = found
        }
        let measured =
            String(
                format: "%@, marks in %.0f %% of its regions, %d text-like components, %d×%d px",
                uneven ? "uneven light" : "even light", 100 * marked, p.textComponents, region.width, region.height)
            + (lines.map { ", \($0) lines of text" } ?? "")
        // A frame without lines of text is first searched at PP-OCR's smallest size (its shorter
        // side sceneDetectorShortSide; a 2000×2000 photo at 736×736, not 1920×1920): when that
        // finds nothing, there is nothing to read.
        if lines != nil, context.detected == nil, try anyText(&context, measured: measured) == false {
            nothingToRead(&context, measured: measured)
            return true
        }
        var cover: Double?
        if engine == .auto {
            // The test's search is the scene reading's (PP-OCR's size), kept: a scene is not
            // searched twice, and a page that passed the tests above keeps the regions for the
            // scene reading after it.
            guard let found = try detect(&context, measured: measured) else { return false }
            let searched = try context.uprightColour().image
            let area = Double(max(1, searched.width * searched.height))
            cover = min(1, found.reduce(0) { $0 + $1.width * $1.height } / area)
        }
        if let cover, cover >= SecondReadings.sceneMaximumTextCover {
            context.note(
                String(
                    format: "engines: text covers %.0f %% of the frame (≥ %.0f %%): a page, read by Tesseract",
                    100 * cover, 100 * SecondReadings.sceneMaximumTextCover))
            return false
        }
        guard let found = try detect(&context, measured: measured) else { return false }
        if found.isEmpty && engine == .auto {
            nothingToRead(&context, measured: measured)
            return true
        }
        context.note(
            engine == .ctc
                ? "engines: ctc: the frame read as its detected text regions"
                : String(
                    format: "engines: a scene before reading the page (%@, text covers %.0f %% < %.0f %%):"
                        + " its regions read by the CTC engine, the page not",
                    lines == nil ? "uneven light" : "no lines of text", 100 * (cover ?? 0),
                    100 * SecondReadings.sceneMaximumTextCover))
        try readRegions(found, context: &context, measured: measured, early: true)
        context.result.preprocessing?.sceneText?.textCover = cover
        return true
    }

    /// Ends the reading of a frame the detector found no text in: empty text, the reason, an
    /// early scene decision with no regions.
    static func nothingToRead(_ context: inout ReadingContext, measured: String) {
        context.note("engines: nothing to read (\(measured)): the text detector found no text")
        var decision = SceneTextDecision(regions: [])
        decision.early = true
        decision.textCover = 0
        context.result.preprocessing?.sceneText = decision
    }

    /// Whether the text detector finds any text in the upright colour region searched with its
    /// shorter side at ``sceneDetectorShortSide`` (the scene reading's own search under the CTC
    /// engine, whose regions are kept: a frame is searched once; a quick look of its own under
    /// ``EngineSelection/tesseract``, which searches the gray region at a smaller size); nil
    /// without a detector. Its time is in ``StageTimings/detection``.
    static func anyText(_ context: inout ReadingContext, measured: String) throws(FrameOCRError) -> Bool? {
        guard context.engine == .tesseract else {
            return try detect(&context, measured: measured).map { !$0.isEmpty }
        }
        let image = try context.uprightColour().image
        let engines = context.engines
        guard
            let detector = try? timed(
                &context.result.timings.engineLoad,
                { () throws(FrameOCRError) in
                    try engines.textDetector()
                })
        else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        defer { context.result.timings.detection += clock.now - started }
        let longSide = TextDetector.shortSideInput(
            width: image.width, height: image.height, shortSide: sceneDetectorShortSide)
        guard let found = try? detector.detect(image, longSide: longSide) else { return nil }
        return !found.isEmpty
    }

    /// The lines of text of at least four characters in the upright region (gray, unscaled —
    /// not the automatic mode's enlargement — and polarity normalized), found by the text-line
    /// finder (``LineFinder``) with characters at least a hundredth of its shorter side (8 px or
    /// more) tall. 0.01–0.16 s on the corpus's pages and 2000-pixel photos. `Int.max` (not
    /// counted) when the caller's pipeline scales or pads the region.
    static func linesOfText(_ context: inout ReadingContext) throws(FrameOCRError) -> Int {
        guard let image = try context.unscaledUprightGray()?.image,
            let (normalized, _) = try context.measuredUprightGray()
        else { return Int.max }
        let whole = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let smallest = max(8, Double(min(image.width, image.height)) / 100)
        let found = try LineFinder.find(
            in: normalized, region: whole, minimumHeight: smallest, maximumLines: 64, pool: context.pool)
        return found.lines.filter { $0.measurement.characters >= 4 }.count
    }

    /// The text detector's regions of the upright region (pixels of
    /// ``ReadingContext/uprightColour()``'s image, which are the unscaled gray region's), the most
    /// probable first — the ones found
    /// already when the detector ran before (``ReadingContext/detected``: the detector runs once
    /// a frame); nil, noted, when there is no detector or it failed (thrown instead when
    /// ``EngineSelection/ctc`` was asked for by name). Its time is in ``StageTimings/detection``.
    static func detect(_ context: inout ReadingContext, measured: String) throws(FrameOCRError) -> [DetectedText]? {
        if let found = context.detected { return found }
        // Named, the CTC engine reads a scene through the detector: its failure is the call's.
        let engines = context.engines
        guard
            let detector = try context.neuralEngine(
                { () throws(FrameOCRError) in try engines.textDetector() },
                otherwise: { "scene text: a scene (\(measured)), but no text detector: \($0.message)" })
        else { return nil }
        context.noteDevice(detector.deviceDecision, of: "the text detector's")
        // Tesseract alone searches the unscaled gray region at the configured size, as before the
        // CTC engine; with it, the colour region sized as PP-OCR sizes it (the same pixels).
        let tesseractOnly = context.engine == .tesseract
        let searched: PixelBuffer?
        if tesseractOnly {
            searched = try context.unscaledUprightGray()?.image
        } else {
            searched = try context.uprightColour().image
        }
        guard let image = searched else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        defer { context.result.timings.detection += clock.now - started }
        do {
            let longSide =
                tesseractOnly
                ? detector.configuration.longSide
                : TextDetector.shortSideInput(
                    width: image.width, height: image.height, shortSide: sceneDetectorShortSide)
            let found = try detector.detect(image, longSide: longSide)
            context.detected = found
            return found
        } catch {
            context.note("scene text: a scene (\(measured)), but the text detector failed: \(error.message)")
            return nil
        }
    }

    /// Reads the regions `found` (pixels of ``ReadingContext/uprightColour()``'s image), up to
    /// ``SecondReadings/maximumSceneRegions`` (all of them under ``EngineSelection/ctc``), each alone by the engines ``ReadingContext/engine``
    /// allows (``RegionReading``); keeps a region's reading when it reads at least
    /// ``SecondReadings/minimumSceneWordConfidence`` and ``SecondReadings/clearlyBetter`` more
    /// than the words read there already; drops the page's words that are not confident or lie in
    /// a kept region. `early`: the page was not read (the words there are none).
    static func readRegions(
        _ found: [DetectedText], context: inout ReadingContext, measured: String, early: Bool
    ) throws(FrameOCRError) {
        let readings = context.readings
        let engine = context.engine
        let recognizer = engine == .tesseract ? nil : try context.lineRecognizer()
        let classifier = recognizer == nil ? nil : context.angleClassifier()
        let (colour, origin) = try context.uprightColour()
        // Tesseract reads regions only where the CTC recognizer does not read them all: without
        // it, or after the page (where its words compete with the page's). In a scene taken
        // before its page the CTC recognizer is the scene's engine and reads alone (its vote with
        // Tesseract changed no word of the tuning half's scene photos, upright or turned, at
        // about 8 ms a region: docs/tuning.md#engines), so the gray region is not even made.
        let tesseractReads = recognizer == nil || (engine != .ctc && !early)
        let gray = tesseractReads ? try context.unscaledUprightGray() : nil
        let frameWidth = context.result.transform.uprightWidth
        let frameHeight = context.result.transform.uprightHeight
        var decision = SceneTextDecision(regions: [])
        var blocks: [TextBlock] = []
        var areas: [Rect] = []
        var engines: [RecognitionEngine: Int] = [:]
        // The CTC engine alone reads the frame only as its regions: every one of them.
        let toRead = Array(found.prefix(engine == .ctc ? found.count : readings.maximumSceneRegions))
        // Each region cut out level once: the classifier's and the recognizer's crop.
        var crops: [PixelBuffer] = []
        if recognizer != nil {
            for region in toRead {
                crops.append(
                    try RegionReading.cut(region, of: colour, degrees: region.angleDegrees, pool: context.pool))
            }
        }
        // Which way up: the text-angle classifier's suspects, region by region or the whole frame.
        let suspects = try RegionReading.suspects(crops, classifier: classifier, timings: &context.result.timings)
        // Steep text is read only by the CTC engine with the text-angle classifier (which tells
        // which way up the region turned level is).
        func isSteep(_ region: DetectedText) -> Bool {
            abs(region.angleDegrees) > SecondReadings.sceneMaximumTurnDegrees
        }
        let readable = toRead.indices.filter { !isSteep(toRead[$0]) || classifier != nil }
        // The CTC readings of every region that may be read, in batches (a region skipped below,
        // inside one kept, is read for nothing: seldom).
        var ctcReadings: [Int: (line: TextLine?, upsideDown: Bool?)] = [:]
        if let recognizer {
            let read = try RegionReading.readUpright(
                readable.map { toRead[$0] }, crops: readable.map { crops[$0] }, of: colour, origin: origin,
                frameWidth: frameWidth, frameHeight: frameHeight, recognizer: recognizer,
                suspects: suspects.map { s in readable.map { s[$0] } }, options: context.options,
                timings: &context.result.timings, pool: context.pool)
            for (k, i) in readable.enumerated() { ctcReadings[i] = read[k] }
        }
        for (index, region) in toRead.enumerated() {
            let upright = region.moved(by: Point(x: origin.x, y: origin.y))
            // A steep region without the classifier is not read, nor is a region centred in one
            // already kept (DB's contours include a hole's, so a region can lie inside another):
            // its words are there.
            let c = upright.center
            let steep = isSteep(region)
            guard !steep || classifier != nil,
                !areas.contains(where: { c.x >= $0.x && c.x <= $0.maxX && c.y >= $0.y && c.y <= $0.maxY })
            else {
                decision.regions.append(.init(region: upright, text: nil, confidence: nil, kept: false))
                continue
            }
            let upsideDown = ctcReadings[index]?.upsideDown ?? nil
            let ctc = ctcReadings[index]?.line ?? nil
            var tesseract: [TextBlock] = []
            // Not a steep region nor one upside down: Tesseract's crop turns it by its angle alone.
            if let gray, !steep, upsideDown != true {
                // The unscaled gray region's pixels are the colour region's.
                tesseract = try readRegion(region, of: gray, context: context).blocks
            }
            // Words already read there (by the page or a line read alone) give way only to a
            // clearly more confident reading, as for the lines read alone
            // (LineReader.replaceWords: their mean confidence, 0 when there are none).
            let there = early ? Float(0) : LineReader.words(on: upright.boundingBox, of: context.result).confidence
            guard let (chosen, by) = RegionReading.choose(ctc: ctc, tesseract: tesseract) else {
                decision.regions.append(.init(region: upright, text: "", confidence: nil, kept: false))
                continue
            }
            let read = context.rebuilt(chosen)
            let confidence = read.confidence ?? 0
            let kept =
                !read.words.isEmpty && confidence >= readings.minimumSceneWordConfidence
                && confidence > there + SecondReadings.clearlyBetter
            decision.regions.append(
                .init(
                    region: upright, text: read.text, confidence: read.confidence, kept: kept, engine: by,
                    upsideDown: upsideDown))
            if kept {
                blocks += read.blocks
                areas.append(upright.boundingBox)
                engines[by, default: 0] += 1
            }
        }
        // The page's confident words outside every region stay; the rest of the page goes.
        var page = context.result.blocks
        for b in page.indices {
            for l in page[b].lines.indices {
                page[b].lines[l].words.removeAll { w in
                    !Self.isConfident(w) || areas.contains { LineReader.isCentred(w, in: $0) }
                }
            }
        }
        let regions = RegionReading.rows(blocks, frameWidth: frameWidth, frameHeight: frameHeight)
        let all = (page + regions).sorted { ($0.box.rect.y, $0.box.rect.x) < ($1.box.rect.y, $1.box.rect.x) }
        context.adopt(context.rebuilt(all))
        decision.early = early
        context.result.preprocessing?.sceneText = decision
        let kept = decision.regions.filter(\.kept).count
        let read = decision.regions.filter { $0.text != nil }.count
        let mix = RecognitionEngine.allCases.compactMap { e in engines[e].map { "\($0) by \(e.rawValue)" } }
        context.note(
            "scene text: a scene (\(measured)): \(found.count) text regions detected, \(read) read alone, \(kept) kept"
                + (mix.isEmpty ? "" : " (\(mix.joined(separator: ", ")))"))
    }

    /// Reads `region` (pixels of `gray`'s image, the unscaled upright region) alone: its
    /// bounding box cut out, scaled so that the region is ``regionHeight`` tall, turned by its
    /// angle about the box's center into an image with a margin (`focr_rotate_small`, as the skew
    /// step turns a page: the transform's ``FrameTransform/skewDegrees`` and padding), everything
    /// outside the turned region replaced by its edge pixels (`focr_replicate_outside`), and read
    /// with PSM 7. Boxes come back in upright-frame pixels through the transform.
    static func readRegion(
        _ region: DetectedText, of gray: PreprocessedFrame, context: ReadingContext
    ) throws(FrameOCRError) -> RecognitionResult {
        let image = gray.image
        let bounds = region.boundingBox
        let x0 = max(0, Int(bounds.x.rounded(.down)))
        let y0 = max(0, Int(bounds.y.rounded(.down)))
        let x1 = min(image.width, Int(bounds.maxX.rounded(.up)))
        let y1 = min(image.height, Int(bounds.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return context.rebuilt([]) }
        let box = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        var candidate = gray
        candidate.image = try image.cropped(to: box)
        let r = gray.transform.region
        candidate.transform.region = PixelRect(x: r.x + x0, y: r.y + y0, width: box.width, height: box.height)
        candidate.transform.scaleX = 1
        candidate.transform.scaleY = 1
        let factor = min(max(regionHeight / max(region.height, 1), 0.25), 4)
        if abs(factor - 1) > 0.05 { try candidate.rescale(by: factor, pool: context.pool) }
        // Turn the region level (or only give it a margin), then keep the region alone.
        let angle = abs(region.angleDegrees) < minimumTurn ? 0 : region.angleDegrees
        let w = Double(candidate.image.width)
        let h = Double(candidate.image.height)
        let t = abs(angle) * .pi / 180
        let grow = max(w * (cos(t) - 1) + h * sin(t), h * (cos(t) - 1) + w * sin(t)) / 2
        let margin = max(AutomaticPreprocessing.minimumBorder, Int(grow.rounded(.up)) + Int(regionHeight / 4))
        let input = candidate.image
        candidate.image = try input.rotated(
            byDegrees: -angle, fill: 255, width: input.width + 2 * margin, height: input.height + 2 * margin,
            pool: context.pool)
        candidate.transform.skewDegrees = angle
        candidate.transform.padding += margin
        let t2 = candidate.transform
        let center = t2.outputPoint(
            fromUpright: Point(x: Double(r.x) + region.center.x, y: Double(r.y) + region.center.y))
        let rw = region.width * t2.scaleX
        let rh = region.height * t2.scaleY
        let rx = max(0, Int((center.x - rw / 2).rounded()))
        let ry = max(0, Int((center.y - rh / 2).rounded()))
        let inside = PixelRect(
            x: rx, y: ry, width: max(1, min(candidate.image.width - rx, Int(rw.rounded()))),
            height: max(1, min(candidate.image.height - ry, Int(rh.rounded()))))
        if rx < candidate.image.width && ry < candidate.image.height {
            try Shim.replicateOutside(candidate.image, inside)
        }
        var decisions = PreprocessingDecisions()
        decisions.singleLine = true
        decisions.scale = t2.scaleY
        decisions.skewDegrees = angle == 0 ? nil : angle
        decisions.pageSegmentationMode = .singleLine
        candidate.decisions = decisions
        return try context.read(candidate, options: context.options)
    }
}

extension DetectedText {
    /// This region moved by `offset`: from a region's pixels to the upright frame's (or back).
    func moved(by offset: Point) -> DetectedText {
        var d = self
        d.center = Point(x: center.x + offset.x, y: center.y + offset.y)
        return d
    }
}
