extension Pipeline {
    /// Where a pipeline takes the frame's orientation from — one meaning for each case, so that
    /// `.up` always means "upright" and "not known" is said explicitly.
    ///
    /// Camera frames carry their orientation (``PixelBuffer/orientation``: EXIF, as
    /// `CGImagePropertyOrientation`, `.up` by default), so ``fromFrame`` is the default. A still
    /// image whose rotation nobody knows — a scan, a photo without EXIF — is ``unknown``: with
    /// automatic preprocessing, ``Recognizer/recognize(_:pipeline:options:deadline:timeLimit:pool:)`` then
    /// detects it (Tesseract's orientation detection, else the best of the four rotations by
    /// mean word confidence) and reports what it found in ``PreprocessingDecisions/orientation``.
    /// The decisions' reasons always say which case applied. Passing a camera plugin's "UP" is
    /// ``fromFrame`` or `known(.up)`: known upright, nothing detected.
    public enum OrientationSource: Hashable, Sendable {
        /// The frame's own ``PixelBuffer/orientation``, taken as known.
        case fromFrame
        /// This orientation, taken as known (it overrides the frame's).
        case known(Orientation)
        /// Not known: detected by the recognizer with automatic preprocessing, no region and no
        /// deadline; otherwise (and in ``Pipeline/run(_:pool:)`` itself, and in a
        /// ``FrameProcessor``) the pixels are read as stored.
        case unknown

        /// The orientation the pipeline applies to `frame`: the frame's, the known one, or `.up`
        /// (as stored) when unknown.
        public func resolved(for frame: PixelBuffer) -> Orientation {
            switch self {
            case .fromFrame: frame.orientation
            case .known(let o): o
            case .unknown: .up
            }
        }
    }
}
