internal import CFrameOCR
import Foundation
import Synchronization

/// Tesseract's page segmentation mode (PSM), as `tesseract --psm N`.
public enum PageSegmentationMode: Int32, Sendable, CaseIterable, Codable {
    case osdOnly = 0
    case autoWithOSD = 1
    case autoOnly = 2
    /// Fully automatic page segmentation (the `tesseract` command's default).
    case auto = 3
    case singleColumn = 4
    case singleBlockVerticalText = 5
    /// A single uniform block of text (the C API's default and FrameOCR's).
    case singleBlock = 6
    case singleLine = 7
    case singleWord = 8
    case circleWord = 9
    case singleCharacter = 10
    case sparseText = 11
    case sparseTextWithOSD = 12
    case rawLine = 13
}

/// The binarization Tesseract applies before it finds lines and words (its `thresholding_method`
/// variable, Tesseract 5). Only layout analysis sees the binary image: the LSTM recognizer reads
/// each word's gray levels either way. FrameOCR's own thresholding (``Pipeline/threshold``)
/// happens before Tesseract and is what the recognizer then reads.
public enum EngineBinarization: Int32, Sendable, CaseIterable, Codable {
    /// One Otsu threshold for the whole image (Tesseract's default).
    case otsu = 0
    /// Leptonica's tiled Sauvola (`pixSauvolaBinarizeTiled`, Sauvola & Pietikäinen 2000): a
    /// threshold per pixel from the mean and deviation of a window 0.33 inch wide (100 px at
    /// the default 300 ppi), k = 0.34. Copes with uneven light and faint print.
    case sauvola = 1
    /// Leptonica's tiled adaptive Otsu (`pixOtsuAdaptiveThreshold`): one Otsu threshold per tile
    /// of 0.33 inch, smoothed between tiles.
    case adaptiveOtsu = 2
}

/// Tesseract's OCR engine mode (OEM), as `tesseract --oem N`.
public enum EngineMode: Int32, Sendable, CaseIterable, Codable {
    case tesseractOnly = 0
    case lstmOnly = 1
    case tesseractAndLSTM = 2
    /// Whatever the installed models support (LSTM with Debian's `tesseract-ocr-eng`).
    case `default` = 3
}

/// Recognizes text with Tesseract (C API, through the shim).
///
/// A `Recognizer` owns a pool of engines (`TessBaseAPI`), one per concurrent caller, each
/// created once and reused: models are loaded when the recognizer is created (the first engine)
/// or when more callers than idle engines arrive at the same time — never per image. It is
/// `Sendable`: call ``recognize(_:pipeline:options:deadline:pool:)`` from any number of threads;
/// an engine is used by one thread at a time, and per-call settings (PSM, whitelist, blacklist,
/// resolution) are set before every recognition so nothing leaks between calls.
///
/// **Threads.** Debian's libtesseract runs parts of recognition on OpenMP threads; on a small
/// machine that makes it several times slower, and it fights the caller's own parallelism. By
/// default (``Configuration/limitOpenMP``) the first recognizer makes OpenMP single-threaded for
/// every recognition in the process (`omp_set_max_active_levels(0)`, applied on each thread
/// before its first recognition, since libgomp keeps it per thread), unless `OMP_THREAD_LIMIT` or
/// `OMP_NUM_THREADS` is set in the environment (then your setting stands). Run recognizers on
/// several threads for parallelism instead.
public final class Recognizer: Sendable {
    /// Settings fixed when engines are created (changing them needs a model load).
    public struct Configuration: Hashable, Sendable {
        /// Language codes, combined as `eng+deu`. Default `["eng"]`.
        public var languages: [String]
        /// The tessdata folder. nil: `TESSDATA_PREFIX`, else `/usr/share/tesseract-ocr/5/tessdata`.
        public var tessdataPath: String?
        /// OEM. Default `.default` (3).
        public var engineMode: EngineMode
        /// Extra words for the dictionary (Tesseract's `user_words_file`).
        public var userWords: [String]
        /// Patterns such as `\d\d\d-\A\A` (Tesseract's `user_patterns_file`).
        public var userPatterns: [String]
        /// Other init-time Tesseract variables (name → value).
        public var variables: [String: String]
        /// Per-call settings used when a call passes none.
        public var defaultOptions: Options
        /// Make OpenMP single-threaded process-wide (see the type's "Threads"). Default true.
        public var limitOpenMP: Bool

        public init(languages: [String] = ["eng"], tessdataPath: String? = nil, engineMode: EngineMode = .default,
                    userWords: [String] = [], userPatterns: [String] = [], variables: [String: String] = [:],
                    defaultOptions: Options = Options(), limitOpenMP: Bool = true) {
            self.languages = languages
            self.tessdataPath = tessdataPath
            self.engineMode = engineMode
            self.userWords = userWords
            self.userPatterns = userPatterns
            self.variables = variables
            self.defaultOptions = defaultOptions
            self.limitOpenMP = limitOpenMP
        }
    }

    /// Settings applied before every recognition.
    public struct Options: Hashable, Sendable {
        /// PSM. Default `.singleBlock` (6), the C API's default.
        public var pageSegmentationMode: PageSegmentationMode
        /// Only these characters may be recognized (`tessedit_char_whitelist`); nil: all.
        public var characterWhitelist: String?
        /// These characters are never recognized (`tessedit_char_blacklist`); nil: none.
        public var characterBlacklist: String?
        /// Pixels per inch of the frame as the recognizer sees it (before ``Pipeline/scale``),
        /// > 0, default 300. Always passed to `SetSourceResolution`, so Tesseract never guesses
        /// ("Invalid resolution 0 dpi").
        public var sourceResolution: Int
        /// Whether to report symbols and their alternates (costs a little time). Default true.
        public var includeSymbols: Bool
        /// Tesseract's binarization for layout analysis (`thresholding_method`). Default `.otsu`.
        public var binarization: EngineBinarization

        public init(pageSegmentationMode: PageSegmentationMode = .singleBlock, characterWhitelist: String? = nil,
                    characterBlacklist: String? = nil, sourceResolution: Int = 300, includeSymbols: Bool = true,
                    binarization: EngineBinarization = .otsu) {
            self.pageSegmentationMode = pageSegmentationMode
            self.characterWhitelist = characterWhitelist
            self.characterBlacklist = characterBlacklist
            self.sourceResolution = sourceResolution
            self.includeSymbols = includeSymbols
            self.binarization = binarization
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a resolution ≤ 0 or > 10000.
        public func validate() throws(FrameOCRError) {
            guard (1...10_000).contains(sourceResolution) else {
                throw .invalidParameter("sourceResolution", "\(sourceResolution) ppi must be in 1…10000", stage: .recognition)
            }
        }
    }

    public let configuration: Configuration
    private let engines = Mutex<[TesseractEngine]>([])
    /// Engines with the `osd` model, for orientation detection (loaded on first use).
    private let osdEngines = Mutex<[TesseractEngine]>([])
    private let maxIdleEngines: Int
    private let userWordsFile: String?
    private let userPatternsFile: String?

    /// Creates the recognizer and its first engine (loads the models).
    /// - Parameter maxIdleEngines: engines kept for reuse when idle (default: processor count).
    /// - Throws: ``FrameOCRError/Code/tesseract`` when a language's model cannot be loaded,
    ///   ``FrameOCRError/Code/invalidParameter`` for bad options.
    public init(configuration: Configuration = Configuration(), maxIdleEngines: Int? = nil) throws(FrameOCRError) {
        try configuration.defaultOptions.validate()
        guard !configuration.languages.isEmpty,
              configuration.languages.allSatisfy({ !$0.isEmpty && !$0.contains("+") && !$0.contains("/") })
        else {
            throw .invalidParameter("languages", "\(configuration.languages) must be non-empty codes such as eng", stage: .recognition)
        }
        if configuration.limitOpenMP { OpenMP.limitOnce() }
        self.configuration = configuration
        self.maxIdleEngines = max(1, maxIdleEngines ?? ProcessInfo.processInfo.activeProcessorCount)
        func writeList(_ items: [String], _ kind: String) throws(FrameOCRError) -> String? {
            guard !items.isEmpty else { return nil }
            let path = NSTemporaryDirectory() + "frameocr-\(kind)-\(UUID().uuidString).txt"
            do { try (items.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw FrameOCRError(.io, "could not write \(kind) file \(path): \(error)", stage: .recognition)
            }
            return path
        }
        userWordsFile = try writeList(configuration.userWords, "user-words")
        userPatternsFile = try writeList(configuration.userPatterns, "user-patterns")
        let first = try TesseractEngine(configuration: configuration, userWordsFile: userWordsFile, userPatternsFile: userPatternsFile)
        engines.withLock { $0.append(first) }
    }

    deinit {
        for f in [userWordsFile, userPatternsFile].compactMap({ $0 }) { try? FileManager.default.removeItem(atPath: f) }
    }

    /// Preprocesses `frame` with `pipeline`, recognizes the result, and maps every box back to
    /// the upright frame.
    ///
    /// - Parameters:
    ///   - options: per-call settings; nil: ``Configuration/defaultOptions``.
    ///   - deadline: the most time recognition may take (Tesseract's deadline monitor); when it
    ///     runs out the result has status `.budgetExceeded` and the partial text.
    ///   - pool: buffers for preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` from preprocessing (bad region, parameters) or recognition.
    ///
    /// With ``Pipeline/automatic`` (and its ``AutomaticPreprocessing/orientation``) on, no
    /// ``Pipeline/orientation``, no region, no deadline and a frame whose orientation is `.up`
    /// (that is, not known to be anything else), the rotation is found first: Tesseract's
    /// orientation detection (``detectOrientation(_:)``) when it is confident (≥ 2) and its
    /// rotation reads at least as confidently as the image as stored; otherwise, when the stored
    /// reading's mean word confidence is below 0.6 and it took under 500 ms, the best of the four
    /// rotations (two for a strip 3× as wide as tall) by mean word confidence, a rotation having
    /// to beat the stored reading by 0.15. The decision is in ``RecognitionResult/preprocessing``;
    /// below 0.5 mean word confidence the orientation is reported as unknown.
    ///
    /// With ``Pipeline/automatic`` and its ``AutomaticPreprocessing/machineReadableZone`` on and
    /// no deadline, lines that look like a passport's or ID card's machine readable zone are read
    /// again with the MRZ alphabet and repaired by the ICAO layout and check digits
    /// (``MachineReadableZone``); otherwise a poor reading of an image that holds a line of large
    /// text (a plate, a cropped sign) is compared with the reading of that line alone
    /// (``AutomaticPreprocessing/dominantLine``), and then each other line of large text (a
    /// sign's rows) with its reading alone (``AutomaticPreprocessing/textLines``).
    public func recognize(_ frame: PixelBuffer, pipeline: Pipeline = Pipeline(), options: Options? = nil,
                          deadline: Duration? = nil, pool: PixelBufferPool? = nil) throws(FrameOCRError) -> RecognitionResult {
        let clock = ContinuousClock()
        let start = clock.now
        if pipeline.automatic?.orientation == true, pipeline.threshold == nil, pipeline.orientation == nil, pipeline.region == nil,
           frame.orientation == .up, deadline == nil {
            var (result, prepared) = try recognizeDetectingOrientation(frame, pipeline: pipeline, options: options, pool: pool)
            try secondReadings(&result, prepared: prepared, frame: frame, pipeline: pipeline, options: options, pool: pool)
            result.timings.total = clock.now - start
            return result
        }
        let prepared = try pipeline.run(frame, pool: pool)
        var result = try recognize(prepared, of: frame, pipeline: pipeline, options: options, deadline: deadline, pool: pool)
        result.timings.total = clock.now - start
        return result
    }

    /// Recognizes `prepared`, which `pipeline` made from `frame`, and — with
    /// ``Pipeline/automatic``, no ``Pipeline/threshold`` and no deadline — takes automatic
    /// preprocessing's second readings of parts of the frame (a machine readable zone, the
    /// page as sparse text, the dominant line, the lines of large text; see ``recognize(_:pipeline:options:deadline:pool:)``).
    /// What ``FrameProcessor`` calls: the orientation is never detected here.
    /// - Parameters:
    ///   - deadline: as in ``recognize(_:options:deadline:)``; with one, only `prepared` is read.
    ///   - pool: buffers for the second readings' preprocessing (nil: allocate).
    /// - Throws: ``FrameOCRError`` from recognition or the second readings.
    public func recognize(_ prepared: PreprocessedFrame, of frame: PixelBuffer, pipeline: Pipeline, options: Options?,
                          deadline: Duration?, pool: PixelBufferPool?) throws(FrameOCRError) -> RecognitionResult {
        var result = try recognize(prepared, options: options, deadline: deadline)
        if pipeline.threshold == nil, deadline == nil {
            try secondReadings(&result, prepared: prepared, frame: frame, pipeline: pipeline, options: options, pool: pool)
        }
        return result
    }

    /// Automatic preprocessing's second readings: a machine readable zone; else the page read
    /// again as sparse text when it read poorly, then the dominant line of large text, then the
    /// other lines of large text. `prepared` is the frame `result` was read from.
    private func secondReadings(_ result: inout RecognitionResult, prepared: PreprocessedFrame, frame: PixelBuffer, pipeline: Pipeline,
                                options: Options?, pool: PixelBufferPool?) throws(FrameOCRError) {
        guard let automatic = pipeline.automatic else { return }
        if automatic.machineReadableZone {
            try readMachineReadableZone(in: &result, frame: frame, pipeline: pipeline, options: options, pool: pool)
        }
        guard result.preprocessing?.machineReadableZone == nil else { return }
        // The upright gray region the page's and the lines' readings use, made once when first needed.
        var uprightGray: PreprocessedFrame?
        if automatic.sparseReading {
            try readSparseText(in: &result, prepared: prepared, automatic: automatic, options: options, frame: frame,
                               pipeline: pipeline, pool: pool, uprightGray: &uprightGray)
        }
        if automatic.dominantLine {
            try readDominantLine(in: &result, frame: frame, pipeline: pipeline, options: options, pool: pool, uprightGray: &uprightGray)
        }
        if automatic.textLines {
            try readTextLines(in: &result, frame: frame, pipeline: pipeline, options: options, pool: pool, uprightGray: &uprightGray)
        }
    }

    /// Mean word confidence at or above which an upright reading is not second-guessed by trying
    /// the other rotations.
    static let confidentReading: Float = 0.6
    /// Other rotations are read only when the stored one took less than this (each costs as much).
    static let rotationTrialLimit: Duration = .milliseconds(500)
    /// Tesseract's orientation confidence at or above which its answer is taken.
    static let confidentOrientation: Float = 2

    /// Reads `frame` in the rotation that makes it upright (see ``recognize(_:pipeline:options:deadline:pool:)``).
    /// - Returns: the reading and the preprocessed frame it was read from.
    private func recognizeDetectingOrientation(_ frame: PixelBuffer, pipeline: Pipeline, options: Options?,
                                               pool: PixelBufferPool?) throws(FrameOCRError) -> (RecognitionResult, PreprocessedFrame) {
        func read(_ o: Orientation) throws(FrameOCRError) -> (RecognitionResult, PreprocessedFrame) {
            var p = pipeline
            p.orientation = o
            let prepared = try p.run(frame, pool: pool)
            return (try recognize(prepared, options: options), prepared)
        }
        let prepared = try pipeline.run(frame, pool: pool)
        let upright = try recognize(prepared, options: options)
        let clock = ContinuousClock()
        let started = clock.now
        let detected = try detectOrientation(prepared.image)
        let detection = clock.now - started
        if let (o, confidence) = detected, confidence >= Self.confidentOrientation {
            // OSD mistakes some pages for upside down: a rotation is taken only when it also reads
            // at least as confidently as the page as stored.
            let (turned, turnedFrame) = o == .up ? (upright, prepared) : try read(o)
            if (turned.confidence ?? 0) >= (upright.confidence ?? 0) {
                var result = turned
                result.timings.automatic += detection
                result.preprocessing?.orientation = OrientationDecision(orientation: o, method: "osd", confidence: Double(confidence))
                result.preprocessing?.reasons.append("orientation: Tesseract's detection says \(o)"
                                                     + String(format: " (confidence %.1f)", confidence))
                return (result, turnedFrame)
            }
        }
        var best = upright
        var bestFrame = prepared
        var bestOrientation = Orientation.up
        let tryRotations = (best.confidence ?? 0) < Self.confidentReading && upright.timings.recognition < Self.rotationTrialLimit
        if tryRotations {
            // A wide strip (a line or a word) is either upright or upside down.
            let image = prepared.image
            let candidates: [Orientation] = image.width >= 3 * image.height ? [.down] : [.right, .down, .left]
            for o in candidates {
                let (r, rFrame) = try read(o)
                // Garbage reads with middling confidence in any rotation: a rotation must read
                // clearly better (by 0.15) than the page as stored to be taken.
                if (r.confidence ?? 0) > (best.confidence ?? 0) + (bestOrientation == .up ? 0.15 : 0) {
                    best = r
                    bestFrame = rFrame
                    bestOrientation = o
                }
            }
        }
        best.timings.automatic += detection
        let confidence = Double(best.confidence ?? 0)
        if confidence >= 0.5 {
            best.preprocessing?.orientation = OrientationDecision(orientation: bestOrientation, method: "confidence", confidence: confidence)
            best.preprocessing?.reasons.append(
                (tryRotations ? "orientation: \(bestOrientation) reads best of the rotations tried" : "orientation: reads well as stored")
                    + String(format: " (mean word confidence %.2f)", confidence))
        } else {
            // No rotation reads well either: the image as stored is what is reported.
            best = upright
            bestFrame = prepared
            best.timings.automatic += detection
            best.preprocessing?.orientation = OrientationDecision(orientation: nil, method: "none", confidence: Double(upright.confidence ?? 0))
            best.preprocessing?.reasons.append("orientation: unknown (no confident detection or reading); read as stored")
        }
        return (best, bestFrame)
    }

    /// Tesseract's orientation and script detection (`osd.traineddata`, engine mode 0) on an
    /// image: how it is stored (``Orientation/right``: it must turn 90° clockwise to be upright)
    /// and Tesseract's confidence (above about 2 is reliable). nil when it cannot tell (too few
    /// characters).
    /// - Throws: ``FrameOCRError/Code/tesseract`` when `osd.traineddata` cannot be loaded.
    public func detectOrientation(_ image: PixelBuffer) throws(FrameOCRError) -> (orientation: Orientation, confidence: Float)? {
        var engine = osdEngines.withLock { $0.popLast() }
        if engine == nil {
            var c = Configuration(languages: ["osd"], tessdataPath: configuration.tessdataPath, engineMode: .tesseractOnly)
            c.limitOpenMP = configuration.limitOpenMP
            engine = try TesseractEngine(configuration: c, userWordsFile: nil, userPatternsFile: nil)
        }
        defer { osdEngines.withLock { if $0.count < maxIdleEngines { $0.append(engine!) } } }
        guard let (degrees, confidence) = engine!.detectOrientation(image, sourceResolution: configuration.defaultOptions.sourceResolution)
        else { return nil }
        let o: Orientation = switch degrees { case 90: .right; case 180: .down; case 270: .left; default: .up }
        return (o, confidence)
    }

    /// Recognizes an already preprocessed frame (see ``Pipeline/run(_:pool:)``). The page
    /// segmentation mode and the binarization that automatic preprocessing chose
    /// (``PreprocessedFrame/decisions``) take the place of the options'.
    public func recognize(_ prepared: PreprocessedFrame, options: Options? = nil,
                          deadline: Duration? = nil) throws(FrameOCRError) -> RecognitionResult {
        let options = options ?? configuration.defaultOptions
        try options.validate()
        var timings = prepared.timings
        let engine = try checkOut()
        defer { checkIn(engine) }
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
    /// without a model load on the per-frame path.
    /// - Throws: ``FrameOCRError/Code/tesseract`` when a model cannot be loaded.
    public func prepareEngines(_ count: Int) throws(FrameOCRError) {
        while idleEngineCount < min(count, maxIdleEngines) {
            let engine = try TesseractEngine(configuration: configuration, userWordsFile: userWordsFile, userPatternsFile: userPatternsFile)
            engines.withLock { $0.append(engine) }
        }
    }

    /// Engines created so far and idle now (for tests and statistics).
    public var idleEngineCount: Int { engines.withLock { $0.count } }

    private func checkOut() throws(FrameOCRError) -> TesseractEngine {
        if let e = engines.withLock({ $0.popLast() }) { return e }
        // All engines are busy: load another one (only happens under concurrency).
        return try TesseractEngine(configuration: configuration, userWordsFile: userWordsFile, userPatternsFile: userPatternsFile)
    }

    private func checkIn(_ engine: TesseractEngine) {
        engines.withLock { if $0.count < maxIdleEngines { $0.append(engine) } }
    }

    /// The Tesseract version, e.g. `5.3.0`.
    public static var tesseractVersion: String { String(cString: focr_tesseract_version()) }
}

/// Process-wide OpenMP policy (see ``Recognizer``'s "Threads").
enum OpenMP {
    private static let done = Mutex(false)

    static func limitOnce() {
        done.withLock { done in
            guard !done else { return }
            done = true
            let env = ProcessInfo.processInfo.environment
            if env["OMP_THREAD_LIMIT"] != nil || env["OMP_NUM_THREADS"] != nil { return }
            _ = focr_limit_openmp()
        }
    }
}
