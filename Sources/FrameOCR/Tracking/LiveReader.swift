import Synchronization

/// The workers' part of live reading (``LiveReading``): gate the frame, find its lines
/// (`LiveReader+Lines.swift`), schedule their readings (`LiveReader+Schedule.swift`) and read
/// them in that order until the budget is spent (`LiveReader+Reading.swift`). Shared by the
/// workers; its only state is the gate's and the running cost of a line reading, behind locks.
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
        /// How large the copy searched for lines was (``FoundLines/reduction``); nil when the
        /// frame was not searched.
        var searchScale: Double? = nil
    }

    /// The running mean cost of reading one line starts here, and follows the measured costs
    /// with this weight per reading (an exponential moving average).
    static let initialLineCost: Duration = .milliseconds(25)
    static let lineCostWeight = 0.2

    let settings: LiveReading
    let gate: FrameGate
    let lineCost = Mutex(LiveReader.initialLineCost)
    /// The running mean cost of the CTC recognizer's reading of a line Tesseract read poorly
    /// (``initialCTCLineCost`` at first), kept apart from ``lineCost`` so that the schedule's
    /// estimate of a Tesseract line stays what it is.
    let ctcLineCost = Mutex(LiveReader.initialCTCLineCost)
    /// The first estimate of ``ctcLineCost``: a 320-wide line's forward pass on 2 cores.
    static let initialCTCLineCost: Duration = .milliseconds(50)
    /// The running mean cost, in seconds per pixel searched, of the search for a frame's lines
    /// (``initialAnalysisCost`` at first): what ``analysisReduction(pixels:smallest:left:)``
    /// predicts from.
    let analysisCost = Mutex(LiveReader.initialAnalysisCost)
    /// The running cost, in seconds per column of the CTC recognizer's input, of a scene line read
    /// in a batch (``initialColumnCost`` at first; ``recordColumnCost(_:columns:)``).
    let columnCost = Mutex(LiveReader.initialColumnCost)
    /// The first estimate of ``columnCost``: ``initialCTCLineCost`` for a line of 320 columns.
    static let initialColumnCost = 50e-3 / 320
    /// The text detector on live frames, when the recognizer has one (``LiveReading/detectEvery``).
    let detector: (any RegionDetecting)?
    /// When the detector was last offered a frame: the count of frames read then, and the tracks.
    let detection = Mutex(DetectionSchedule())

    init(_ settings: LiveReading, detector: (any RegionDetecting)? = nil) {
        self.settings = settings
        gate = FrameGate(settings)
        self.detector = detector
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

    /// Gates and reads the frame `buffer` (the ``Frame`` `frameID`, shown at `timestamp`).
    /// `plans` are the tracks as the tracker last saw them; `deadline` the instant the frame's
    /// latency budget runs out (nil: none).
    func observe(
        _ buffer: PixelBuffer, frameID: UInt64, timestamp: Duration, pipeline: Pipeline, options: RecognitionOptions?,
        recognizer: any TextRecognizing, plans: [TextTracker.Plan], deadline: ContinuousClock.Instant?,
        pool: PixelBufferPool
    ) throws(FrameOCRError) -> Outcome {
        let clock = ContinuousClock()
        let gray = try Self.plain(pipeline).run(buffer, pool: pool)
        var timings = gray.timings
        let started = clock.now
        let signature = try FrameSignature(gray.image, width: settings.thumbnailWidth, pool: pool)
        var decision = try gate.decide(signature)
        // The detector's regions come frames after the frame they were found in: on a still scene
        // every later frame is reused, and they would never be read. A frame is read all the
        // same while a detected track has never been read (one that reads as nothing is not seen,
        // and ages out within `removeAfter` frames read).
        if decision == .reused, plans.contains(where: { $0.readAgo == nil && $0.detectedAgo != nil }) {
            decision = .read
        }
        var observation = LiveObservation(
            frameID: frameID, timestamp: timestamp, gate: decision, signature: signature,
            sharpness: signature.sharpness, frameWidth: gray.transform.uprightWidth,
            frameHeight: gray.transform.uprightHeight, lines: [])
        var outcome = Outcome(
            observation: observation, recognition: nil, timings: timings, backend: gray.backend, cut: false,
            linesRead: 0)
        guard decision == .read else {
            outcome.timings.automatic += clock.now - started
            return outcome
        }
        if let detector, detectionDue(tracks: plans.count) {
            let t = gray.transform.region
            try detector.offer(gray.image, frameID: frameID, origin: Point(x: Double(t.x), y: Double(t.y)))
        }
        var found = try findLines(in: gray, deadline: deadline, pool: pool)
        found.lines += detectedLines(plans: plans, besides: found.lines, region: gray.transform.region)
        outcome.searchScale = found.reduction
        var schedule = try self.schedule(found.lines, plans: plans, in: gray.image, pool: pool)
        timings.automatic += clock.now - started
        let read = try read(
            found, &schedule, gray: gray, frameID: frameID, automatic: pipeline.automatic ?? AutomaticPreprocessing(),
            options: options, recognizer: recognizer, deadline: deadline, timings: &timings, outcome: &outcome,
            pool: pool)
        // A detector's region the finder did not find is seen only when it read as text: one
        // not read this frame, or read as nothing (the text left, or was never there), is not.
        observation.lines = found.lines.enumerated().filter { i, line in
            line.region == nil || !(read.readings[i]?.text.isEmpty ?? true)
        }.map { i, line in
            LiveObservation.Line(
                box: line.text, reading: read.readings[i], cut: line.cut,
                profile: read.readings[i] == nil ? nil : schedule.profiles[i], changed: schedule.changed[i],
                detected: line.region != nil)
        }
        outcome.observation = observation
        outcome.timings = timings
        if !read.blocks.isEmpty {
            var result = ResultBuilder.finish(
                read.blocks, status: outcome.cut ? .budgetExceeded : .complete, transform: gray.transform)
            result.backend = gray.backend
            result.timings = timings
            outcome.recognition = result
        }
        return outcome
    }
}
