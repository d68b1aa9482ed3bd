/// What a line of text looks like, cheaply, to tell whether its text changed since it was last
/// read (a meter's digits, a price, a screen): the darkness of its text's box column by column.
///
/// The box is reduced to ``columns`` × 4 pixels (`cv::resize` INTER_AREA, `focr_resize`), each
/// column's darkness is 255 − its mean, less the lightest column's (the paper), and the profile
/// is divided by its mean, so contrast and light cancel; a turn of a few degrees moves ink up or
/// down within a column, not across columns. Two profiles differ by the largest mean absolute
/// difference over any ``columns`` / 8 neighbouring columns: a character that changes shows
/// there, where noise, averaged down the column, does not.
struct LineProfile: Sendable, Hashable {
    static let columns = 64
    /// Mean 1 (all zero for a flat box).
    var values: [Float]

    /// The profile of `box` (pixels of `source`, gray8, dark text on light), inside it.
    init(_ source: PixelBuffer, box: PixelRect, pool: PixelBufferPool?) throws(FrameOCRError) {
        guard let clipped = box.intersection(PixelRect(x: 0, y: 0, width: source.width, height: source.height)),
            clipped.width > 0, clipped.height > 0
        else {
            values = Array(repeating: 0, count: Self.columns)
            return
        }
        let rows = 4
        let reduced = try source.cropped(to: clipped).resized(width: Self.columns, height: rows, pool: pool)
        var darkness = [Float](repeating: 0, count: Self.columns)
        reduced.withUnsafePlanes { planes in
            for y in 0..<rows {
                let row = planes[0].row(y)
                for x in 0..<Self.columns { darkness[x] += Float(255 - Int(row[x])) }
            }
        }
        let paper = darkness.min() ?? 0
        var sum: Float = 0
        for x in darkness.indices {
            darkness[x] -= paper
            sum += darkness[x]
        }
        let mean = sum / Float(Self.columns)
        values = mean > 0.5 ? darkness.map { $0 / mean } : Array(repeating: 0, count: Self.columns)
    }

    /// The largest mean absolute difference over any eighth of the columns (0…; 0 for the same
    /// profile, about 1 where a character turned into space).
    func difference(from other: LineProfile) -> Double {
        let block = Self.columns / 8
        var largest: Float = 0
        for start in stride(from: 0, to: Self.columns, by: block) {
            var sum: Float = 0
            for x in start..<(start + block) { sum += abs(values[x] - other.values[x]) }
            largest = max(largest, sum / Float(block))
        }
        return Double(largest)
    }
}
