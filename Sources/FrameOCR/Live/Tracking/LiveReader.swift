import Synchronization

/// The workers' part of live reading (``LiveReading``): gate the frame, find its lines, and read
/// them in the scheduler's order until the budget is spent. Shared by the workers; its only
/// state is the gate's and the running cost of a line reading, behind locks.
final class LiveReader: Sendable {
    /// What a worker made of one frame.
    struct Outcome: Sendable {
        var observation: LiveObservation
        /// The lines read in this frame, as one result (boxes in upright-frame pixels); nil when
        /// nothing was read.
        var recognition: RecognitionResult?
        var timings: StageTimings
        var backend: Backend
        /// A line's reading was cut by its deadline.
        var cut: Bool
        var linesRead: Int
    }

    /// The running mean cost of reading one line starts here, and follows the measured costs
    /// with this weight per reading (an exponential moving average).
    static let initialLineCost: Duration = .milliseconds(25)
    static let lineCostWeight = 0.2

    let settings: LiveReading
    let gate: FrameGate
    private let lineCost = Mutex(LiveReader.initialLineCost)

    init(_ settings: LiveReading) {
        self.settings = settings
        gate = FrameGate(settings)
    }

    /// The gray upright region live reading works on: `pipeline` without its automatic
    /// preprocessing, threshold or scale (each line is scaled, drawn and read alone instead).
    static func plain(_ pipeline: Pipeline) -> Pipeline {
        var plain = pipeline
        plain.automatic = nil
        plain.threshold = nil
        plain.scale = 1
        return plain
    }

    /// Gates and reads `frame`. `plans` are the tracks as the tracker last saw them; `deadline`
    /// the instant the frame's latency budget runs out (nil: none).
    func observe(
        _ frame: Frame, pipeline: Pipeline, options: Recognizer.Options?, recognizer: any TextRecognizing,
        plans: [TextTracker.Plan], deadline: ContinuousClock.Instant?, pool: PixelBufferPool
    ) throws(FrameOCRError) -> Outcome {
        let clock = ContinuousClock()
        let gray = try Self.plain(pipeline).run(frame.buffer, pool: pool)
        var timings = gray.timings
        let started = clock.now
        let signature = try FrameSignature(gray.image, width: settings.thumbnailWidth, pool: pool)
        let decision = try gate.decide(signature)
        var observation = LiveObservation(
            frameID: frame.id, timestamp: frame.timestamp, gate: decision, signature: signature,
            frameWidth: gray.transform.uprightWidth, frameHeight: gray.transform.uprightHeight, lines: [])
        var outcome = Outcome(
            observation: observation, recognition: nil, timings: timings, backend: gray.backend, cut: false,
            linesRead: 0)
        guard decision == .read else {
            outcome.timings.automatic += clock.now - started
            return outcome
        }
        // The lines of dark text on light are found in the gray region; when some of its regions
        // hold light text on dark, the lines of the polarity-normalized region (those turned dark
        // on light) that cross none of them are added. The normalization decides by regions of
        // a quarter of the frame and flickers near a light label's edge on a dark surface (it can
        // turn the label's first letter); the gray image has each dark line as it is. Each line
        // is read from the image it was found in (dark text on light in both), and profiled from
        // the gray region.
        var measured = StageTimings()  // the span below counts it, once
        let (normalized, analysis) = try AutomaticPreprocessing.analyze(gray.image, timings: &measured, pool: pool)
        // Characters down to `lowerCase` of the smallest text height are found, so that the
        // lower case of a line whose capitals are tall enough is in it; lines lower than that
        // height are not read.
        let most = min(64, Self.piecesPerLine * settings.maximumLines)
        let smallest = Self.lowerCase * settings.minimumTextHeight
        let found = try LineFinder.find(
            in: gray.image, of: gray, minimumHeight: smallest, maximumLines: most, pool: pool)
        var candidates = Self.lines(found, in: gray)
        if analysis.invertedRegions > 0 {
            // The normalized region's lines never cross one another (the finder's boxes do not).
            var light = try LineFinder.find(
                in: normalized, of: gray, minimumHeight: smallest, maximumLines: most, pool: pool)
            light.lines = Array(
                light.lines.filter { l in !found.lines.contains { $0.upright.intersection(l.upright) != nil } }
                    .prefix(max(0, most - found.lines.count)))
            candidates += Self.lines(light, in: gray).map { line in
                var l = line
                l.normalized = true
                return l
            }
        }
        let lines = Array(
            candidates.filter { $0.text.height >= settings.minimumTextHeight }.enumerated()
                .sorted {
                    ($0.element.upright.width * $0.element.upright.height, -$0.offset) > (
                        $1.element.upright.width * $1.element.upright.height, -$1.offset
                    )
                }
                .prefix(settings.maximumLines).sorted { $0.offset < $1.offset }.map(\.element))
        // New lines first, then unconfirmed tracks and confirmed ones whose line changed, then
        // confirmed ones due for a reading; the larger lines first within each.
        var profiles = [LineProfile?](repeating: nil, count: lines.count)
        var changed = [Bool](repeating: false, count: lines.count)
        var priorities: [Int] = []
        for (i, line) in lines.enumerated() {
            let box = line.text
            let plan = plans.filter { ResultBuilder.overlapFraction($0.box, box) >= settings.matchOverlap }
                .max { ResultBuilder.overlapFraction($0.box, box) < ResultBuilder.overlapFraction($1.box, box) }
            guard let plan else {
                priorities.append(0)
                continue
            }
            if !plan.confirmed {
                priorities.append(1)
                continue
            }
            if settings.changedAbove > 0, let before = plan.profile {
                let now = try LineProfile(gray.image, box: line.textBox, pool: pool)
                profiles[i] = now
                if now.difference(from: before) > settings.changedAbove {
                    changed[i] = true
                    priorities.append(1)
                    continue
                }
            }
            priorities.append((plan.readAgo ?? Int.max) >= settings.rereadEvery ? 2 : 3)
        }
        timings.automatic += clock.now - started
        let order = lines.indices.filter { priorities[$0] < 3 }.sorted {
            (priorities[$0], -lines[$0].upright.width * lines[$0].upright.height, $0)
                < (priorities[$1], -lines[$1].upright.width * lines[$1].upright.height, $1)
        }
        var readings = [TextConsensus.Reading?](repeating: nil, count: lines.count)
        var blocks: [TextBlock] = []
        let automatic = pipeline.automatic ?? AutomaticPreprocessing()
        for i in order {
            // Not enough left for another line: stop here, the frame keeps its budget.
            if let deadline, deadline - clock.now <= lineCost.withLock({ $0 }) { break }
            let line = lines[i]
            let readStart = clock.now
            let (read, _) = try LineReader.read(
                gray, drawn: line.normalized ? normalized : gray.image, box: line.box, region: line.upright,
                characterHeight: line.characterHeight,
                characterAspect: line.characterAspect, automatic: automatic,
                targetAspect: SecondReadings().lineTargetAspect, clearEdges: line.textBox, pool: pool
            ) { (candidate) throws(FrameOCRError) in
                // The engine's deadline from what is left now, after the line's own preparation.
                try recognizer.recognize(
                    candidate, options: options, deadline: deadline.map { max(.milliseconds(1), $0 - clock.now) })
            }
            let cost = clock.now - readStart
            lineCost.withLock { $0 = $0 * (1 - Self.lineCostWeight) + cost * Self.lineCostWeight }
            timings.recognition += read.timings.recognition
            timings.scale += read.timings.scale
            outcome.linesRead += 1
            guard read.status == .complete else {
                outcome.cut = true
                break
            }
            readings[i] = TextConsensus.Reading(read, frameID: frame.id)
            if profiles[i] == nil, settings.changedAbove > 0 {
                let profiled = clock.now
                profiles[i] = try LineProfile(gray.image, box: line.textBox, pool: pool)
                timings.automatic += clock.now - profiled
            }
            blocks += read.blocks
        }
        observation.lines = lines.enumerated().map { i, line in
            LiveObservation.Line(
                box: line.text, reading: readings[i], cut: line.cut, profile: readings[i] == nil ? nil : profiles[i],
                changed: changed[i])
        }
        outcome.observation = observation
        outcome.timings = timings
        if !blocks.isEmpty {
            var result = ResultBuilder.finish(
                blocks, status: outcome.cut ? .budgetExceeded : .complete, transform: gray.transform)
            result.backend = gray.backend
            result.timings = timings
            outcome.recognition = result
        }
        return outcome
    }
}

extension LiveReader {
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
        /// Found in the polarity-normalized region, and read from it.
        var normalized = false
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

    /// The lines of `found` to read from `gray`'s region: the text-line finder's pieces of one
    /// line joined (it splits lines of mixed case and wide spacing where heights change or gaps
    /// open), each grown by a margin.
    static func lines(_ found: LineFinder.Found, in gray: PreprocessedFrame) -> [Line] {
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
        let region = gray.transform.region
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
            confidence: read.confidence ?? 0, frameID: frameID)
    }
}
