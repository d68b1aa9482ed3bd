import Foundation
import FrameOCR

/// Uneven light laid over an evenly lit page: every pixel multiplied by a brightness field from
/// ``darkest`` (0…1) to 1. What the automatic mode's light step is tested and evaluated on
/// (`frameocr eval --light`): the same pages read evenly lit and relit, side by side, so the
/// light's cost is measured apart from the page's own difficulty.
///
/// The fields, on an image of `w`×`h` pixels (x, y pixel centres, top-left origin):
/// - ``Kind/gradient``: light falling linearly along the direction ``degrees`` (clockwise from
///   the x axis, as displayed): 1 at the first corner the direction leaves, ``darkest`` at the
///   last (a lamp beside the page);
/// - ``Kind/vignette``: 1 at the centre, falling with the squared distance to ``darkest`` at the
///   corners (a lens's falloff, a lamp above);
/// - ``Kind/shadow``: a hard shadow — ``darkest`` on the side of a straight edge through the
///   point at (``shadowOffset``·w, ``shadowOffset``·h), turned ``degrees`` from the vertical, 1
///   on the other, with a linear penumbra ``penumbra`` × min(w, h) wide (a hand or a phone
///   between the page and the light).
///
/// Then, with ``noise`` above 0, sensor noise: a Gaussian of that standard deviation (gray levels)
/// added to every pixel, the same for every pixel wherever it is lit (so the shadow's print has a
/// worse signal-to-noise ratio, as a camera's has), from a generator seeded with ``seed``.
///
/// The result is `gray8` (the input converted to gray first: BT.601,
/// ``PixelBuffer/convertedToGray(into:pool:)``), rounded to nearest and clamped to 0…255. The same
/// light on the same image gives the same bytes on every machine.
public struct SyntheticLight: Hashable, Sendable, Codable {
    /// The shape of the brightness field.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case gradient, vignette, shadow
    }

    public var kind: Kind
    /// Brightness at the darkest point, 0…1. Default 0.3.
    public var darkest: Double
    /// The gradient's direction, or the shadow edge's turn from the vertical, degrees clockwise.
    /// Default 30.
    public var degrees: Double
    /// Where the shadow's edge crosses the image's diagonal, 0…1 (default 0.55: a little more
    /// than half the page in shadow at 0°).
    public var shadowOffset: Double
    /// The shadow's penumbra as a share of the image's smaller side, 0…1 (default 0.01).
    public var penumbra: Double
    /// Sensor noise: the standard deviation of a Gaussian added to every pixel, gray levels
    /// (≥ 0; default 0: none).
    public var noise: Double
    /// The noise generator's seed (``SplitMix64``). Default 1.
    public var seed: UInt64

    public init(
        _ kind: Kind, darkest: Double = 0.3, degrees: Double = 30, shadowOffset: Double = 0.55,
        penumbra: Double = 0.01, noise: Double = 0, seed: UInt64 = 1
    ) {
        self.kind = kind
        self.darkest = darkest
        self.degrees = degrees
        self.shadowOffset = shadowOffset
        self.penumbra = penumbra
        self.noise = noise
        self.seed = seed
    }

    /// The brightness factor (``darkest``…1) at pixel (`x`, `y`) of a `width`×`height` image.
    public func brightness(x: Int, y: Int, width: Int, height: Int) -> Double {
        let lo = min(max(darkest, 0), 1)
        let w = Double(width)
        let h = Double(height)
        let px = Double(x) + 0.5
        let py = Double(y) + 0.5
        let t = degrees * .pi / 180
        switch kind {
        case .gradient:
            // Projection on the direction, normalized over the image's extent along it.
            let (c, s) = (cos(t), sin(t))
            let corners = [0.0, w * c, h * s, w * c + h * s]
            let first = corners.min()!
            let last = corners.max()!
            let u = last > first ? (px * c + py * s - first) / (last - first) : 0
            return 1 - (1 - lo) * min(max(u, 0), 1)
        case .vignette:
            let dx = px - w / 2
            let dy = py - h / 2
            let r2 = (dx * dx + dy * dy) / (w * w / 4 + h * h / 4)
            return 1 - (1 - lo) * min(r2, 1)
        case .shadow:
            // Signed distance to the edge through (offset·w, offset·h), its normal turned `degrees`.
            let (c, s) = (cos(t), sin(t))
            let d = (px - shadowOffset * w) * c + (py - shadowOffset * h) * s
            let half = max(penumbra * min(w, h), 1) / 2
            let inShadow = min(max((d + half) / (2 * half), 0), 1)  // 0 lit … 1 in shadow
            return 1 - (1 - lo) * inShadow
        }
    }

    /// `image` in gray under this light: a new `gray8` buffer of the same size and orientation.
    /// - Throws: ``FrameOCRError`` from the gray conversion (planar formats are converted too).
    public func apply(to image: PixelBuffer) throws(FrameOCRError) -> PixelBuffer {
        let gray = try image.convertedToGray()
        let out = try PixelBuffer(
            width: gray.width, height: gray.height, pixelFormat: .gray8, orientation: image.orientation)
        let (w, h) = (gray.width, gray.height)
        var random = SplitMix64(seed: seed)
        gray.withUnsafePlanes { src in
            out.withUnsafePlanes { dst in
                for y in 0..<h {
                    let from = src[0].row(y)
                    let to = dst[0].row(y)
                    for x in 0..<w {
                        var v = Double(from[x]) * brightness(x: x, y: y, width: w, height: h)
                        if noise > 0 { v += noise * random.nextGaussian() }
                        to[x] = UInt8(min(max(v.rounded(), 0), 255))
                    }
                }
            }
        }
        return out
    }
}
