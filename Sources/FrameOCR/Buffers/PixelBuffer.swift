/// Frame pixels in one of the ``PixelFormat``s, in memory FrameOCR may or may not own:
/// the Linux counterpart of `CVPixelBuffer`.
///
/// A buffer has `width`×`height` pixels in 1…3 planes; each plane has its own base address,
/// `bytesPerRow` (≥ the row's bytes; padding is never read as pixels and never written) and size
/// in samples (4:2:0 chroma planes are ⌈width/2⌉×⌈height/2⌉; odd sizes are valid).
///
/// - Zero-copy: ``init(wrapping:width:height:pixelFormat:orientation:deallocator:)`` wraps memory
///   you own; the deallocator runs when the last copy of the buffer (and of every crop of it) is
///   gone.
/// - Copies of a `PixelBuffer` value share the pixels (like a `CVPixelBuffer` reference); so do
///   ``cropped(to:)`` views.
/// - Sendable: a buffer may be handed to another task or thread. Like `CVPixelBuffer`, FrameOCR
///   does not lock pixels: don't write a buffer's pixels while another thread reads them.
///   FrameOCR itself only writes buffers it allocated for an operation's result.
public struct PixelBuffer: @unchecked Sendable {
    /// The pixel format (required: FrameOCR never guesses channel order).
    public let pixelFormat: PixelFormat
    /// Width in pixels (> 0).
    public let width: Int
    /// Height in pixels (> 0).
    public let height: Int
    /// How the stored pixels relate to the upright image (default `.up`).
    public var orientation: Orientation

    var storage: PixelStorage
    var planes: PlaneSet

    /// Number of planes: 1 for packed formats, 2 for NV12, 3 for I420.
    public var planeCount: Int { planes.count }

    /// `bytesPerRow` of `plane` (0-based).
    public func bytesPerRow(ofPlane plane: Int) -> Int { planes[plane].bytesPerRow }
    /// Width of `plane` in samples (⌈width/2⌉ for 4:2:0 chroma).
    public func width(ofPlane plane: Int) -> Int { planes[plane].width }
    /// Height of `plane` in rows (⌈height/2⌉ for 4:2:0 chroma).
    public func height(ofPlane plane: Int) -> Int { planes[plane].height }

    /// The size in pixels of the upright image (width and height swap for orientations 5…8).
    public var uprightWidth: Int { orientation.swapsDimensions ? height : width }
    /// See ``uprightWidth``.
    public var uprightHeight: Int { orientation.swapsDimensions ? width : height }

    // MARK: Wrapping memory (zero-copy)

    /// Describes one plane of memory to wrap.
    public struct PlaneDescriptor: @unchecked Sendable {
        /// The first byte of the plane's first row.
        public var baseAddress: UnsafeMutableRawPointer
        /// Bytes from one row to the next (≥ samples per row × bytes per sample).
        public var bytesPerRow: Int
        /// Bytes addressable from `baseAddress`, when known: checked to hold every row (the
        /// last row may be short: only its pixels must fit, as Android's YUV_420_888 planes).
        public var byteCount: Int?
        public init(baseAddress: UnsafeMutableRawPointer, bytesPerRow: Int, byteCount: Int? = nil) {
            self.baseAddress = baseAddress
            self.bytesPerRow = bytesPerRow
            self.byteCount = byteCount
        }
    }

    /// Wraps memory you own, without copying.
    ///
    /// - Parameters:
    ///   - planes: one descriptor per plane, in the format's order (Y, CbCr for NV12; Y, Cb, Cr
    ///     for I420).
    ///   - width: pixels, > 0.
    ///   - height: pixels, > 0.
    ///   - pixelFormat: the planes' format (required: FrameOCR never guesses a channel order).
    ///   - orientation: how the stored pixels relate to the upright image (EXIF); default `.up`.
    ///   - deallocator: called once with plane 0's base address when no buffer refers to the
    ///     memory any more (`{ $0.deallocate() }` for memory from `allocate`).
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` for a non-positive size, a plane count that
    ///   does not match the format, a `bytesPerRow` smaller than the row, or a plane that does not
    ///   fit its `byteCount`; ``FrameOCRError/Code/imageTooLarge`` for a side over
    ///   ``ImageLimits/maximumSide``; ``FrameOCRError/Code/unsupportedFormat`` for an
    ///   unknown format.
    public init(
        wrapping planes: [PlaneDescriptor], width: Int, height: Int, pixelFormat: PixelFormat,
        orientation: Orientation = .up, deallocator: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil
    ) throws(FrameOCRError) {
        guard pixelFormat.planeCount > 0 else {
            throw FrameOCRError(
                .unsupportedFormat, "pixel format \(pixelFormat.fourCC) is not supported", stage: .buffer)
        }
        try Self.checkSize(width: width, height: height)
        guard planes.count == pixelFormat.planeCount else {
            throw FrameOCRError(
                .invalidBuffer, "\(pixelFormat) needs \(pixelFormat.planeCount) planes, got \(planes.count)",
                stage: .buffer)
        }
        var set = PlaneSet()
        for (i, d) in planes.enumerated() {
            let (w, h) = pixelFormat.planeSize(i, width: width, height: height)
            let rowBytes = w * pixelFormat.bytesPerSample(plane: i)
            guard d.bytesPerRow >= rowBytes else {
                throw FrameOCRError(
                    .invalidBuffer,
                    "plane \(i): bytesPerRow \(d.bytesPerRow) is smaller than the row's \(rowBytes) bytes",
                    stage: .buffer)
            }
            if let count = d.byteCount {
                let (need, overflow) = d.bytesPerRow.multipliedReportingOverflow(by: h - 1)
                guard !overflow, need + rowBytes <= count else {
                    throw FrameOCRError(
                        .invalidBuffer,
                        "plane \(i): \(h) rows of \(rowBytes) bytes at bytesPerRow \(d.bytesPerRow) need \(overflow ? Int.max : need + rowBytes) bytes, the plane has \(count)",
                        stage: .buffer)
                }
            }
            set.append(Plane(baseAddress: d.baseAddress, bytesPerRow: d.bytesPerRow, width: w, height: h))
        }
        let base = UInt(bitPattern: planes[0].baseAddress)  // an integer, so the closure is Sendable
        var release: (@Sendable () -> Void)?
        if let deallocator {
            release = { @Sendable in deallocator(UnsafeMutableRawPointer(bitPattern: base)!) }
        }
        self.init(
            pixelFormat: pixelFormat, width: width, height: height, orientation: orientation,
            storage: PixelStorage(owned: nil, deallocator: release), planes: set)
    }

    /// Wraps one plane of packed pixels (`gray8`, `bgra8`, `rgba8`, `bgr8`, `rgb8`) without copying.
    /// - Throws: as ``init(wrapping:width:height:pixelFormat:orientation:deallocator:)``.
    public init(
        wrapping baseAddress: UnsafeMutableRawPointer, byteCount: Int? = nil, width: Int, height: Int,
        bytesPerRow: Int, pixelFormat: PixelFormat, orientation: Orientation = .up,
        deallocator: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil
    ) throws(FrameOCRError) {
        try self.init(
            wrapping: [PlaneDescriptor(baseAddress: baseAddress, bytesPerRow: bytesPerRow, byteCount: byteCount)],
            width: width, height: height, pixelFormat: pixelFormat, orientation: orientation, deallocator: deallocator)
    }

    /// Wraps one contiguous block holding every plane tightly packed, one after another (rows
    /// without padding), as raw NV12/I420 files, FFmpeg's `yuv420p`/`nv12` and many capture APIs
    /// deliver them. No copy.
    ///
    /// The block must be exactly `Σ planeWidth × bytesPerSample × planeHeight` bytes (for
    /// 4:2:0: `w·h + 2·⌈w/2⌉·⌈h/2⌉`); any other length is refused rather than decoded as garbage.
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` for a wrong length or size,
    ///   ``FrameOCRError/Code/unsupportedFormat`` for an unknown format.
    public init(
        wrappingContiguous bytes: UnsafeMutableRawBufferPointer, width: Int, height: Int, pixelFormat: PixelFormat,
        orientation: Orientation = .up, deallocator: (@Sendable (UnsafeMutableRawPointer) -> Void)? = nil
    ) throws(FrameOCRError) {
        guard pixelFormat.planeCount > 0 else {
            throw FrameOCRError(
                .unsupportedFormat, "pixel format \(pixelFormat.fourCC) is not supported", stage: .buffer)
        }
        try Self.checkSize(width: width, height: height)
        guard let base = bytes.baseAddress else {
            throw FrameOCRError(.invalidBuffer, "no memory to wrap (a nil base address)", stage: .buffer)
        }
        var descriptors: [PlaneDescriptor] = []
        var offset = 0
        for i in 0..<pixelFormat.planeCount {
            let (w, h) = pixelFormat.planeSize(i, width: width, height: height)
            let rowBytes = w * pixelFormat.bytesPerSample(plane: i)
            descriptors.append(
                PlaneDescriptor(
                    baseAddress: base + min(offset, bytes.count), bytesPerRow: rowBytes,
                    byteCount: max(0, bytes.count - offset)))
            offset += rowBytes * h
        }
        guard bytes.count == offset else {
            throw FrameOCRError(
                .invalidBuffer,
                "\(pixelFormat) \(width)x\(height) packed needs exactly \(offset) bytes, got \(bytes.count)",
                stage: .buffer)
        }
        try self.init(
            wrapping: descriptors, width: width, height: height, pixelFormat: pixelFormat,
            orientation: orientation, deallocator: deallocator)
    }

    // MARK: Allocating

    /// Alignment of allocated rows and planes, in bytes (a cache line; enough for SIMD loads and
    /// OpenCL `CL_MEM_USE_HOST_PTR`).
    public static let rowAlignment = 64

    /// Allocates a buffer of `width`×`height` pixels (contents uninitialised); every plane starts
    /// on a ``rowAlignment``-byte boundary and every `bytesPerRow` is a multiple of
    /// ``rowAlignment``.
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` for a non-positive size,
    ///   ``FrameOCRError/Code/imageTooLarge`` for a side over ``ImageLimits/maximumSide``,
    ///   ``FrameOCRError/Code/unsupportedFormat`` for an unknown format.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, orientation: Orientation = .up) throws(FrameOCRError)
    {
        guard pixelFormat.planeCount > 0 else {
            throw FrameOCRError(
                .unsupportedFormat, "pixel format \(pixelFormat.fourCC) is not supported", stage: .buffer)
        }
        try Self.checkSize(width: width, height: height)
        let a = Self.rowAlignment
        var layout: [(offset: Int, bytesPerRow: Int, w: Int, h: Int)] = []
        var total = 0
        for i in 0..<pixelFormat.planeCount {
            let (w, h) = pixelFormat.planeSize(i, width: width, height: height)
            let bpr = (w * pixelFormat.bytesPerSample(plane: i) + a - 1) / a * a
            layout.append((total, bpr, w, h))
            total += bpr * h
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: a)
        var set = PlaneSet()
        for l in layout {
            set.append(Plane(baseAddress: memory + l.offset, bytesPerRow: l.bytesPerRow, width: l.w, height: l.h))
        }
        self.init(
            pixelFormat: pixelFormat, width: width, height: height, orientation: orientation,
            storage: PixelStorage(owned: memory, byteCount: total, deallocator: nil), planes: set)
    }

    /// A positive size no wider or taller than ``ImageLimits/maximumSide``, checked before any
    /// row arithmetic (so that no product of a claimed size can overflow).
    /// - Throws: ``FrameOCRError/Code/invalidBuffer`` (not positive),
    ///   ``FrameOCRError/Code/imageTooLarge`` (over the side), stage `.buffer`.
    static func checkSize(width: Int, height: Int) throws(FrameOCRError) {
        guard width > 0, height > 0 else {
            throw FrameOCRError(.invalidBuffer, "size \(width)x\(height) must be positive", stage: .buffer)
        }
        let side = ImageLimits.maximumSide
        guard width <= side, height <= side else {
            throw FrameOCRError(
                .imageTooLarge, "size \(width)x\(height) is wider or taller than FrameOCR's \(side) pixels",
                stage: .buffer)
        }
    }

    init(
        pixelFormat: PixelFormat, width: Int, height: Int, orientation: Orientation, storage: PixelStorage,
        planes: PlaneSet
    ) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.orientation = orientation
        self.storage = storage
        self.planes = planes
    }

    // MARK: Access

    /// A plane as seen inside ``withUnsafePlanes(_:)``.
    public struct PlaneView {
        /// The first byte of the first row; valid only inside the closure.
        public let baseAddress: UnsafeMutableRawPointer
        public let bytesPerRow: Int
        /// Samples per row and rows (see ``PixelBuffer/width(ofPlane:)``).
        public let width: Int
        public let height: Int
        /// Bytes per sample (4 for BGRA, 2 for an NV12 CbCr pair).
        public let bytesPerSample: Int
        /// The pixel bytes of row `y` (no padding).
        public func row(_ y: Int) -> UnsafeMutableRawBufferPointer {
            precondition(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
            return UnsafeMutableRawBufferPointer(start: baseAddress + y * bytesPerRow, count: width * bytesPerSample)
        }
    }

    /// Calls `body` with every plane's address, `bytesPerRow` and size. The pointers must not
    /// escape the closure (the memory may be freed once the last buffer is gone).
    public func withUnsafePlanes<R, E: Error>(_ body: ([PlaneView]) throws(E) -> R) throws(E) -> R {
        let views = (0..<planes.count).map { i in
            PlaneView(
                baseAddress: planes[i].baseAddress, bytesPerRow: planes[i].bytesPerRow, width: planes[i].width,
                height: planes[i].height, bytesPerSample: pixelFormat.bytesPerSample(plane: i))
        }
        return try withExtendedLifetime(storage) { () throws(E) -> R in try body(views) }
    }

    /// The pixel bytes of `plane`, row after row without padding (a copy, for tests and tools).
    public func packedBytes(plane: Int = 0) -> [UInt8] {
        withUnsafePlanes { views in
            let v = views[plane]
            var out: [UInt8] = []
            out.reserveCapacity(v.width * v.bytesPerSample * v.height)
            for y in 0..<v.height { out.append(contentsOf: v.row(y)) }
            return out
        }
    }

    /// Allocates a buffer and copies `bytes` (rows without padding, planes one after another)
    /// into it. - Throws: ``FrameOCRError/Code/invalidBuffer`` when the count does not match.
    public init(
        packed bytes: [UInt8], width: Int, height: Int, pixelFormat: PixelFormat,
        orientation: Orientation = .up
    ) throws(FrameOCRError) {
        try self.init(width: width, height: height, pixelFormat: pixelFormat, orientation: orientation)
        let expected = (0..<planeCount).reduce(0) {
            $0 + self.width(ofPlane: $1) * pixelFormat.bytesPerSample(plane: $1) * self.height(ofPlane: $1)
        }
        guard bytes.count == expected else {
            throw FrameOCRError(
                .invalidBuffer, "\(bytes.count) bytes given, \(pixelFormat) \(width)x\(height) has \(expected)",
                stage: .buffer)
        }
        withUnsafePlanes { views in
            var offset = 0
            for v in views {
                for y in 0..<v.height {
                    let row = v.row(y)
                    bytes.withUnsafeBytes { src in
                        row.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[offset..<offset + row.count]))
                    }
                    offset += row.count
                }
            }
        }
    }

    // MARK: Cropping (a view, no copy)

    /// A view of `rect` (stored-pixel coordinates) that shares this buffer's memory.
    ///
    /// For 4:2:0 formats `rect.x` and `rect.y` must be even (a chroma sample covers 2×2 pixels).
    /// - Throws: ``FrameOCRError/Code/invalidROI`` when `rect` is empty or not inside the buffer,
    ///   or has an odd origin for a 4:2:0 format.
    public func cropped(to rect: PixelRect) throws(FrameOCRError) -> PixelBuffer {
        guard !rect.isEmpty, rect.x >= 0, rect.y >= 0, rect.maxX <= width, rect.maxY <= height else {
            throw FrameOCRError(
                .invalidROI, "crop \(rect) is empty or outside the \(width)x\(height) buffer", stage: .crop)
        }
        if pixelFormat.isYCbCr, rect.x % 2 != 0 || rect.y % 2 != 0 {
            throw FrameOCRError(.invalidROI, "crop \(rect) of a 4:2:0 buffer needs an even origin", stage: .crop)
        }
        var set = PlaneSet()
        for i in 0..<planes.count {
            let p = planes[i]
            let sub = i == 0 ? 1 : 2
            let (w, h) = pixelFormat.planeSize(i, width: rect.width, height: rect.height)
            let offset = (rect.y / sub) * p.bytesPerRow + (rect.x / sub) * pixelFormat.bytesPerSample(plane: i)
            set.append(Plane(baseAddress: p.baseAddress + offset, bytesPerRow: p.bytesPerRow, width: w, height: h))
        }
        return PixelBuffer(
            pixelFormat: pixelFormat, width: rect.width, height: rect.height, orientation: orientation,
            storage: storage, planes: set)
    }

    /// The Y plane of an NV12/I420 buffer as a `gray8` view (no copy); `self` for `gray8`.
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for other formats.
    public func lumaPlane() throws(FrameOCRError) -> PixelBuffer {
        if pixelFormat == .gray8 { return self }
        guard pixelFormat.isYCbCr else {
            throw FrameOCRError(.unsupportedFormat, "\(pixelFormat) has no luma plane", stage: .colorConversion)
        }
        var set = PlaneSet()
        set.append(planes[0])
        return PixelBuffer(
            pixelFormat: .gray8, width: width, height: height, orientation: orientation,
            storage: storage, planes: set)
    }

    /// Whether two buffers share the same memory (a crop or a copy of the other).
    public func sharesStorage(with other: PixelBuffer) -> Bool { storage === other.storage }
}
