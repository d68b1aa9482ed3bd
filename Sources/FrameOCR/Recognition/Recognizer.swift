import Foundation
import Synchronization

/// Recognizes text with Tesseract (C API, through the shim): a pool of engines, and the reading
/// plan that reads a frame with them (`Reading/`).
///
/// A `Recognizer` owns a pool of engines (`TessBaseAPI`), one per concurrent caller, each
/// created once and reused: models are loaded when the recognizer is created (the first engine),
/// by ``prepareEngines(_:)``, or when more callers than idle engines arrive at the same time —
/// never per image once the pool is warm. It is `Sendable`: call
/// ``recognize(_:pipeline:options:deadline:pool:)`` from any number of threads; an engine is used
/// by one thread at a time, and per-call settings (PSM, whitelist, blacklist, resolution) are set
/// before every recognition so nothing leaks between calls.
///
/// **Pool size.** Up to ``maximumIdleEngines`` engines are kept when idle: `maxIdleEngines` at
/// creation (default: the number of active cores), raised by ``prepareEngines(_:)`` to the
/// count it was asked for, so that many threads recognize at once without loading a model. An
/// engine made for a burst beyond that is freed after its call.
///
/// **Threads.** Debian's libtesseract runs parts of recognition on OpenMP threads; on a small
/// machine that makes it several times slower, and it fights the caller's own parallelism. By
/// default (``Configuration/limitOpenMP``) the first recognizer makes OpenMP single-threaded for
/// every recognition in the process (`omp_set_max_active_levels(0)`, applied on each thread
/// before its first recognition, since libgomp keeps it per thread), unless `OMP_THREAD_LIMIT` or
/// `OMP_NUM_THREADS` is set in the environment (then your setting stands). Run recognizers on
/// several threads for parallelism instead.
public final class Recognizer: Sendable {
    /// Idle engines and how many to keep.
    private struct Pool {
        var idle: [TesseractEngine] = []
        var capacity: Int
        /// Engines loaded so far (kept or not).
        var created = 0
    }

    /// The most engines ``prepareEngines(_:)`` loads (each holds its own copy of the models).
    public static let maximumPreparedEngines = 256

    public let configuration: Configuration
    private let engines: Mutex<Pool>
    /// Engines with the `osd` model, for orientation detection (loaded on first use).
    private let osdEngines: Mutex<Pool>
    /// The scene-text detector (``Configuration/textDetector``), loaded on first use; its
    /// failure to load is kept and given to every later caller.
    private let detector = Mutex<Result<TextDetector, FrameOCRError>?>(nil)
    private let userWordsFile: String?
    private let userPatternsFile: String?

    /// Creates the recognizer and its first engine (loads the models).
    /// - Parameters:
    ///   - configuration: the languages, models and defaults every engine is made with.
    ///   - maxIdleEngines: engines kept for reuse when idle (default: the number of active
    ///     processors; a value below 1 counts as 1); ``prepareEngines(_:)`` raises it.
    /// - Throws: ``FrameOCRError/Code/tesseract`` when a language's model cannot be loaded,
    ///   ``FrameOCRError/Code/invalidParameter`` for bad options.
    public init(configuration: Configuration = Configuration(), maxIdleEngines: Int? = nil) throws(FrameOCRError) {
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
    /// characters).
    /// - Throws: ``FrameOCRError/Code/tesseract`` when `osd.traineddata` cannot be loaded.
    public func detectOrientation(_ image: PixelBuffer) throws(FrameOCRError) -> (
        orientation: Orientation, confidence: Float
    )? {
        var engine = osdEngines.withLock { $0.idle.popLast() }
        if engine == nil {
            var c = Configuration(
                languages: ["osd"], tessdataPath: configuration.tessdataPath, engineMode: .tesseractOnly)
            c.limitOpenMP = configuration.limitOpenMP
            engine = try TesseractEngine(configuration: c, userWordsFile: nil, userPatternsFile: nil)
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

    /// The text detector of ``Configuration/textDetector``, loaded on the first call (the model,
    /// and one network); nil when the configuration has none.
    /// - Throws: the error ``TextDetector/init(configuration:)`` threw — the same one on every
    ///   call after a failed load (``FrameOCRError/Code/io`` when the model is not installed).
    public func textDetector() throws(FrameOCRError) -> TextDetector? {
        guard let c = configuration.textDetector else { return nil }
        let loaded = detector.withLock { state in
            if let state { return state }
            let made: Result<TextDetector, FrameOCRError>
            do throws(FrameOCRError) { made = .success(try TextDetector(configuration: c)) } catch {
                made = .failure(error)
            }
            state = made
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
    ///   - options: per-call settings; nil: ``Configuration/defaultOptions``.
    ///   - deadline: the most time recognition may take (Tesseract's deadline monitor); when it
    ///     runs out the result has status `.budgetExceeded` and the partial text.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for bad options,
    ///   ``FrameOCRError/Code/tesseract`` when recognition fails.
    public func recognize(
        _ prepared: PreprocessedFrame, options: Options? = nil,
        deadline: Duration? = nil
    ) throws(FrameOCRError) -> RecognitionResult {
        let options = options ?? configuration.defaultOptions
        try options.validate()
        var timings = prepared.timings
        let engine = try checkOut()
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
        timings.total = prepared.timings.total + timings.recognition
        result.timings = timings
        return result
    }

    /// Loads engines until `count` are idle, so that `count` threads can recognize at once
    /// without a model load on the per-frame path, and keeps that many: ``maximumIdleEngines``
    /// is raised to `count` when it was lower.
    /// - Parameter count: 0…``maximumPreparedEngines``.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a count outside that range,
    ///   ``FrameOCRError/Code/tesseract`` when a model cannot be loaded.
    public func prepareEngines(_ count: Int) throws(FrameOCRError) {
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
    package var idleEngineCount: Int { engines.withLock { $0.idle.count } }

    /// Engines kept for reuse when idle (see "Pool size").
    public var maximumIdleEngines: Int { engines.withLock { $0.capacity } }

    /// Recognition engines loaded since the recognizer was created, kept or not (a gauge for
    /// tests: a warm pool loads none per frame).
    package var enginesLoaded: Int { engines.withLock { $0.created } }

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

    /// The Tesseract version, e.g. `5.3.0`.
    public static var tesseractVersion: String { Shim.tesseractVersion }
}
