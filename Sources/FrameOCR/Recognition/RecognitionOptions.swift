/// Settings applied before every recognition (per call, or a recognizer's
/// ``RecognizerConfiguration/defaultOptions``); also known as ``RecognitionOptions``.
public struct RecognitionOptions: Hashable, Sendable {
    /// The most choices per symbol ``alternates`` may ask for (the shim's `FOCR_MAX_ALTERNATES`).
    public static let maximumAlternates = 3

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
    /// Whether to report symbols (``TextWord/symbols``; costs a little time). Default true.
    public var includeSymbols: Bool
    /// Choices per symbol, 0…3 (``TextSymbol/alternates``), best first; the first is the
    /// symbol's own text. Default 0: none, and Tesseract's choice mode stays off.
    ///
    /// N ≥ 1 needs ``includeSymbols``. It turns on Tesseract's CTC choice mode for the call
    /// (`lstm_choice_mode` 2, `lstm_choice_iterations` N − 1: one more beam search per line for
    /// each choice after the first), so it costs recognition time; each choice's
    /// ``Alternate/confidence`` is its path probability (see ``Alternate``).
    public var alternates: Int
    /// Whether Tesseract reads a poorly read line a second time, inverted, in case it is light
    /// text on a dark ground (its `tessedit_do_invert`). Default true (Tesseract's default,
    /// or the engine's `variables` setting). False saves that second reading, for frames
    /// whose text is known to be dark on light; it stays on by default because turning it off
    /// changed documents' and scenes' readings both ways (`docs/tuning.md#recognition-options`).
    public var invertedLineReading: Bool
    /// Tesseract's binarization for layout analysis (`thresholding_method`). Default `.otsu`.
    public var binarization: EngineBinarization
    /// Which parts of the frame may be read again when the first reading calls for it
    /// (with ``Pipeline/automatic`` and no deadline only); nil (default): the recognizer's
    /// ``RecognizerConfiguration/defaultOptions``' setting, and when that is nil too, all of them. A
    /// per-call `Options` value therefore keeps the recognizer's choice unless it sets its own.
    public var secondReadings: SecondReadings?

    public init(
        pageSegmentationMode: PageSegmentationMode = .singleBlock, characterWhitelist: String? = nil,
        characterBlacklist: String? = nil, sourceResolution: Int = 300, includeSymbols: Bool = true,
        alternates: Int = 0, invertedLineReading: Bool = true, binarization: EngineBinarization = .otsu,
        secondReadings: SecondReadings? = nil
    ) {
        self.pageSegmentationMode = pageSegmentationMode
        self.characterWhitelist = characterWhitelist
        self.characterBlacklist = characterBlacklist
        self.sourceResolution = sourceResolution
        self.includeSymbols = includeSymbols
        self.alternates = alternates
        self.invertedLineReading = invertedLineReading
        self.binarization = binarization
        self.secondReadings = secondReadings
    }

    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a resolution ≤ 0 or > 10000,
    ///   alternates outside 0…3 or without ``includeSymbols``, or second readings out of range
    ///   (``SecondReadings/validate()``).
    public func validate() throws(FrameOCRError) {
        guard (1...10_000).contains(sourceResolution) else {
            throw .invalidParameter(
                "sourceResolution", "\(sourceResolution) ppi must be in 1…10000", stage: .recognition)
        }
        guard (0...Self.maximumAlternates).contains(alternates) else {
            throw .invalidParameter(
                "alternates", "\(alternates) must be in 0…\(Self.maximumAlternates)", stage: .recognition)
        }
        guard alternates == 0 || includeSymbols else {
            throw .invalidParameter(
                "alternates", "\(alternates) choices per symbol need includeSymbols", stage: .recognition)
        }
        try secondReadings?.validate()
    }
}
