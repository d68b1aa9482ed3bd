package import CFrameOCR

// Every shim status becomes a FrameOCRError here, and only here.

extension FrameOCRError {
    /// Maps a shim status (and the thread's last error message) to an error; nil for FOCR_OK.
    package static func from(_ status: focr_status, stage: Stage) -> FrameOCRError? {
        let code: Code
        switch status {
        case FOCR_OK: return nil
        case FOCR_E_INVALID_ARGUMENT: code = .invalidParameter
        case FOCR_E_IO: code = .io
        case FOCR_E_DECODE: code = .decode
        case FOCR_E_OPENCV: code = .openCV
        case FOCR_E_TESSERACT: code = .tesseract
        case FOCR_E_OUT_OF_MEMORY: code = .outOfMemory
        case FOCR_E_UNSUPPORTED: code = .unsupportedFormat
        case FOCR_E_OPENCL: code = .openCL
        case FOCR_E_NO_OPENCL_DEVICE: code = .noOpenCLDevice
        case FOCR_E_OPENCL_DEVICE_UNSUPPORTED: code = .openCLDeviceUnsupported
        case FOCR_E_STALLED: code = .streamStalled
        case FOCR_E_TOO_LARGE: code = .imageTooLarge
        case FOCR_E_UNAVAILABLE: code = .unsupported
        case FOCR_E_RUNTIME_MISSING: code = .neuralRuntimeMissing
        case FOCR_E_INFERENCE: code = .inference
        default: code = .internalError
        }
        return FrameOCRError(code, String(cString: focr_last_error()), stage: stage)
    }
}

/// Throws the error for a non-OK shim status.
@inline(__always)
package func check(_ status: focr_status, _ stage: FrameOCRError.Stage) throws(FrameOCRError) {
    if let error = FrameOCRError.from(status, stage: stage) { throw error }
}
