import Foundation
import FrameOCR

/// `frameocr devices`: the OpenCL platforms and devices, their limits, and whether our kernels
/// build on each.
enum DevicesCommand {
    static let help = """
        Usage: frameocr devices [--json]

        Lists every OpenCL device (over all platforms) with its limits, builds FrameOCR's kernels
        on each and says whether they run there. Select a device with --backend opencl:N or
        FRAMEOCR_OPENCL_DEVICE=N (an index, or part of the name). PoCL's CPU device is listed but
        `--backend auto` only picks GPUs. Then the neural engines' runtime (OpenVINO): where it
        was loaded from, or why it was not, the CPU's capabilities and the devices it lists,
        which `--device` chooses from (text only).
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(raw, valued: [], flagNames: ["help", "json"])
        if a.flag("help") {
            print(help)
            return 0
        }
        let runtime = OpenCLRuntime.shared
        let devices = runtime.availableDevices
        var rows: [Row] = []
        var out =
            devices.isEmpty ? "No OpenCL platform or device found (is an ICD such as pocl-opencl-icd installed?)\n" : ""
        for d in devices {
            var kernels = "ok"
            var cached = false
            do { cached = try runtime.context(named: String(d.index)).programFromCache } catch {
                kernels = error.description
            }
            if cached { kernels += " (program from FRAMEOCR_OPENCL_CACHE)" }
            let mib = { (b: UInt64) in "\(b >> 20) MiB" }
            out += """
                [\(d.index)] \(d.name)
                    platform         \(d.platform)
                    vendor           \(d.vendor)
                    type             \(d.isGPU ? "GPU" : d.isCPU ? "CPU" : "other")
                    version          \(d.version), driver \(d.driver)
                    compute units    \(d.computeUnits)
                    global memory    \(mib(d.globalMemory)) (largest buffer \(mib(d.maxAllocation)))
                    local memory     \(d.localMemory >> 10) KiB
                    work group       up to \(d.maxWorkGroupSize) items
                    host memory      \(d.hostUnifiedMemory ? "shared (zero-copy buffers)" : "separate")
                    FrameOCR kernels \(kernels)

                """
            rows.append(Row(device: d, kernels: kernels))
        }
        if a.flag("json") {
            FileHandle.standardOutput.write(Data((JSONOutput.encode(rows, pretty: true) + "\n").utf8))
        } else {
            do {
                let ov = try NeuralRuntime.load()
                out += "Neural runtime: OpenVINO \(ov.version) (\(ov.library))\n"
                let bf16 = ov.capabilities.contains("BF16")
                out +=
                    "  CPU capabilities: \(ov.capabilities.joined(separator: " ")) (bf16: "
                    + (bf16 ? "yes: --precision auto runs the detector in bf16)\n" : "no: every network in f32)\n")
                let others = ov.devices.filter { $0 != "CPU" }
                out +=
                    "  Devices: \(ov.devices.joined(separator: " ")) ("
                    + (others.isEmpty
                        ? "--device gpu, npu and auto run on the CPU)\n"
                        : "--device gpu, npu and auto probe \(others.joined(separator: ", ")) against the CPU)\n")
            } catch {
                out += "Neural runtime: not loaded: \(error.message)\n"
            }
            FileHandle.standardOutput.write(Data(out.utf8))
        }
        return 0
    }

    /// A device as `--json` lists it: its fields, and whether FrameOCR's kernels build there.
    struct Row: Encodable {
        var device: OpenCLDevice
        var kernels: String

        private enum Keys: String, CodingKey { case kernels }

        func encode(to encoder: any Encoder) throws {
            try device.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(kernels, forKey: .kernels)
        }
    }
}
