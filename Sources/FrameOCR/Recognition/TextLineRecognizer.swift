import Foundation

/// Reads a line of text — a sign's word, a plate, a region a ``TextDetector`` found — with a
/// neural line recognizer: a CRNN-style network with a CTC output (Graves et al.,
/// "Connectionist Temporal Classification", ICML 2006), FrameOCR's second engine beside
/// Tesseract (``RecognitionEngine/ctc``).
///
/// The model is PP-OCRv4's text-line recognizer (PaddleOCR's SVTR-LCNet "ch" model, Apache-2.0,
/// as the rapidocr-onnxruntime 1.4.4 wheel ships it), installed unchanged by `make deps` as
/// ``defaultModelPath``, with its 6623 characters (Chinese, Latin letters, digits, punctuation)
/// in ``defaultKeysPath``. It runs on OpenVINO (``NeuralRuntime``; `focr_recognize.h`), f32:
///
/// 1. the image (as stored; gray is replicated to three channels) is resized to
///    ``Configuration/height`` rows keeping its aspect (`cv::resize`, linear), at most
///    ``Configuration/maximumWidth`` wide (a longer line is squeezed), normalized as PaddleOCR
///    does ((x / 255 − 0.5) / 0.5 per BGR channel) and padded on the right with 0 up to
///    ``Configuration/minimumWidth`` and a multiple of ``Configuration/widthStep`` (320 and 160:
///    a word runs in a 320-wide input, a line 400 columns wide in 480);
/// 2. the network gives, for each 8 columns of its input (a time step), the probability of each
///    of its classes: the CTC blank, the 6623 characters, a space;
/// 3. greedy CTC decoding: at each step the most probable of the blank and the classes
///    ``Configuration/alphabet`` and ``Configuration/whitelist`` allow; a run of steps of one class
///    is one character, blanks are dropped (and spaces at the line's ends). A character's confidence is the highest probability
///    of its class over its run (PaddleOCR takes the run's first step), the line's the mean of
///    its characters'; a character's box spans the image's height and, along the line, its run's
///    steps mapped back to the image's pixels; its choices (``Configuration/alternates``) are the
///    other allowed classes at its most probable step.
///
/// It is `Sendable`: call ``recognizeLine(_:)`` from any number of threads. Each concurrent caller
/// gets its own handle (a compiled network and its infer request are not for two threads at
/// once), made on first use and kept for reuse, up to the number of active processors or four,
/// whichever is fewer. One compiled network serves every input width (the model's width is
/// dynamic; measured: the same output, bit for bit, as a fresh handle's at each width); a width
/// first seen costs OpenVINO a compile of its kernels on its first run (12–40 ms), so the widths
/// come in steps of ``Configuration/widthStep``.
///
/// The recognizer's code is in the media library (`CFrameOCRMedia`), with the text detector: this
/// package's own programs load `libFrameOCRMedia.so`, and OpenVINO with it (`dlopen`), when the
/// first recognizer is made (`docs/layout.md`, `docs/openvino.md`).
///
/// The network runs on the CPU unless ``Configuration/device`` asks for a GPU or an NPU
/// (``NeuralDevice``); ``deviceDecision`` says what was chosen and why. The probe runs the probe
/// line at widths 320, 640 and 320 on the device's network against the CPU's outputs, and keeps
/// the device only when they match; else the CPU, a fallback (`docs/openvino.md#devices`).
///
/// Cost on the 2-core Debian 12 machine: `docs/openvino.md` (a line's time at each input width,
/// against OpenCV's dnn module, which ran it before).
/// (`docs/automatic-preprocessing.md#the-ctc-line-recognizer`.)
public final class TextLineRecognizer: LineRecognizing, Sendable {
    /// The characters the decoder may output, before a ``Configuration/whitelist`` narrows them.
    public enum Alphabet: Hashable, Sendable {
        /// Latin text (language `eng` and western European): printable ASCII (U+0020 space to
        /// U+007E `~`), the letters of Latin-1 Supplement (U+00C0–U+00FF but × and ÷), and
        /// € £ ¥ ° §. PP-OCRv4's keys hold all of ASCII, 15 of those letters (à á è é ì í ò ó ú
        /// ä ü É Ë Ó Ü) and ¥ ° §: 113 classes with the space. Never a Chinese character, nor
        /// the fullwidth forms of ASCII.
        case latin
        /// Every class of the model.
        case all

        /// Whether `character` (one key of the model) is in this alphabet.
        public func contains(_ character: String) -> Bool {
            switch self {
            case .all: return true
            case .latin:
                return !character.isEmpty && character.unicodeScalars.allSatisfy(Self.isLatin)
            }
        }

        private static func isLatin(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x20...0x7E: true
            case 0xC0...0xFF: s.value != 0xD7 && s.value != 0xF7
            case 0x20AC, 0xA3, 0xA5, 0xB0, 0xA7: true
            default: false
            }
        }
    }

    /// How the model is run and its output decoded.
    public struct Configuration: Hashable, Sendable {
        /// The ONNX model (default ``TextLineRecognizer/defaultModelPath``).
        public var modelPath: String
        /// The model's characters, UTF-8, one per line in class order (default
        /// ``TextLineRecognizer/defaultKeysPath``). Their count + 2 (the blank, the space) must be
        /// the model's class count.
        public var keysPath: String
        /// The image is resized to this many rows, pixels (16…256, a multiple of 8; default 48,
        /// the height PP-OCRv4 was trained at). PP-OCRv4's model takes 48 only (its input is
        /// 1×3×48×W): at another height OpenVINO fails (``FrameOCRError/Code/inference``) on the
        /// first line read.
        public var height: Int
        /// The input is padded on the right up to this width, pixels (8…4096; default 320, as
        /// PaddleOCR pads). A short word is read in a 320-wide input, its characters the same size
        /// as a long line's. Narrower padding is faster (about 0.15 ms a column) but reads short
        /// lines differently: `docs/tuning.md#engines`.
        public var minimumWidth: Int
        /// The input is padded further, up to a multiple of this many pixels (8…4096, a multiple of
        /// 8; default 160), so that lines of many widths run in a few input shapes: the network
        /// costs about 0.15 ms a column on the 2-core machine, and a change of shape about 12 ms.
        public var widthStep: Int
        /// The resized image is at most this wide, pixels (8…8192; default 1600: 33 times its
        /// height, about 50 characters); a longer line is squeezed to it.
        public var maximumWidth: Int
        /// Choices per character in ``RecognizedCharacter/choices``, besides its own text
        /// (0…``TextLineRecognizer/maximumAlternates``; default 0: none, and `choices` is empty).
        /// Costs almost nothing: the network gives every class's probability at every step.
        public var alternates: Int
        /// The characters the decoder may output (default ``Alphabet/latin``).
        public var alphabet: Alphabet
        /// Only these characters may be output (intersected with ``alphabet``), as Tesseract's
        /// `tessedit_char_whitelist`; nil (default): the whole alphabet. The space between words
        /// is not named here: it stays allowed whenever ``alphabet`` holds it, as Tesseract's
        /// whitelist keeps its spaces.
        public var whitelist: String?
        /// The device the network runs on (default ``NeuralDevice/cpu``), decided when the first
        /// recognizer of the model is made in the process: ``TextLineRecognizer/deviceDecision``.
        public var device: NeuralDevice

        public init(
            modelPath: String = TextLineRecognizer.defaultModelPath,
            keysPath: String = TextLineRecognizer.defaultKeysPath, height: Int = 48, minimumWidth: Int = 320,
            widthStep: Int = 160, maximumWidth: Int = 1600, alternates: Int = 0, alphabet: Alphabet = .latin,
            whitelist: String? = nil,
            device: NeuralDevice = .cpu
        ) {
            self.modelPath = modelPath
            self.keysPath = keysPath
            self.height = height
            self.minimumWidth = minimumWidth
            self.widthStep = widthStep
            self.maximumWidth = maximumWidth
            self.alternates = alternates
            self.alphabet = alphabet
            self.whitelist = whitelist
            self.device = device
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the first setting out of its
        ///   range (an empty ``whitelist`` too).
        public func validate() throws(FrameOCRError) {
            guard (16...256).contains(height), height % 8 == 0 else {
                throw .invalidParameter(
                    "height", "\(height) px not in 16…256 or not a multiple of 8", stage: .recognition)
            }
            guard (8...4096).contains(minimumWidth) else {
                throw .invalidParameter("minimumWidth", "\(minimumWidth) px not in 8…4096", stage: .recognition)
            }
            guard (8...4096).contains(widthStep), widthStep % 8 == 0 else {
                throw .invalidParameter(
                    "widthStep", "\(widthStep) px not in 8…4096 or not a multiple of 8", stage: .recognition)
            }
            guard (8...8192).contains(maximumWidth) else {
                throw .invalidParameter("maximumWidth", "\(maximumWidth) px not in 8…8192", stage: .recognition)
            }
            guard (0...TextLineRecognizer.maximumAlternates).contains(alternates) else {
                throw .invalidParameter(
                    "alternates", "\(alternates) not in 0…\(TextLineRecognizer.maximumAlternates)", stage: .recognition)
            }
            if let whitelist, whitelist.isEmpty {
                throw .invalidParameter("whitelist", "empty: nil allows the whole alphabet", stage: .recognition)
            }
        }
    }

    /// Where `make deps` installs the model: `$FRAMEOCR_TEXT_RECOGNIZER` when set, else
    /// `/usr/local/share/frameocr/ppocrv4-rec.onnx`.
    public static var defaultModelPath: String {
        if let p = getenv("FRAMEOCR_TEXT_RECOGNIZER"), p.pointee != 0 { return String(cString: p) }
        return "/usr/local/share/frameocr/ppocrv4-rec.onnx"
    }

    /// Where `make deps` installs the model's keys: `$FRAMEOCR_TEXT_RECOGNIZER_KEYS` when set, else
    /// `ppocrv4-rec-keys.txt` in the folder of ``defaultModelPath``.
    public static var defaultKeysPath: String {
        if let p = getenv("FRAMEOCR_TEXT_RECOGNIZER_KEYS"), p.pointee != 0 { return String(cString: p) }
        let model = defaultModelPath
        let folder = model.lastIndex(of: "/").map { String(model[...$0]) } ?? ""
        return folder + "ppocrv4-rec-keys.txt"
    }

    /// The most choices per character besides its own (`FOCR_RECOGNIZER_MAX_ALTERNATES`).
    public static let maximumAlternates = 4

    public let configuration: Configuration
    /// Where the network runs and why (``Configuration/device`` decided when the first
    /// recognizer of the model was made in the process, with the parity probe's outcome). Every
    /// handle of the pool runs on its ``NeuralDeviceDecision/chosen`` device.
    public let deviceDecision: NeuralDeviceDecision
    public var engine: RecognitionEngine { .ctc }
    /// The text of each class of the model, by index: `""` for the blank (0), the keys, `" "`.
    let keys: [String]
    /// One byte per class, 1 where ``Configuration/alphabet`` and ``Configuration/whitelist``
    /// allow it; nil when every class is allowed.
    let allowed: [UInt8]?
    /// The handles (each a compiled network and its infer request), kept for reuse.
    private let handles: HandlePool<TextRecognizerHandle>

    /// Loads the model and its keys, compiles the model on OpenVINO's CPU plug-in, decides where
    /// the network runs (``deviceDecision``: for a device other than the CPU, OpenVINO's devices
    /// listed and, where it lists the device, the network compiled for it too and both run on the
    /// probe line; a fallback is counted in ``NeuralRuntime/deviceFallbacks`` and its reason handed
    /// to the handler of ``NeuralRuntime/setDeviceFallbackHandler(_:)``), runs the network once to
    /// check that it has a class for each key (its first network, kept for the first caller), and
    /// works out which classes ``Configuration/alphabet`` and ``Configuration/whitelist`` allow.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a setting out of range, or when the
    ///   alphabet and the whitelist leave no class of the model; ``FrameOCRError/Code/io`` when the
    ///   model or the keys cannot be read (`make deps` installs them);
    ///   ``FrameOCRError/Code/unsupportedFormat`` when OpenVINO cannot read or compile the model
    ///   (a truncated or foreign file) or the keys do not match its classes (the message gives
    ///   both counts); ``FrameOCRError/Code/neuralRuntimeMissing`` when OpenVINO is not
    ///   installed (`make openvino`);
    ///   ``FrameOCRError/Code/unsupported`` when the media library is neither linked in nor found
    ///   (`libFrameOCRMedia.so`; the message says where it was looked for). All with stage
    ///   ``FrameOCRError/Stage/recognition``. A device that fails the probe is no error: the
    ///   recognizer runs on the CPU and ``deviceDecision`` says why.
    public init(configuration: Configuration = Configuration()) throws(FrameOCRError) {
        try configuration.validate()
        self.configuration = configuration
        let first = try TextRecognizerHandle(
            modelPath: configuration.modelPath, keysPath: configuration.keysPath, device: configuration.device)
        deviceDecision = try first.decision()
        NeuralRuntime.note(deviceDecision, of: "the CTC recognizer's network")
        keys = try first.keys()
        allowed = try Self.allowedClasses(keys, configuration)
        handles = HandlePool(first: first)
    }

    /// The mask of the classes `c` allows, or nil when it allows all.
    private static func allowedClasses(_ keys: [String], _ c: Configuration) throws(FrameOCRError) -> [UInt8]? {
        if c.alphabet == .all && c.whitelist == nil { return nil }
        let listed = c.whitelist.map { Set($0.map(String.init)) }
        var mask = [UInt8](repeating: 0, count: keys.count)
        for (i, key) in keys.enumerated().dropFirst() where c.alphabet.contains(key) {
            if key == " " || listed?.contains(key) ?? true { mask[i] = 1 }
        }
        guard keys.indices.contains(where: { mask[$0] != 0 && keys[$0] != " " }) else {
            throw .invalidParameter(
                "whitelist", "\(c.whitelist ?? "") leaves no character of the model's in the alphabet \(c.alphabet)",
                stage: .recognition)
        }
        return mask
    }

    /// Reads the one line of text in `image` (see the type's overview).
    /// - Parameter image: `gray8`, or packed BGR/RGB/BGRA/RGBA (any `bytesPerRow`; colour is read
    ///   as colour), at least 1×1 pixels, as stored (its orientation is not applied): the line's
    ///   crop, upright, the text about as tall as the image (a crop with a margin of a quarter of
    ///   the text's height reads as well).
    /// - Returns: the line read by ``RecognitionEngine/ctc``: the characters left to right with
    ///   their boxes in `image`'s pixels; empty text and a nil confidence when none was read.
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` or ``FrameOCRError/Code/invalidParameter``
    ///   for an image it cannot take, ``FrameOCRError/Code/unsupportedFormat`` for a planar format
    ///   (convert first), ``FrameOCRError/Code/inference`` when OpenVINO fails; and when every
    ///   handle is busy and a new one is made, the errors of ``init(configuration:)`` (the model
    ///   file changed or removed since).
    public func recognizeLine(_ image: PixelBuffer) throws(FrameOCRError) -> LineRecognition {
        try recognizeLine(image, choices: configuration.alternates > 0 ? configuration.alternates + 1 : 0)
    }

    /// ``recognizeLine(_:)`` with `choices` choices per character in place of
    /// ``Configuration/alternates``' — counted as ``RecognitionOptions/alternates`` counts them, the
    /// character's own text first (0: none; 1: its own alone; at most ``maximumAlternates`` + 1):
    /// what a call's options ask of the engine pool's recognizer, so that a neural reading
    /// carries the choices a Tesseract reading would. They are the allowed classes at the
    /// character's most probable time step (the decoder's own output, no second pass): asking
    /// for them costs no inference time.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for `choices` outside
    ///   0…``maximumAlternates`` + 1; otherwise as ``recognizeLine(_:)``.
    public func recognizeLine(_ image: PixelBuffer, choices: Int) throws(FrameOCRError) -> LineRecognition {
        try recognizeLines([image], choices: choices)[0]
    }

    /// Reads the one line of text in each of `images` (each as ``recognizeLine(_:choices:)``
    /// reads it), in as few runs of the network as their widths allow: the lines whose input
    /// width (``Configuration/minimumWidth``, ``Configuration/widthStep``) is the same run
    /// together, up to 8 at a time (`focr_text_recognizer_recognize_batch`), each padded as it is
    /// alone, so each line reads as it does alone. What a frame's detected regions are read
    /// with: PP-OCRv4's recognizer reads 6 lines of 320 in one run in about 90 ms, against
    /// 6 × 23.5 ms one by one (2-core AMD EPYC, f32).
    /// - Parameters:
    ///   - images: the lines' crops, as for ``recognizeLine(_:)``; empty: no run, no reading.
    ///   - choices: choices per character, as for ``recognizeLine(_:choices:)``.
    /// - Returns: one reading per image, in their order.
    /// - Throws: as ``recognizeLine(_:choices:)`` (a message names `srcs[i]`, the image at i); no
    ///   reading is returned when one image fails.
    public func recognizeLines(_ images: [PixelBuffer], choices: Int) throws(FrameOCRError) -> [LineRecognition] {
        guard (0...Self.maximumAlternates + 1).contains(choices) else {
            throw .invalidParameter(
                "choices", "\(choices) not in 0…\(Self.maximumAlternates + 1)", stage: .recognition)
        }
        guard !images.isEmpty else { return [] }
        var c = configuration
        c.alternates = max(0, choices - 1)
        let readings = try handles.with(
            make: { () throws(FrameOCRError) in
                try TextRecognizerHandle(
                    modelPath: configuration.modelPath, keysPath: configuration.keysPath, device: configuration.device)
            },
            { (handle) throws(FrameOCRError) in try handle.recognize(images, c, allowed: allowed) })
        return zip(readings, images).map { line(from: $0, height: Double($1.height), choices: choices) }
    }

    /// `reading` as a line: its characters' texts from ``keys``, boxes the image's `height` tall;
    /// spaces at either end dropped; with `choices` > 0 each character's choices, its own first
    /// (the reading holds at most `choices` − 1 others).
    func line(from reading: CTCReading, height: Double, choices count: Int) -> LineRecognition {
        var kept = reading.characters[...]
        while let c = kept.first, keys[c.classIndex] == " " { kept = kept.dropFirst() }
        while let c = kept.last, keys[c.classIndex] == " " { kept = kept.dropLast() }
        let characters = kept.map { c in
            let text = keys[c.classIndex]
            var choices: [Alternate] = []
            if count > 0 {
                choices.append(Alternate(text: text, confidence: c.probability, log10RelativeLikelihood: 0))
                for a in c.alternates {
                    let relative = log10(Double(a.probability) / Double(c.probability))
                    choices.append(
                        Alternate(
                            text: keys[a.classIndex], confidence: a.probability,
                            log10RelativeLikelihood: relative.isFinite ? Float(relative) : nil))
                }
            }
            return RecognizedCharacter(
                text: text, box: Rect(x: c.x0, y: 0, width: c.x1 - c.x0, height: height), confidence: c.probability,
                choices: choices)
        }
        return LineRecognition(characters: characters, engine: .ctc)
    }
}
