import Foundation
import FrameOCR
import Synchronization

/// `--annotate FILE`: an ``AnnotatedVideoRecorder`` fed from both ends of the processor. The
/// first failure (a frame of another size, a full disk) ends the annotation, not the reading:
/// it is reported at the end, with exit status 1.
final class Annotating: Sendable {
    /// Frames that may wait for their results beyond the frames the processor holds (queue +
    /// workers): results on their way to the printer.
    static let slack = 8
    /// The most memory the waiting frames may take, in bytes (upright bgr8 copies).
    static let memoryLimit = 256 << 20

    /// How many frames wait for their results: one second of the source (a frame that waits
    /// holds back every frame after it, dropped ones included, and a file is read faster than
    /// real time), within ``memoryLimit``, and never fewer than the processor holds + ``slack``.
    static func capacity(frameRate: Double, width: Int, height: Int, inFlight: Int) -> Int {
        let second = Int(frameRate.rounded(.up))
        let affordable = memoryLimit / max(1, width * height * 3)
        return min(1024, max(inFlight + slack, min(second, affordable)))
    }

    let recorder: AnnotatedVideoRecorder
    /// The orientation that makes the frames upright, as the processor takes it.
    let orientation: Pipeline.OrientationSource
    private let failure = Mutex<FrameOCRError?>(nil)

    /// Opens FILE for the source's frames, made upright as `pipeline` says (`--orientation`).
    init(file: String, source: borrowing VideoSource, pipeline: Pipeline, inFlight: Int) throws(FrameOCRError) {
        orientation = pipeline.orientation
        let turned: Orientation
        if case .known(let o) = pipeline.orientation { turned = o } else { turned = .up }
        let (width, height) = turned.swapsDimensions ? (source.height, source.width) : (source.width, source.height)
        recorder = try AnnotatedVideoRecorder(
            path: file, frameRate: source.frameRate, width: width, height: height,
            capacity: Self.capacity(frameRate: source.frameRate, width: width, height: height, inFlight: inFlight))
    }

    func add(_ frame: Frame) {
        var frame = frame
        frame.orientation = orientation.resolved(for: frame.buffer)
        attempt { () throws(FrameOCRError) in try recorder.add(frame) }
    }

    func record(_ outcome: FrameProcessor.SubmitOutcome, for id: UInt64) {
        attempt { () throws(FrameOCRError) in try recorder.record(outcome, for: id) }
    }

    func deliver(_ result: FrameResult) {
        attempt { () throws(FrameOCRError) in try recorder.deliver(result) }
    }

    /// Runs `body` unless an earlier call failed; keeps its failure.
    private func attempt(_ body: () throws(FrameOCRError) -> Void) {
        guard failure.withLock({ $0 == nil }) else { return }
        do throws(FrameOCRError) { try body() } catch { failure.withLock { $0 = $0 ?? error } }
    }

    struct Outcome {
        var summary: AnnotatedVideoRecorder.Summary?
        var error: FrameOCRError?
        let path: String

        /// `annotated video: FILE (N frames, WxH at F fps; …)`, or the failure.
        var line: String {
            guard let s = summary, error == nil else {
                return "frameocr: --annotate \(path): \(error?.description ?? "not written")"
            }
            var line =
                "annotated video: \(s.path) (\(s.framesWritten) frames, \(s.width)x\(s.height) at "
                + String(format: "%g", s.frameRate) + " fps; \(s.framesWithOwnResult) with their own result"
            if s.framesWithEarlierResult > 0 { line += ", \(s.framesWithEarlierResult) with the tracks last known" }
            return line + ")"
        }

        /// For --stats-json.
        var report: VideoReport.Annotation {
            VideoReport.Annotation(
                path: path, framesWritten: summary?.framesWritten, framesWithOwnResult: summary?.framesWithOwnResult,
                framesWithEarlierResult: summary?.framesWithEarlierResult, framesEvicted: summary?.framesEvicted,
                lateResults: summary?.lateResults, error: error?.description)
        }
    }

    /// Writes what still waits and completes the file (after the processor and the printer are
    /// done).
    func finish() -> Outcome {
        var outcome = Outcome(summary: nil, error: failure.withLock { $0 }, path: recorder.path)
        do throws(FrameOCRError) {
            outcome.summary = try recorder.finish()
        } catch {
            outcome.error = outcome.error ?? error
        }
        return outcome
    }
}
