import CFrameOCR
import Testing

@testable import FrameOCR

/// The experimental fused CPU chain against the OpenCV chain run step by step (convertedToGray →
/// applyingOrientation → adaptiveThreshold, each one OpenCV call).
@Suite("Fused CPU chain (focr_fast_preprocess) equals the OpenCV chain")
struct FastPathTests {
    /// The OpenCV chain, step by step, on a region view.
    static func opencvChain(_ frame: PixelBuffer, _ rawRect: PixelRect, _ o: Orientation, _ t: AdaptiveThreshold?) throws -> [UInt8] {
        let view = try (frame.pixelFormat.isYCbCr ? frame.lumaPlane() : frame).cropped(to: rawRect)
        var image = try view.convertedToGray().copy()
        if o != .up { image = try image.applyingOrientation(o) }
        if let t { image = try image.adaptiveThreshold(t) }
        return image.packedBytes()
    }

    @Test("formats × orientations × regions × thresholds, odd sizes and padded strides",
          arguments: [PixelFormat.bgra8, .rgba8, .bgr8, .rgb8, .gray8, .nv12], Orientation.allCases)
    func parity(format: PixelFormat, orientation: Orientation) throws {
        for size in [Size(1, 1), Size(2, 1), Size(33, 7), Size(641, 479)] {
            let frame = try PaddedFrame(format: format, width: size.width, height: size.height, padding: 13, orientation: orientation, value: page)
            let (uw, uh) = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
            var regions: [PixelRect] = [PixelRect(x: 0, y: 0, width: uw, height: uh)]
            if uw > 10 && uh > 6 { regions += [PixelRect(x: uw / 3, y: uh / 4, width: uw - uw / 3, height: uh - uh / 4)] }
            if uw > 10 && uh > 6 && size.width < 100 { regions += [PixelRect(x: 0, y: 0, width: uw / 2, height: uh / 2)] }
            for region in regions {
                let all: [AdaptiveThreshold?] = [nil, AdaptiveThreshold(method: .mean, blockSize: 3, c: 0), AdaptiveThreshold(method: .mean, blockSize: 31, c: 10),
                                                 AdaptiveThreshold(method: .mean, blockSize: 101, c: -2.5, inverted: true), AdaptiveThreshold(method: .mean, blockSize: 15, c: 400)]
                // Large frames: fewer settings (the debug build of the shim is slow).
                for t in size.width > 100 ? [all[0], all[2]] : all {
                    let raw = FrameTransform(orientation: orientation, rawWidth: size.width, rawHeight: size.height, region: region)
                        .rawRect(fromUpright: region)
                    let out = try PixelBuffer(width: region.width, height: region.height, pixelFormat: .gray8)
                    // 4:2:0 crops need an even origin; their gray is the Y plane, cropped anywhere.
                    let base = try format.isYCbCr ? frame.buffer.lumaPlane() : frame.buffer
                    try base.cropped(to: raw).fusedPreprocess(orientation: orientation, threshold: t, into: out)
                    expectSameBytes(out.packedBytes(), try Self.opencvChain(frame.buffer, raw, orientation, t),
                                    "\(format) \(orientation) \(size) \(region) \(String(describing: t))")
                }
            }
            #expect(frame.damagedPaddingBytes() == 0)
        }
    }

    @Test("1920×1080 BGRA, .right, 80 % region, mean 31: identical to the OpenCV chain")
    func fullHD() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 1920, height: 1080, padding: 64, orientation: .right, value: noise)
        let region = PixelRect(x: 108, y: 192, width: 864, height: 1536)
        let t = AdaptiveThreshold(method: .mean, blockSize: 31, c: 10)
        let raw = FrameTransform(orientation: .right, rawWidth: 1920, rawHeight: 1080, region: region).rawRect(fromUpright: region)
        let out = try PixelBuffer(width: region.width, height: region.height, pixelFormat: .gray8)
        try frame.buffer.cropped(to: raw).fusedPreprocess(orientation: .right, threshold: t, into: out)
        expectSameBytes(out.packedBytes(), try Self.opencvChain(frame.buffer, raw, .right, t))
    }

    @Test("A padded destination keeps its padding; invalid block sizes are refused")
    func destinationAndErrors() throws {
        let frame = try PaddedFrame(format: .bgr8, width: 40, height: 30, value: page)
        let dst = try PaddedFrame(format: .gray8, width: 30, height: 40, padding: 21)
        try frame.buffer.run(into: dst.buffer, .threshold) { s, d in focr_fast_preprocess(s, 6, 7, 2, 0, d) }
        #expect(dst.damagedPaddingBytes() == 0)
        expectSameBytes(dst.pixels(), try Self.opencvChain(frame.buffer, PixelRect(x: 0, y: 0, width: 40, height: 30), .right, AdaptiveThreshold(blockSize: 7, c: 2)))
        #expect(throws: FrameOCRError.self) {
            try frame.buffer.fusedPreprocess(orientation: .up, threshold: AdaptiveThreshold(method: .gaussian), into: dst.buffer)
        }
        for bad in [2, 1, 257] {
            #expect(throws: FrameOCRError.self) {
                try frame.buffer.run(into: dst.buffer, .threshold) { s, d in focr_fast_preprocess(s, 6, Int32(bad), 2, 0, d) }
            }
        }
    }
}
