// Live reading's third part: the scheduled lines read alone, until the budget is spent.
extension LiveReader {
    /// What the reading of one frame's lines gave.
    struct LineReadings {
        /// Each line's reading (nil: not read, or cut by its deadline).
        var readings: [TextConsensus.Reading?]
        /// The lines' words, boxes in upright-frame pixels.
        var blocks: [TextBlock]
    }

    /// Reads `found`'s lines in `schedule`'s order, each alone (``LineReader``, with
    /// `automatic`'s line settings), until too little is left before `deadline` for another (the
    /// running mean cost of a line, ``initialLineCost`` at first) or a reading is cut by its
    /// deadline (`outcome.cut`). Adds the recognition and rescale time to `timings`, the lines
    /// read to `outcome`, and each read line's profile to `schedule` when it has none.
    func read(
        _ found: FoundLines, _ schedule: inout Schedule, gray: PreprocessedFrame, frameID: UInt64,
        automatic: AutomaticPreprocessing, options: RecognitionOptions?, recognizer: any TextRecognizing,
        deadline: ContinuousClock.Instant?, timings: inout StageTimings, outcome: inout Outcome, pool: PixelBufferPool
    ) throws(FrameOCRError) -> LineReadings {
        let clock = ContinuousClock()
        let lines = found.lines
        var readings = [TextConsensus.Reading?](repeating: nil, count: lines.count)
        var blocks: [TextBlock] = []
        // Scene lines first, in one run of the CTC recognizer's network; the rest by Tesseract.
        let ctc = schedule.ctc.contains(true) ? recognizer.lineRecognizer() : nil
        let scene = ctc == nil ? [] : schedule.order.filter { schedule.ctc[$0] }
        if let ctc, !scene.isEmpty {
            var lineOptions = Self.lineOptions(options, recognizer: recognizer)
            lineOptions.includeSymbols = true
            let read = try readScene(
                scene, of: found, gray: gray, ctc: ctc, options: lineOptions, deadline: deadline,
                tesseractWaiting: scene.count < schedule.order.count, timings: &timings, pool: pool)
            for (i, result) in zip(scene, read) {
                outcome.linesRead += 1
                guard let result else { continue }
                readings[i] = TextConsensus.Reading(result, frameID: frameID)
                blocks += result.blocks
            }
        }
        for i in schedule.order where ctc == nil ? lines[i].region == nil : !schedule.ctc[i] {
            // Not enough left for another line: stop here, the frame keeps its budget.
            if let deadline, deadline - clock.now <= lineCost.withLock({ $0 }) { break }
            let line = lines[i]
            let readStart = clock.now
            let (tesseractRead, _) = try LineReader.read(
                gray, drawn: line.normalized ? found.light : gray.image, box: line.box, region: line.upright,
                characterHeight: line.characterHeight,
                characterAspect: line.characterAspect, automatic: automatic, clearEdges: line.textBox,
                pool: pool
            ) { (candidate) throws(FrameOCRError) in
                // The engine's deadline from what is left now, after the line's own preparation.
                try recognizer.recognize(
                    candidate, options: options, deadline: deadline.map { max(.milliseconds(1), $0 - clock.now) })
            }
            timings.recognition += tesseractRead.timings.recognition
            timings.scale += tesseractRead.timings.scale
            outcome.linesRead += 1
            guard tesseractRead.status == .complete else {
                outcome.cut = true
                break
            }
            // The schedule's estimate is a Tesseract line's: measured before any CTC reading.
            let cost = clock.now - readStart
            lineCost.withLock { $0 = .seconds(Self.follow($0.seconds, cost.seconds)) }
            let read = try readPoorLine(
                tesseractRead, line: line, gray: gray, recognizer: recognizer, options: options, deadline: deadline,
                timings: &timings, pool: pool)
            readings[i] = TextConsensus.Reading(read, frameID: frameID)
            if schedule.profiles[i] == nil, settings.changedAbove > 0 {
                let profiled = clock.now
                schedule.profiles[i] = try LineProfile(gray.image, box: line.textBox, pool: pool)
                timings.automatic += clock.now - profiled
            }
            blocks += read.blocks
        }
        return LineReadings(readings: readings, blocks: blocks)
    }

    /// `read`, Tesseract's reading of `line`, or the CTC recognizer's when Tesseract read it
    /// poorly (below ``SecondReadings/poorBelow``), the recognizer has one
    /// (``TextRecognizing/lineRecognizer()``) and the deadline leaves time for it and one more
    /// Tesseract line (``ctcLineCost`` + ``lineCost``, running means): the line's box cut out of `gray` and read whole, the readings chosen
    /// between as a scene's regions are (``RegionReading/choose(ctc:tesseract:)``). The chosen
    /// reading then votes in the track's consensus like any other, its characters carrying the
    /// choices `options` asks for (nil: the recognizer's defaults); the model's time is added to
    /// `timings.lineRecognition`.
    func readPoorLine(
        _ read: RecognitionResult, line: Line, gray: PreprocessedFrame, recognizer: any TextRecognizing,
        options: RecognitionOptions?, deadline: ContinuousClock.Instant?, timings: inout StageTimings,
        pool: PixelBufferPool
    ) throws(FrameOCRError) -> RecognitionResult {
        guard (read.confidence ?? 0) < SecondReadings.poorBelow, let ctc = recognizer.lineRecognizer() else {
            return read
        }
        let expected = ctcLineCost.withLock { $0 }
        if let deadline, deadline - ContinuousClock.now <= expected + lineCost.withLock({ $0 }) { return read }
        let started = ContinuousClock.now
        defer {
            let cost = ContinuousClock.now - started
            ctcLineCost.withLock { $0 = .seconds(Self.follow($0.seconds, cost.seconds)) }
        }
        let box = line.box
        let region = DetectedText(
            center: Point(x: Double(box.x) + Double(box.width) / 2, y: Double(box.y) + Double(box.height) / 2),
            width: Double(box.width), height: Double(box.height), angleDegrees: 0, score: 1)
        let t = gray.transform
        let origin = Point(x: Double(t.region.x), y: Double(t.region.y))
        // Its symbols always (the consensus takes each character's confidence from them), with the
        // choices the call asks for.
        var lineOptions = Self.lineOptions(options, recognizer: recognizer)
        lineOptions.includeSymbols = true
        guard
            let reading = try RegionReading.read(
                region, of: gray.image, origin: origin, frameWidth: t.uprightWidth, frameHeight: t.uprightHeight,
                recognizer: ctc, options: lineOptions, timings: &timings, pool: pool),
            let (blocks, engine) = RegionReading.choose(ctc: reading, tesseract: read.blocks), engine == .ctc
        else { return read }
        var chosen = ResultBuilder.finish(blocks, status: read.status, transform: read.transform)
        chosen.timings = read.timings
        return chosen
    }
}

extension LiveReader {
    /// The options a CTC reading of a live line takes: the call's, else the recognizer's
    /// defaults (``RecognizerConfiguration/defaultOptions``), else the defaults.
    static func lineOptions(_ options: RecognitionOptions?, recognizer: any TextRecognizing) -> RecognitionOptions {
        options ?? (recognizer as? Recognizer)?.configuration.defaultOptions ?? RecognitionOptions()
    }
}

extension TextConsensus.Reading {
    /// The reading of a line alone: its text, each character's confidence (the spaces between
    /// words take the lower of their neighbours' word confidences), and its mean word confidence.
    init(_ read: RecognitionResult, frameID: UInt64) {
        let words = read.words
        var confidences: [Float] = []
        for (i, word) in words.enumerated() {
            if i > 0 { confidences.append(min(word.confidence ?? 0, words[i - 1].confidence ?? 0)) }
            let symbols = word.symbols
            if symbols.map(\.text).joined() == word.text {
                for s in symbols { confidences += Array(repeating: s.confidence ?? 0, count: s.text.count) }
            } else {
                confidences += Array(repeating: word.confidence ?? 0, count: word.text.count)
            }
        }
        let text = words.isEmpty ? read.text : words.map(\.text).joined(separator: " ")
        self.init(
            text: text, characterConfidences: confidences.count == text.count ? confidences : [],
            confidence: read.confidence ?? 0, frameID: frameID,
            engine: words.contains { $0.engine == .ctc } ? .ctc : .tesseract)
    }
}
