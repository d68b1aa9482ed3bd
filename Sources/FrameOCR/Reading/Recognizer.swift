import Foundation

/// Recognizes text with Tesseract (C API, through the shim): the public front of the reading plan
/// (`ReadingPlan` and its strategies, `Reading/`) over a pool of engines (`EnginePool`,
/// `Recognition/`).
///
/// A `Recognizer` owns a pool of engines (`TessBaseAPI`), one per concurrent caller, each
/// created once and reused: models are loaded when the recognizer is created (the first engine),
/// by ``prepareEngines(_:)``, or when more callers than idle engines arrive at the same time —
/// never per image once the pool is warm. It is `Sendable`: call
/// ``recognize(_:pipeline:options:deadline:timeLimit:pool:)`` from any number of threads; an engine is used
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
/// default (``RecognizerConfiguration/limitOpenMP``) the first recognizer makes OpenMP single-threaded for
/// every recognition in the process (`omp_set_max_active_levels(0)`, applied on each thread
/// before its first recognition, since libgomp keeps it per thread), unless `OMP_THREAD_LIMIT` or
/// `OMP_NUM_THREADS` is set in the environment (then your setting stands). Run recognizers on
/// several threads for parallelism instead.
public final class Recognizer: Sendable {
    /// Settings fixed when engines are created: ``RecognizerConfiguration``.
    public typealias Configuration = RecognizerConfiguration
    /// Settings applied before every recognition: ``RecognitionOptions``.
    public typealias Options = RecognitionOptions

    /// The most engines ``prepareEngines(_:)`` loads (each holds its own copy of the models).
    public static let maximumPreparedEngines = EnginePool.maximumPreparedEngines

    /// The languages, models and defaults every engine was made with (fixed at creation).
    public var configuration: Configuration { engines.configuration }
    /// What the reading plan reads with.
    let engines: EnginePool

    /// Creates the recognizer and its first engine (loads the models).
    /// - Parameters:
    ///   - configuration: the languages, models and defaults every engine is made with.
    ///   - maxIdleEngines: engines kept for reuse when idle (default: the number of active
    ///     processors; a value below 1 counts as 1); ``prepareEngines(_:)`` raises it.
    /// - Throws: ``FrameOCRError/Code/tesseract`` when a language's model cannot be loaded,
    ///   ``FrameOCRError/Code/invalidParameter`` for bad options.
    public init(configuration: Configuration = Configuration(), maxIdleEngines: Int? = nil) throws(FrameOCRError) {
        engines = try EnginePool(configuration: configuration, maxIdleEngines: maxIdleEngines)
    }

    /// Preprocesses `frame` with `pipeline`, recognizes the result, and maps every box back to
    /// the upright frame.
    ///
    /// - Parameters:
    ///   - frame: the frame or image (any ``PixelFormat``, any `bytesPerRow`).
    ///   - pipeline: how to prepare it (default: the whole frame, its own orientation, gray).
    ///   - options: per-call settings; nil: ``RecognizerConfiguration/defaultOptions``.
    ///   - deadline: the most time recognition may take (Tesseract's deadline monitor); when it
    ///     runs out the result has status `.budgetExceeded` and the partial text. With a
    ///     deadline the frame is read once.
    ///   - timeLimit: the most time the second readings may start in (> 0; nil, the default:
    ///     none). The first reading (with its orientation detection) always runs whole; once the
    ///     limit has passed no second reading starts, and the result — what was read by then —
    ///     has status `.budgetExceeded` and a reason `time limit reached: these second readings did
    ///     not run (…)`.
    ///     Unlike a deadline it keeps every reading that fits (`frameocr recognize` and `serve`
    ///     default to 30 s).
    ///   - pool: buffers for preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` from preprocessing (bad region, parameters) or recognition;
    ///   ``FrameOCRError/Code/invalidParameter`` for a time limit that is not > 0.
    ///
    /// **Orientation.** With ``Pipeline/OrientationSource/unknown``, automatic preprocessing on, no
    /// region and no deadline, the rotation that makes the frame upright is found first
    /// (Tesseract's orientation detection when confident, else the best of the rotations by mean
    /// word confidence; see `PageReading`) and the decision is in
    /// ``PreprocessingDecisions/orientation``. With ``Pipeline/OrientationSource/fromFrame`` (the
    /// default) or ``Pipeline/OrientationSource/known(_:)`` the orientation is taken as known and
    /// never detected; the reasons say which applied.
    ///
    /// **Second readings.** With ``Pipeline/automatic``, no ``Pipeline/threshold`` and no
    /// deadline, parts of the frame are read again where the first reading calls for it
    /// (``SecondReadings``, switched in ``RecognitionOptions/secondReadings``): a passport's or ID card's
    /// machine readable zone, read with the MRZ alphabet and repaired by the ICAO layout and
    /// check digits (``MachineReadableZone``); otherwise a poorly read page, read again four
    /// times and voted on; a poor reading of an image that holds a line of large text (a plate, a
    /// cropped sign) compared with the reading of that line alone; and each other line of large
    /// text (a sign's rows) with its reading alone.
    public func recognize(
        _ frame: PixelBuffer, pipeline: Pipeline = Pipeline(), options: Options? = nil,
        deadline: Duration? = nil, timeLimit: Duration? = nil, pool: PixelBufferPool? = nil
    ) throws(FrameOCRError) -> RecognitionResult {
        if let timeLimit, timeLimit <= .zero {
            throw .invalidParameter("timeLimit", "\(timeLimit) must be > 0", stage: .recognition)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let plan = ReadingPlan(
            pipeline: pipeline, options: options ?? configuration.defaultOptions,
            defaults: configuration.defaultOptions,
            deadline: deadline)
        var result = try plan.read(
            frame, prepared: nil, engines: engines, pool: pool, until: timeLimit.map { start + $0 })
        result.timings.total = clock.now - start
        return result
    }

    /// Recognizes `prepared`, which `pipeline` made from `frame`, and — with
    /// ``Pipeline/automatic``, no ``Pipeline/threshold`` and no deadline — takes the second
    /// readings of parts of the frame (see ``recognize(_:pipeline:options:deadline:timeLimit:pool:)``).
    /// What ``FrameProcessor`` calls: the orientation is never detected here.
    /// - Parameters:
    ///   - prepared: what `pipeline` made from `frame`.
    ///   - frame: the frame, for the second readings' own preprocessing.
    ///   - pipeline: the pipeline that made `prepared`.
    ///   - options: per-call settings; nil: ``RecognizerConfiguration/defaultOptions``.
    ///   - deadline: as in ``recognize(_:options:deadline:)``; with one, only `prepared` is read.
    ///   - pool: buffers for the second readings' preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` from recognition or the second readings.
    public func recognize(
        _ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: Options?,
        deadline: Duration?, pool: PixelBufferPool?
    ) throws(FrameOCRError) -> RecognitionResult {
        let plan = ReadingPlan(
            pipeline: pipeline, options: options ?? configuration.defaultOptions,
            defaults: configuration.defaultOptions,
            deadline: deadline)
        return try plan.read(frame, prepared: prepared, engines: engines, pool: pool)
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
    public func recognize(
        _ prepared: PreprocessedFrame, options: Options? = nil,
        deadline: Duration? = nil
    ) throws(FrameOCRError) -> RecognitionResult {
        try engines.recognize(prepared, options: options, deadline: deadline)
    }

    /// Tesseract's orientation and script detection (`osd.traineddata`, engine mode 0) on an
    /// image: how it is stored (``Orientation/right``: it must turn 90° clockwise to be upright)
    /// and Tesseract's confidence (above about 2 is reliable). nil when it cannot tell (too few
    /// characters).
    /// - Throws: ``FrameOCRError/Code/tesseract`` when `osd.traineddata` cannot be loaded.
    public func detectOrientation(_ image: PixelBuffer) throws(FrameOCRError) -> (
        orientation: Orientation, confidence: Float
    )? {
        var loading = Duration.zero
        return try engines.detectOrientation(image, loading: &loading)
    }

    /// The text detector of ``RecognizerConfiguration/textDetector``, loaded on the first call (the model,
    /// and one network); nil when the configuration has none.
    /// - Throws: the error ``TextDetector/init(configuration:)`` threw — the same one on every
    ///   call after a failed load (``FrameOCRError/Code/io`` when the model is not installed).
    public func textDetector() throws(FrameOCRError) -> TextDetector? {
        try engines.textDetector()
    }

    /// Loads engines until `count` are idle, so that `count` threads can recognize at once
    /// without a model load on the per-frame path, and keeps that many: ``maximumIdleEngines``
    /// is raised to `count` when it was lower.
    /// - Parameter count: 0…``maximumPreparedEngines``.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a count outside that range,
    ///   ``FrameOCRError/Code/tesseract`` when a model cannot be loaded.
    public func prepareEngines(_ count: Int) throws(FrameOCRError) {
        try engines.prepareEngines(count)
    }

    /// Engines idle now, ready for a caller (a gauge for tests and tools).
    package var idleEngineCount: Int { engines.idleEngineCount }

    /// Engines kept for reuse when idle (see "Pool size").
    public var maximumIdleEngines: Int { engines.maximumIdleEngines }

    /// Recognition engines loaded since the recognizer was created, kept or not (a gauge for
    /// tests: a warm pool loads none per frame).
    package var enginesLoaded: Int { engines.enginesLoaded }

    /// The Tesseract version, e.g. `5.3.0`.
    public static var tesseractVersion: String { Shim.tesseractVersion }
}
