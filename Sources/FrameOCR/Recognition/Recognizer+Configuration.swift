extension Recognizer {
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

        public init(
            languages: [String] = ["eng"], tessdataPath: String? = nil, engineMode: EngineMode = .default,
            userWords: [String] = [], userPatterns: [String] = [], variables: [String: String] = [:],
            defaultOptions: Options = Options(), limitOpenMP: Bool = true
        ) {
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
        /// Which parts of the frame may be read again when the first reading calls for it
        /// (with ``Pipeline/automatic`` and no deadline only); nil (default): the recognizer's
        /// ``Configuration/defaultOptions``' setting, and when that is nil too, all of them. A
        /// per-call `Options` value therefore keeps the recognizer's choice unless it sets its own.
        public var secondReadings: SecondReadings?

        public init(
            pageSegmentationMode: PageSegmentationMode = .singleBlock, characterWhitelist: String? = nil,
            characterBlacklist: String? = nil, sourceResolution: Int = 300, includeSymbols: Bool = true,
            binarization: EngineBinarization = .otsu, secondReadings: SecondReadings? = nil
        ) {
            self.pageSegmentationMode = pageSegmentationMode
            self.characterWhitelist = characterWhitelist
            self.characterBlacklist = characterBlacklist
            self.sourceResolution = sourceResolution
            self.includeSymbols = includeSymbols
            self.binarization = binarization
            self.secondReadings = secondReadings
        }

        /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a resolution ≤ 0 or > 10000, or
        ///   second readings out of range (``SecondReadings/validate()``).
        public func validate() throws(FrameOCRError) {
            guard (1...10_000).contains(sourceResolution) else {
                throw .invalidParameter(
                    "sourceResolution", "\(sourceResolution) ppi must be in 1…10000", stage: .recognition)
            }
            try secondReadings?.validate()
        }
    }
}
