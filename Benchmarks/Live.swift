import Foundation
import FrameOCR
import FrameOCREvaluation
import FrameOCRSynthesis

// Live reading on generated scenes (FrameOCRSynthesis's SyntheticScene: text that pans, zooms,
// turns, blurs, hides, appears and leaves, stills, light), side by side with its baseline in the
// same run: every scene is played in real time through a FrameProcessor with live reading, then
// through one that reads every frame whole (the same workers, budget and drop policy), and both
// are scored against the scene's truth (LiveScore). `--live-set NAME=V1,V2,…` plays the live side
// once per value of one LiveReading setting: how its thresholds are chosen on the tuning half and
// checked on the held-out half.

struct LiveBench {
    var halves: [SyntheticScene.Half]
    var count = 1
    var frames = 75
    var budget: Duration? = .milliseconds(80)
    var workers = 2
    var realTime = true
    var baseline = true
    var sweep: (name: String, values: [Double])?
    var kinds: [SyntheticScene.Kind] = SyntheticScene.Kind.allCases
    /// Writes every frame of every scene there as PNG (to look at, or to play with `frameocr
    /// video DIR`), and plays nothing.
    var dump: String?
    /// Prints every item's truth and what it was read as.
    var verbose = false
}

/// Sets the LiveReading setting `name` to `value`; false for an unknown name.
func setLiveReading(_ settings: inout LiveReading, _ name: String, _ value: Double) -> Bool {
    switch name {
    case "unchangedBelow": settings.unchangedBelow = value
    case "blurredBelow": settings.blurredBelow = value
    case "matchOverlap": settings.matchOverlap = value
    case "minimumTextHeight": settings.minimumTextHeight = value
    case "removeAfter": settings.removeAfter = Int(value)
    case "rereadEvery": settings.rereadEvery = Int(value)
    case "confirmAfter": settings.confirmAfter = Int(value)
    case "thumbnailWidth": settings.thumbnailWidth = Int(value)
    case "maximumLines": settings.maximumLines = Int(value)
    case "changedAbove": settings.changedAbove = value
    default: return false
    }
    return true
}

/// One side's figures over a set of scenes.
struct LiveSide {
    var score = LiveScore()
    var latencies: [Double] = []
    var dropped = 0

    var p99: Double { percentile(latencies, 0.99) }
    var p50: Double { percentile(latencies, 0.5) }
}

/// Plays `scene` through a fresh processor (`live`: with live reading `settings`; else whole
/// frames) and returns its side.
func playScene(_ scene: SyntheticScene, live: LiveReading?, bench: LiveBench) async throws -> LiveSide {
    // As `frameocr video` runs: the default pipeline, a stream's frames upright as stored, one
    // frame queued, the latest wins.
    var pipeline = Pipeline()
    pipeline.orientation = .fromFrame
    let processor = try FrameProcessor(
        configuration: .init(
            pipeline: pipeline, workerCount: bench.workers, queueCapacity: 1, dropPolicy: .latestWins,
            latencyBudget: bench.budget, liveReading: live))
    let (score, results) = try await scene.play(through: processor, realTime: bench.realTime)
    let stats = processor.statistics()
    return LiveSide(
        score: score, latencies: results.map { $0.timings.total.milliseconds },
        dropped: stats.dropped.values.reduce(0, +))
}

extension LiveSide {
    static func + (a: LiveSide, b: LiveSide) -> LiveSide {
        LiveSide(score: a.score + b.score, latencies: a.latencies + b.latencies, dropped: a.dropped + b.dropped)
    }
}

func liveRow(_ label: String, _ s: LiveSide) -> String {
    let c = s.score
    func pct(_ v: Double) -> String { String(format: "%5.1f", v * 100) }
    return label.padding(toLength: 30, withPad: " ", startingAt: 0)
        + String(
            format: " %@ %@ %@ %@ %5.1f %5d %@ %@ %5.2f %7.1f %7.1f %5d %5d %5d", pct(c.recall), pct(c.exactShare),
            pct(c.meanCER), pct(c.idStability), c.meanIoU * 100, c.idSwitches, pct(c.reusedShare),
            pct(c.results == 0 ? 0 : Double(c.blurred) / Double(c.results)),
            c.results == 0 ? 0 : Double(c.linesRead) / Double(c.results), s.p50, s.p99, c.overBudget, s.dropped,
            c.ghosts) + String(format: " %3d/%-3d %3d", c.blurredRight, c.blurFrames, c.blurredWrong)
}

/// Runs the live cases; returns the number of failures.
func runLiveBench(_ bench: LiveBench) async -> Int {
    print(
        "live reading on generated scenes: \(bench.count) seed(s) per kind, \(bench.frames) frames each at 25 frames/s, "
            + "\(bench.realTime ? "real time" : "as fast as taken"), budget \(bench.budget.map { "\($0.milliseconds) ms" } ?? "none"), "
            + "\(bench.workers) workers, one frame queued, the latest wins")
    print(
        "recall: share of (frame, line) pairs with a track over the line; exact: with its text; CER: mean (1 when missed); "
            + "ids: same id as the line's usual one; IoU: mean box IoU ×100; switches: id changes; "
            + "reuse, blur: shares of results; lines: read per result; over: results over budget; drop: frames dropped; ghost: "
            + "confirmed tracks over no card, summed over frames; blur ok: blurred frames the gate called blurred / "
            + "blurred frames; bad: sharp frames it called blurred")
    let header =
        "scene / side".padding(toLength: 30, withPad: " ", startingAt: 0)
        + [
            "recal", "exact", "CER", "ids", "IoU", "switc", "reuse", "blur", "lines", "p50ms", "p99ms", "over", "drop",
            "ghost",
        ]
        .map { " " + String(repeating: " ", count: max(0, ($0.hasPrefix("p") ? 7 : 5) - $0.count)) + $0 }.joined()
        + " blur ok  bad"
    var failures = 0
    for half in bench.halves {
        let scenes = SyntheticScene.suite(half, count: bench.count, frameCount: bench.frames).filter {
            bench.kinds.contains(SyntheticScene.Kind(rawValue: String($0.name.split(separator: "-").first ?? ""))!)
        }
        print("")
        print(
            "half: \(half.rawValue) (\(SyntheticScene.fonts(half).map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")))"
        )
        if let dir = bench.dump {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                fail("--live-dump \(dir): \(error.localizedDescription)", status: 1)
            }
            for scene in scenes {
                do {
                    let cards = try scene.renderCards()
                    for i in 0..<scene.frameCount {
                        try scene.frame(i, cards: cards).write(
                            toFile: "\(dir)/\(scene.name)-\(String(format: "%03d", i)).png")
                    }
                    print("\(scene.name): \(scene.items.map(\.card.text)) → \(dir)")
                } catch {
                    failures += 1
                    print("\(scene.name): FAILED: \(error)")
                }
            }
            continue
        }
        var variants: [(label: String, settings: LiveReading)] = []
        if let sweep = bench.sweep {
            for v in sweep.values {
                var s = LiveReading()
                _ = setLiveReading(&s, sweep.name, v)
                variants.append(("\(sweep.name)=\(v)", s))
            }
        } else {
            variants.append(("live", LiveReading()))
        }
        print(header)
        var totals = [LiveSide](repeating: LiveSide(), count: variants.count)
        var baselineTotal = LiveSide()
        for scene in scenes {
            do {
                for (k, v) in variants.enumerated() {
                    let side = try await playScene(scene, live: v.settings, bench: bench)
                    totals[k] = totals[k] + side
                    print(liveRow("\(scene.name) \(v.label)", side))
                    if bench.verbose {
                        for item in side.score.items {
                            print(
                                "    \(item.truth): found \(item.found)/\(item.scored), exact \(item.exact); \(item.readAs)"
                            )
                        }
                    }
                }
                if bench.baseline {
                    let side = try await playScene(scene, live: nil, bench: bench)
                    baselineTotal = baselineTotal + side
                    print(liveRow("\(scene.name) whole frames", side))
                }
            } catch {
                failures += 1
                print("\(scene.name): FAILED: \(error)")
            }
        }
        print(String(repeating: "-", count: header.count))
        for (k, v) in variants.enumerated() { print(liveRow("all \(half.rawValue) \(v.label)", totals[k])) }
        if bench.baseline { print(liveRow("all \(half.rawValue) whole frames", baselineTotal)) }
    }
    return failures
}
