internal import CFrameOCR

// The OpenCL backend's shim calls (`include/focr_opencl.h`, `opencl/opencl.cpp`): devices, one
// context per device, and FrameOCR's kernels (`Kernels/*.cl`) run on borrowed images.
extension Shim {
    /// Every OpenCL device of every platform (`focr_cl_device_count`, `focr_cl_device_get_info`).
    static func openCLDevices() -> [OpenCLDevice] {
        var count: Int32 = 0
        guard focr_cl_device_count(&count) == FOCR_OK else { return [] }
        return (0..<count).compactMap { i in
            var info = focr_cl_device_info()
            guard focr_cl_device_get_info(i, &info) == FOCR_OK else { return nil }
            func text<T>(_ tuple: T) -> String {
                withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            }
            return OpenCLDevice(
                index: Int(info.index), platform: text(info.platform), name: text(info.name), vendor: text(info.vendor),
                version: text(info.version), driver: text(info.driver), isGPU: info.is_gpu != 0,
                isCPU: info.is_cpu != 0,
                computeUnits: Int(info.compute_units), globalMemory: info.global_memory,
                maxAllocation: info.max_allocation,
                localMemory: info.local_memory, maxWorkGroupSize: info.max_work_group_size,
                hostUnifiedMemory: info.host_unified_memory != 0)
        }
    }

    /// A `focr_cl_context` (context, queue, built program on one device), destroyed in `deinit`.
    /// The shim serializes the operations of one context, so it may be shared between threads.
    final class OpenCLContextHandle: @unchecked Sendable {
        private let handle: OpaquePointer
        /// Whether the program came from the on-disk cache instead of a build.
        let programFromCache: Bool

        /// `focr_cl_context_create` with `-cl-std=CL1.2`.
        /// - Throws: ``FrameOCRError/Code/openCLDeviceUnsupported``, ``FrameOCRError/Code/openCL``
        ///   (stage `.backend`).
        init(
            device index: Int, source: String, cacheDirectory: String?,
            requirements: (localMemory: UInt64, workGroupSize: UInt64)?
        ) throws(FrameOCRError) {
            var out: OpaquePointer?
            var cached: Int32 = 0
            var req = focr_cl_default_requirements()
            if let requirements {
                req = focr_cl_requirements(
                    local_memory: requirements.localMemory, work_group_size: requirements.workGroupSize)
            }
            let status = source.withCString { src in
                (cacheDirectory ?? "").withCString { dir in
                    focr_cl_context_create(
                        Int32(index), src, "-cl-std=CL1.2", cacheDirectory == nil ? nil : dir, req, &out, &cached)
                }
            }
            try check(status, .backend)
            handle = out!
            programFromCache = cached != 0
        }

        deinit { focr_cl_context_destroy(handle) }

        /// `focr_cl_convert_to_gray` (`gray.cl`).
        func convertToGray(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
            try run(src, into: dst, .colorConversion) { s, d in focr_cl_convert_to_gray(handle, s, d) }
        }

        /// `focr_cl_orient` (`orient.cl`).
        func orient(_ src: PixelBuffer, _ orientation: Orientation, into dst: PixelBuffer) throws(FrameOCRError) {
            try run(src, into: dst, .rotation) { s, d in focr_cl_orient(handle, s, d, Int32(orientation.rawValue)) }
        }

        /// `focr_cl_adaptive_threshold` (`adaptive_threshold.cl`).
        func adaptiveThreshold(_ src: PixelBuffer, _ t: AdaptiveThreshold, into dst: PixelBuffer) throws(FrameOCRError)
        {
            let method = Int32(t.method == .mean ? FOCR_THRESHOLD_MEAN.rawValue : FOCR_THRESHOLD_GAUSSIAN.rawValue)
            try run(src, into: dst, .threshold) { s, d in
                focr_cl_adaptive_threshold(handle, s, d, method, t.inverted ? 1 : 0, Int32(t.blockSize), t.c)
            }
        }

        /// `focr_cl_area_downscale` (`resize.cl`).
        func areaDownscale(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
            try run(src, into: dst, .scale) { s, d in focr_cl_area_downscale(handle, s, d) }
        }

        /// `focr_cl_probe_mapping`: the address plane 0 of `buffer` maps to.
        func mappedAddress(of buffer: PixelBuffer) throws(FrameOCRError) -> UInt {
            var mapped: UnsafeRawPointer?
            let status = withImage(buffer) { focr_cl_probe_mapping(handle, $0, &mapped) }
            try check(status, .buffer)
            return UInt(bitPattern: mapped)
        }

        /// `focr_cl_preprocess`: the fused device chain.
        func preprocess(
            _ src: PixelBuffer, orientation: Orientation, threshold: AdaptiveThreshold?,
            into dst: PixelBuffer
        ) throws(FrameOCRError) {
            let method = Int32(
                threshold?.method == .gaussian ? FOCR_THRESHOLD_GAUSSIAN.rawValue : FOCR_THRESHOLD_MEAN.rawValue)
            try run(src, into: dst, threshold == nil ? .colorConversion : .threshold) { s, d in
                focr_cl_preprocess(
                    handle, s, Int32(orientation.rawValue), method, threshold?.inverted == true ? 1 : 0,
                    Int32(threshold?.blockSize ?? 0), threshold?.c ?? 0, d)
            }
        }
    }

    /// Which OpenCL calls ``injectOpenCLFault(_:skip:count:)`` makes fail (`focr_cl_fault`).
    enum OpenCLFault: Int32 {
        case none = 0
        case build, allocate, enqueue, map
    }

    /// `focr_cl_debug_inject_fault`: the `count` calls of `kind` after the first `skip` fail, in
    /// the whole process (tests of the fallbacks; a debug or test build's setting, see focr_opencl.h).
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` in a release build.
    static func injectOpenCLFault(_ kind: OpenCLFault, skip: Int = 0, count: Int = 1) throws(FrameOCRError) {
        try check(focr_cl_debug_inject_fault(kind.rawValue, Int32(skip), Int32(count)), .backend)
    }
}
