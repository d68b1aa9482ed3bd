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
    public static func all() -> [OpenCLDevice] { Shim.openCLDevices() }
}
