/// What a line of text looks like, cheaply, to tell whether its text changed since it was last
/// read (a meter's digits, a price, a screen): the darkness of its text's box, cell by cell.
///
/// The box is reduced to ``columns`` × ``rows`` cells (`cv::resize` INTER_AREA, `focr_resize`);
/// each cell's darkness is 255 − its mean, less the lightest cell's (the paper), and the profile
/// is divided by its mean, so contrast and light cancel. Two profiles differ by the largest mean
/// absolute difference over any ``columns`` / 8 neighbouring columns (all rows), the best of
/// the comparisons shifted by up to ``shiftTolerance`` columns: a character that changes shows
/// there, where noise, averaged over the cells, and a box found a pixel off do not. The rows
/// keep what column sums lose (a 6 and a 4 ink their columns alike, not their halves).
struct LineProfile: Sendable, Hashable {
    /// Cells along the line.
    static let columns = 64
    /// Cells across the box's height.
    static let rows = 4
    /// Columns either way the profiles are compared shifted by, the best kept: a line that moved
    /// by part of a column (its box found a pixel off) is not a change.
    static let shiftTolerance = 1
    /// Mean 1 (all zero for a flat box).
    var values: [Float]

    /// The profile of `box` (pixels of `source`, gray8), inside it. For light text on dark it
    /// is the profile of the gaps between the characters: as good for telling a change.
    init(_ source: PixelBuffer, box: PixelRect, pool: PixelBufferPool?) throws(FrameOCRError) {
        guard let clipped = box.intersection(PixelRect(x: 0, y: 0, width: source.width, height: source.height)),
            clipped.width > 0, clipped.height > 0
        else {
            values = Array(repeating: 0, count: Self.columns * Self.rows)
            return
        }
        let reduced = try source.cropped(to: clipped).resized(width: Self.columns, height: Self.rows, pool: pool)
        var darkness = [Float](repeating: 0, count: Self.columns * Self.rows)
        reduced.withUnsafePlanes { planes in
            for y in 0..<Self.rows {
                let row = planes[0].row(y)
                for x in 0..<Self.columns { darkness[y * Self.columns + x] = Float(255 - Int(row[x])) }
            }
        }
        let paper = darkness.min() ?? 0
        var sum: Float = 0
        for i in darkness.indices {
            darkness[i] -= paper
            sum += darkness[i]
        }
        let mean = sum / Float(darkness.count)
        values = mean > 0.5 ? darkness.map { $0 / mean } : Array(repeating: 0, count: darkness.count)
    }

    /// The largest mean absolute difference over any eighth of the columns (0…; 0 for the same
    /// profile, about 1 where a character turned into space).
    func difference(from other: LineProfile) -> Double {
        var best = Float.infinity
        for shift in -Self.shiftTolerance...Self.shiftTolerance {
            let block = Self.columns / 8
            var largest: Float = 0
            for start in stride(from: 0, to: Self.columns, by: block) {
                var sum: Float = 0
                var n = 0
                for x in start..<(start + block) where x + shift >= 0 && x + shift < Self.columns {
                    for y in 0..<Self.rows {
                        sum += abs(values[y * Self.columns + x] - other.values[y * Self.columns + x + shift])
                    }
                    n += Self.rows
                }
                if n > 0 { largest = max(largest, sum / Float(n)) }
            }
            best = min(best, largest)
        }
        return Double(best)
    }
}
