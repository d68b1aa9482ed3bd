internal import CFrameOCR
import FrameOCRKernels
import Foundation
import Synchronization

/// An OpenCL device as the ICD loader reports it.
public struct OpenCLDevice: Hashable, Sendable, Codable {
    /// Index over all platforms (what `FRAMEOCR_OPENCL_DEVICE=N` selects).
    public var index: Int
    public var platform: String
    public var name: String
    public var vendor: String
    public var version: String
    public var driver: String
    public var isGPU: Bool
    public var isCPU: Bool
    public var computeUnits: Int
    /// Bytes.
    public var globalMemory: UInt64
    public var maxAllocation: UInt64
    public var localMemory: UInt64
    public var maxWorkGroupSize: UInt64
    /// Whether the device shares host memory (then `CL_MEM_USE_HOST_PTR` buffers are zero-copy).
    public var hostUnifiedMemory: Bool

    /// Every OpenCL device of every platform (empty without an ICD or platform — not an error).
    public static func all() -> [OpenCLDevice] {
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
                version: text(info.version), driver: text(info.driver), isGPU: info.is_gpu != 0, isCPU: info.is_cpu != 0,
                computeUnits: Int(info.compute_units), globalMemory: info.global_memory, maxAllocation: info.max_allocation,
                localMemory: info.local_memory, maxWorkGroupSize: info.max_work_group_size,
                hostUnifiedMemory: info.host_unified_memory != 0)
        }
    }
}

/// A context, queue and built program on one device. Built once (a build costs about a second
/// on PoCL) and cached by ``OpenCLRuntime``; safe to share between threads (the shim serializes
/// the operations of one context, and maps results back before a call returns).
public final class OpenCLContext: @unchecked Sendable {
    public let device: OpenCLDevice
    /// Whether the program came from the on-disk cache (`FRAMEOCR_OPENCL_CACHE`) instead of a build.
    public let programFromCache: Bool
    private let handle: OpaquePointer

    /// Builds the program, or loads it from `cacheDirectory` (binaries keyed by device, driver,
    /// options and source hash).
    /// - Parameter requirements: local memory (bytes) and work-group size (items) the device must
    ///   offer; nil: what the kernels need (2 KiB, 64).
    /// - Throws: ``FrameOCRError/Code/openCLDeviceUnsupported`` when the device does not meet
    ///   them, ``FrameOCRError/Code/openCL`` when the program does not build.
    init(device: OpenCLDevice, source: String, cacheDirectory: String?,
         requirements: (localMemory: UInt64, workGroupSize: UInt64)? = nil) throws(FrameOCRError) {
        self.device = device
        var out: OpaquePointer?
        var cached: Int32 = 0
        var req = focr_cl_default_requirements()
        if let requirements { req = focr_cl_requirements(local_memory: requirements.localMemory, work_group_size: requirements.workGroupSize) }
        let status = source.withCString { src in
            (cacheDirectory ?? "").withCString { dir in
                focr_cl_context_create(Int32(device.index), src, "-cl-std=CL1.2", cacheDirectory == nil ? nil : dir, req, &out, &cached)
            }
        }
        try check(status, .backend)
        handle = out!
        programFromCache = cached != 0
    }

    deinit { focr_cl_context_destroy(handle) }

    /// Gray of a packed image (`gray.cl`); same size, `gray8`.
    public func convertToGray(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try src.requirePacked(.colorConversion)
        try src.run(into: dst, .colorConversion) { s, d in focr_cl_convert_to_gray(handle, s, d) }
    }

    /// Upright copy of a packed image (`orient.cl`).
    public func orient(_ src: PixelBuffer, _ orientation: Orientation, into dst: PixelBuffer) throws(FrameOCRError) {
        try src.requirePacked(.rotation)
        try src.run(into: dst, .rotation) { s, d in focr_cl_orient(handle, s, d, Int32(orientation.rawValue)) }
    }

    /// Adaptive threshold of a `gray8` image (`adaptive_threshold.cl`); blockSize ≤ 255.
    public func adaptiveThreshold(_ src: PixelBuffer, _ t: AdaptiveThreshold, into dst: PixelBuffer) throws(FrameOCRError) {
        try t.validate()
        let method = Int32(t.method == .mean ? FOCR_THRESHOLD_MEAN.rawValue : FOCR_THRESHOLD_GAUSSIAN.rawValue)
        try src.run(into: dst, .threshold) { s, d in
            focr_cl_adaptive_threshold(handle, s, d, method, t.inverted ? 1 : 0, Int32(t.blockSize), t.c)
        }
    }

    /// Downscale of a `gray8` image by an integer factor (`resize.cl`, INTER_AREA's exact case):
    /// `src` must be exactly k × `dst` in both axes (k ≥ 2).
    /// - Throws: ``FrameOCRError/Code/unsupportedFormat`` for other sizes.
    public func areaDownscale(_ src: PixelBuffer, into dst: PixelBuffer) throws(FrameOCRError) {
        try src.run(into: dst, .scale) { s, d in focr_cl_area_downscale(handle, s, d) }
    }

    /// The address the device maps `buffer`'s plane 0 to when it is wrapped as the kernels wrap
    /// it (`CL_MEM_USE_HOST_PTR`): the buffer's own address means zero-copy.
    public func mappedAddress(of buffer: PixelBuffer) throws(FrameOCRError) -> UInt {
        var d = buffer.descriptor
        var mapped: UnsafeRawPointer?
        let status = withExtendedLifetime(buffer.storage) { focr_cl_probe_mapping(handle, &d, &mapped) }
        try check(status, .buffer)
        return UInt(bitPattern: mapped)
    }

    /// The fused chain: raw region (packed, or gray) → gray → upright → threshold, one map back.
    public func preprocess(_ src: PixelBuffer, orientation: Orientation, threshold: AdaptiveThreshold?,
                           into dst: PixelBuffer) throws(FrameOCRError) {
        try threshold?.validate()
        let method = Int32(threshold?.method == .gaussian ? FOCR_THRESHOLD_GAUSSIAN.rawValue : FOCR_THRESHOLD_MEAN.rawValue)
        try src.run(into: dst, threshold == nil ? .colorConversion : .threshold) { s, d in
            focr_cl_preprocess(handle, s, Int32(orientation.rawValue), method, threshold?.inverted == true ? 1 : 0,
                               Int32(threshold?.blockSize ?? 0), threshold?.c ?? 0, d)
        }
    }
}

/// Finds devices and keeps one ``OpenCLContext`` per device for the whole process (built on first
/// use, never on the per-frame path; with `FRAMEOCR_OPENCL_CACHE=DIR` the built program is also
/// kept on disk, keyed by device, driver and kernel source hash, so later processes skip the
/// build). A device whose context failed is remembered, so a missing
/// or broken OpenCL costs one attempt, not one per frame.
public final class OpenCLRuntime: Sendable {
    public static let shared = OpenCLRuntime()

    private let contexts = Mutex<[Int: Result<OpenCLContext, FrameOCRError>]>([:])
    private let devices: [OpenCLDevice]

    init() { devices = OpenCLDevice.all() }

    /// The devices found at start-up.
    public var availableDevices: [OpenCLDevice] { devices }

    /// The context for `name` (a device index or part of its name); nil: `FRAMEOCR_OPENCL_DEVICE`,
    /// else the first GPU, else the first device.
    /// - Throws: ``FrameOCRError/Code/noOpenCLDevice`` when there is no such device (or none at
    ///   all), ``FrameOCRError/Code/openCLDeviceUnsupported`` when it lacks what the kernels need,
    ///   ``FrameOCRError/Code/openCL`` when its kernels do not build.
    public func context(named name: String?) throws(FrameOCRError) -> OpenCLContext {
        let wanted = name ?? ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_DEVICE"]
        guard let device = select(wanted) else {
            let list = devices.isEmpty ? "no OpenCL platform or device was found" : "devices: " + devices.map { "\($0.index): \($0.name)" }.joined(separator: ", ")
            throw FrameOCRError(.noOpenCLDevice, "no OpenCL device\(wanted.map { " matching '\($0)'" } ?? "") (\(list))", stage: .backend)
        }
        return try context(for: device)
    }

    /// `.automatic`: a GPU (or the device `FRAMEOCR_OPENCL_DEVICE` names), else the reason to stay
    /// on the CPU.
    func automaticContext() -> Result<OpenCLContext, FrameOCRError> {
        let named = ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_DEVICE"]
        guard let device = named != nil ? select(named) : devices.first(where: \.isGPU) else {
            return .failure(FrameOCRError(.noOpenCLDevice, devices.isEmpty ? "no OpenCL device" : "no OpenCL GPU device", stage: .backend))
        }
        do throws(FrameOCRError) { return .success(try context(for: device)) } catch { return .failure(error) }
    }

    private func select(_ wanted: String?) -> OpenCLDevice? {
        guard let wanted, !wanted.isEmpty else { return devices.first(where: \.isGPU) ?? devices.first }
        if let i = Int(wanted) { return devices.first { $0.index == i } }
        return devices.first { $0.name.lowercased().contains(wanted.lowercased()) || $0.platform.lowercased().contains(wanted.lowercased()) }
    }

    private func context(for device: OpenCLDevice) throws(FrameOCRError) -> OpenCLContext {
        let result: Result<OpenCLContext, FrameOCRError> = contexts.withLock { cache in
            if let cached = cache[device.index] { return cached }
            let made: Result<OpenCLContext, FrameOCRError>
            let folder = ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            do throws(FrameOCRError) {
                made = .success(try OpenCLContext(device: device, source: FrameOCRKernels.source, cacheDirectory: folder))
            } catch { made = .failure(error) }
            cache[device.index] = made
            return made
        }
        return try result.get()
    }
}
