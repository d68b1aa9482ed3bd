import CBaselines
import CFrameOCR
package import CFrameOCRCommon
import FrameOCR
import Testing

// The fast path's SIMD levels, the OpenCV oracle (CBaselines: plain OpenCV, the reference
// FrameOCR's own kernels must equal byte for byte) and the one way the tests call the shim
// directly: for FrameOCRTests (which does not import the shim) and CFrameOCRTests.

/// Every SIMD level of the fast path this machine runs: 0 portable C++, 1 SSE2, 2 AVX2 (fewer
/// off x86, or when FRAMEOCR_SIMD caps it).
package let simdLevels: [Int32] = Array(0...max(0, focr_fast_simd_level()))

/// Runs `body` with the fast path capped at `level` for calls made from this thread (the worker
/// threads of those calls follow).
package func withSIMDLevel<R>(_ level: Int32, _ body: () throws -> R) rethrows -> R {
    let now = focr_fast_limit_simd_level(level)
    defer { focr_fast_limit_simd_level(-1) }
    #expect(now == level, "SIMD level \(level) is not available")
    return try body()
}

/// The plain OpenCV calls (`Benchmarks/Baselines/baseline.cpp`, the CBaselines target): the oracle
/// FrameOCR's own kernels must equal byte for byte. (`applyingOrientation` and `adaptiveThreshold`
/// run those kernels now, so they cannot be their own reference.)
package enum OpenCV {
    /// `status` of a baseline call; a failure is recorded with the baselines' own message
    /// (`focr_baseline_last_error`: the error that `run` throws carries the shim's, which is not it).
    package static func recorded(_ status: focr_status) -> focr_status {
        if status != FOCR_OK { Issue.record("OpenCV oracle: \(String(cString: focr_baseline_last_error()))") }
        return status
    }

    /// `cv::rotate` / `cv::flip` / `cv::transpose` for `o`, into a new buffer.
    package static func orient(_ image: PixelBuffer, _ o: Orientation) throws -> PixelBuffer {
        let (w, h) = o.swapsDimensions ? (image.height, image.width) : (image.width, image.height)
        let out = try PixelBuffer(width: w, height: h, pixelFormat: image.pixelFormat)
        try image.run(into: out, .rotation) { s, d in recorded(focr_baseline_orient(s, Int32(o.rawValue), d)) }
        return out
    }

    /// `cv::cvtColor(image, out, …2GRAY)` of a packed color image, into a new buffer.
    package static func gray(_ image: PixelBuffer) throws -> PixelBuffer {
        let out = try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8)
        try image.run(into: out, .colorConversion) { s, d in recorded(focr_baseline_gray(s, d)) }
        return out
    }

    /// `cv::adaptiveThreshold(image, out, 255, method, BINARY or BINARY_INV, blockSize, C)`.
    package static func adaptiveThreshold(_ image: PixelBuffer, _ t: AdaptiveThreshold) throws -> PixelBuffer {
        let out = try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8)
        let method = Int32(t.method == .mean ? FOCR_THRESHOLD_MEAN.rawValue : FOCR_THRESHOLD_GAUSSIAN.rawValue)
        try image.run(into: out, .threshold) { s, d in
            recorded(focr_baseline_adaptive_threshold(s, method, t.inverted ? 1 : 0, Int32(t.blockSize), t.c, d))
        }
        return out
    }

    /// The 8-bit mean `cv::adaptiveThreshold` GAUSSIAN_C compares with: convertTo CV_32F →
    /// `cv::GaussianBlur` (replicated border) → convertTo CV_8U.
    package static func gaussianMean(_ image: PixelBuffer, blockSize: Int) throws -> PixelBuffer {
        let out = try PixelBuffer(width: image.width, height: image.height, pixelFormat: .gray8)
        try image.run(into: out, .threshold) { s, d in recorded(focr_baseline_gaussian_mean(s, Int32(blockSize), d)) }
        return out
    }

    /// The chain on a raw region: `cv::cvtColor` (NV12/I420: the Y plane) → `orient` →
    /// `cv::adaptiveThreshold`.
    package static func chain(_ frame: PixelBuffer, _ rawRect: PixelRect, _ o: Orientation, _ t: AdaptiveThreshold?)
        throws
        -> [UInt8]
    {
        let view = try (frame.pixelFormat.isYCbCr ? frame.lumaPlane() : frame).cropped(to: rawRect)
        let packedColor = !(view.pixelFormat == .gray8 || view.pixelFormat.isYCbCr)
        var image = try orient(packedColor ? try gray(view) : try view.convertedToGray().copy(), o)
        if let t { image = try adaptiveThreshold(image, t) }
        return image.packedBytes()
    }
}

extension PixelBuffer {
    /// Calls a shim entry point with this buffer's descriptor and `dst`'s, as FrameOCR's Bridge
    /// does, and throws its failure at `stage`: for the tests that check the C shim directly.
    package func run(
        into dst: PixelBuffer, _ stage: FrameOCRError.Stage,
        _ op: (UnsafePointer<focr_image>, UnsafeMutablePointer<focr_image>) -> focr_status
    ) throws(FrameOCRError) {
        let status = withUnsafeImageDescriptor { s in dst.withUnsafeImageDescriptor { d in op(s, d) } }
        if let error = FrameOCRError.from(status, stage: stage) { throw error }
    }
}
