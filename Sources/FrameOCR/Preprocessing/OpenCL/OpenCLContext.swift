/// A context, queue and built program on one device. Built once (a build costs about a second
/// on PoCL) and cached by ``OpenCLRuntime``; safe to share between threads (the shim serializes
/// the operations of one context, and maps results back before a call returns).
///
/// The per-op calls below are the backend's building blocks for ``Pipeline`` and the tests and
/// benchmark (`package`); applications run them through ``Pipeline`` with
/// ``Backend/openCL(device:)``.
public final class OpenCLContext: Sendable {
    /// The device the program was built for.
    public let device: OpenCLDevice
    /// Whether the program came from the on-disk cache (`FRAMEOCR_OPENCL_CACHE`) instead of a build.
    public let programFromCache: Bool
    private let handle: Shim.OpenCLContextHandle

    /// Builds the program, or loads it from `cacheDirectory` (binaries keyed by device, driver,
    /// options and source hash).
    /// - Parameter requirements: local memory (bytes) and work-group size (items) the device must
    ///   offer; nil: what the kernels need (2 KiB, 64).
    /// - Throws: ``FrameOCRError/Code/openCLDeviceUnsupported`` when the device does not meet
    ///   them, ``FrameOCRError/Code/openCL`` when the program does not build.
    init(
        device: OpenCLDevice, source: String, cacheDirectory: String?,
        requirements: (localMemory: UInt64, workGroupSize: UInt64)? = nil
    ) throws(FrameOCRError) {
        self.device = device
        handle = try Shim.OpenCLContextHandle(
            device: device.index, source: source, cacheDirectory: cacheDirectory,
            requirements: requirements)
        programFromCache = handle.programFromCache
    }

    /// Gray of a packed image (`gray.cl`); same size, `gray8`.
    package func convertToGray(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try src.requirePacked(.colorConversion)
        try handle.convertToGray(src, into: dst)
    }

    /// Upright copy of a packed image (`orient.cl`).
    package func orient(_ src: PixelBuffer, _ orientation: Orientation, into dst: PixelBuffer) throws(FrameOCRError) {
        try src.requirePacked(.rotation)
        try handle.orient(src, orientation, into: dst)
    }

    /// Adaptive threshold of a `gray8` image (`adaptive_threshold.cl`); blockSize ≤ 255.
    package func adaptiveThreshold(_ src: PixelBuffer, _ t: AdaptiveThreshold, into dst: PixelBuffer)
        throws(FrameOCRError)
    {
        try t.validate()
        try handle.adaptiveThreshold(src, t, into: dst)
    }

    /// Downscale of a `gray8` image by an integer factor (`resize.cl`, INTER_AREA's exact case):
    /// `src` must be exactly k × `dst` in both axes (k ≥ 2).
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for other sizes.
    package func areaDownscale(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try handle.areaDownscale(src, into: dst)
    }

    /// The address the device maps `buffer`'s plane 0 to when it is wrapped as the kernels wrap
    /// it (`CL_MEM_USE_HOST_PTR`): the buffer's own address means zero-copy (a probe for tests).
    package func mappedAddress(of buffer: PixelBuffer) throws(FrameOCRError) -> UInt {
        try handle.mappedAddress(of: buffer)
    }

    /// The fused chain: raw region (packed, or gray) → gray → upright → threshold, one map back.
    package func preprocess(
        _ src: PixelBuffer, orientation: Orientation, threshold: AdaptiveThreshold?,
        into dst: PixelBuffer
    ) throws(FrameOCRError) {
        try threshold?.validate()
        try handle.preprocess(src, orientation: orientation, threshold: threshold, into: dst)
    }
}
