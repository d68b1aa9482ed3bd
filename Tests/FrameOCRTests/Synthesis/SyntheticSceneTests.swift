import Foundation
import FrameOCREvaluation
import FrameOCRSynthesis
import Testing

@testable import FrameOCR

/// The generated scenes (FrameOCRSynthesis's SyntheticScene) played through a live processor
/// with the real engine: what the tracker must do on text that moves, is covered, comes and
/// goes, and changes. Frames are submitted as fast as one worker takes them (`.block`, no
/// budget), so that the machine's load decides nothing; the bench plays them in real time.
@Suite("Live reading on generated scenes", .tags(.tesseract), .serialized)
struct SyntheticSceneTests {
    /// Plays `kind` with seed `seed` (tuning fonts) through a one-worker live processor.
    static func play(_ kind: SyntheticScene.Kind, seed: UInt64, settings: LiveReading = LiveReading()) async throws -> (
        SyntheticScene, LiveScore, [FrameResult]
    ) {
        let scene = SyntheticScene.make(kind, seed: seed, fonts: SyntheticScene.fonts(.tuning))
        var pipeline = Pipeline()
        pipeline.orientation = .fromFrame
        let processor = try FrameProcessor(
            configuration: .init(
                pipeline: pipeline, workerCount: 1, queueCapacity: 1, dropPolicy: .block, liveReading: settings))
        let (score, results) = try await scene.play(through: processor)
        #expect(results.count == scene.frameCount && processor.statistics().failed == 0)
        return (scene, score, results)
    }

    @Test("A scene is the same every time it is made, and its truth lies in the frame")
    func deterministic() throws {
        let a = SyntheticScene.make(.pan, seed: 2, fonts: SyntheticScene.fonts(.tuning))
        let b = SyntheticScene.make(.pan, seed: 2, fonts: SyntheticScene.fonts(.tuning))
        let cards = try a.renderCards()
        let fa = try a.frame(30, cards: cards).packedBytes()
        let fb = try b.frame(30, cards: try b.renderCards()).packedBytes()
        #expect(fa == fb)
        let other = SyntheticScene.make(.pan, seed: 4, fonts: SyntheticScene.fonts(.tuning))
        #expect(try other.frame(30, cards: other.renderCards()).packedBytes() != fa)
        for t in a.truth(30, cards: cards) {
            #expect(
                t.box.x >= 0 && t.box.y >= 0 && t.box.maxX <= Double(a.width) && t.box.maxY <= Double(a.height), "\(t)")
        }
        // The halves share no font.
        #expect(Set(SyntheticScene.fonts(.tuning)).isDisjoint(with: SyntheticScene.fonts(.heldOut)))
    }

    @Test(
        "The camera moves every card: a pose's similarity lands the truth where it says; the hand-held kinds as documented"
    )
    func camera() throws {
        // One card at the canvas's center; the camera zooms 1.1×, turns 90° and shifts (10, −5):
        // the card's center stays at the canvas's center + (10, −5); its text box turns on end.
        let card = SyntheticScene.Card(
            text: "ROOM 12", fontPath: SyntheticScene.fonts(.tuning)[0], height: 24, margin: 10)
        var scene = SyntheticScene(
            name: "camera", frameCount: 2,
            items: [.init(card: card, motion: .init(center: Point(x: 320, y: 180)), frames: 0..<2)],
            camera: [SyntheticScene.CameraPose(), .init(dx: 10, dy: -5, scale: 1.1, degrees: 90)])
        let cards = try scene.renderCards()
        let still = try #require(scene.truth(0, cards: cards).first)
        let moved = try #require(scene.truth(1, cards: cards).first)
        func center(_ q: Quad) -> Point {
            Point(x: q.points.map(\.x).reduce(0, +) / 4, y: q.points.map(\.y).reduce(0, +) / 4)
        }
        #expect(abs(center(still.quad).x - 320) < 1e-9 && abs(center(still.quad).y - 180) < 1e-9)
        #expect(abs(center(moved.quad).x - 330) < 1e-9 && abs(center(moved.quad).y - 175) < 1e-9)
        #expect(
            abs(moved.box.height - 1.1 * still.box.width) < 1e-6 && abs(moved.box.width - 1.1 * still.box.height) < 1e-6
        )
        scene.camera = []
        #expect(scene.truth(1, cards: cards).first?.quad == still.quad)  // no camera: still
        // The hand-held kinds: three lines; the camera on every frame; the burst's 10–15 blurred
        // frames in one run; the occluder's lines hidden one after another.
        let fonts = SyntheticScene.fonts(.tuning)
        for kind in [SyntheticScene.Kind.handheld, .burst, .occluder] {
            let s = SyntheticScene.make(kind, seed: 2, fonts: fonts)
            #expect(s.items.count == 3 && s.camera.count == s.frameCount, "\(kind)")
        }
        let handheld = SyntheticScene.make(.handheld, seed: 2, fonts: fonts)
        let scales = handheld.camera.map(\.scale)
        #expect(scales.max()! > 1.04 && scales.min()! < 0.96 && scales.allSatisfy { abs($0 - 1) <= 0.1 })
        #expect(handheld.camera.map { abs($0.degrees) }.max()! > 2.5)
        let burst = SyntheticScene.make(.burst, seed: 2, fonts: fonts)
        #expect(burst.blur.count == 1 && (10...15).contains(burst.blur[0].frames.count))
        let occluder = SyntheticScene.make(.occluder, seed: 2, fonts: fonts)
        let starts = occluder.items.map { $0.hidden.first!.lowerBound }
        #expect(starts == starts.sorted() && Set(starts).count == 3)
        // The JPEG kind: a hand-held camera, every frame through JPEG at quality 20…35: close to
        // the frame without it (a few gray levels on average) but never equal to it.
        var jpeg = SyntheticScene.make(.jpeg, seed: 2, fonts: fonts)
        #expect(jpeg.camera.count == jpeg.frameCount && (20...35).contains(jpeg.jpegQuality ?? 0))
        let jpegCards = try jpeg.renderCards()
        let compressed = try jpeg.frame(10, cards: jpegCards).packedBytes()
        jpeg.jpegQuality = nil
        let plain = try jpeg.frame(10, cards: jpegCards).packedBytes()
        let difference = zip(compressed, plain).map { abs(Double($0) - Double($1)) }.reduce(0, +) / Double(plain.count)
        #expect(difference > 0.5 && difference < 6, "\(difference)")
    }

    @Test("Panning lines: both tracked with their text from the first frames on, one id each")
    func pan() async throws {
        let (_, score, _) = try await Self.play(.pan, seed: 0)
        #expect(score.recall >= 0.95 && score.exactShare >= 0.9, "\(score.items.map { ($0.truth, $0.readAs) })")
        #expect(score.idSwitches == 0 && score.ghosts == 0)
    }

    @Test(
        "A hand-held label whose frames went through JPEG at quality 20–35: every line keeps one id and reads exactly")
    func jpegHandheld() async throws {
        let (_, score, _) = try await Self.play(.jpeg, seed: 0)
        #expect(score.recall >= 0.95 && score.idStability >= 0.95, "\(score.items.map { ($0.truth, $0.readAs) })")
        #expect(score.exactShare >= 0.9 && score.ghosts == 0, "\(score.items.map { ($0.truth, $0.readAs) })")
    }

    @Test("A line covered for a few frames is seen again under the same id")
    func hidden() async throws {
        let (scene, score, results) = try await Self.play(.hide, seed: 0)
        #expect(score.idSwitches == 0 && score.idStability == 1, "\(score.items.map { ($0.truth, $0.readAs) })")
        #expect(score.exactShare >= 0.9, "\(score.items.map { ($0.truth, $0.readAs) })")
        // No track is added while the line is covered or when it comes back: one per line.
        #expect(processorAdded(results) == scene.items.count)
    }

    @Test("Lines that appear, leave and cross the frame: each gets a track while in view, removed after it leaves")
    func appearLeave() async throws {
        let (_, score, results) = try await Self.play(.appearLeave, seed: 0)
        #expect(score.recall >= 0.85, "\(score.items.map { ($0.truth, $0.found, $0.scored, $0.readAs) })")
        #expect(score.idSwitches == 0 && score.ghosts <= 3)
        // At the end only what is in view has a track.
        #expect((results.last?.tracks ?? []).count <= 3)
    }

    @Test(
        "With changedAbove 0.4 (for displays), a number that changes on a label is read again at once: the track's text follows it under the same id"
    )
    func change() async throws {
        var settings = LiveReading()
        settings.changedAbove = 0.4
        let (_, score, _) = try await Self.play(.change, seed: 0, settings: settings)
        for item in score.items {
            #expect(Double(item.exact) >= 0.7 * Double(item.scored), "\(item.truth): \(item.readAs)")
        }
        #expect(score.idSwitches == 0)
        // Off (the default), the new number waits for the schedule and the old readings' vote.
        let (_, off, _) = try await Self.play(.change, seed: 0)
        #expect(score.exact > off.exact, "\(score.exact) on, \(off.exact) off")
    }

    /// Tracks added over a run: the distinct ids of every result's tracks.
    func processorAdded(_ results: [FrameResult]) -> Int { Set(results.flatMap { ($0.tracks ?? []).map(\.id) }).count }
}
