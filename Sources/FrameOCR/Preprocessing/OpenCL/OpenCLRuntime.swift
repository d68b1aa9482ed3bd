import Foundation
import FrameOCRKernels
import Synchronization

/// Finds devices and keeps one ``OpenCLContext`` per device for the whole process (built on first
/// use, never on the per-frame path; with `FRAMEOCR_OPENCL_CACHE=DIR` the built program is also
/// kept on disk, keyed by device, driver and kernel source hash, so later processes skip the
/// build). A device whose context failed is remembered, so a missing
/// or broken OpenCL costs one attempt, not one per frame. Under ``Backend/automatic``, an OpenCL
/// failure in the middle of a stream (out of resources, an enqueue or a map that fails) sends
/// that frame and every later one to the CPU, with the reason kept (``automaticFallbackReason``).
public final class OpenCLRuntime: Sendable {
    public static let shared = OpenCLRuntime()

    private let contexts = Mutex<[Int: Result<OpenCLContext, FrameOCRError>]>([:])
    /// Set by the first OpenCL failure of an `.automatic` frame: from then on `.automatic` runs on
    /// the CPU.
    private let automaticFailure = Mutex<FrameOCRError?>(nil)
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
            let list =
                devices.isEmpty
                ? "no OpenCL platform or device was found"
                : "devices: " + devices.map { "\($0.index): \($0.name)" }.joined(separator: ", ")
            throw FrameOCRError(
                .noOpenCLDevice, "no OpenCL device\(wanted.map { " matching '\($0)'" } ?? "") (\(list))",
                stage: .backend)
        }
        return try context(for: device)
    }

    /// `.automatic`: a GPU (or the device `FRAMEOCR_OPENCL_DEVICE` names), else the reason to stay
    /// on the CPU.
    func automaticContext() -> Result<OpenCLContext, FrameOCRError> {
        if let failed = automaticFailure.withLock({ $0 }) { return .failure(failed) }
        // Read on every `.automatic` frame, with getenv: ProcessInfo's `environment` would copy
        // the whole environment into a dictionary each time.
        let named = getenv("FRAMEOCR_OPENCL_DEVICE").map { String(cString: $0) }
        guard let device = named != nil ? select(named) : devices.first(where: \.isGPU) else {
            return .failure(
                FrameOCRError(
                    .noOpenCLDevice, devices.isEmpty ? "no OpenCL device" : "no OpenCL GPU device", stage: .backend))
        }
        do throws(FrameOCRError) { return .success(try context(for: device)) } catch { return .failure(error) }
    }

    /// Why ``Backend/automatic`` runs on the CPU after an OpenCL failure in the middle of a
    /// stream (the failure's message, and that the CPU serves from then on); nil while it has not
    /// failed. A process without a usable GPU never gets this far: those frames say why in
    /// ``PreprocessedFrame/fallbackReason``.
    public var automaticFallbackReason: String? { automaticFailure.withLock { $0?.message } }

    /// Records that an `.automatic` frame failed on OpenCL: `error` stays the reason for every
    /// later `.automatic` frame. Returns that reason as a frame reports it.
    func automaticFailed(_ error: FrameOCRError) -> String {
        let reason = FrameOCRError(
            .openCL, "OpenCL failed (\(error.description)); the CPU serves .automatic from now on",
            stage: .backend)
        automaticFailure.withLock { if $0 == nil { $0 = reason } }
        return automaticFailure.withLock { $0!.message }
    }

    /// Forgets an `.automatic` failure (tests).
    func resetAutomaticFailure() { automaticFailure.withLock { $0 = nil } }

    /// Whether `error` is OpenCL's own (a failed call, which includes the device running out of
    /// resources or memory, or a device that lacks a feature): the kind `.automatic` falls back
    /// to the CPU on. Input errors (a bad region or threshold) and the host's own out-of-memory
    /// are not.
    static func isDeviceFailure(_ error: FrameOCRError) -> Bool {
        error.code == .openCL || error.code == .openCLDeviceUnsupported
    }

    private func select(_ wanted: String?) -> OpenCLDevice? {
        guard let wanted, !wanted.isEmpty else { return devices.first(where: \.isGPU) ?? devices.first }
        if let i = Int(wanted) { return devices.first { $0.index == i } }
        return devices.first {
            $0.name.lowercased().contains(wanted.lowercased()) || $0.platform.lowercased().contains(wanted.lowercased())
        }
    }

    private func context(for device: OpenCLDevice) throws(FrameOCRError) -> OpenCLContext {
        let result: Result<OpenCLContext, FrameOCRError> = contexts.withLock { cache in
            if let cached = cache[device.index] { return cached }
            let made: Result<OpenCLContext, FrameOCRError>
            let folder = ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            do throws(FrameOCRError) {
                made = .success(
                    try OpenCLContext(device: device, source: FrameOCRKernels.source, cacheDirectory: folder))
            } catch { made = .failure(error) }
            cache[device.index] = made
            return made
        }
        return try result.get()
    }
}
