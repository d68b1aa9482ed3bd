/// What the scene-text reading found and read (``SecondReadings/sceneText``;
/// ``PreprocessingDecisions/sceneText``).
public struct SceneTextDecision: Hashable, Sendable, Codable {
    /// One region of text the detector found, and its reading alone.
    public struct Region: Hashable, Sendable, Codable {
        /// The region in upright-frame pixels (a turned rectangle).
        public var region: DetectedText
        /// What it read as one line; nil when it was not read (turned more than
        /// ``SecondReadings/sceneMaximumTurnDegrees``, or centred in
        /// a region kept before it).
        public var text: String?
        /// Its mean word confidence, 0…1; nil when not read or no word had one.
        public var confidence: Float?
        /// Whether its words are in the result (read at
        /// ``SecondReadings/minimumSceneWordConfidence`` or more, and clearly more confidently
        /// than the words read there before).
        public var kept: Bool

        public init(region: DetectedText, text: String?, confidence: Float?, kept: Bool) {
            self.region = region
            self.text = text
            self.confidence = confidence
            self.kept = kept
        }
    }

    /// The regions read, the most probable first (at most ``SecondReadings/maximumSceneRegions``).
    public var regions: [Region]

    public init(regions: [Region]) { self.regions = regions }
}
