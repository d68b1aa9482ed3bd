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
        /// Mean CER over the readings of pages scored in reading order (folders scored by recall
        /// are left out of it), all halves.
        package var meanCER: Double
        /// The same over each half (nil: no reading in that half).
        package var tuning: Double?
        package var heldOut: Double?
        /// Reference words found / reference words, over every reading.
        package var wordRecall: Double
        /// The mean CER of each seed's readings, seed 1 first.
        package var seedMeans: [Double]
        /// The variant's noise: the standard deviation of ``seedMeans`` (0 with one seed).
        package var noise: Double
    }

    /// The figures of the pages as stored and of each variant read, in ``RobustVariant/Kind``
    /// order; empty when no row was read as a variant. Failed rows are left out.
    package static func robustFigures(_ rows: [ImageRow]) -> [RobustFigure] {
        let read = rows.filter { $0.frameocr != nil && $0.light == nil }
        guard read.contains(where: { $0.robust != nil }) else { return [] }
        func figure(_ name: String, _ these: [ImageRow]) -> RobustFigure? {
            guard !these.isEmpty else { return nil }
            func meanCER(_ subset: [ImageRow]) -> Double? {
                let cers = subset.filter {
                    Evaluation.Scoring.forFolder(named: ($0.file as NSString).deletingLastPathComponent).readingOrder
                }.map { $0.frameocr!.cer }
                return cers.isEmpty ? nil : cers.reduce(0, +) / Double(cers.count)
            }
            let seeds = Set(these.map { $0.robust?.seed ?? 1 }).sorted()
            let seedMeans = seeds.map { s in meanCER(these.filter { ($0.robust?.seed ?? 1) == s }) ?? 0 }
            let mean = seedMeans.reduce(0, +) / Double(seedMeans.count)
            let variance =
                seedMeans.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(seedMeans.count - 1, 1))
            let found = these.map { $0.frameocr!.wordsFound }.reduce(0, +)
            let words = these.map { $0.frameocr!.referenceWords }.reduce(0, +)
            return RobustFigure(
                variant: name, images: Set(these.map(\.file)).count, seeds: seeds.count, meanCER: meanCER(these) ?? 0,
                tuning: meanCER(these.filter { $0.half == .tuning }),
                heldOut: meanCER(these.filter { $0.half == .heldOut }),
                wordRecall: words == 0 ? 1 : Double(found) / Double(words), seedMeans: seedMeans,
                noise: variance.squareRoot())
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

    /// The gate's verdict on one figure.
    package struct RobustCheck: Sendable, Equatable {
        package var variant: String
        package var baseline: Double
        package var current: Double
        /// How far above the baseline the current figure may be.
        package var tolerance: Double
        /// Nil when it passes; why it fails otherwise.
        package var failure: String?
    }

    /// The smallest tolerance, in CER: a figure may always move this much (0.01: one character
    /// in a hundred).
    package static let robustToleranceFloor = 0.01

    /// Each figure of `current` that `baseline` also has, checked: it fails when its mean CER is
    /// above the baseline's by more than max(``robustToleranceFloor``, 2 × the baseline's noise),
    /// or when the two were made over different numbers of pages or seeds (not the same suite).
    /// The noise is the baseline's alone: a change that makes a kind erratic must not widen its
    /// own tolerance. Figures only one side has are not checked.
    package static func check(_ current: [RobustFigure], against baseline: RobustBaseline) -> [RobustCheck] {
        let base = Dictionary(baseline.figures.map { ($0.variant, $0) }, uniquingKeysWith: { a, _ in a })
        return current.compactMap { c in
            guard let b = base[c.variant] else { return nil }
            let tolerance = max(robustToleranceFloor, 2 * b.noise)
            var failure: String?
            if b.images != c.images || b.seeds != c.seeds {
                failure =
                    "the baseline read \(b.images) pages × \(b.seeds) seeds, this run \(c.images) × \(c.seeds): "
                    + "not the same suite"
            } else if c.meanCER > b.meanCER + tolerance {
                failure = String(
                    format: "mean CER %.3f is above the baseline's %.3f by more than %.3f", c.meanCER, b.meanCER,
                    tolerance)
            }
            return RobustCheck(
                variant: c.variant, baseline: b.meanCER, current: c.meanCER, tolerance: tolerance, failure: failure)
        }
    }
}
