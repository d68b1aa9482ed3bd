import Foundation
import Synchronization
import Testing

@testable import FrameOCR

/// An observation with no signature (no motion) whose lines are `boxes`, read as `texts`
/// (nil: found, not read).
private func seen(_ frame: UInt64, _ lines: [(Rect, String?)]) -> LiveObservation {
    LiveObservation(
        frameID: frame, timestamp: .milliseconds(Int64(frame) * 50), gate: .read, signature: nil, sharpness: nil,
        frameWidth: 1000, frameHeight: 600,
        lines: lines.map { box, text in
            LiveObservation.Line(
                box: box, reading: text.map { TextConsensus.Reading(text: $0, confidence: 0.9, frameID: frame) })
        })
}

/// A level detector region with its top-left at (x, y).
private func region(x: Double, y: Double, width: Double, height: Double, degrees: Double = 0) -> DetectedText {
    DetectedText(
        center: Point(x: x + width / 2, y: y + height / 2), width: width, height: height, angleDegrees: degrees,
        score: 0.9)
}

@Suite("Live reading: the text detector on live frames")
struct LiveDetectorTests {
    @Test(
        "FrameMotion: motions composed in order, and a region carried: its centre moved, its sides scaled, turned by the motion's angle; exact"
    )
    func motionArithmetic() {
        // Zoom 2 about the origin, then a shift of (10, −5): x' = 2x + 10, y' = 2y − 5.
        let zoom = FrameMotion(a: 2, b: 0, tx: 0, ty: 0)
        let shift = FrameMotion(a: 1, b: 0, tx: 10, ty: -5)
        #expect(zoom.then(shift) == FrameMotion(a: 2, b: 0, tx: 10, ty: -5))
        // The other order: x' = 2(x + 10) = 2x + 20.
        #expect(shift.then(zoom) == FrameMotion(a: 2, b: 0, tx: 20, ty: -10))
        #expect(FrameMotion.identity.then(shift) == shift && shift.then(.identity) == shift)
        // A quarter turn then another: a half turn.
        let quarter = FrameMotion(a: 0, b: 1, tx: 0, ty: 0)
        #expect(quarter.then(quarter) == FrameMotion(a: -1, b: 0, tx: 0, ty: 0))
        // A region under the zoom and shift: centre (50, 20) → (110, 35), sides doubled.
        let r = region(x: 40, y: 15, width: 20, height: 10, degrees: 5)
        let moved = zoom.then(shift).moved(r)
        #expect(moved.center == Point(x: 110, y: 35) && moved.width == 40 && moved.height == 20)
        #expect(moved.angleDegrees == 5 && moved.score == r.score)
        // Under the quarter turn its angle turns by 90°, its sides kept.
        let turned = quarter.moved(r)
        #expect(turned.angleDegrees == 95 && turned.width == 20 && turned.center == Point(x: -20, y: 50))
    }

    @Test("Rect.clipped: the part inside the bounds; an empty rectangle at the nearest edge when outside")
    func clipped() {
        let bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        #expect(
            Rect(x: -10, y: 10, width: 30, height: 10).clipped(to: bounds) == Rect(x: 0, y: 10, width: 20, height: 10))
        #expect(
            Rect(x: 90, y: 45, width: 30, height: 10).clipped(to: bounds) == Rect(x: 90, y: 45, width: 10, height: 5))
        #expect(Rect(x: 120, y: 10, width: 5, height: 5).clipped(to: bounds).width == 0)
    }

    @Test(
        "TextTracker.detected: a region over a track becomes its region; one elsewhere a track without text (planned, not reported) whose line, read, is seen as its quad; one mostly outside the frame, or touching a track it does not match, none; a frame not observed yet is refused and counted"
    )
    func trackerTakesRegions() throws {
        var tracker = TextTracker(LiveReading(), followsMotion: true)
        let line = Rect(x: 100, y: 100, width: 300, height: 30)
        _ = try tracker.update(seen(0, [(line, "EXIT")]))
        let early = tracker.detected([region(x: 0, y: 0, width: 50, height: 20)], frameID: 1)
        #expect(!early)
        #expect(tracker.detectionsTooOld == 1)
        let applied = tracker.detected(
            [
                region(x: 110, y: 102, width: 120, height: 26),  // a word of the line
                region(x: 600, y: 400, width: 200, height: 40),  // a sign the finder missed
                region(x: 960, y: 500, width: 100, height: 20),  // 60 % outside the frame
                region(x: 380, y: 90, width: 100, height: 80),  // touches the line, too tall to be it
            ], frameID: 0)
        #expect(applied)
        let plans = tracker.plans
        #expect(plans.count == 2, "\(plans)")
        // The line's track keeps its box and id; it now has the word's region.
        #expect(plans[0].box == line && plans[0].region?.center == Point(x: 170, y: 115) && plans[0].detectedAgo == 0)
        #expect(plans[1].box == Rect(x: 600, y: 400, width: 200, height: 40) && plans[1].readAgo == nil)
        #expect(plans[1].engine == nil && plans[1].detectedAgo == 0)
        // Only tracks with text are reported.
        #expect(tracker.snapshot(frameWidth: 1000, frameHeight: 600).map(\.text) == ["EXIT"])
        // The sign read by the CTC recognizer as a detector line: its track reports its quad,
        // detected, the engine; the line's track (read by Tesseract, found by the finder) its box.
        var o = seen(1, [(line, "EXIT")])
        o.lines.append(
            LiveObservation.Line(
                box: plans[1].box,
                reading: TextConsensus.Reading(text: "OPEN", confidence: 0.95, frameID: 1, engine: .ctc),
                detected: true))
        _ = try tracker.update(o)
        let tracks = tracker.snapshot(frameWidth: 1000, frameHeight: 600)
        #expect(tracks.map(\.text) == ["EXIT", "OPEN"])
        #expect(tracks.map(\.engine) == [.tesseract, .ctc] && tracks.map(\.detected) == [true, true])
        #expect(tracks[0].box.rect == line)
        #expect(tracks[1].box.quad == Quad(Rect(x: 600, y: 400, width: 200, height: 40)))
        #expect(tracker.plans.map(\.detectedAgo) == [1, 1])
    }

    @Test(
        "TextTracker.detected: a region found in an earlier frame is carried to the tracker's frame by the motions measured since (a page shifted 12 px right a frame, two frames)"
    )
    func regionsFollowMotion() throws {
        let page = try LiveReadingTests.page()
        var tracker = TextTracker(LiveReading(), followsMotion: true)
        for f in 0..<3 {
            let image = try LiveReadingTests.shifted(page, dx: 12 * f, dy: 0)
            let o = LiveObservation(
                frameID: UInt64(f), timestamp: .milliseconds(Int64(f) * 50), gate: .read,
                signature: try FrameSignature(image, width: 128, pool: nil), sharpness: nil, frameWidth: image.width,
                frameHeight: image.height, lines: [])
            _ = try tracker.update(o)
        }
        let motion = try #require(tracker.motion(since: 0))
        #expect(abs(motion.tx - 24) < 2 && abs(motion.ty) < 2 && abs(motion.scale - 1) < 0.01, "\(motion)")
        #expect(tracker.motion(since: 2) == .identity && tracker.motion(since: 3) == nil)
        let carriedOn = tracker.detected([region(x: 100, y: 100, width: 200, height: 30)], frameID: 0)
        #expect(carriedOn)
        let carried = try #require(tracker.plans.first?.region)
        #expect(abs(carried.center.x - 224) < 2 && abs(carried.center.y - 115) < 2, "\(carried)")
    }

    @Test(
        "Routing: a detector's region the finder missed, and a line of a detected track the CTC recognizer read last, are the CTC recognizer's; a line the finder found of a detected track not read yet or Tesseract's last, and any track the detector never found, Tesseract's"
    )
    func routing() {
        let line = LiveReader.Line(
            text: Rect(x: 0, y: 0, width: 100, height: 20), upright: PixelRect(x: 0, y: 0, width: 100, height: 20),
            box: PixelRect(x: 0, y: 0, width: 100, height: 20), textBox: PixelRect(x: 0, y: 0, width: 100, height: 20),
            cut: false, characterHeight: 20, characterAspect: nil)
        var detectedLine = line
        detectedLine.region = region(x: 0, y: 0, width: 100, height: 20)
        func plan(region: Bool, engine: RecognitionEngine?) -> TextTracker.Plan {
            TextTracker.Plan(
                id: 1, box: line.text, confirmed: false, readAgo: nil, profile: nil,
                region: region ? detectedLine.region : nil, detectedAgo: region ? 0 : nil, engine: engine)
        }
        #expect(LiveReader.sceneLine(detectedLine, plan: nil))
        #expect(!LiveReader.sceneLine(line, plan: nil))
        #expect(!LiveReader.sceneLine(line, plan: plan(region: true, engine: nil)))
        #expect(LiveReader.sceneLine(line, plan: plan(region: true, engine: .ctc)))
        #expect(!LiveReader.sceneLine(line, plan: plan(region: true, engine: .tesseract)))
        #expect(!LiveReader.sceneLine(line, plan: plan(region: false, engine: .ctc)))
    }

    @Test(
        "The running costs: a measurement counts at most twice the estimate, with weight 0.2; the CTC recognizer's input columns: 48 a unit of aspect, at least 48"
    )
    func costs() {
        #expect(LiveReader.follow(10, 20) == 12)
        #expect(LiveReader.follow(10, 1000) == 12)  // taken as 20
        #expect(LiveReader.follow(10, 5) == 9)
        #expect(LiveReader.inputColumns(width: 200, height: 20) == 480)
        #expect(LiveReader.inputColumns(width: 10, height: 40) == 48)
    }

    @Test(
        "LiveDetector: frames offered while it runs wait in one slot, a newer one replacing the one waiting (counted); every run's regions come in upright-frame pixels, tagged with their frame; the statistics add up",
        .tags(.tesseract))
    func mailbox() async throws {
        let scene = try LiveScene()
        // phototest's first line at (40, 60) of a 1280×400 frame, cut out from (0, 40): the
        // region's pixels are the frame's minus (0, 40).
        let frame = try scene.frame(placed: [(0, 40, 60)])
        let cut = try frame.cropped(to: PixelRect(x: 0, y: 40, width: 1280, height: 300))
        let detections = Mutex<[LiveDetector.Detection]>([])
        let detector = LiveDetector(try SceneTextTests.detector(), longSide: 640) { d in
            detections.withLock { $0.append(d) }
        }
        defer { detector.stop() }
        for id in 0..<6 { try detector.offer(cut, frameID: UInt64(id), origin: Point(x: 0, y: 40)) }
        let clock = ContinuousClock()
        let start = clock.now
        while detections.withLock({ $0.count }) + detector.statistics().superseded < 6, clock.now - start < .seconds(20)
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        let stats = detector.statistics()
        let found = detections.withLock { $0 }
        #expect(stats.runs == found.count && stats.runs + stats.superseded == 6 && stats.superseded >= 1, "\(stats)")
        #expect(stats.failed == 0 && stats.runTime.count == UInt64(stats.runs) && stats.busy > .zero)
        #expect(found.last?.frameID == 5 && found.map(\.frameID) == found.map(\.frameID).sorted())
        // The line (1120×76 px at (40, 60) of the frame) is found where it is in the frame.
        for d in found {
            let hit = d.regions.contains { r in
                let b = r.boundingBox
                return b.x < 80 && b.maxX > 1000 && b.y < 100 && b.maxY > 100
            }
            #expect(hit, "\(d.regions.map(\.boundingBox))")
        }
    }
}
