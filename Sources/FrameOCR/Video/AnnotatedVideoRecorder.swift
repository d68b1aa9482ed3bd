import Synchronization

/// Writes a stream's frames to a video with what a ``FrameProcessor`` read drawn on them — each
/// track's box, id and consensus text, or each recognized line — in one pass, so it works for a
/// camera as well as for a file, and in bounded memory.
///
/// Feed it from both ends of the processor:
///
/// ```swift
/// let recorder = try AnnotatedVideoRecorder(path: "out.mp4", frameRate: 25, width: 1280, height: 720)
/// // producer
/// try recorder.add(frame)                                // before submitting it
/// try recorder.record(await processor.submit(frame), for: frame.id)
/// // consumer
/// for await result in processor.results { try recorder.deliver(result) }
/// // at the end, after processor.finish() and the consumer are done
/// let summary = try recorder.finish()
/// ```
///
/// The rules:
///
/// - **A copy of each frame waits for its result.** ``add(_:)`` keeps the frame's upright image
///   as `bgr8` (``PixelBuffer/convertedToBGR(upright:into:pool:)``: a copy, because a camera may
///   reuse its buffers), keyed by ``Frame/id``.
/// - **Frames are written in the order they were added**, at the file's constant frame rate, so
///   the video keeps every frame of the source. The oldest waiting frame is written as soon as
///   its fate is known: its result arrived (``deliver(_:)``; drawn with
///   ``Annotation/annotations(for:)-(FrameResult)``), or it will get none (``record(_:for:)``
///   with a dropped outcome, or a queued outcome that replaced it).
/// - **A frame without a result of its own** is drawn with the newest result, by timestamp, of
///   the frames before it: the tracks last known.
/// - **At most ``capacity`` frames wait.** Adding one more first writes the oldest as it is
///   (counted in ``Summary/framesEvicted``): results that lag further behind than `capacity`
///   frames (a slow consumer, results the processor discarded) cost timeliness of the drawing,
///   never memory. Memory held: at most `capacity` + 1 upright `bgr8` frames
///   (`capacity` × width × height × 3 bytes, plus one).
/// - **A result after its frame was written** (``Summary/lateResults``) still serves the frames
///   after it, if it is the newest.
///
/// Thread-safe (`Mutex`): the producer and the consumer call it from their own tasks or
/// threads; encoding happens in whichever call writes a frame. After a write fails (a full disk)
/// every later call throws that error; ``finish()`` still closes the file, then throws it.
public final class AnnotatedVideoRecorder: Sendable {
    /// What was written.
    public struct Summary: Sendable, Hashable {
        /// The file written.
        public var path: String
        /// Frames written: every frame added.
        public var framesWritten: Int
        /// Frames drawn with their own result.
        public var framesWithOwnResult: Int
        /// Frames drawn with an earlier frame's result (dropped frames, results discarded or
        /// late, evicted frames, and frames still waiting at ``finish()``).
        public var framesWithEarlierResult: Int
        /// Of those, frames written because ``capacity`` frames were waiting.
        public var framesEvicted: Int
        /// Results that arrived after their frame was written (or for a frame never added).
        public var lateResults: Int
        /// The upright size of the frames, in pixels, and the file's frames per second.
        public var width: Int
        public var height: Int
        public var frameRate: Double
    }

    /// The file written.
    public let path: String
    /// Most frames that wait for their results (1…1024).
    public let capacity: Int

    private enum Fate {
        case waiting
        case noResult
        case result([Annotation])
    }

    private struct Slot {
        var id: UInt64
        var timestamp: Duration
        var image: PixelBuffer
        var fate: Fate
    }

    private struct State: ~Copyable {
        var writer: VideoWriter
        var slots: [Slot] = []
        /// The newest result written or late, with its timestamp: what frames without their own
        /// result are drawn with.
        var latest: (timestamp: Duration, annotations: [Annotation])?
        var withOwn = 0
        var withEarlier = 0
        var evicted = 0
        var late = 0
        var failure: FrameOCRError?
        var finished = false
    }

    private let state: Mutex<State>
    private let pool: PixelBufferPool

    /// Creates (or replaces) the video file at `path` for frames whose upright size is `width` ×
    /// `height` pixels.
    /// - Parameters:
    ///   - path: the file; its extension picks the container and the codec (see ``VideoWriter``).
    ///   - frameRate: the file's frames per second: the source's (a camera's nominal rate).
    ///   - width: the frames' upright width in pixels, 1…65536.
    ///   - height: the frames' upright height in pixels, 1…65536.
    ///   - capacity: most frames held while they wait for their results (default 32; 1…1024).
    ///     Results usually come within the processor's queue + workers frames.
    ///   - fourCC: the codec (see ``VideoWriter``); nil: by the extension.
    /// - Throws: as ``VideoWriter/init(path:frameRate:width:height:fourCC:)``;
    ///   ``FrameOCRError/Code/invalidParameter`` for a `capacity` outside 1…1024 (stage
    ///   `.annotation`).
    public init(path: String, frameRate: Double, width: Int, height: Int, capacity: Int = 32, fourCC: String? = nil)
        throws(FrameOCRError)
    {
        guard (1...1024).contains(capacity) else {
            throw .invalidParameter("capacity", "\(capacity) must be in 1…1024", stage: .annotation)
        }
        let writer = try VideoWriter(path: path, frameRate: frameRate, width: width, height: height, fourCC: fourCC)
        self.path = path
        self.capacity = capacity
        state = Mutex(State(writer: writer))
        pool = PixelBufferPool(capacity: capacity + 1)
    }

    /// Frames waiting for their results now (≤ ``capacity``).
    public var pendingCount: Int { state.withLock { $0.slots.count } }

    /// Keeps a copy of `frame`'s upright image until its result arrives; call it before the frame
    /// is submitted (a result may come back at once). With ``capacity`` frames waiting, the
    /// oldest is written first.
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` for a frame whose upright size is not the
    ///   recorder's (stage `.write`); ``FrameOCRError/Code/invalidParameter`` for an id already
    ///   waiting, or after ``finish()`` (stage `.annotation`); a write's failure.
    public func add(_ frame: Frame) throws(FrameOCRError) {
        let (width, height) = state.withLock { ($0.writer.width, $0.writer.height) }
        guard frame.buffer.uprightWidth == width, frame.buffer.uprightHeight == height else {
            throw FrameOCRError(
                .invalidBuffer,
                "frame \(frame.id) is \(frame.buffer.uprightWidth)x\(frame.buffer.uprightHeight) upright, \(path) takes \(width)x\(height)",
                stage: .write)
        }
        // The copy is made outside the lock: the consumer's deliveries do not wait for it.
        let image = try frame.buffer.convertedToBGR(upright: true, pool: pool)
        try state.withLock { (s: inout State) throws(FrameOCRError) in
            try Self.usable(s)
            guard !s.slots.contains(where: { $0.id == frame.id }) else {
                throw .invalidParameter("frame.id", "frame \(frame.id) is already waiting", stage: .annotation)
            }
            while s.slots.count >= capacity { try Self.writeOldest(&s, evicting: true) }
            s.slots.append(Slot(id: frame.id, timestamp: frame.timestamp, image: image, fate: .waiting))
        }
    }

    /// Tells what the processor did with frame `frameID`: a dropped frame gets no result, and a
    /// queued one that replaced an older frame (`.queuedDroppingOldest`) means that older frame
    /// gets none. Frames whose fate is now known are written.
    /// - Throws: a write's failure; ``FrameOCRError/Code/invalidParameter`` after ``finish()``.
    public func record(_ outcome: FrameProcessor.SubmitOutcome, for frameID: UInt64) throws(FrameOCRError) {
        let gone: UInt64
        switch outcome {
        case .queued: return
        case .queuedDroppingOldest(let dropped): gone = dropped
        case .dropped: gone = frameID
        }
        try state.withLock { (s: inout State) throws(FrameOCRError) in
            try Self.usable(s)
            if let i = s.slots.firstIndex(where: { $0.id == gone }), case .waiting = s.slots[i].fate {
                s.slots[i].fate = .noResult
            }
            try Self.writeReady(&s)
        }
    }

    /// Hands over a frame's result: its frame is drawn with its annotations
    /// (``Annotation/annotations(for:)-(FrameResult)``) once every frame before it is written.
    /// - Throws: a write's failure; ``FrameOCRError/Code/invalidParameter`` after ``finish()``.
    public func deliver(_ result: FrameResult) throws(FrameOCRError) {
        let annotations = Annotation.annotations(for: result)
        try state.withLock { (s: inout State) throws(FrameOCRError) in
            try Self.usable(s)
            if let i = s.slots.firstIndex(where: { $0.id == result.frameID }) {
                s.slots[i].fate = .result(annotations)
            } else {
                s.late += 1
                if s.latest.map({ result.timestamp > $0.timestamp }) ?? true {
                    s.latest = (result.timestamp, annotations)
                }
            }
            try Self.writeReady(&s)
        }
    }

    /// Writes every frame still waiting (with the newest result before it), completes the file
    /// and says what was written. Call it after the processor has finished and every result was
    /// delivered.
    /// - Throws: the first write's failure, if there was one (the file is closed first);
    ///   ``FrameOCRError/Code/io`` when the file is not there after closing;
    ///   ``FrameOCRError/Code/invalidParameter`` when called twice.
    public func finish() throws(FrameOCRError) -> Summary {
        try state.withLock { (s: inout State) throws(FrameOCRError) -> Summary in
            guard !s.finished else {
                throw .invalidParameter("finish", "\(path): the recorder is finished", stage: .annotation)
            }
            s.finished = true
            if s.failure == nil {
                do throws(FrameOCRError) {
                    while !s.slots.isEmpty { try Self.writeOldest(&s, evicting: false) }
                } catch {
                    s.failure = error
                }
            }
            s.slots = []
            do throws(FrameOCRError) { try s.writer.finish() } catch { s.failure = s.failure ?? error }
            if let failure = s.failure { throw failure }
            return Summary(
                path: path, framesWritten: s.writer.framesWritten, framesWithOwnResult: s.withOwn,
                framesWithEarlierResult: s.withEarlier, framesEvicted: s.evicted, lateResults: s.late,
                width: s.writer.width, height: s.writer.height, frameRate: s.writer.frameRate)
        }
    }

    // MARK: Writing (under the lock)

    private static func usable(_ s: borrowing State) throws(FrameOCRError) {
        if let failure = s.failure { throw failure }
        if s.finished { throw .invalidParameter("recorder", "the recorder is finished", stage: .annotation) }
    }

    /// Writes the oldest frames whose fate is known.
    private static func writeReady(_ s: inout State) throws(FrameOCRError) {
        while let first = s.slots.first {
            if case .waiting = first.fate { return }
            try writeOldest(&s, evicting: false)
        }
    }

    /// Writes the oldest frame: with its own result, or with the newest one before it.
    private static func writeOldest(_ s: inout State, evicting: Bool) throws(FrameOCRError) {
        let slot = s.slots.removeFirst()
        let annotations: [Annotation]
        switch slot.fate {
        case .result(let own):
            annotations = own
            s.withOwn += 1
            if s.latest.map({ slot.timestamp >= $0.timestamp }) ?? true { s.latest = (slot.timestamp, own) }
        case .waiting, .noResult:
            annotations = s.latest?.annotations ?? []
            s.withEarlier += 1
            if case .waiting = slot.fate, evicting { s.evicted += 1 }
        }
        do throws(FrameOCRError) {
            try slot.image.drawAnnotations(annotations)
            try s.writer.write(slot.image)
        } catch {
            s.failure = error
            throw error
        }
    }
}
