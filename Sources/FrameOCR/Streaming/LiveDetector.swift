import Foundation

/// The text detector on live frames (``LiveReading/detectEvery``): off the frames' critical path,
/// on a thread of its own fed through a one-slot mailbox.
///
/// A worker that reads a frame when a detection is due (``LiveReader/detectionDue(plans:)``)
/// offers it a copy of the frame's gray region (``offer(_:frameID:origin:)``) and goes on with
/// its frame at once; a frame offered while the detector is busy waits in the one slot, and a
/// later offer replaces it (counted: ``LiveDetectorStatistics/superseded``), so the detector always works on
/// the newest frame offered and never holds more than two frames. Its regions, in upright-frame
/// pixels and tagged with their frame, go to `deliver` (the tracking stage, which carries them to
/// the frame the tracker is at with the motions measured since, ``TextTracker/detected(_:frameID:)``).
/// Its runs, their time and the frames between them are counted (``statistics()``).
final class LiveDetector: RegionDetecting, @unchecked Sendable {  // state behind `condition`
    /// One run's regions: the detector's rotated rectangles in upright-frame pixels, the most
    /// probable first, found in the frame `frameID`.
    struct Detection: Sendable {
        var frameID: UInt64
        var regions: [DetectedText]
    }

    private struct Request {
        var image: PixelBuffer
        var frameID: UInt64
        var origin: Point
    }

    let detector: TextDetector
    let longSide: Int
    private let deliver: @Sendable (Detection) -> Void
    private let condition = NSCondition()
    private var pending: Request?
    private var stopped = false
    private var lastRunFrame: UInt64?
    private var stats = LiveDetectorStatistics()

    /// Starts the detector's thread. `longSide`: the detector's input's longer side (pixels,
    /// ``LiveReading/detectorLongSide``); `deliver` is called on that thread with each run's regions.
    init(_ detector: TextDetector, longSide: Int, deliver: @escaping @Sendable (Detection) -> Void) {
        self.detector = detector
        self.longSide = longSide
        self.deliver = deliver
        let thread = Thread { [self] in run() }
        thread.name = "FrameOCR live detector"
        thread.start()
    }

    /// Offers the gray region `image` of frame `frameID` (its top-left at `origin` in the upright
    /// frame); the detector takes a copy. Never waits for the detector. A frame still waiting is
    /// replaced (and counted as superseded).
    func offer(_ image: PixelBuffer, frameID: UInt64, origin: Point) throws(FrameOCRError) {
        let copy = try image.copy(pool: nil)
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        if pending != nil { stats.superseded += 1 }
        pending = Request(image: copy, frameID: frameID, origin: origin)
        condition.signal()
    }

    /// Ends the thread after the run in progress; a frame still waiting is not run (counted as
    /// superseded).
    func stop() {
        condition.lock()
        if pending != nil { stats.superseded += 1 }
        pending = nil
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// The counts so far.
    func statistics() -> LiveDetectorStatistics {
        condition.lock()
        defer { condition.unlock() }
        return stats
    }

    private func run() {
        while true {
            condition.lock()
            while pending == nil && !stopped { condition.wait() }
            guard !stopped, let request = pending else {
                condition.unlock()
                return
            }
            pending = nil
            condition.unlock()
            let clock = ContinuousClock()
            let started = clock.now
            var regions: [DetectedText] = []
            var failure: FrameOCRError?
            do {
                regions = try detector.detect(request.image, longSide: longSide).map { $0.moved(by: request.origin) }
            } catch {
                failure = error
            }
            let took = clock.now - started
            condition.lock()
            stats.runs += 1
            stats.runTime.record(took)
            stats.busy += took
            if let last = lastRunFrame, request.frameID > last { stats.framesBetweenRuns += request.frameID - last }
            lastRunFrame = request.frameID
            if let failure {
                stats.failed += 1
                stats.lastError = failure
            }
            condition.unlock()
            deliver(Detection(frameID: request.frameID, regions: regions))
        }
    }
}

/// The text detector's work over a live run (``LiveReading/detectEvery``): it runs on a thread
/// of its own, off the frames' critical path, on the newest frame offered.
public struct LiveDetectorStatistics: Sendable {
    /// Frames it ran on.
    public var runs = 0
    /// Frames offered to it and replaced by a newer one before it took them, or left waiting
    /// when the stream ended.
    public var superseded = 0
    /// Runs that failed (their frame's regions are none); ``lastError`` is the last one's.
    public var failed = 0
    public var lastError: FrameOCRError?
    /// Its time per run (wall time; OpenVINO's own threads run the network meanwhile).
    public var runTime = LatencyHistogram()
    /// The wall time of all its runs.
    public var busy: Duration = .zero
    /// Frames (by ``Frame/id``) from each run's frame to the next run's, summed over the runs
    /// after the first.
    public var framesBetweenRuns: UInt64 = 0

    public init() {}

    /// The mean frames from one run's frame to the next's; 0 before a second run.
    public var meanFramesBetweenRuns: Double {
        runs > 1 ? Double(framesBetweenRuns) / Double(runs - 1) : 0
    }

    /// The share of `elapsed` (a run's wall time, ``FrameProcessor/Statistics/elapsed``) the detector was
    /// running, 0…1 (0 for no time).
    public func busyShare(of elapsed: Duration) -> Double {
        elapsed > .zero ? min(1, busy.seconds / elapsed.seconds) : 0
    }
}
