import Foundation
import Synchronization

/// A frame's signature for the gate and the motion estimate: its upright gray region reduced to
/// ``LiveReading/thumbnailWidth`` pixels wide (the gate's), and to ``motionWidth`` (the motion
/// estimate's), and its sharpness (`focr_frame_signature`).
struct FrameSignature: Sendable {
    /// The width of the copy the motion is measured on (or the frame's, when narrower): text
    /// lines of a frame 1280 px wide keep strokes a few pixels thick, which the tiles of
    /// `focr_global_motion` need (at the gate's 128 px they alias to noise).
    static let motionWidth = 256

    /// The reduced copy (gray8).
    var thumbnail: PixelBuffer
    /// The copy the motion is measured on (gray8, ``motionWidth`` wide at most).
    var motionThumbnail: PixelBuffer
    /// The variance of the Laplacian over the variance of the gradient, of a copy at most 480 px
    /// on its longer side: a ratio that blur lowers and content, contrast and light do not.
    var sharpness: Float
    /// Upright pixels per motion-thumbnail pixel, along x and y.
    var scaleX: Double
    var scaleY: Double

    /// Measures `gray` (the upright gray region).
    init(_ gray: PixelBuffer, width: Int, pool: PixelBufferPool?) throws(FrameOCRError) {
        func reduced(to width: Int) throws(FrameOCRError) -> PixelBuffer {
            let w = min(width, gray.width)
            let h = max(1, min(gray.height, Int((Double(gray.height) * Double(w) / Double(gray.width)).rounded())))
            return try PixelBuffer.destination(nil, pool: pool, width: w, height: h, format: .gray8, stage: .threshold)
        }
        let thumbnail = try reduced(to: width)
        let motion = try reduced(to: Self.motionWidth)
        sharpness = try Shim.frameSignature(gray, sharpSide: 480, into: thumbnail, motion: motion)
        self.thumbnail = thumbnail
        motionThumbnail = motion
        scaleX = Double(gray.width) / Double(motion.width)
        scaleY = Double(gray.height) / Double(motion.height)
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

    /// The motion, in upright pixels, that carries `previous`'s content onto this frame's
    /// (`focr_global_motion` on the ``motionThumbnail``s: phase correlation of the whole, then a
    /// similarity fitted to the shifts of their tiles); the identity when the sizes differ, or when no similarity was fitted
    /// and the phase correlation's peak is weaker than ``FrameGate/minimumMotionResponse`` (a
    /// cut, a flat frame).
    func motion(since previous: FrameSignature) throws(FrameOCRError) -> FrameMotion {
        guard previous.motionThumbnail.width == motionThumbnail.width,
            previous.motionThumbnail.height == motionThumbnail.height
        else { return .identity }
        let m = try Shim.globalMotion(previous.motionThumbnail, motionThumbnail)
        // A turn weakens the whole thumbnails' peak while the tiles still agree on it.
        guard m.inliers > 0 || m.response >= FrameGate.minimumMotionResponse else { return .identity }
        return m.motion.scaled(x: scaleX, y: scaleY)
    }
}

/// A similarity between two frames: a point (x, y) of the earlier frame is at
/// (a·x − b·y + tx, b·x + a·y + ty) in the later one (pixels, x right, y down): a translation, a
/// scale √(a² + b²) (a zoom) and an angle atan2(b, a) (a sway; clockwise as displayed).
struct FrameMotion: Sendable, Equatable {
    var a: Double
    var b: Double
    var tx: Double
    var ty: Double

    static let identity = FrameMotion(a: 1, b: 0, tx: 0, ty: 0)

    var scale: Double { (a * a + b * b).squareRoot() }
    /// Degrees, clockwise as displayed (y down).
    var degrees: Double { atan2(b, a) * 180 / .pi }

    /// Where the point (x, y) goes.
    func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x - b * y + tx, b * x + a * y + ty)
    }

    /// A box moved with the content under it: its centre carried by the motion, its sides
    /// scaled by ``scale``. The turn is left out: the box stays upright (a line's next reading
    /// gives its box again; turning an upright box and taking its bounds would widen it each
    /// frame it is not seen).
    func moved(_ box: Rect) -> Rect {
        let c = apply(x: box.x + box.width / 2, y: box.y + box.height / 2)
        let s = scale
        return Rect(
            x: c.x - box.width * s / 2, y: c.y - box.height * s / 2, width: box.width * s, height: box.height * s)
    }

    /// A detector's region moved with the content under it: its centre carried by the motion,
    /// its sides scaled by ``scale``, turned by ``degrees``.
    func moved(_ region: DetectedText) -> DetectedText {
        let c = apply(x: region.center.x, y: region.center.y)
        let s = scale
        return DetectedText(
            center: Point(x: c.x, y: c.y), width: region.width * s, height: region.height * s,
            angleDegrees: region.angleDegrees + degrees, score: region.score)
    }

    /// This motion, then `next`: a point goes where `next` takes the point this motion takes it to.
    func then(_ next: FrameMotion) -> FrameMotion {
        let t = next.apply(x: tx, y: ty)
        return FrameMotion(a: next.a * a - next.b * b, b: next.a * b + next.b * a, tx: t.x, ty: t.y)
    }

    /// The same motion measured in pixels `sx`×`sy` times smaller (a thumbnail's): in the
    /// larger frame. With sx = sy only the translation changes.
    func scaled(x sx: Double, y sy: Double) -> FrameMotion {
        // S·M·S⁻¹ with S = diag(sx, sy); for sx ≠ sy (rounded thumbnail sides) the off-diagonal
        // terms differ slightly, and their mean keeps the model a similarity.
        let b = (b * sy / sx + b * sx / sy) / 2
        return FrameMotion(a: a, b: b, tx: tx * sx, ty: ty * sy)
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
