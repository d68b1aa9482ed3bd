import Foundation
import FrameOCR

/// A page made harder in one way that nothing in FrameOCR was tuned on: what the robustness suite
/// (`frameocr eval --robust`) reads beside each page as stored, so that a change that loses the
/// mixed polarity, the tiny text, the uneven light or the rotation it used to read shows as one
/// variant's CER rising while the others stay.
///
/// Every variant starts from the page in gray (BT.601, ``PixelBuffer/convertedToGray(into:pool:)``)
/// and returns a `gray8` buffer (the same orientation). ``seed`` 1 is the nominal variant below;
/// seeds 2, 3, … jitter its parameters within the ranges given (``SplitMix64`` seeded with the
/// seed, the same on every machine), and the spread of a variant's CER over its seeds is its
/// noise: what the CI gate allows before it calls a change a regression.
///
/// | ``Kind`` | nominal (seed 1) | jittered (seeds ≥ 2) |
/// |---|---|---|
/// | `inverted-band` | rows 15 %…45 % of the height inverted (light on dark), each edge moved between lines (below) | start 5…35 %, height 20…40 % |
/// | `scale-0.25`, `scale-0.35`, `scale-0.5` | resized by that factor (`INTER_AREA`) | factor ± 5 % |
/// | `relit` | light falling linearly at 30° to 0.35 of full brightness (``SyntheticLight``), Gaussian noise of 3 gray levels | 0…360°, darkest 0.3…0.45 |
/// | `rotate-3` | turned 3° clockwise on a white canvas that holds the whole page | 2.5…3.5°, either way |
/// | `blur` | a Gaussian of σ 1.2 px | σ 1.0…1.4 px |
/// | `jpeg-30` | written as JPEG at quality 30 and read back | quality 25…35 |
///
/// A band's edge is moved to the middle of the run of blank rows nearest to where it would fall
/// (a blank row: its mean within 2 % of the range of row means from the brightest row's): it
/// then runs between lines of text, not through them or their descenders, as a printed band's
/// does; on a single line the band takes the whole line, and with no blank row after its start
/// it runs to the bottom edge.
public struct RobustVariant: Hashable, Sendable, Codable {
    /// How the page is made harder; the raw value is the name `frameocr eval --robust` takes and
    /// reports (`FOLDER@NAME`).
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case invertedBand = "inverted-band"
        case scale25 = "scale-0.25"
        case scale35 = "scale-0.35"
        case scale50 = "scale-0.5"
        case relit
        case rotate = "rotate-3"
        case blur
        case jpeg = "jpeg-30"
    }

    public var kind: Kind
    /// 1: the nominal variant; 2, 3, …: its parameters jittered (see the type's table).
    public var seed: UInt64

    public init(_ kind: Kind, seed: UInt64 = 1) {
        self.kind = kind
        self.seed = seed
    }

    /// Draws for the jitter: `u(i)` is the i-th number in −1…1 of this seed's generator, and 0
    /// for every draw of seed 1 (the nominal variant).
    private func jitter(_ count: Int) -> [Double] {
        guard seed > 1 else { return Array(repeating: 0, count: count) }
        var random = SplitMix64(seed: seed &* 0x2545_F491_4F6C_DD1D ^ UInt64(kind.hashSeed))
        return (0..<count).map { _ in Double(random.next() >> 11) / Double(1 << 53) * 2 - 1 }
    }

    /// `image` made harder: a new `gray8` buffer (its size changed by the scales and the rotation).
    /// - Parameter scratch: a folder for the JPEG variant's file (written, read back, removed).
    /// - Throws: ``FrameOCRError`` from the operations (planar formats are converted to gray
    ///   first), ``FrameOCRError/Code/io`` when the JPEG file cannot be written or read.
    public func apply(to image: PixelBuffer, scratch: String = NSTemporaryDirectory()) throws(FrameOCRError)
        -> PixelBuffer
    {
        let gray = try image.convertedToGray()
        let u = jitter(2)
        switch kind {
        case .invertedBand:
            let jittered = seed > 1
            let (top, bottom) = Self.band(
                in: gray, start: jittered ? 0.2 + 0.15 * u[0] : 0.15, height: jittered ? 0.3 + 0.1 * u[1] : 0.3)
            return try Self.inverted(gray, rows: top..<bottom)
        case .scale25, .scale35, .scale50:
            let nominal = kind == .scale25 ? 0.25 : kind == .scale35 ? 0.35 : 0.5
            return try gray.scaled(by: nominal * (1 + 0.05 * u[0]))
        case .relit:
            let light = SyntheticLight(
                .gradient, darkest: seed > 1 ? 0.375 + 0.075 * u[1] : 0.35, degrees: seed > 1 ? 180 + 180 * u[0] : 30,
                noise: 3, seed: seed)
            return try light.apply(to: gray)
        case .rotate:
            let degrees = (3 + 0.5 * u[1]) * (u[0] < 0 ? -1 : 1)
            let t = abs(degrees) * .pi / 180
            let (w, h) = (Double(gray.width), Double(gray.height))
            let width = Int((w * cos(t) + h * sin(t)).rounded(.up))
            let height = Int((w * sin(t) + h * cos(t)).rounded(.up))
            return try gray.rotated(byDegrees: degrees, fill: 255, width: width, height: height)
        case .blur:
            return try gray.smoothed(sigma: 1.2 + 0.2 * u[0])
        case .jpeg:
            let path = scratch + "/frameocr-robust-\(UUID().uuidString).jpg"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try gray.write(toFile: path, quality: Int((30 + 5 * u[0]).rounded()))
            return try PixelBuffer(contentsOfFile: path).convertedToGray()
        }
    }

    /// The band's rows: it starts at `start` and is `height` tall (shares of the image's height),
    /// each edge moved to the middle of the nearest run of blank rows (see the type); never
    /// empty.
    static func band(in gray: PixelBuffer, start: Double, height: Double) -> (Int, Int) {
        let h = gray.height
        let means = gray.withUnsafePlanes { planes in
            (0..<h).map { y in
                let row = planes[0].row(y)
                return Double((0..<gray.width).reduce(0) { $0 + Int(row[$1]) }) / Double(gray.width)
            }
        }
        let (lo, hi) = (means.min() ?? 0, means.max() ?? 0)
        // The middles of the runs of blank rows.
        var middles: [Int] = []
        var y = 0
        while y < h {
            guard means[y] >= hi - 0.02 * (hi - lo) else {
                y += 1
                continue
            }
            var end = y
            while end + 1 < h, means[end + 1] >= hi - 0.02 * (hi - lo) { end += 1 }
            middles.append((y + end + 1) / 2)
            y = end + 1
        }
        func snap(_ share: Double) -> Int {
            let target = min(max(Int((share * Double(h)).rounded()), 0), h)
            return middles.min { abs($0 - target) < abs($1 - target) } ?? target
        }
        let top = snap(start)
        var bottom = snap(start + height)
        if bottom <= top { bottom = middles.first { $0 > top } ?? h }
        return top < bottom ? (top, bottom) : (max(0, h - 1), h)
    }

    /// `gray` with `rows` inverted (255 − v): a copy.
    static func inverted(_ gray: PixelBuffer, rows: Range<Int>) throws(FrameOCRError) -> PixelBuffer {
        let out = try gray.copy()
        out.withUnsafePlanes { planes in
            for y in rows {
                let row = planes[0].row(y)
                for x in 0..<gray.width { row[x] = 255 - row[x] }
            }
        }
        return out
    }
}

extension RobustVariant.Kind {
    /// A number of the kind's own for the jitter's generator (its place in ``allCases``), so that
    /// two kinds at the same seed draw different numbers.
    fileprivate var hashSeed: Int { Self.allCases.firstIndex(of: self)! + 1 }
}
