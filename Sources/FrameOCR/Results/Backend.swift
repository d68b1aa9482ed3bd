/// Where preprocessing runs.
public enum Backend: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The CPU: FrameOCR's SIMD kernels (SSE2, or AVX2 when the processor has it) for the fused
    /// gray → orientation → mean threshold chain, orientation of `gray8` and the mean threshold;
    /// OpenCV for the rest (color conversion on its own, Gaussian threshold, scaling).
    case cpu
    /// FrameOCR's own OpenCL kernels (`Kernels/*.cl`). `device`: a device index or a
    /// case-insensitive part of its name; nil: `FRAMEOCR_OPENCL_DEVICE`, else the first GPU, else
    /// the first device (PoCL's CPU device included: you asked for OpenCL). Throws when no OpenCL
    /// device can run the kernels, and ``FrameOCRError/Code/openCL`` for a call that fails on a
    /// frame (out of resources, an enqueue or a map): that frame fails, and a ``FrameProcessor``
    /// goes on with the next one.
    case openCL(device: String? = nil)
    /// A GPU OpenCL device when there is one (or the device `FRAMEOCR_OPENCL_DEVICE` names), else
    /// the CPU path; the result records the backend that ran and why it fell back. When OpenCL
    /// fails in the middle of a stream (its kernels do not build, it runs out of resources, an
    /// enqueue or a map fails), that frame is redone on the CPU, and so is every later one in the
    /// process, with the reason in ``PreprocessedFrame/fallbackReason`` and
    /// ``OpenCLRuntime/automaticFallbackReason``.
    case automatic

    /// `cpu`, `opencl`, `opencl:NAME`, `auto`.
    public var description: String {
        switch self {
        case .cpu: "cpu"
        case .openCL(let d): d.map { "opencl:\($0)" } ?? "opencl"
        case .automatic: "auto"
        }
    }

    /// Parses `cpu`, `opencl`, `opencl:DEVICE`, `auto`/`automatic`.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "cpu": self = .cpu
        case "auto", "automatic": self = .automatic
        case "opencl", "gpu": self = .openCL()
        default:
            guard text.lowercased().hasPrefix("opencl:") else { return nil }
            self = .openCL(device: String(text.dropFirst(7)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let b = Backend(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown backend \(text)"))
        }
        self = b
    }
}
