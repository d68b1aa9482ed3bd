import Synchronization

/// A frame's signature for the gate and the motion estimate: its upright gray region reduced to
/// ``LiveReading/thumbnailWidth`` pixels wide, and its sharpness (`focr_frame_signature`).
struct FrameSignature: Sendable {
    /// The reduced copy (gray8).
    var thumbnail: PixelBuffer
    /// The variance of the Laplacian over the variance of the gradient, of a copy at most 480 px
    /// on its longer side: a ratio that blur lowers and content, contrast and light do not.
    var sharpness: Float
    /// Upright pixels per thumbnail pixel, along x and y.
    var scaleX: Double
    var scaleY: Double

    /// Measures `gray` (the upright gray region).
    init(_ gray: PixelBuffer, width: Int, pool: PixelBufferPool?) throws(FrameOCRError) {
        let w = min(width, gray.width)
        let h = max(1, min(gray.height, Int((Double(gray.height) * Double(w) / Double(gray.width)).rounded())))
        let thumbnail = try PixelBuffer.destination(
            nil, pool: pool, width: w, height: h, format: .gray8, stage: .threshold)
        sharpness = try Shim.frameSignature(gray, sharpSide: 480, into: thumbnail)
        self.thumbnail = thumbnail
        scaleX = Double(gray.width) / Double(w)
        scaleY = Double(gray.height) / Double(h)
    }

    /// The largest mean absolute difference from `other`'s thumbnail over blocks of
    /// ``FrameGate/differenceBlock`` pixels (0…255); infinity when the sizes differ (a different
    /// frame size or region is a change).
    func difference(from other: FrameSignature) throws(FrameOCRError) -> Double {
        guard other.thumbnail.width == thumbnail.width, other.thumbnail.height == thumbnail.height else {
            return .infinity
        }
        return Double(try Shim.frameDifference(thumbnail, other.thumbnail, block: FrameGate.differenceBlock))
    }

    /// The translation, in upright pixels, that carries `previous`'s content onto this frame's
    /// (phase correlation of the thumbnails); zero when the sizes differ or the peak is weaker
    /// than ``FrameGate/minimumMotionResponse`` (a cut, a flat frame).
    func motion(since previous: FrameSignature) throws(FrameOCRError) -> (dx: Double, dy: Double) {
        guard previous.thumbnail.width == thumbnail.width, previous.thumbnail.height == thumbnail.height else {
            return (0, 0)
        }
        let m = try Shim.globalMotion(previous.thumbnail, thumbnail)
        guard m.response >= FrameGate.minimumMotionResponse else { return (0, 0) }
        return (m.dx * scaleX, m.dy * scaleY)
    }
}

/// The gate's state for one stream: the signature of the last frame read and the recent
/// frames' sharpness (bounded), shared by the workers.
final class FrameGate: Sendable {
    /// A phase correlation peak weaker than this is no motion estimate (0…1). Below it the
    /// thumbnails share too little structure for the peak to mean a shift.
    static let minimumMotionResponse = 0.05
    /// The side, in thumbnail pixels (fixed, whatever ``LiveReading/thumbnailWidth`` is), of the
    /// largest blocks whose mean difference the gate compares with
    /// ``LiveReading/unchangedBelow``: at the default ``LiveReading/thumbnailWidth`` an eighth
    /// of the frame's width, so that a digit that changes on a label a fifth of the frame wide
    /// still moves its block's mean by several gray levels.
    static let differenceBlock = 16

    private struct State {
        var lastRead: FrameSignature?
        /// The last `window` sharpness values, oldest overwritten first.
        var sharpness: [Float] = []
        var next = 0
    }

    private let settings: LiveReading
    private let state = Mutex(State())

    init(_ settings: LiveReading) { self.settings = settings }

    /// The decision for a frame with `signature`; a frame to read becomes the last frame read.
    func decide(_ signature: FrameSignature) throws(FrameOCRError) -> GateDecision {
        let last = state.withLock { $0.lastRead }
        let difference = try last.map { (l: FrameSignature) throws(FrameOCRError) in try signature.difference(from: l) }
        return state.withLock { s in
            let recent = s.sharpness
            if s.sharpness.count < settings.sharpnessWindow {
                s.sharpness.append(signature.sharpness)
            } else {
                s.sharpness[s.next] = signature.sharpness
                s.next = (s.next + 1) % settings.sharpnessWindow
            }
            if let difference, difference < settings.unchangedBelow { return .reused }
            if settings.blurredBelow > 0, recent.count >= 4 {
                let median = recent.sorted()[recent.count / 2]
                if Double(signature.sharpness) < settings.blurredBelow * Double(median) { return .blurred }
            }
            s.lastRead = signature
            return .read
        }
    }
}
