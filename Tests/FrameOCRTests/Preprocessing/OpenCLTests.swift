import Foundation
import FrameOCRKernels
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// The OpenCL context the parity tests run on: FRAMEOCR_OPENCL_DEVICE, else the first GPU, else
/// PoCL's CPU device (which `make test` installs, so these tests run everywhere).
let clContext: OpenCLContext = try! OpenCLRuntime.shared.context(named: nil)

@Suite("OpenCL kernels against the CPU path, byte for byte", .tags(.opencl))
struct OpenCLParityTests {
    static let sizes = [Size(1, 1), Size(2, 1), Size(5, 3), Size(641, 479), Size(1921, 1081)]
    static let packed: [PixelFormat] = [.gray8, .bgra8, .rgba8, .bgr8, .rgb8]

    @Test("gray.cl: every packed format and size, padded strides", arguments: packed, sizes)
    func gray(format: PixelFormat, size: Size) throws {
        let frame = try PaddedFrame(format: format, width: size.width, height: size.height, padding: 13, value: noise)
        let cpu = try frame.buffer.convertedToGray().copy()
        let out = try PaddedFrame(format: .gray8, width: size.width, height: size.height, padding: 9)
        try clContext.convertToGray(frame.buffer, into: out.buffer)
        expectSameBytes(out.pixels(), cpu.packedBytes(), "\(format) \(size)")
        #expect(out.damagedPaddingBytes() == 0 && frame.damagedPaddingBytes() == 0)
    }

    @Test(
        "orient.cl: all eight orientations, 1/3/4 bytes per pixel, odd sizes",
        arguments: Orientation.allCases, [PixelFormat.gray8, .bgr8, .bgra8])
    func orient(orientation: Orientation, format: PixelFormat) throws {
        for size in [Size(1, 1), Size(2, 1), Size(3, 2), Size(641, 479), Size(37, 1081)] {
            let frame = try PaddedFrame(
                format: format, width: size.width, height: size.height, padding: 5, value: noise)
            let cpu = try frame.buffer.applyingOrientation(orientation)
            let (w, h) = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
            let out = try PaddedFrame(format: format, width: w, height: h, padding: 3)
            try clContext.orient(frame.buffer, orientation, into: out.buffer)
            expectSameBytes(out.pixels(), cpu.packedBytes(), "\(orientation) \(format) \(size)")
            #expect(out.damagedPaddingBytes() == 0)
        }
    }

    @Test(
        "adaptive_threshold.cl: mean and Gaussian, normal and inverted, block sizes 3…101",
        arguments: AdaptiveThreshold.Method.allCases, [3, 5, 7, 9, 11, 15, 21, 31, 51, 75, 101])
    func threshold(method: AdaptiveThreshold.Method, blockSize: Int) throws {
        for (size, content) in [(Size(641, 479), page as (Int, Int, Int, Int) -> UInt8), (Size(203, 157), noise)] {
            let frame = try PaddedFrame(
                format: .gray8, width: size.width, height: size.height, padding: 11, value: content)
            for (c, inverted) in [(10.0, false), (-3.5, false), (2.5, true), (0, true)] {
                let t = AdaptiveThreshold(method: method, blockSize: blockSize, c: c, inverted: inverted)
                let cpu = try frame.buffer.adaptiveThreshold(t)
                let out = try PaddedFrame(format: .gray8, width: size.width, height: size.height, padding: 4)
                try clContext.adaptiveThreshold(frame.buffer, t, into: out.buffer)
                expectSameBytes(
                    out.pixels(), cpu.packedBytes(), "\(method) \(blockSize) C \(c) inv \(inverted) \(size)")
                #expect(out.damagedPaddingBytes() == 0)
            }
        }
    }

    @Test(
        "The fused chain equals the CPU pipeline: formats × orientations × regions touching each edge",
        arguments: [PixelFormat.bgra8, .rgba8, .bgr8, .rgb8, .gray8, .nv12, .i420], Orientation.allCases)
    func fusedPipeline(format: PixelFormat, orientation: Orientation) throws {
        let frame = try PaddedFrame(
            format: format, width: 641, height: 479, padding: 19, orientation: orientation, value: page)
        let (uw, uh) = orientation.swapsDimensions ? (479, 641) : (641, 479)
        let regions: [RegionOfInterest?] = [
            nil,
            .pixels(PixelRect(x: 0, y: 0, width: 101, height: 77)),  // top-left corner
            .pixels(PixelRect(x: uw - 90, y: 13, width: 90, height: 60)),  // right edge
            .pixels(PixelRect(x: 7, y: uh - 51, width: 200, height: 51)),  // bottom edge
            .pixels(PixelRect(x: 0, y: 40, width: 33, height: uh - 40)),  // left edge, to the bottom
        ]
        for region in regions {
            for threshold in [
                nil, AdaptiveThreshold(method: .mean, blockSize: 15, c: 5),
                AdaptiveThreshold(method: .gaussian, blockSize: 31, c: 8, inverted: true),
            ] {
                let cpu = try Pipeline(region: region, threshold: threshold).run(frame.buffer)
                let cl = try Pipeline(region: region, threshold: threshold, backend: .openCL()).run(frame.buffer)
                #expect(cl.transform == cpu.transform)
                #expect(cl.image.width == cpu.image.width && cl.image.height == cpu.image.height)
                expectSameBytes(
                    cl.image.packedBytes(), cpu.image.packedBytes(),
                    "\(format) \(orientation) \(String(describing: region)) \(String(describing: threshold))")
                #expect(cl.backend == .openCL(device: clContext.device.name))
            }
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("The fused chain at 1921×1081 with a scale (split chain) equals the CPU pipeline")
    func fusedLarge() throws {
        let frame = try PaddedFrame(
            format: .bgra8, width: 1921, height: 1081, padding: 64, orientation: .right, value: page)
        for p in [
            Pipeline(
                region: .normalized(Rect(x: 0.1, y: 0.2, width: 0.7, height: 0.5)),
                threshold: AdaptiveThreshold(blockSize: 31)),
            Pipeline(scale: 0.5, threshold: AdaptiveThreshold(method: .gaussian, blockSize: 21, c: 4)),
        ] {
            let cpu = try p.run(frame.buffer)
            var q = p
            q.backend = .openCL()
            let cl = try q.run(frame.buffer)
            expectSameBytes(cl.image.packedBytes(), cpu.image.packedBytes(), "\(p)")
            #expect(cl.timings.fused > .zero)
        }
    }

    @Test("Zero-copy: on a host-memory device the mapped pointer is the buffer's own memory")
    func zeroCopyMapping() throws {
        let buffer = try PixelBuffer(width: 640, height: 480, pixelFormat: .bgra8)
        let mapped = try clContext.mappedAddress(of: buffer)
        if clContext.device.hostUnifiedMemory {
            #expect(mapped == baseAddress(buffer))
        } else {
            #expect(mapped != 0)
        }
        // PoCL (what CI runs) works in host memory.
        if clContext.device.platform.contains("Portable Computing Language") {
            #expect(clContext.device.hostUnifiedMemory)
        }
    }

    @Test("R18: two threads, 200 conversions each of different frames, always get their own bytes")
    func threadsKeepTheirFrames() async throws {
        let a = try PaddedFrame(format: .bgra8, width: 640, height: 480, value: noise)
        let b = try PaddedFrame(format: .bgra8, width: 640, height: 480, value: page)
        let pipeline = Pipeline(threshold: AdaptiveThreshold(method: .mean, blockSize: 15, c: 5), backend: .openCL())
        let cpu = Pipeline(threshold: pipeline.threshold)
        let expected = [try cpu.run(a.buffer).image.packedBytes(), try cpu.run(b.buffer).image.packedBytes()]
        #expect(expected[0] != expected[1])
        let frames = [a.buffer, b.buffer]
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<2 {
                group.addTask {
                    var bad = 0
                    for _ in 0..<200 where try pipeline.run(frames[i]).image.packedBytes() != expected[i] { bad += 1 }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test(
        "Recognition with the OpenCL backend gives the CPU backend's text on real images", .tags(.tesseract),
        arguments: ["phototest.tif", "testocr.png"])
    func recognitionParity(file: String) throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path(file))
        for p in [
            Pipeline(),
            Pipeline(orientation: .known(.up), threshold: AdaptiveThreshold(method: .gaussian, blockSize: 31, c: 10)),
        ] {
            let cpu = try sharedRecognizer.recognize(image, pipeline: p)
            var q = p
            q.backend = .openCL()
            let cl = try sharedRecognizer.recognize(image, pipeline: q)
            #expect(cl.text == cpu.text)
            #expect(cl.words.map(\.box) == cpu.words.map(\.box))
            #expect(cl.backend == .openCL(device: clContext.device.name))
        }
    }

    @Test("Backend selection: an unknown device throws; automatic records what ran")
    func selection() throws {
        #expect(throws: FrameOCRError.self) { try OpenCLRuntime.shared.context(named: "no-such-device-xyz") }
        let frame = try PaddedFrame(format: .gray8, width: 32, height: 8)
        let auto = try Pipeline(backend: .automatic).run(frame.buffer)
        if OpenCLRuntime.shared.availableDevices.contains(where: \.isGPU)
            || ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_DEVICE"] != nil
        {
            #expect(auto.backend != .cpu)
        } else {
            #expect(auto.backend == .cpu)
            #expect(auto.fallbackReason == "no OpenCL GPU device")
        }
        #expect(Backend(parsing: "opencl:1") == .openCL(device: "1") && Backend(parsing: "auto") == .automatic)
        #expect(Backend(parsing: "cuda") == nil)
    }

    @Test("resize.cl: integer area downscale equals cv::resize INTER_AREA", arguments: [2, 3, 4, 5])
    func areaDownscale(k: Int) throws {
        for (w, h) in [(k, k), (160, 120), (213, 97)] {
            let frame = try PaddedFrame(format: .gray8, width: w * k, height: h * k, padding: 9, value: noise)
            let cpu = try frame.buffer.resized(width: w, height: h)
            let out = try PaddedFrame(format: .gray8, width: w, height: h, padding: 3)
            try clContext.areaDownscale(frame.buffer, into: out.buffer)
            expectSameBytes(out.pixels(), cpu.packedBytes(), "k \(k) \(w)x\(h)")
            #expect(out.damagedPaddingBytes() == 0)
        }
        // Not an exact multiple: refused (the pipeline resizes those on the CPU).
        let odd = try PaddedFrame(format: .gray8, width: 2 * k + 1, height: 2 * k, value: noise)
        let small = try PaddedFrame(format: .gray8, width: 2, height: 2)
        #expect { try clContext.areaDownscale(odd.buffer, into: small.buffer) } throws: {
            ($0 as? FrameOCRError)?.code == .unsupportedFormat
        }
    }

    @Test("A pipeline with an exact integer shrink uses resize.cl and still equals the CPU pipeline")
    func pipelineShrink() throws {
        let frame = try PaddedFrame(
            format: .bgra8, width: 640, height: 480, padding: 16, orientation: .left, value: page)
        let p = Pipeline(scale: 0.5, threshold: AdaptiveThreshold(blockSize: 15, c: 4))
        var q = p
        q.backend = .openCL()
        let cpu = try p.run(frame.buffer)
        let cl = try q.run(frame.buffer)
        expectSameBytes(cl.image.packedBytes(), cpu.image.packedBytes())
        #expect(cl.transform == cpu.transform && cl.timings.scale > .zero)
    }

    @Test("A device that lacks a needed feature is refused with a clear error")
    func lackingFeature() throws {
        do {
            _ = try OpenCLContext(
                device: clContext.device, source: FrameOCRKernels.source, cacheDirectory: nil,
                requirements: (localMemory: 1 << 40, workGroupSize: 64))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .openCLDeviceUnsupported && error.message.contains("lacks a needed feature"))
        }
    }
}
