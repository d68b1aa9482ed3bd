/// What the scene-text reading found and read (``SecondReadings/sceneText``;
/// ``PreprocessingDecisions/sceneText``).
public struct SceneTextDecision: Hashable, Sendable, Codable {
    /// One region of text the detector found, and its reading alone.
    public struct Region: Hashable, Sendable, Codable {
        /// The region in upright-frame pixels (a turned rectangle).
        public var region: DetectedText
        /// What it read as one line; nil when it was not read (turned more than
        /// ``SecondReadings/sceneMaximumTurnDegrees`` without the text-angle classifier, or centred
        /// in a region kept before it).
        public var text: String?
        /// Its mean word confidence, 0…1; nil when not read or no word had one.
        public var confidence: Float?
        /// Whether its words are in the result (read at
        /// ``SecondReadings/minimumSceneWordConfidence`` or more, and clearly more confidently
        /// than the words read there before).
        public var kept: Bool
        /// The engine whose reading ``text`` is (``EngineSelection``: where both read the region,
        /// the one chosen); nil when it was not read.
        public var engine: RecognitionEngine?
        /// Whether the CTC reading kept is of the region turned 180° more than its angle (the
        /// text-angle classifier found it upside down, and the turned reading was the more
        /// confident: its words' boxes are turned with it); nil when no classifier looked at it
        /// (Tesseract alone, or none configured).
        public var upsideDown: Bool?

        public init(
            region: DetectedText, text: String?, confidence: Float?, kept: Bool, engine: RecognitionEngine? = nil,
            upsideDown: Bool? = nil
        ) {
            self.region = region
            self.text = text
            self.confidence = confidence
            self.kept = kept
            self.engine = engine
            self.upsideDown = upsideDown
        }
    }

    /// The regions read, the most probable first (at most ``SecondReadings/maximumSceneRegions``).
    public var regions: [Region]
    /// Whether the frame was taken for a scene before its page was read
    /// (``EngineSelection/auto`` and ``EngineSelection/ctc``): no page reading, only the regions'.
    public var early = false
    /// The share (0…1) of the region's area the detected text regions cover, when the early
    /// scene test measured it (``SecondReadings/sceneMaximumTextCover``).
    public var textCover: Double?

    public init(regions: [Region]) { self.regions = regions }
}
