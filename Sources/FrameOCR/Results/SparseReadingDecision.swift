/// What reading a poorly read page again did (``SecondReadings/sparseReading``): two
/// sparse readings of the preprocessed image and two readings of the image as captured, voted
/// on and merged into the page's reading word by word.
public struct SparseReadingDecision: Hashable, Sendable, Codable {
    /// One more reading of the page and what its merge changed.
    public struct Reading: Hashable, Sendable, Codable {
        /// The page segmentation mode of this reading: PSM 11 (sparse text) for the readings of
        /// the preprocessed image, PSM 6 or 3 for those of the image as captured.
        public var pageSegmentationMode: PageSegmentationMode
        /// The binarization Tesseract used for this reading's layout.
        public var binarization: EngineBinarization
        /// True: read from the upright region as captured — the pipeline without automatic
        /// preprocessing (gray; none of its inversion, rescale, smoothing, skew correction or
        /// border); false: from the image automatic preprocessing prepared for the page.
        public var asCaptured: Bool
        /// Its mean word confidence, 0…1.
        public var confidence: Double
        /// Words of the page replaced, and this reading's words put in their place.
        public var replacedWords: Int
        public var replacingWords: Int
        /// This reading's words added where the page's reading had none.
        public var addedWords: Int
    }
    /// Mean word confidence (0…1) of the page's first reading.
    public var pageConfidence: Double
    /// The further readings, in the order they were merged.
    public var readings: [Reading]
    /// Mean word confidence of the merged reading.
    public var mergedConfidence: Double
}
