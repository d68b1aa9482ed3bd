import Foundation
import Synchronization

/// The engines a ``Recognizer`` reads with: a pool of Tesseract engines (`TessBaseAPI`, one per
/// concurrent caller, each created once and reused), the orientation engines (`osd`), and the
/// text detector, loaded on first use. What the reading plan (`Reading/`) reads with; the public
/// front is ``Recognizer``, whose doc comment says how the pool grows and shrinks and how OpenMP
/// is limited.
final class EnginePool: Sendable {
    /// Idle engines and how many to keep.
    private struct Pool {
        var idle: [TesseractEngine] = []
        var capacity: Int
        /// Engines loaded so far (kept or not).
        var created = 0
    }

    /// The most engines ``prepareEngines(_:)`` loads (each holds its own copy of the models).
    static let maximumPreparedEngines = 256

    let configuration: RecognizerConfiguration
    private let engines: Mutex<Pool>
    /// Engines with the `osd` model, for orientation detection (loaded on first use).
    private let osdEngines: Mutex<Pool>
    /// The scene-text detector (``RecognizerConfiguration/textDetector``), loaded on first use; its
    /// failure to load is kept and given to every later caller.
    private let detector = Mutex<Result<TextDetector, FrameOCRError>?>(nil)
    /// The CTC line recognizer (``RecognizerConfiguration/textLineRecognizer``), loaded on first
    /// use, its failure kept like the detector's.
    private let lineRecognizer = Mutex<Result<TextLineRecognizer, FrameOCRError>?>(nil)
    /// The text-angle classifier (``RecognizerConfiguration/textAngleClassifier``), loaded on first
    /// use, its failure kept like the detector's.
    private let angleClassifier = Mutex<Result<TextAngleClassifier, FrameOCRError>?>(nil)
    private let userWordsFile: String?
    private let userPatternsFile: String?

    /// Creates the recognizer and its first engine (loads the models).
    /// - Parameters:
    ///   - configuration: the languages, models and defaults every engine is made with.
    ///   - maxIdleEngines: engines kept for reuse when idle (default: the number of active
    ///     processors; a value below 1 counts as 1); ``prepareEngines(_:)`` raises it.
    /// - Throws: ``FrameOCRError/Code/tesseract`` when a language's model cannot be loaded,
    ///   ``FrameOCRError/Code/invalidParameter`` for bad options.
    init(configuration: RecognizerConfiguration, maxIdleEngines: Int?) throws(FrameOCRError) {
        try configuration.defaultOptions.validate()
        guard !configuration.languages.isEmpty,
            configuration.languages.allSatisfy({ !$0.isEmpty && !$0.contains("+") && !$0.contains("/") })
        else {
            throw .invalidParameter(
                "languages", "\(configuration.languages) must be non-empty codes such as eng", stage: .recognition)
        }
        if configuration.limitOpenMP { OpenMP.limitOnce() }
        self.configuration = configuration
        let capacity = max(1, maxIdleEngines ?? ProcessInfo.processInfo.activeProcessorCount)
        func writeList(_ items: [String], _ kind: String) throws(FrameOCRError) -> String? {
            guard !items.isEmpty else { return nil }
            let path = NSTemporaryDirectory() + "frameocr-\(kind)-\(UUID().uuidString).txt"
            do {
                try (items.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw FrameOCRError(.io, "could not write \(kind) file \(path): \(error)", stage: .recognition)
            }
            return path
        }
        userWordsFile = try writeList(configuration.userWords, "user-words")
        userPatternsFile = try writeList(configuration.userPatterns, "user-patterns")
        let first = try TesseractEngine(
            configuration: configuration, userWordsFile: userWordsFile, userPatternsFile: userPatternsFile)
        engines = Mutex(Pool(idle: [first], capacity: capacity, created: 1))
        osdEngines = Mutex(Pool(capacity: capacity))
    }

    deinit {
        for f in [userWordsFile, userPatternsFile].compactMap({ $0 }) { try? FileManager.default.removeItem(atPath: f) }
    }

    /// Tesseract's orientation and script detection (`osd.traineddata`, engine mode 0) on an
    /// image: how it is stored (``Orientation/right``: it must turn 90° clockwise to be upright)
    /// and Tesseract's confidence (above about 2 is reliable). nil when it cannot tell (too few
    /// characters). `loading` gets the time spent loading an OSD engine when none was idle (zero
    /// otherwise): the caller charges it to ``StageTimings/engineLoad``.
    /// - Throws: ``FrameOCRError/Code/tesseract`` when `osd.traineddata` cannot be loaded.
    func detectOrientation(_ image: PixelBuffer, loading: inout Duration) throws(FrameOCRError) -> (
        orientation: Orientation, confidence: Float
    )? {
        loading = .zero
        var engine = osdEngines.withLock { $0.idle.popLast() }
        if engine == nil {
            var c = RecognizerConfiguration(
                languages: ["osd"], tessdataPath: configuration.tessdataPath, engineMode: .tesseractOnly)
            c.limitOpenMP = configuration.limitOpenMP
            engine = try timed(&loading) { () throws(FrameOCRError) in
                try TesseractEngine(configuration: c, userWordsFile: nil, userPatternsFile: nil)
            }
        }
        defer { Self.checkIn(engine!, to: osdEngines) }
        guard
            let (degrees, confidence) = engine!.detectOrientation(
                image, sourceResolution: configuration.defaultOptions.sourceResolution)
        else { return nil }
        let o: Orientation =
            switch degrees {
            case 90: .right
            case 180: .down
            case 270: .left
            default: .up
            }
        return (o, confidence)
    }

    /// The text detector of ``RecognizerConfiguration/textDetector``, loaded on the first call (the model,
    /// and one network); nil when the configuration has none.
    /// - Throws: the error ``TextDetector/init(configuration:)`` threw — the same one on every
    ///   call after a failed load (``FrameOCRError/Code/io`` when the model is not installed).
    func textDetector() throws(FrameOCRError) -> TextDetector? {
        guard let c = configuration.textDetector else { return nil }
        return try Self.loadOnce(detector) { () throws(FrameOCRError) in try TextDetector(configuration: c) }
    }

    /// The CTC line recognizer of ``RecognizerConfiguration/textLineRecognizer``, loaded on the
    /// first call; nil when the configuration has none.
    /// - Throws: the error ``TextLineRecognizer/init(configuration:)`` threw — the same one on
    ///   every call after a failed load (``FrameOCRError/Code/io`` when the model is not
    ///   installed).
    func textLineRecognizer() throws(FrameOCRError) -> TextLineRecognizer? {
        guard var c = configuration.textLineRecognizer else { return nil }
        if c.whitelist == nil, let w = configuration.defaultOptions.characterWhitelist, !w.isEmpty { c.whitelist = w }
        return try Self.loadOnce(lineRecognizer) { () throws(FrameOCRError) in try TextLineRecognizer(configuration: c)
        }
    }

    /// The text-angle classifier of ``RecognizerConfiguration/textAngleClassifier``, loaded on the
    /// first call; nil when the configuration has none.
    /// - Throws: the error ``TextAngleClassifier/init(configuration:)`` threw — the same one on
    ///   every call after a failed load.
    func textAngleClassifier() throws(FrameOCRError) -> TextAngleClassifier? {
        guard let c = configuration.textAngleClassifier else { return nil }
        return try Self.loadOnce(angleClassifier) { () throws(FrameOCRError) in
            try TextAngleClassifier(configuration: c)
        }
    }

    /// What `state` holds, else `make()`'s result (or its error), kept in `state` for every later
    /// call.
    private static func loadOnce<T>(
        _ state: borrowing Mutex<Result<T, FrameOCRError>?>, _ make: () throws(FrameOCRError) -> T
    ) throws(FrameOCRError) -> T {
        let loaded = state.withLock { held in
            if let held { return held }
            let made: Result<T, FrameOCRError>
            do throws(FrameOCRError) { made = .success(try make()) } catch { made = .failure(error) }
            held = made
            return made
        }
        return try loaded.get()
    }

    /// Recognizes an already preprocessed frame (see ``Pipeline/run(_:pool:)``), once: no second
    /// reading, no orientation detection. The page segmentation mode and the binarization that
    /// automatic preprocessing chose (``PreprocessedFrame/decisions``) take the place of the
    /// options'.
    /// - Parameters:
    ///   - prepared: the preprocessed frame (``Pipeline/run(_:pool:)``).
    ///   - options: per-call settings; nil: ``RecognizerConfiguration/defaultOptions``.
    ///   - deadline: the most time recognition may take (Tesseract's deadline monitor); when it
    ///     runs out the result has status `.budgetExceeded` and the partial text.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for bad options,
    ///   ``FrameOCRError/Code/tesseract`` when recognition fails.
    func recognize(
        _ prepared: PreprocessedFrame, options: RecognitionOptions? = nil,
        deadline: Duration? = nil
    ) throws(FrameOCRError) -> RecognitionResult {
        let options = options ?? configuration.defaultOptions
        try options.validate()
        var timings = prepared.timings
        // An idle engine, or one loaded now (its time in engineLoad).
        let engine = try timed(&timings.engineLoad) { () throws(FrameOCRError) in try checkOut() }
        defer { Self.checkIn(engine, to: engines) }
        var deadlineMS: Int32 = 0
        if let deadline {
            deadlineMS = Int32(clamping: max(1, Int(deadline.milliseconds.rounded(.up))))
        }
        var effective = options
        if let mode = prepared.decisions?.pageSegmentationMode { effective.pageSegmentationMode = mode }
        if let binarization = prepared.decisions?.binarization { effective.binarization = binarization }
        let recognition = try timed(&timings.recognition) { () throws(FrameOCRError) in
            try engine.recognize(prepared.image, options: effective, deadlineMS: deadlineMS)
        }
        var result = ResultBuilder.build(recognition, transform: prepared.transform)
        result.regionClamped = prepared.regionClamped
        result.backend = prepared.backend
        result.backendFallback = prepared.fallbackReason
        result.preprocessing = prepared.decisions
        timings.total =
            prepared.timings.total + timings.recognition + (timings.engineLoad - prepared.timings.engineLoad)
        result.timings = timings
        return result
    }

    /// Loads engines until `count` are idle, so that `count` threads can recognize at once
    /// without a model load on the per-frame path, and keeps that many: ``maximumIdleEngines``
    /// is raised to `count` when it was lower.
    /// - Parameter count: 0…``maximumPreparedEngines``.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a count outside that range,
    ///   ``FrameOCRError/Code/tesseract`` when a model cannot be loaded.
    func prepareEngines(_ count: Int) throws(FrameOCRError) {
        guard (0...Self.maximumPreparedEngines).contains(count) else {
            throw .invalidParameter(
                "count", "\(count) engines: must be in 0…\(Self.maximumPreparedEngines)", stage: .recognition)
        }
        engines.withLock { $0.capacity = max($0.capacity, count) }
        while idleEngineCount < count {
            let engine = try TesseractEngine(
                configuration: configuration, userWordsFile: userWordsFile, userPatternsFile: userPatternsFile)
            // Checked again under the lock: engines checked in meanwhile, or another caller
            // preparing at the same time, may have filled the pool (never more than asked).
            let kept = engines.withLock { pool -> Bool in
                pool.created += 1
                guard pool.idle.count < count else { return false }
                pool.idle.append(engine)
                return true
            }
            if !kept { break }
        }
    }

    /// Engines idle now, ready for a caller (a gauge for tests and tools).
    var idleEngineCount: Int { engines.withLock { $0.idle.count } }

    /// Engines kept for reuse when idle (see "Pool size").
    var maximumIdleEngines: Int { engines.withLock { $0.capacity } }

    /// Recognition engines loaded since the recognizer was created, kept or not (a gauge for
    /// tests: a warm pool loads none per frame).
    var enginesLoaded: Int { engines.withLock { $0.created } }

    private func checkOut() throws(FrameOCRError) -> TesseractEngine {
        if let e = engines.withLock({ $0.idle.popLast() }) { return e }
        // All engines are busy: load another one (only happens under concurrency).
        let engine = try TesseractEngine(
            configuration: configuration, userWordsFile: userWordsFile, userPatternsFile: userPatternsFile)
        engines.withLock { $0.created += 1 }
        return engine
    }

    private static func checkIn(_ engine: TesseractEngine, to pool: borrowing Mutex<Pool>) {
        pool.withLock { if $0.idle.count < $0.capacity { $0.idle.append(engine) } }
    }
}
