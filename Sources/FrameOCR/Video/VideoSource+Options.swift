extension VideoSource {
    /// How a ``VideoSource`` opens and keeps reading its location.
    ///
    /// The timeouts are the watchdog of a live source (camera, stream, pipeline): the shim opens
    /// and reads it on a reader thread of its own and waits for it at most this long. For URLs,
    /// FFmpeg's own `CAP_PROP_OPEN_TIMEOUT_MSEC` and `CAP_PROP_READ_TIMEOUT_MSEC` are set a
    /// quarter of a second later, so that FFmpeg lets go of a stalled read soon after the
    /// watchdog gave up on it. Files and directories ignore the timeouts.
    public struct Options: Sendable, Equatable {
        /// Frames per second (> 0, finite) for a directory — timestamps are index / `frameRate`
        /// — and for a source whose backend reports no rate. Default 30.
        public var frameRate: Double
        /// How long opening a live source may take (connecting, and for FFmpeg probing the
        /// stream); nil: as long as the backend takes (FFmpeg: 30 s; GStreamer: for ever).
        /// Default 10 s. Over it, ``FrameOCRError/Code/streamStalled``.
        public var openTimeout: Duration?
        /// How long a live source may go without delivering a frame, counted from each
        /// ``VideoSource/next()``; nil: as long as the backend takes (FFmpeg: 30 s; V4L2: 10 s;
        /// GStreamer: for ever). Default 5 s. Over it, ``FrameOCRError/Code/streamStalled``, or a
        /// reconnect when ``reconnect`` is set.
        public var stallTimeout: Duration?
        /// What a live source does when it stalls or its stream ends: nil (the default) throws
        /// the stall and ends at the end; a policy reconnects (see ``ReconnectPolicy``).
        public var reconnect: ReconnectPolicy?
        /// The largest frame accepted (default ``ImageLimits/default``: 268,435,456 pixels, 65536
        /// on a side). A source whose container or backend claims larger frames fails to open
        /// with ``FrameOCRError/Code/imageTooLarge``, before any frame is decoded; a larger frame
        /// later in the stream (or a larger image in a directory) fails that ``VideoSource/next()``.
        public var limits: ImageLimits

        public init(
            frameRate: Double = 30, openTimeout: Duration? = .seconds(10), stallTimeout: Duration? = .seconds(5),
            reconnect: ReconnectPolicy? = nil, limits: ImageLimits = .default
        ) {
            self.frameRate = frameRate
            self.openTimeout = openTimeout
            self.stallTimeout = stallTimeout
            self.reconnect = reconnect
            self.limits = limits
        }

        /// Checks every field's range.
        /// - Throws: ``FrameOCRError/Code/invalidParameter`` naming the field (stage `.load`).
        public func validate() throws(FrameOCRError) {
            guard frameRate.isFinite, frameRate > 0 else {
                throw .invalidParameter("frameRate", "\(frameRate) must be a finite number > 0", stage: .load)
            }
            for (name, timeout) in [("openTimeout", openTimeout), ("stallTimeout", stallTimeout)] {
                if let timeout, timeout <= .zero || timeout > .seconds(Int32.max / 1000) {
                    throw .invalidParameter(
                        name, "\(timeout) must be > 0 and under 24 days (nil: no limit)", stage: .load)
                }
            }
            try reconnect?.validate()
            try limits.validate()
        }
    }
}
