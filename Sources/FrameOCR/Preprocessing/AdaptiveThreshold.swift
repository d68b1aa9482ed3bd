/// Adaptive (local) thresholding of a `gray8` image into black (0) and white (255).
///
/// Each pixel is compared with a threshold T computed over its `blockSize`×`blockSize`
/// neighbourhood (replicated border): the mean (``Method/mean``) or a Gaussian-weighted mean
/// (``Method/gaussian``, σ = 0.3·((blockSize−1)·0.5 − 1) + 0.8) minus the constant `C`. Normal
/// output is 255 where pixel > T, else 0; inverted output swaps them.
///
/// CPU: the mean method by FrameOCR's SIMD kernels (`fastpath.cpp`), the Gaussian method by
/// `cv::adaptiveThreshold`; results are byte-identical to `cv::adaptiveThreshold` in both cases,
/// including its rounding of the mean (see `fast_kernels.hpp`, `MeanParams`).
public struct AdaptiveThreshold: Hashable, Sendable, Codable {
    public enum Method: String, Sendable, Codable, CaseIterable {
        /// `cv::ADAPTIVE_THRESH_MEAN_C`.
        case mean
        /// `cv::ADAPTIVE_THRESH_GAUSSIAN_C`.
        case gaussian
    }

    public var method: Method
    /// Side of the square neighbourhood in pixels: odd, ≥ 3. Default 31.
    public var blockSize: Int
    /// Subtracted from the (weighted) mean; may be negative. Default 10.
    public var c: Double
    /// `true`: text becomes white on black (`cv::THRESH_BINARY_INV`). Default `false`.
    public var inverted: Bool

    public init(method: Method = .mean, blockSize: Int = 31, c: Double = 10, inverted: Bool = false) {
        self.method = method
        self.blockSize = blockSize
        self.c = c
        self.inverted = inverted
    }

    /// Checks the parameters (before any OpenCV call).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming `blockSize` when it is even or
    ///   below 3, or `C` when it is not finite.
    public func validate() throws(FrameOCRError) {
        guard blockSize >= 3, blockSize % 2 == 1 else {
            throw .invalidParameter("blockSize", "\(blockSize) must be odd and >= 3", stage: .threshold)
        }
        guard c.isFinite else { throw .invalidParameter("C", "\(c) must be finite", stage: .threshold) }
    }

    /// The same threshold with `blockSize` moved to the nearest valid value above it
    /// (10 → 11, 1 → 3): the opt-in "coerce" policy instead of an error.
    public func coerced() -> AdaptiveThreshold {
        var t = self
        t.blockSize = max(3, blockSize | 1)
        return t
    }

    /// Parses `none` (nil), `mean`, `gaussian`, `mean:BLOCK`, `gaussian:BLOCK:C`, with an optional
    /// `:inv` suffix, e.g. `gaussian:25:8:inv`.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for text that does not parse or values
    ///   that do not validate.
    public static func parse(_ text: String) throws(FrameOCRError) -> AdaptiveThreshold? {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if parts == ["none"] { return nil }
        var t = AdaptiveThreshold()
        if parts.last == "inv" {
            t.inverted = true
            parts.removeLast()
        }
        guard (1...3).contains(parts.count), let m = Method(rawValue: parts[0]) else {
            throw .invalidParameter(
                "threshold", "'\(text)': expected none|mean|gaussian[:BLOCK[:C]][:inv]", stage: .threshold)
        }
        t.method = m
        if parts.count > 1 {
            guard let b = Int(parts[1]) else {
                throw .invalidParameter("blockSize", "'\(parts[1])' is not an integer", stage: .threshold)
            }
            t.blockSize = b
        }
        if parts.count > 2 {
            guard let c = Double(parts[2]) else {
                throw .invalidParameter("C", "'\(parts[2])' is not a number", stage: .threshold)
            }
            t.c = c
        }
        try t.validate()
        return t
    }
}
