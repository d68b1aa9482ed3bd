import Foundation
import FrameOCR
import FrameOCRSynthesis

// The label row (`label-auto/cpu/frame`, `kind` "label"): issue 42's label flow, a label
// scanner's frame read as its seed flow reads it. The frame is drawn (`SyntheticLabel.frame()`,
// the one `DocumentCropTests` reads: a two-line label turned 3° on a cluttered desk, lit from the
// left, 640×480 gray); the Recognizer reads it with 3 choices per character
// (`RecognitionOptions.alternates`) through the automatic pipeline
// (`Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())`), against the same
// Recognizer through the plain pipeline (`Pipeline(orientation: .fromFrame)`): one frame per run,
// the two interleaved round by round after warm-up, at least 10 runs. `×OpenCV` is the plain
// p50 / the automatic p50.
//
// Issue 42's target, written into the note as met or not: automatic reads the label's two lines
// exactly, every character with 1…3 choices, its stages' timings adding up to its total (within
// 5 %), in at most 2× the plain time (`×OpenCV` ≥ 0.5).

let labelId = "label-auto/cpu/frame"

/// Measures the label row with `recognizer` over `runs` rounds (at least 10).
/// - Throws: ``FrameOCRError`` when the frame cannot be drawn or read.
func measureLabel(recognizer: Recognizer, runs: Int) throws -> CaseResult {
    let frame = try SyntheticLabel.frame()
    var options = RecognitionOptions()
    options.alternates = 3
    let automatic = Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing())
    let plain = Pipeline(orientation: .fromFrame)
    var read: (automatic: RecognitionResult?, plain: RecognitionResult?) = (nil, nil)
    var sides = [
        Side(body: { read.automatic = try recognizer.recognize(frame, pipeline: automatic, options: options) }),
        Side(body: { read.plain = try recognizer.recognize(frame, pipeline: plain, options: options) }),
    ]
    let rounds = max(runs, 10)
    try measureInterleaved(&sides, warmup: 3, runs: rounds)
    guard let auto = read.automatic, let flat = read.plain else { throw BenchError("label-auto: nothing read") }
    let time = Timing(sides[0].samples)
    let theirs = Timing(sides[1].samples)
    var r = CaseResult(
        spec: CaseSpec(
            name: "label-auto", backend: "cpu", width: frame.width, height: frame.height, kind: "label",
            sizeLabel: "frame"),
        runs: rounds, ms: time)
    r.allocationsPerFrame = Double(sides[0].allocations) / Double(rounds)
    r.baseline = BaselineResult(name: "plain pipeline", ms: theirs)
    r.ratios.vsBaseline = theirs.p50 / time.p50
    let truth = SyntheticLabel.lines.joined(separator: " ").split(separator: " ").map(String.init)
    let exact = auto.words.map(\.text) == truth
    func choices(_ result: RecognitionResult) -> ClosedRange<Int>? {
        let counts = result.words.flatMap(\.symbols).map(\.choices.count)
        guard let low = counts.min(), let high = counts.max() else { return nil }
        return low...high
    }
    let t = auto.timings
    let stages = t.stages.filter { $0.name != "total" }.map(\.duration).reduce(Duration.zero, +)
    let addsUp = abs(stages / t.total - 1) <= 0.05
    let autoChoices = choices(auto)
    let ratio = time.p50 / theirs.p50
    let met = exact && autoChoices.map { $0.lowerBound >= 1 && $0.upperBound <= 3 } == true && addsUp && ratio <= 2
    func told(_ range: ClosedRange<Int>?) -> String { range.map { "\($0.lowerBound)…\($0.upperBound)" } ?? "none" }
    r.note = [
        "a drawn label frame (SyntheticLabel.frame(), 640×480), 3 alternates asked, one frame per run",
        "automatic: \"\(auto.text.replacingOccurrences(of: "\n", with: " / "))\" (\(exact ? "exact" : "not exact")), "
            + "choices per character \(told(autoChoices)), stages \(addsUp ? "add up" : "do not add up") "
            + String(format: "(%.1f of %.1f ms)", stages / .milliseconds(1), t.total / .milliseconds(1)),
        "plain: \"\(flat.text.replacingOccurrences(of: "\n", with: " / "))\", choices per character \(told(choices(flat)))",
        String(format: "automatic %.1f ms, plain %.1f ms: %.2f× the plain time", time.p50, theirs.p50, ratio),
        "issue 42's target (the lines exact, 1…3 choices, stages adding up, ≤ 2× the plain time): "
            + (met ? "met" : "not met"),
    ].joined(separator: "; ")
    return r
}
