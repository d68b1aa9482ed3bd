/// What the light step of automatic preprocessing measured and did where the light was uneven
/// (``AutomaticPreprocessing/flattenLight``; ``PreprocessingDecisions/light``): the image was
/// divided by its background, a closing of ``kernel`` pixels.
public struct LightDecision: Hashable, Sendable, Codable {
    /// The side of the closing's square, pixels of the image measured.
    public var kernel: Int
    /// How far the regions' paper brightness spread (90th minus 10th percentile of their
    /// medians, gray levels 0…255) before the flattening and after it.
    public var spread: Double
    public var flattenedSpread: Double

    public init(kernel: Int, spread: Double, flattenedSpread: Double) {
        self.kernel = kernel
        self.spread = spread
        self.flattenedSpread = flattenedSpread
    }
}
