import Foundation

/// Puts the workers' results back in frame order for the tracker (``LiveReading``): a result
/// waits here until every frame taken from the queue before it has been delivered, then the
/// tracker sees its observation, the result gets the tracks, and it goes to the consumer. At
/// most one result per worker waits. The tracker's events go to ``events``.
final class TrackingStage: @unchecked Sendable {  // state behind `lock`
    private let lock = NSLock()
    private var tracker: TextTracker
    private var pending: [UInt64: (FrameResult, LiveObservation?)] = [:]
    private var next: UInt64 = 0
    private var frameSize = (width: 1, height: 1)
    private let continuation: AsyncStream<TrackEvent>.Continuation
    /// The tracker's events in frame order; at most ``FrameProcessor/maximumWaitingTrackEvents``
    /// wait for a slow consumer (the oldest are dropped beyond that, and counted).
    let events: AsyncStream<TrackEvent>
    private(set) var eventsDropped = 0
    /// A detection of a frame the tracker has not reached yet (the newest only).
    private var waiting: LiveDetector.Detection?
    private var finished = false

    /// `followsMotion`: a live detector's regions are carried to the tracker's frame
    /// (``TextTracker/init(_:followsMotion:)``).
    init(_ settings: LiveReading, followsMotion: Bool = false) {
        tracker = TextTracker(settings, followsMotion: followsMotion)
        (events, continuation) = AsyncStream.makeStream(
            of: TrackEvent.self, bufferingPolicy: .bufferingNewest(FrameProcessor.maximumWaitingTrackEvents))
    }

    /// The tracks as the tracker last saw them, for the scheduler.
    func plans() -> [TextTracker.Plan] {
        lock.lock()
        defer { lock.unlock() }
        return tracker.plans
    }

    /// Tracks that got text, and were removed, so far.
    func counts() -> (added: Int, removed: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (tracker.added, tracker.removed)
    }

    /// Hands over the result of the frame taken `sequence`-th from the queue (0, 1, 2…, each
    /// exactly once), with its observation (nil when it failed before it was measured).
    /// `deliver` is called for every result whose turn has come, in order, under the stage's
    /// lock.
    func hand(sequence: UInt64, _ result: FrameResult, _ observation: LiveObservation?, deliver: (FrameResult) -> Void)
    {
        lock.lock()
        defer { lock.unlock() }
        pending[sequence] = (result, observation)
        while let (r, o) = pending.removeValue(forKey: next) {
            next += 1
            var result = r
            if let o {
                frameSize = (o.frameWidth, o.frameHeight)
                do throws(FrameOCRError) {
                    emit(try tracker.update(o))
                } catch {
                    result.status = .failed
                    result.error = error
                }
            }
            if let w = waiting, let at = tracker.lastFrame?.id, w.frameID <= at {
                waiting = nil
                tracker.detected(w.regions, frameID: w.frameID)
            }
            result.tracks = tracker.snapshot(frameWidth: frameSize.width, frameHeight: frameSize.height)
            deliver(result)
        }
    }

    /// The detector's regions of a frame (``LiveDetector``): handed to the tracker now when it
    /// has reached that frame, else when it does (a newer detection replaces one waiting).
    func detected(_ detection: LiveDetector.Detection) {
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        if let at = tracker.lastFrame?.id, detection.frameID <= at {
            tracker.detected(detection.regions, frameID: detection.frameID)
        } else {
            waiting = detection
        }
    }

    /// The stream ended: every track with text is removed, and the events end.
    func finish() {
        lock.lock()
        finished = true
        emit(tracker.finish(frameWidth: frameSize.width, frameHeight: frameSize.height))
        lock.unlock()
        continuation.finish()
    }

    private func emit(_ events: [TrackEvent]) {
        for e in events {
            if case .dropped = continuation.yield(e) { eventsDropped += 1 }
        }
    }
}
