import Foundation
import FrameOCR
import FrameOCREvaluation

/// How well a live reader followed a ``SyntheticScene``: its tracks (``FrameResult/tracks``)
/// frame by frame against the scene's truth.
///
/// A truth (a card drawn wholly inside the frame) is *scored* from ``settleFrames`` frames after
/// its item was first drawn; it is *found* in a frame when a track's box covers at least half of
/// the smaller of the two boxes, and the track that covers most is its match. Its text is then
/// scored against the match's consensus text (CER, whitespace-normalized), an unmatched truth
/// counting CER 1. A *ghost* is a confirmed track over no card drawn (not even one partly out of
/// the frame), summed over frames. Results without tracks (read without live reading) are scored by their
/// recognized lines instead, each line a track of its own, id 0. An item's *id stability* is the share of its scored frames whose match has the
/// id it was matched to most often.
public struct LiveScore: Sendable, Codable, Hashable {
    /// Frames after an item first appears that are not scored: time for its first readings.
    public static let settleFrames = 10

    public var scene = ""
    public var frames = 0
    /// (frame, truth) pairs scored, found, found with exactly the truth's text.
    public var scored = 0
    public var found = 0
    public var exact = 0
    /// Sum over scored pairs of the CER (1 when not found).
    public var cerSum = 0.0
    /// Scored pairs whose match has its item's most frequent id.
    public var stableID = 0
    /// Changes of an item's matched id between consecutive matched frames, over all items.
    public var idSwitches = 0
    /// Sum of the intersection over union of matched boxes.
    public var iouSum = 0.0
    /// Confirmed tracks over no card drawn, summed over frames.
    public var ghosts = 0
    /// Frames by gate decision, lines read, and results.
    public var read = 0
    public var reused = 0
    public var blurred = 0
    public var linesRead = 0
    /// Results the gate called blurred whose frame was blurred, and whose frame was not; results
    /// of blurred frames.
    public var blurredRight = 0
    public var blurredWrong = 0
    public var blurFrames = 0
    public var overBudget = 0
    public var results = 0
    /// Per item of the scene: what it says and what was read, for a person to look at.
    public var items: [Item] = []

    /// One item's figures.
    public struct Item: Sendable, Codable, Hashable {
        public var truth: String
        public var scored = 0
        public var found = 0
        public var exact = 0
        /// The texts its matches had, the most frequent first, with their frame counts (at most 3).
        public var readAs: [String] = []
    }

    public init() {}

    /// Found / scored (0…1; 1 when nothing was scored).
    public var recall: Double { scored == 0 ? 1 : Double(found) / Double(scored) }
    /// Exactly read / scored.
    public var exactShare: Double { scored == 0 ? 1 : Double(exact) / Double(scored) }
    /// Mean CER over scored pairs.
    public var meanCER: Double { scored == 0 ? 0 : cerSum / Double(scored) }
    /// Stable id / found.
    public var idStability: Double { found == 0 ? 1 : Double(stableID) / Double(found) }
    /// Mean IoU of found boxes.
    public var meanIoU: Double { found == 0 ? 0 : iouSum / Double(found) }
    /// Reused / results.
    public var reusedShare: Double { results == 0 ? 0 : Double(reused) / Double(results) }

    /// The sum of two scores (scene names joined).
    public static func + (a: LiveScore, b: LiveScore) -> LiveScore {
        var s = LiveScore()
        s.scene = a.scene.isEmpty ? b.scene : (b.scene.isEmpty ? a.scene : "\(a.scene)+\(b.scene)")
        s.frames = a.frames + b.frames
        s.scored = a.scored + b.scored
        s.found = a.found + b.found
        s.exact = a.exact + b.exact
        s.cerSum = a.cerSum + b.cerSum
        s.stableID = a.stableID + b.stableID
        s.idSwitches = a.idSwitches + b.idSwitches
        s.iouSum = a.iouSum + b.iouSum
        s.ghosts = a.ghosts + b.ghosts
        s.read = a.read + b.read
        s.reused = a.reused + b.reused
        s.blurred = a.blurred + b.blurred
        s.linesRead = a.linesRead + b.linesRead
        s.blurredRight = a.blurredRight + b.blurredRight
        s.blurredWrong = a.blurredWrong + b.blurredWrong
        s.blurFrames = a.blurFrames + b.blurFrames
        s.overBudget = a.overBudget + b.overBudget
        s.results = a.results + b.results
        s.items = a.items + b.items
        return s
    }

    /// Scores `results` (any order; one per frame at most) against `scene`'s truth.
    public init(scene: SyntheticScene, cards: [PixelBuffer], results: [FrameResult]) {
        self.scene = scene.name
        frames = scene.frameCount
        let byFrame = Dictionary(results.map { (Int($0.frameID), $0) }, uniquingKeysWith: { a, _ in a })
        for r in results {
            self.results += 1
            switch r.gate {
            case .read?: read += 1
            case .reused?: reused += 1
            case .blurred?: blurred += 1
            case nil: break
            }
            linesRead += r.linesRead
            let blurredFrame = scene.isBlurred(Int(r.frameID))
            if blurredFrame { blurFrames += 1 }
            if r.gate == .blurred { if blurredFrame { blurredRight += 1 } else { blurredWrong += 1 } }
            if r.status == .budgetExceeded { overBudget += 1 }
        }
        let firstDrawn = scene.items.map { item in item.frames.first { item.isDrawn(at: $0) } ?? Int.max }
        var matches: [[(frame: Int, id: UInt64, cer: Double, iou: Double, text: String)]] = Array(
            repeating: [], count: scene.items.count)
        items = scene.items.map { Item(truth: $0.card.text) }
        for i in 0..<scene.frameCount {
            guard let r = byFrame[i] else { continue }
            let tracks = r.tracks ?? Self.lineTracks(r)
            let truths = scene.truth(i, cards: cards)
            for t in truths where i >= firstDrawn[t.item] + Self.settleFrames {
                scored += 1
                items[t.item].scored += 1
                let best = tracks.map { ($0, Self.coverage($0.box.rect, t.box)) }.filter { $0.1 >= 0.5 }.max {
                    $0.1 < $1.1
                }
                guard let (track, _) = best else {
                    cerSum += 1
                    continue
                }
                let cer = min(1, TextMetrics.characterErrorRate(hypothesis: track.text, reference: t.text))
                matches[t.item].append((i, track.id, cer, Self.iou(track.box.rect, t.box), track.text))
            }
            let drawn = scene.drawn(i, cards: cards)
            for track in tracks where track.state == .confirmed {
                if !drawn.contains(where: { Self.coverage(track.box.rect, $0.box) >= 0.5 }) { ghosts += 1 }
            }
        }
        for (k, item) in matches.enumerated() where !item.isEmpty {
            found += item.count
            items[k].found = item.count
            items[k].exact = item.filter { $0.cer == 0 }.count
            var texts: [String: Int] = [:]
            for m in item { texts[m.text, default: 0] += 1 }
            items[k].readAs = texts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map {
                "\($0.key) ×\($0.value)"
            }
            var counts: [UInt64: Int] = [:]
            for m in item { counts[m.id, default: 0] += 1 }
            stableID += counts.values.max() ?? 0
            idSwitches += zip(item, item.dropFirst()).filter { $0.id != $1.id }.count
            for m in item {
                cerSum += m.cer
                iouSum += m.iou
                if m.cer == 0 { exact += 1 }
            }
        }
    }

    /// A result's recognized lines as tracks (id 0, confirmed), for results without tracks.
    static func lineTracks(_ r: FrameResult) -> [TextTrack] {
        (r.recognition?.lines ?? []).map { line in
            TextTrack(
                id: 0, text: line.text, confidence: line.confidence ?? 0, agreement: 1, readings: 1,
                state: .confirmed, box: line.box, firstSeen: r.timestamp, lastSeen: r.timestamp,
                firstFrameID: r.frameID,
                lastFrameID: r.frameID)
        }
    }

    /// The share of the smaller box that the two boxes have in common (0…1).
    static func coverage(_ a: Rect, _ b: Rect) -> Double {
        let w = min(a.maxX, b.maxX) - max(a.x, b.x)
        let h = min(a.maxY, b.maxY) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        return w * h / max(min(a.width * a.height, b.width * b.height), 1e-9)
    }

    /// Intersection over union (0…1).
    static func iou(_ a: Rect, _ b: Rect) -> Double {
        let w = min(a.maxX, b.maxX) - max(a.x, b.x)
        let h = min(a.maxY, b.maxY) - max(a.y, b.y)
        guard w > 0, h > 0 else { return 0 }
        let i = w * h
        return i / (a.width * a.height + b.width * b.height - i)
    }
}

extension SyntheticScene {
    /// Plays the scene through `processor` (made with live reading for tracks to be scored) and
    /// scores what comes back. `realTime`: each frame is submitted at its timestamp (frames the
    /// processor cannot keep up with are dropped by its policy); otherwise as fast as the
    /// processor takes them (`submit` waits with ``FrameProcessor/DropPolicy/block``). Finishes
    /// the processor.
    /// - Throws: what rendering the cards or a frame throws.
    public func play(through processor: FrameProcessor, realTime: Bool = false) async throws -> (
        score: LiveScore, results: [FrameResult]
    ) {
        let cards = try renderCards()
        let collector = Task { () -> [FrameResult] in
            var all: [FrameResult] = []
            for await r in processor.results { all.append(r) }
            return all
        }
        // In real time the frames are made first, so that making them takes none of the time.
        let made = realTime ? try (0..<frameCount).map { i throws(FrameOCRError) in try frame(i, cards: cards) } : []
        let start = ContinuousClock.now
        for i in 0..<frameCount {
            let buffer = realTime ? made[i] : try frame(i, cards: cards)
            if realTime { try await Task.sleep(until: start + timestamp(i), clock: .continuous) }
            _ = await processor.submit(Frame(id: UInt64(i), timestamp: timestamp(i), buffer: buffer))
        }
        await processor.finish()
        let results = await collector.value
        return (LiveScore(scene: self, cards: cards, results: results), results)
    }
}
