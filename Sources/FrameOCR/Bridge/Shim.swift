package import CFrameOCR

/// The one room that calls the C shim (`CFrameOCR`), in the way swift-system keeps every system
/// call in `Internals/Syscalls.swift`.
///
/// Every file of this folder extends ``Shim`` with thin, typed wrappers: Swift values in
/// (``PixelBuffer``, integers, options), Swift values out (the measurement mirrors of
/// `Analysis/`, ``FrameOCRError`` for a failed status). They validate nothing that
/// the shim validates itself and decide nothing: the rooms around them (Preprocessing,
/// Automatic, Reading, Recognition, Tracking, Video …) hold the policy and never see a C type.
///
/// A C image descriptor (`focr_image`) borrows a buffer's memory; it is made only inside
/// ``PixelBuffer/withUnsafeImageDescriptor(_:)``, which keeps the buffer alive for the call, so no
/// call site has to remember `withExtendedLifetime`. Plane pointers cross as `void *` (the
/// swift-crypto shims' reason: no `bindMemory` or `assumingMemoryBound` in Swift).
///
/// Package access for the test-support target FrameOCRSynthesis, which adds its own calls
/// (`Shim+Synthetic.swift`, over CFrameOCRSynthesis) the same way.
package enum Shim {
    /// The Tesseract version the shim is linked with, e.g. `5.3.0` (`focr_tesseract_version`):
    /// here rather than in `Shim+Tesseract.swift` because results name it (hOCR's `ocr-system`).
    static var tesseractVersion: String { String(cString: focr_tesseract_version()) }

    /// Calls `body` with a descriptor of `buffer`, valid for the call only.
    package static func withImage<R>(_ buffer: PixelBuffer, _ body: (UnsafeMutablePointer<focr_image>) -> R) -> R {
        buffer.withUnsafeImageDescriptor(body)
    }

    /// Calls `body` with the descriptors of `buffers` side by side (an array of `focr_image`, in
    /// their order; nil for none), every buffer kept alive for the call: a batch call's input.
    package static func withImages<R>(
        _ buffers: ArraySlice<PixelBuffer>, _ collected: [focr_image] = [],
        _ body: (UnsafePointer<focr_image>?) -> R
    ) -> R {
        guard let first = buffers.first else { return collected.withUnsafeBufferPointer { body($0.baseAddress) } }
        return withImage(first) { d in withImages(buffers.dropFirst(), collected + [d.pointee], body) }
    }

    /// Calls a shim operation with a source and a destination descriptor, keeping both buffers
    /// alive for the call, and throws its failure at `stage`.
    package static func run(
        _ src: PixelBuffer, into dst: PixelBuffer, _ stage: FrameOCRError.Stage,
        _ op: (UnsafePointer<focr_image>, UnsafeMutablePointer<focr_image>) -> focr_status
    ) throws(FrameOCRError) {
        let status = src.withUnsafeImageDescriptor { s in dst.withUnsafeImageDescriptor { d in op(s, d) } }
        try check(status, stage)
    }
}

extension PixelBuffer {
    /// Calls `body` with the shim's borrowed descriptor of this buffer (`focr_image`: format,
    /// size, and per plane its address, `bytesPerRow` and size), valid inside the closure only;
    /// the buffer's memory is kept alive for the call. The way the benchmark's plain-OpenCV
    /// baselines and the tests' OpenCV oracles hand a buffer to C; FrameOCR's own calls go
    /// through ``Shim``.
    package func withUnsafeImageDescriptor<R, E: Error>(_ body: (UnsafeMutablePointer<focr_image>) throws(E) -> R)
        throws(E) -> R
    {
        var d = focr_image()
        d.format = pixelFormat.cValue
        d.width = Int32(width)
        d.height = Int32(height)
        d.plane_count = Int32(planes.count)
        func cPlane(_ i: Int) -> focr_plane {
            guard i < planes.count else { return focr_plane() }
            let p = planes[i]
            return focr_plane(
                data: p.baseAddress, bytes_per_row: p.bytesPerRow, width: Int32(p.width), height: Int32(p.height))
        }
        d.planes = (cPlane(0), cPlane(1), cPlane(2))
        return try withExtendedLifetime(storage) { () throws(E) -> R in try body(&d) }
    }
}

extension PixelFormat {
    /// The shim's `focr_format` value (NV12's two ranges share one: the Y plane is the gray image
    /// either way); -1 for formats the shim does not know.
    var cValue: Int32 {
        switch self {
        case .gray8: Int32(FOCR_FORMAT_GRAY8.rawValue)
        case .bgra8: Int32(FOCR_FORMAT_BGRA8.rawValue)
        case .rgba8: Int32(FOCR_FORMAT_RGBA8.rawValue)
        case .bgr8: Int32(FOCR_FORMAT_BGR8.rawValue)
        case .rgb8: Int32(FOCR_FORMAT_RGB8.rawValue)
        case .nv12, .nv12FullRange: Int32(FOCR_FORMAT_NV12.rawValue)
        case .i420: Int32(FOCR_FORMAT_I420.rawValue)
        default: -1
        }
    }
}
