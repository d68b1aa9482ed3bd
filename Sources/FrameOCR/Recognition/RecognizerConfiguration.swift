/// Settings fixed when a ``Recognizer``'s engines are created (changing them needs a model load);
/// also known as ``RecognizerConfiguration``.
public struct RecognizerConfiguration: Hashable, Sendable {
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
    public var defaultOptions: RecognitionOptions
    /// Make OpenMP single-threaded process-wide (see the type's "Threads"). Default true.
    public var limitOpenMP: Bool
    /// The text detector the scene-text reading uses (``SecondReadings/sceneText``), loaded
    /// on its first use; nil: no detector (scenes are read as pages). Default: a
    /// ``TextDetector/Configuration`` with its defaults (the model `make text-detector`
    /// installs).
    public var textDetector: TextDetector.Configuration?
    /// The CTC line recognizer (``TextLineRecognizer``), loaded on its first use; nil: none (every
    /// line is read by Tesseract, whatever ``engine`` says). Default: a
    /// ``TextLineRecognizer/Configuration`` with its defaults (the model `make text-recognizer`
    /// installs, the Latin alphabet).
    public var textLineRecognizer: TextLineRecognizer.Configuration?
    /// The text-angle classifier (``TextAngleClassifier``) that turns the CTC engine's crops of
    /// scene text the right way up, loaded on its first use; nil: none (a region is read as the
    /// detector's angle turns it, and regions standing more than
    /// ``SecondReadings/sceneMaximumTurnDegrees`` are not read). Default: a
    /// ``TextAngleClassifier/Configuration`` with its defaults (the model `make deps` installs).
    public var textAngleClassifier: TextAngleClassifier.Configuration?
    /// Which engine reads what (``EngineSelection``). Default ``EngineSelection/auto``.
    public var engine: EngineSelection

    public init(
        languages: [String] = ["eng"], tessdataPath: String? = nil, engineMode: EngineMode = .default,
        userWords: [String] = [], userPatterns: [String] = [], variables: [String: String] = [:],
        defaultOptions: RecognitionOptions = RecognitionOptions(), limitOpenMP: Bool = true,
        textDetector: TextDetector.Configuration? = TextDetector.Configuration(),
        textLineRecognizer: TextLineRecognizer.Configuration? = TextLineRecognizer.Configuration(),
        textAngleClassifier: TextAngleClassifier.Configuration? = TextAngleClassifier.Configuration(),
        engine: EngineSelection = .auto
    ) {
        self.textAngleClassifier = textAngleClassifier
        self.textDetector = textDetector
        self.textLineRecognizer = textLineRecognizer
        self.engine = engine
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
