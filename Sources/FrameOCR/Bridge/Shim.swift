internal import CFrameOCR

/// The one room that calls the C shim (`CFrameOCR`), in the way swift-system keeps every system
/// call in `Internals/Syscalls.swift`.
///
/// Every file of this folder extends ``Shim`` with thin, typed wrappers: Swift values in
/// (``PixelBuffer``, integers, options), Swift values out (the measurement mirrors of
/// `Automatic/Measurements/`, ``FrameOCRError`` for a failed status). They validate nothing that
/// the shim validates itself and decide nothing: the rooms around them (Preprocessing,
/// Automatic, Reading, Recognition, Live) hold the policy and never see a C type.
///
/// A C image descriptor (`focr_image`) borrows a buffer's memory; it is made only inside
/// ``withImage(_:_:)`` (and its two-buffer form), which keeps the buffer alive for the call, so
/// no call site has to remember `withExtendedLifetime`.
enum Shim {
    /// Calls `body` with a descriptor of `buffer`, valid for the call only.
    static func withImage<R>(_ buffer: PixelBuffer, _ body: (UnsafeMutablePointer<focr_image>) -> R) -> R {
        var d = buffer.descriptor
        return withExtendedLifetime(buffer.storage) { body(&d) }
    }

    /// Calls a shim operation with a source and a destination descriptor, keeping both buffers
    /// alive for the call, and throws its failure at `stage`.
    static func run(_ src: PixelBuffer, into dst: PixelBuffer, _ stage: FrameOCRError.Stage,
                    _ op: (UnsafePointer<focr_image>, UnsafeMutablePointer<focr_image>) -> focr_status) throws(FrameOCRError) {
        var s = src.descriptor
        var d = dst.descriptor
        let status = withExtendedLifetime((src.storage, dst.storage)) { op(&s, &d) }
        try check(status, stage)
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

extension PixelBuffer {
    /// ``Shim/run(_:into:_:_:)`` for the OpenCL context's calls (until they move into this room).
    func run(into dst: PixelBuffer, _ stage: FrameOCRError.Stage,
             _ op: (UnsafePointer<focr_image>, UnsafeMutablePointer<focr_image>) -> focr_status) throws(FrameOCRError) {
        try Shim.run(self, into: dst, stage, op)
    }
}
