/// glibc's malloc, set for reading a stream of frames: an opt-in for the whole process, which
/// `frameocr video` takes (``keepFrameMemory(trimThreshold:mmapThreshold:)``).
///
/// Each frame a ``FrameProcessor`` reads live allocates and frees a few megabytes (OpenCV's
/// images of the frame: its integral, labels, morphology). With glibc's defaults the worker
/// threads' arenas give that memory back to the system after every frame (`madvise`) and fault it
/// in again on the next, a page at a time: on a 1280×720 street scene read live with two workers
/// (2026-12-07, the 2-core machine), 26.7–27.1 frames/s with the defaults against 33.6 with the
/// thresholds below (30.9–33.9 with larger ones; `docs/live.md#the-search-within-the-budget`),
/// while the peak memory of 50 photos read by `recognize` rose by 15–18 MB, so the library leaves
/// the process's malloc alone unless asked.
/// The same can be set from outside:
/// `GLIBC_TUNABLES=glibc.malloc.trim_threshold=67108864:glibc.malloc.mmap_threshold=33554432`.
public enum FrameAllocator {
    /// Bytes of freed memory an arena keeps at its top (`M_TRIM_THRESHOLD`; glibc's default
    /// 128 KiB): 64 MiB.
    public static let trimThreshold = 64 << 20
    /// Blocks from this size on are mapped alone (`M_MMAP_THRESHOLD`; glibc adjusts it itself up
    /// to this ceiling until either is set): 32 MiB.
    public static let mmapThreshold = 32 << 20

    /// Sets glibc's trim and mmap thresholds (bytes, 1…2³¹−1) for the whole process
    /// (`mallopt`; `focr_malloc_thresholds`). Call it once, early, in a program that reads
    /// frames; it changes every allocation of the process.
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a threshold outside 1…2³¹−1;
    ///   ``FrameOCRError/Code/unsupportedFormat`` where the C library is not glibc (or `mallopt`
    ///   refuses).
    public static func keepFrameMemory(
        trimThreshold: Int = FrameAllocator.trimThreshold, mmapThreshold: Int = FrameAllocator.mmapThreshold
    ) throws(FrameOCRError) {
        for (name, value) in [("trimThreshold", trimThreshold), ("mmapThreshold", mmapThreshold)]
        where !(1...Int(Int32.max)).contains(value) {
            throw .invalidParameter(name, "\(value) not in 1…\(Int32.max)", stage: .recognition)
        }
        try Shim.mallocThresholds(trim: trimThreshold, mmap: mmapThreshold)
    }
}
