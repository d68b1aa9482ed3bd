import CFrameOCR
import Foundation
import FrameOCRKernels
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The OpenCL room's failures (Sources/CFrameOCR/opencl/): a missing device and a device that
/// cannot run the kernels, through the library and as the shim's own statuses
/// (FOCR_E_NO_OPENCL_DEVICE, FOCR_E_OPENCL_DEVICE_UNSUPPORTED) mapped to FrameOCRError's codes.
@Suite("OpenCL: the shim's device statuses and their codes", .tags(.opencl))
struct OpenCLStatusTests {
    /// The OpenCL context of the parity tests (FrameOCRTests): FRAMEOCR_OPENCL_DEVICE, else the
    /// first GPU, else PoCL's CPU device.
    static let clContext: OpenCLContext = try! OpenCLRuntime.shared.context(named: nil)

    @Test("A missing device and a device that cannot run the kernels have codes of their own")
    func deviceErrorCodes() throws {
        let frame = try PaddedFrame(format: .gray8, width: 32, height: 8)
        expectFrameOCRError(.noOpenCLDevice) { () throws(FrameOCRError) in
            try Pipeline(backend: .openCL(device: "no-such-device")).run(frame.buffer)
        }
        expectFrameOCRError(.noOpenCLDevice) { () throws(FrameOCRError) in
            try OpenCLRuntime.shared.context(named: "no-such-device-xyz")
        }
        // A requirement PoCL's CPU device (or any device) cannot meet: a terabyte of local memory.
        let unsuitable = expectFrameOCRError(.openCLDeviceUnsupported) { () throws(FrameOCRError) in
            try OpenCLContext(
                device: Self.clContext.device, source: FrameOCRKernels.source, cacheDirectory: nil,
                requirements: (localMemory: 1 << 40, workGroupSize: 64))
        }
        #expect(unsuitable?.stage == .backend)
        // The shim's own statuses map to the same codes (its "no device at all" is only reached
        // when the ICD loader finds nothing, which the Swift side checks first).
        #expect(FrameOCRError.from(FOCR_E_NO_OPENCL_DEVICE, stage: .backend)?.code == .noOpenCLDevice)
        #expect(FrameOCRError.from(FOCR_E_OPENCL_DEVICE_UNSUPPORTED, stage: .backend)?.code == .openCLDeviceUnsupported)
        #expect(FrameOCRError.from(FOCR_E_UNSUPPORTED, stage: .backend)?.code == .unsupportedFormat)
    }
}
