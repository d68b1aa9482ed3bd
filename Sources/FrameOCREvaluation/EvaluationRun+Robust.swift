import Foundation

// The robustness suite's figures (`frameocr eval --robust`): each variant's CER beside the pages
// as stored, per half, with its noise over seeds, and the gate that compares them with a baseline.
extension EvaluationRun {
    /// One robustness variant's figures (or the pages as stored, `variant` "as-stored") over the
    /// rows read as it.
    package struct RobustFigure: Codable, Sendable, Equatable {
        /// ``RobustVariant/Kind``'s name, or "as-stored".
        package var variant: String
        /// Pages read (each once per seed).
        package var images: Int
        package var seeds: Int
        /// The pages' file names, sorted (nil in a baseline written before they were kept).
        package var pages: [String]?
        /// Mean CER over the readings of pages scored in reading order, all halves; nil when no
        /// page is (folders scored by recall: the gate then checks ``wordRecall``).
        package var meanCER: Double?
        /// The same over each half (nil: no such reading in that half).
        package var tuning: Double?
        package var heldOut: Double?
        /// Reference words found / reference words, over every reading.
        package var wordRecall: Double
        /// Each seed's figure, seed 1 first: its mean CER, or its word recall when ``meanCER``
        /// is nil.
        package var seedMeans: [Double]
        /// The variant's noise: the standard deviation of the jittered seeds' figures (seeds 2,
        /// 3, … when there are two or more of them — seed 1, the nominal variant, is no draw
        /// from their spread —, else of all the seeds'; 0 with one seed).
        package var noise: Double

        /// The figure the gate checks: the mean CER, or the word recall.
        var gated: (name: String, value: Double, lowerIsBetter: Bool) {
            meanCER.map { ("mean CER", $0, true) } ?? ("word recall", wordRecall, false)
        }
    }

    /// The figures of the pages as stored and of each variant read, in ``RobustVariant/Kind``
    /// order; empty when no row was read as a variant. Failed rows are left out.
    package static func robustFigures(_ rows: [ImageRow]) -> [RobustFigure] {
        let read = rows.filter { $0.frameocr != nil && $0.light == nil }
        guard read.contains(where: { $0.robust != nil }) else { return [] }
        func meanCER(_ subset: [ImageRow]) -> Double? {
            let cers = subset.filter {
                Evaluation.Scoring.forFolder(named: ($0.file as NSString).deletingLastPathComponent).readingOrder
            }.map { $0.frameocr!.cer }
            return cers.isEmpty ? nil : cers.reduce(0, +) / Double(cers.count)
        }
        func recall(_ subset: [ImageRow]) -> Double {
            let words = subset.map { $0.frameocr!.referenceWords }.reduce(0, +)
            return words == 0 ? 1 : Double(subset.map { $0.frameocr!.wordsFound }.reduce(0, +)) / Double(words)
        }
        func deviation(_ values: [Double]) -> Double {
            guard values.count > 1 else { return 0 }
            let mean = values.reduce(0, +) / Double(values.count)
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
        }
        func figure(_ name: String, _ these: [ImageRow]) -> RobustFigure? {
            guard !these.isEmpty else { return nil }
            let cer = meanCER(these)
            let seeds = Set(these.map { $0.robust?.seed ?? 1 }).sorted()
            let seedMeans = seeds.map { s in
                let subset = these.filter { ($0.robust?.seed ?? 1) == s }
                return cer == nil ? recall(subset) : meanCER(subset) ?? 0
            }
            let jittered = zip(seeds, seedMeans).filter { $0.0 > 1 }.map(\.1)
            return RobustFigure(
                variant: name, images: Set(these.map(\.file)).count, seeds: seeds.count,
                pages: Set(these.map { ($0.file as NSString).lastPathComponent }).sorted(), meanCER: cer,
                tuning: meanCER(these.filter { $0.half == .tuning }),
                heldOut: meanCER(these.filter { $0.half == .heldOut }), wordRecall: recall(these),
                seedMeans: seedMeans, noise: deviation(jittered.count >= 2 ? jittered : seedMeans))
        }
        let asStored = figure("as-stored", read.filter { $0.robust == nil })
        let variants = RobustVariant.Kind.allCases.compactMap { k in
            figure(k.rawValue, read.filter { $0.robust?.kind == k })
        }
        return (asStored.map { [$0] } ?? []) + variants
    }

    /// A committed baseline of the robustness figures (`frameocr eval --robust …
    /// --write-robust-baseline FILE`), which a later run is gated on (`--robust-baseline FILE`).
    package struct RobustBaseline: Codable, Sendable {
        /// How the figures were made (the command line), for people.
        package var command: String
        package var figures: [RobustFigure]

        package init(command: String, figures: [RobustFigure]) {
            self.command = command
            self.figures = figures
        }
    }

    /// The gate's verdict on one figure of the baseline.
    package struct RobustCheck: Sendable, Equatable {
        package var variant: String
        /// "mean CER", or "word recall" for pages scored by recall.
        package var figure: String
        package var baseline: Double
        /// Nil when this run has no such figure.
        package var current: Double?
        /// How far the current figure may be worse than the baseline's.
        package var tolerance: Double
        /// Nil when it passes; why it fails otherwise.
        package var failure: String?
    }

    /// The smallest tolerance, in CER: a figure may always move this much (0.01: one character
    /// in a hundred).
    package static let robustToleranceFloor = 0.01

    /// Every figure of `baseline`, checked against `current`'s: it fails when this run has no
    /// such figure, when the two were made over other pages or another number of seeds (not the
    /// same suite), or when it is worse than the baseline's by more than
    /// max(``robustToleranceFloor``, 2 × the baseline's noise) — its mean CER higher, or, for
    /// pages scored by recall, its word recall lower. The noise is the baseline's alone: a
    /// change that makes a kind erratic must not widen its own tolerance. Figures only this run
    /// has are not checked.
    package static func check(_ current: [RobustFigure], against baseline: RobustBaseline) -> [RobustCheck] {
        let now = Dictionary(current.map { ($0.variant, $0) }, uniquingKeysWith: { a, _ in a })
        return baseline.figures.map { b in
            let (name, base, lowerIsBetter) = b.gated
            let tolerance = max(robustToleranceFloor, 2 * b.noise)
            var check = RobustCheck(
                variant: b.variant, figure: name, baseline: base, current: nil, tolerance: tolerance, failure: nil)
            guard let c = now[b.variant] else {
                check.failure = "not in this run"
                return check
            }
            let value = c.gated.value
            check.current = value
            let pagesDiffer = b.pages != nil && c.pages != nil && b.pages != c.pages
            if b.images != c.images || b.seeds != c.seeds || pagesDiffer || c.gated.name != name {
                check.failure =
                    "the baseline read \(b.images) pages × \(b.seeds) seeds, this run \(c.images) × \(c.seeds)"
                    + (pagesDiffer ? ", other pages" : "") + ": not the same suite"
            } else if lowerIsBetter ? value > base + tolerance : value < base - tolerance {
                check.failure =
                    "\(name) " + String(format: "%.3f", value) + " is \(lowerIsBetter ? "above" : "below") "
                    + String(format: "the baseline's %.3f by more than %.3f", base, tolerance)
            }
            return check
        }
    }
}
