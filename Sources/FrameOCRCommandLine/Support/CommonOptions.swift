import Foundation
import FrameOCR

/// The preprocessing and recognition options shared by `recognize` and `preprocess`.
package enum CommonOptions {
    static let valued: Set<String> = [
        "lang", "psm", "oem", "roi", "roi-normalized", "scan-region", "orientation", "threshold", "scale",
        "whitelist", "blacklist", "dpi", "tessdata", "user-words", "user-patterns", "backend", "alternates",
        "max-pixels", "engine", "device",
    ]
    static let flags: Set<String> = ["strict-roi", "no-auto", "no-angle-classifier"]

    static let help = """
          --roi x,y,w,h             region in upright-frame pixels
          --roi-normalized x,y,w,h  region as fractions 0…1 of the upright frame
          --scan-region l,t,w,h     region in percent 0…100 (left, top, width, height)
          --strict-roi              reject a region partly outside the frame (default: clamp)
          --orientation O           how the image is stored: up, down, left, right,
                                    upMirrored, downMirrored, leftMirrored, rightMirrored,
                                    EXIF 1…8, or 0deg/90deg/180deg/270deg (clockwise to upright)
          --threshold T             none | mean | gaussian [:BLOCK[:C]] [:inv]   (default none;
                                    BLOCK odd ≥ 3, default 31; C default 10)
          --scale S                 resample by S (> 0; area when shrinking, cubic when enlarging)
          --backend B               cpu (default) | opencl | opencl:DEVICE (index or part of the
                                    name) | auto (an OpenCL GPU if there is one, else cpu)
          --no-auto                 no automatic preprocessing. Without --threshold it is on: light
                                    text on dark is inverted per region, text far from 14…60 px is
                                    rescaled, multi-line text turned 0.4…10° is straightened,
                                    single lines and text touching the edge get a white
                                    border, PSM 7 for one line and PSM 3 for a full page (unless
                                    --psm), and an unknown orientation is detected (unless
                                    --orientation or a region is given). JSON shows each decision
                                    under "preprocessing".
          --max-pixels N            refuse an image or frame of more than N pixels, read from the
                                    file's header before decoding (default 268435456 = 2^28,
                                    at most 1073741824 = 2^30); sides are at most 65536
        """

    /// How long a still may take before no second reading starts, unless `--time-limit` says
    /// otherwise (``Recognizer/recognize(_:pipeline:options:deadline:timeLimit:pool:)``): above
    /// the slowest image of the corpus (17 s, two read at once on a 2-core machine), so that no
    /// corpus image reads otherwise than `frameocr eval` (which has no limit) reads it.
    package static let defaultTimeLimit: Duration = .seconds(30)

    static let timeLimitHelp = """
          --time-limit D            no second reading starts after D (e.g. 2s, 500ms; none: no
                                    limit; default 30s): the result is what was read by then,
                                    with status budgetExceeded and the reason
        """

    /// The still time limit (`--time-limit D|none`; default ``defaultTimeLimit``).
    package static func timeLimit(_ a: Arguments) throws(UsageError) -> Duration? {
        if a.value("time-limit") == "none" { return nil }
        return try a.duration("time-limit") ?? defaultTimeLimit
    }

    /// The image size limit (`--max-pixels`; default ``ImageLimits/default``).
    package static func limits(_ a: Arguments) throws -> ImageLimits {
        guard let n = try a.int("max-pixels") else { return .default }
        guard (1...ImageLimits.maximumPixelsCeiling).contains(n) else {
            throw UsageError("--max-pixels: \(n) not in 1…\(ImageLimits.maximumPixelsCeiling)")
        }
        return ImageLimits(maximumPixels: n)
    }

    /// Builds the pipeline from the parsed options.
    package static func pipeline(_ a: Arguments) throws -> Pipeline {
        var p = Pipeline()
        let regions = [a.value("roi"), a.value("roi-normalized"), a.value("scan-region")].compactMap { $0 }
        guard regions.count <= 1 else { throw UsageError("give at most one of --roi, --roi-normalized, --scan-region") }
        if let (x, y, w, h) = try a.quadruple("roi") {
            guard [x, y, w, h].allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }) else {
                throw UsageError("--roi takes whole pixels")
            }
            p.region = .pixels(PixelRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h)))
        }
        if let (x, y, w, h) = try a.quadruple("roi-normalized") {
            p.region = .normalized(Rect(x: x, y: y, width: w, height: h))
        }
        if let (l, t, w, h) = try a.quadruple("scan-region") {
            p.region = .scanRegion(left: l, top: t, width: w, height: h)
        }
        if a.flag("strict-roi") { p.regionPolicy = .strict }
        // An image file's rotation is not known unless the caller says it (its EXIF orientation,
        // where there is one, is applied when it is decoded).
        p.orientation = .unknown
        if let o = a.value("orientation") {
            guard let parsed = Orientation(parsing: o) else {
                throw UsageError("--orientation: unknown orientation '\(o)'")
            }
            p.orientation = .known(parsed)
        }
        if let t = a.value("threshold") { p.threshold = try AdaptiveThreshold.parse(t) }
        if let s = try a.double("scale") { p.scale = s }
        if let b = a.value("backend") {
            guard let parsed = Backend(parsing: b) else {
                throw UsageError("--backend: '\(b)' is not cpu, opencl, opencl:DEVICE or auto")
            }
            p.backend = parsed
        }
        if !a.flag("no-auto") && p.threshold == nil {
            var automatic = AutomaticPreprocessing()
            automatic.scale = a.value("scale") == nil
            automatic.pageSegmentation = a.value("psm") == nil
            p.automatic = automatic
        }
        try p.validate()
        return p
    }

    static let recognitionHelp = """
          --lang L                  languages, e.g. eng or eng+deu (default eng)
          --psm N                   page segmentation mode 0…13 (default 6, single block)
          --oem N                   engine mode 0…3 (default 3)
          --whitelist CHARS         only recognize these characters
          --blacklist CHARS         never recognize these characters
          --alternates N            choices per character in JSON, 0…3, best first, each with
                                    its path probability (default 0; costs recognition time)
          --dpi N                   source resolution in pixels per inch (default 300)
          --tessdata DIR            tessdata folder (default $TESSDATA_PREFIX, else Debian's)
          --user-words FILE         extra dictionary words, one per line
          --user-patterns FILE      patterns, one per line
          --engine E                tesseract | ctc | auto (default auto): who reads. ctc:
                                    PP-OCRv4's CTC line recognizer (OpenVINO) reads every
                                    line, a photo as its detected text regions; auto: scenes
                                    and single lines are read by both and voted, pages by
                                    Tesseract. JSON gives each word's "engine"
          --device D                cpu (default) | gpu | npu | auto: where the text detector's
                                    and the CTC recognizer's networks run (OpenVINO). gpu, npu:
                                    that device when OpenVINO lists it and its outputs match the
                                    CPU's on a probe line, else the CPU, with a warning on stderr
                                    (a fallback); auto: the first of them that passes, else cpu.
                                    JSON gives the decision and its reason under "preprocessing"
          --no-angle-classifier     the CTC engine reads each scene region only as the detector
                                    turns it: no check that it is the right way up (PP-OCR's
                                    text-angle classifier, then a second reading turned 180°),
                                    and regions standing more than 45° are not read
        """

    /// Builds the recognizer configuration from the parsed options.
    package static func recognizer(_ a: Arguments) throws -> Recognizer.Configuration {
        var c = Recognizer.Configuration()
        if let l = a.value("lang") { c.languages = l.split(separator: "+").map(String.init) }
        if let t = a.value("tessdata") { c.tessdataPath = t }
        if let n = try a.int("oem") {
            guard let m = EngineMode(rawValue: Int32(clamping: n)) else { throw UsageError("--oem: \(n) not in 0…3") }
            c.engineMode = m
        }
        if let n = try a.int("psm") {
            guard let m = PageSegmentationMode(rawValue: Int32(clamping: n)) else {
                throw UsageError("--psm: \(n) not in 0…13")
            }
            c.defaultOptions.pageSegmentationMode = m
        }
        c.defaultOptions.characterWhitelist = a.value("whitelist")
        c.defaultOptions.characterBlacklist = a.value("blacklist")
        if let d = try a.int("dpi") { c.defaultOptions.sourceResolution = d }
        if let n = try a.int("alternates") {
            guard (0...Recognizer.Options.maximumAlternates).contains(n) else {
                throw UsageError("--alternates: \(n) not in 0…\(Recognizer.Options.maximumAlternates)")
            }
            c.defaultOptions.alternates = n
        }
        if let e = a.value("engine") {
            guard let engine = EngineSelection(rawValue: e) else {
                throw UsageError("--engine: \(e) is not tesseract, ctc or auto")
            }
            c.engine = engine
        }
        if let d = a.value("device") {
            guard let device = NeuralDevice(rawValue: d) else {
                throw UsageError("--device: \(d) is not cpu, gpu, npu or auto")
            }
            c.textDetector?.device = device
            c.textLineRecognizer?.device = device
        }
        if a.flag("no-angle-classifier") { c.textAngleClassifier = nil }
        if let f = a.value("user-words") { c.userWords = try lines(f, "--user-words") }
        if let f = a.value("user-patterns") { c.userPatterns = try lines(f, "--user-patterns") }
        try c.defaultOptions.validate()
        return c
    }

    /// The `--precision` option's help, for the commands that read with the neural engines
    /// (`recognize`, `video`, `serve`, `eval`): a setting of the process, not of a request.
    static let precisionHelp = """
          --precision P             auto (default) | f32 | bf16: the neural networks' precision on
                                    the CPU (OpenVINO). auto: the detector in bf16 where the CPU
                                    has it (AVX-512 BF16, AMX), the recognizer in f32; bf16: every
                                    network; on a CPU without bf16, f32 (`frameocr devices` says)
        """

    /// Sets how the neural networks are compiled for a command that reads with `workers` engines
    /// at once (``NeuralRuntime/configure(_:)``): NUM_STREAMS the workers, INFERENCE_NUM_THREADS
    /// the cores the process may use (its core budget: Tesseract reads one line of work per worker
    /// on one thread, so the two never ask for more than the cores), and `--precision`; and has
    /// each fallback of a network to the CPU (`--device`) written to standard error as
    /// `frameocr: warning: …` (``NeuralRuntime/setDeviceFallbackHandler(_:)``).
    package static func configureNeuralRuntime(_ a: Arguments, workers: Int) throws {
        NeuralRuntime.setDeviceFallbackHandler { line in
            FileHandle.standardError.write(Data("frameocr: warning: \(line)\n".utf8))
        }
        var c = NeuralRuntime.Configuration(
            workers: min(256, max(1, workers)), threads: ProcessInfo.processInfo.activeProcessorCount)
        if let p = a.value("precision") {
            guard let precision = NeuralRuntime.Precision(rawValue: p) else {
                throw UsageError("--precision: \(p) is not auto, f32 or bf16")
            }
            c.precision = precision
        }
        try NeuralRuntime.configure(c)
    }

    private static func lines(_ path: String, _ option: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError("\(option): cannot read \(path)")
        }
        return text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
    }
}
