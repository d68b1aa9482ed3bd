import Synchronization

/// A bounded pool of allocated buffers, so a steady stream of frames allocates nothing.
///
/// ``buffer(width:height:pixelFormat:)`` hands out a buffer of the asked shape whose memory no
/// one else holds (checked with `isKnownUniquelyReferenced`), or allocates one. The pool keeps
/// at most `capacity` buffers; beyond that a request allocates a buffer the pool forgets
/// (counted in ``Statistics/unpooledAllocations``). Thread-safe (`Mutex`).
public final class PixelBufferPool: Sendable {
    /// Counters since the pool was created.
    public struct Statistics: Sendable, Equatable {
        /// Buffers held by the pool (free or in use).
        public var pooled: Int
        /// Requests served from a free pooled buffer.
        public var reuses: Int
        /// Buffers allocated and kept by the pool.
        public var allocations: Int
        /// Buffers allocated because the pool was full (not kept).
        public var unpooledAllocations: Int
    }

    private struct State {
        var buffers: [PixelBuffer] = []
        var stats = Statistics(pooled: 0, reuses: 0, allocations: 0, unpooledAllocations: 0)
    }

    /// Most buffers kept (default 16).
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 16) { self.capacity = max(1, capacity) }

    /// A buffer of `width`×`height` pixels in `pixelFormat` (contents undefined), free for the
    /// caller until it drops every copy of it.
    /// - Throws: as ``PixelBuffer/init(width:height:pixelFormat:orientation:)``.
    public func buffer(width: Int, height: Int, pixelFormat: PixelFormat) throws(FrameOCRError) -> PixelBuffer {
        let found: PixelBuffer? = state.withLock { s in
            for i in s.buffers.indices
            where s.buffers[i].width == width && s.buffers[i].height == height
                && s.buffers[i].pixelFormat == pixelFormat
            {
                if isKnownUniquelyReferenced(&s.buffers[i].storage) {
                    s.stats.reuses += 1
                    return s.buffers[i]
                }
            }
            return nil
        }
        if var found {
            found.orientation = .up
            return found
        }
        let fresh = try PixelBuffer(width: width, height: height, pixelFormat: pixelFormat)
        state.withLock { s in
            if s.buffers.count < capacity {
                s.buffers.append(fresh)
                s.stats.allocations += 1
                return
            }
            // Full: replace a free buffer of another shape if there is one, else don't keep it.
            if let i = s.buffers.indices.first(where: { isKnownUniquelyReferenced(&s.buffers[$0].storage) }) {
                s.buffers[i] = fresh
                s.stats.allocations += 1
            } else {
                s.stats.unpooledAllocations += 1
            }
        }
        return fresh
    }

    /// The counters so far.
    public func statistics() -> Statistics {
        state.withLock { s in
            var st = s.stats
            st.pooled = s.buffers.count
            return st
        }
    }
}
