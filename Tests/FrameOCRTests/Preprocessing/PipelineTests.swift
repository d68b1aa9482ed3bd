import FrameOCRTestSupport
import Testing

@testable import FrameOCR

@Suite("Pipeline")
struct PipelineTests {
    struct Case: Sendable, CustomStringConvertible {
        var format: PixelFormat
        var orientation: Orientation
        var description: String { "\(format) \(orientation)" }
    }

    static let cases: [Case] = [PixelFormat.gray8, .bgra8, .rgb8, .nv12, .i420].flatMap { f in
        Orientation.allCases.map { Case(format: f, orientation: $0) }
    }

    @Test("region + orientation equals rotating the whole frame, then cropping the upright result", arguments: cases)
    func cropThenRotateEqualsRotateThenCrop(c: Case) throws {
        let frame = try PaddedFrame(format: c.format, width: 37, height: 23, padding: 6, orientation: c.orientation)
        let (uw, uh) = c.orientation.swapsDimensions ? (23, 37) : (37, 23)
        // Regions of the upright frame: odd origins, touching each edge.
        for region in [
            PixelRect(x: 3, y: 5, width: 11, height: 7), PixelRect(x: 0, y: 0, width: uw, height: uh),
            PixelRect(x: uw - 4, y: 1, width: 4, height: uh - 1), PixelRect(x: 1, y: uh - 3, width: uw - 2, height: 3),
        ] {
            let out = try Pipeline(region: .pixels(region)).run(frame.buffer)
            // Independent reference: whole frame → gray → upright → crop.
            let upright = try frame.buffer.convertedToGray().applyingOrientation(c.orientation)
            #expect(upright.width == uw && upright.height == uh)
            let reference = try upright.cropped(to: region).packedBytes()
            #expect(out.image.width == region.width && out.image.height == region.height, "\(region)")
            #expect(out.image.packedBytes() == reference, "\(region)")
            #expect(out.image.orientation == .up && out.image.pixelFormat == .gray8)
            #expect(!out.image.packedBytes().contains(sentinel))
            #expect(out.transform.region == region && out.transform.orientation == c.orientation)
            #expect(
                out.transform.uprightPoint(fromOutput: Point(x: 0, y: 0))
                    == Point(x: Double(region.x), y: Double(region.y)))
            #expect(out.backend == .cpu)
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("every output pixel is the raw pixel its transform points at", arguments: Orientation.allCases)
    func transformMatchesPixels(orientation: Orientation) throws {
        let frame = try PaddedFrame(format: .gray8, width: 29, height: 17, padding: 3, orientation: orientation) {
            _, x, y, _ in
            UInt8((x + 29 * y) % 200)
        }
        let (uw, uh) = orientation.swapsDimensions ? (17, 29) : (29, 17)
        let region = PixelRect(x: 2, y: 3, width: uw - 5, height: uh - 4)
        let out = try Pipeline(region: .pixels(region)).run(frame.buffer)
        let bytes = out.image.packedBytes()
        for v in 0..<out.image.height {
            for u in 0..<out.image.width {
                let raw = out.transform.rawPoint(fromOutput: Point(x: Double(u) + 0.5, y: Double(v) + 0.5))
                let (x, y) = (Int(raw.x.rounded(.down)), Int(raw.y.rounded(.down)))
                #expect(bytes[v * out.image.width + u] == frame.pixel(x, y)[0], "output (\(u),\(v)) → raw (\(x),\(y))")
            }
        }
    }

    @Test("the pipeline's orientation overrides the frame's")
    func orientationOverride() throws {
        let frame = try PaddedFrame(format: .gray8, width: 3, height: 2, bytesPerRow: [8], orientation: .right) {
            _, x, y, _ in UInt8(1 + x + 3 * y)
        }
        #expect(rows(try Pipeline().run(frame.buffer).image.packedBytes(), width: 2) == [[4, 1], [5, 2], [6, 3]])
        let asUp = try Pipeline(orientation: .known(.up)).run(frame.buffer)
        #expect(rows(asUp.image.packedBytes(), width: 3) == [[1, 2, 3], [4, 5, 6]])
        #expect(asUp.transform.orientation == .up)
        let asLeft = try Pipeline(orientation: .known(.left)).run(frame.buffer)
        #expect(rows(asLeft.image.packedBytes(), width: 2) == [[3, 6], [2, 5], [1, 4]])
    }

    // MARK: Zero-copy

    @Test(
        "a frame with nothing to do comes out as a view of its memory",
        arguments: [PixelFormat.nv12, .nv12FullRange, .i420, .gray8])
    func zeroCopy(format: PixelFormat) throws {
        let frame = try PaddedFrame(format: format, width: 40, height: 6, padding: 24)
        let out = try Pipeline().run(frame.buffer)
        #expect(out.image.sharesStorage(with: frame.buffer))
        #expect(baseAddress(out.image) == UInt(bitPattern: frame.memories[0].base))
        #expect(out.image.packedBytes() == frame.pixels(plane: 0))
        #expect(!out.regionClamped)
        #expect(out.transform.region == PixelRect(x: 0, y: 0, width: 40, height: 6))
        // A region alone is still a view (of the Y plane), at an odd origin too.
        let region = PixelRect(x: 3, y: 1, width: 30, height: 5)
        let cropped = try Pipeline(region: .pixels(region)).run(frame.buffer)
        #expect(cropped.image.sharesStorage(with: frame.buffer))
        #expect(
            baseAddress(cropped.image) == UInt(bitPattern: frame.memories[0].base)
                + UInt(1 * frame.layouts[0].bytesPerRow + 3))
        #expect(cropped.image.packedBytes() == referenceGray(of: frame, in: region))
    }

    @Test("a color frame is converted, so its output does not share the frame's memory")
    func colorIsConverted() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 8, height: 4)
        let out = try Pipeline().run(frame.buffer)
        #expect(!out.image.sharesStorage(with: frame.buffer))
        #expect(out.image.packedBytes() == referenceGray(of: frame, in: PixelRect(x: 0, y: 0, width: 8, height: 4)))
    }

    // MARK: Regions

    @Test("clamped regions are flagged; strict mode throws; invalid regions throw invalidROI")
    func regionPolicies() throws {
        let frame = try PaddedFrame(format: .gray8, width: 640, height: 480, padding: 0)
        let partly = RegionOfInterest.pixels(PixelRect(x: 600, y: 400, width: 100, height: 100))
        let out = try Pipeline(region: partly).run(frame.buffer)
        #expect(out.regionClamped)
        #expect(out.image.width == 40 && out.image.height == 80)
        #expect(out.transform.region == PixelRect(x: 600, y: 400, width: 40, height: 80))
        #expect(
            out.image.packedBytes() == referenceGray(of: frame, in: PixelRect(x: 600, y: 400, width: 40, height: 80)))
        expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in
            try Pipeline(region: partly, regionPolicy: .strict).run(frame.buffer)
        }
        for rect in [
            PixelRect(x: 100, y: 100, width: -1, height: 313), PixelRect(x: 700, y: 10, width: 20, height: 20),
            PixelRect(x: 0, y: 0, width: 0, height: 10),
        ] {
            expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in
                try Pipeline(region: .pixels(rect)).run(frame.buffer)
            }
        }
        // After a failure, the next frame is processed normally.
        #expect(
            try Pipeline(region: .pixels(PixelRect(x: 0, y: 0, width: 10, height: 10))).run(frame.buffer).image.width
                == 10)
    }

    // MARK: Scale and threshold

    @Test("scale resizes the upright region and records it in the transform")
    func scale() throws {
        let frame = try PaddedFrame(format: .gray8, width: 64, height: 48, padding: 5, orientation: .right) {
            _, _, _, _ in 90
        }
        let out = try Pipeline(region: .pixels(PixelRect(x: 4, y: 8, width: 20, height: 30)), scale: 2).run(
            frame.buffer)
        #expect(out.image.width == 40 && out.image.height == 60)
        #expect(out.transform.scaleX == 2 && out.transform.scaleY == 2)
        #expect(out.transform.outputWidth == 40 && out.transform.outputHeight == 60)
        #expect(out.image.packedBytes().allSatisfy { $0 == 90 })  // a flat image stays flat under any resampling
        #expect(out.transform.uprightPoint(fromOutput: Point(x: 40, y: 60)) == Point(x: 24, y: 38))
        let half = try Pipeline(scale: 0.5).run(frame.buffer)
        #expect(half.image.width == 24 && half.image.height == 32)
        for bad in [0, -1, .nan, .infinity, 65] as [Double] {
            expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
                try Pipeline(scale: bad).run(frame.buffer)
            }
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("halving by area averages 2×2 blocks exactly")
    func areaDownscale() throws {
        let frame = try PaddedFrame(format: .gray8, width: 4, height: 2, padding: 4) { _, x, y, _ in
            [[10, 20, 100, 101], [30, 40, 103, 104]][y][x]
        }
        let out = try Pipeline(scale: 0.5).run(frame.buffer)
        #expect(out.image.width == 2 && out.image.height == 1)
        // INTER_AREA at exactly 1/2: the mean of each 2×2 block (25 and 102, both exact).
        #expect(out.image.packedBytes() == [25, 102])
    }

    @Test("threshold runs last, on the upright scaled region")
    func thresholdLast() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 50, height: 40, padding: 8, orientation: .left) {
            _, x, y, b in
            b == 3 ? 255 : UInt8((x * 13 + y * 29 + b * 7) % 199)
        }
        let t = AdaptiveThreshold(method: .mean, blockSize: 7, c: 2)
        let region = RegionOfInterest.pixels(PixelRect(x: 5, y: 6, width: 30, height: 33))
        let thresholded = try Pipeline(region: region, threshold: t).run(frame.buffer)
        let plain = try Pipeline(region: region).run(frame.buffer)
        #expect(thresholded.image.packedBytes() == (try plain.image.adaptiveThreshold(t)).packedBytes())
        #expect(
            thresholded.image.packedBytes()
                == meanThresholdReference(
                    plain.image.packedBytes(), width: 30, height: 33,
                    blockSize: 7, c: 2, inverted: false))
        #expect(Set(thresholded.image.packedBytes()) == [0, 255])
        #expect(frame.damagedPaddingBytes() == 0)
    }

    // MARK: The fused CPU chain

    @Test(
        "the CPU backend runs gray → upright → mean threshold fused, byte for byte the OpenCV chain, timed as fused",
        arguments: cases)
    func fusedByDefault(c: Case) throws {
        let frame = try PaddedFrame(
            format: c.format, width: 45, height: 31, padding: 6, orientation: c.orientation, value: page)
        let (uw, uh) = c.orientation.swapsDimensions ? (31, 45) : (45, 31)
        for region in [
            PixelRect(x: 0, y: 0, width: uw, height: uh), PixelRect(x: 3, y: 5, width: uw - 7, height: uh - 6),
        ] {
            for t in [
                nil, AdaptiveThreshold(method: .mean, blockSize: 9, c: 3),
                AdaptiveThreshold(method: .mean, blockSize: 31, c: -2, inverted: true),
            ] {
                let out = try Pipeline(region: .pixels(region), threshold: t).run(frame.buffer)
                let raw = out.transform.rawRect(fromUpright: region)
                expectSameBytes(
                    out.image.packedBytes(), try OpenCV.chain(frame.buffer, raw, c.orientation, t),
                    "\(region) \(String(describing: t))")
                #expect(
                    out.image.width == region.width && out.image.height == region.height && out.image.orientation == .up
                )
                let viewOnly = (c.format == .gray8 || c.format.isYCbCr) && c.orientation == .up && t == nil
                // The fused stage carries the time; the separate stages it replaces stay at zero.
                #expect((out.timings.fused > .zero) == !viewOnly, "\(region) \(String(describing: t))")
                if !viewOnly {
                    #expect(
                        out.timings.colorConversion == .zero && out.timings.rotation == .zero
                            && out.timings.threshold == .zero)
                    #expect(out.timings.total >= out.timings.fused)
                }
            }
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("scales run step by step, and report those steps; Gaussian thresholds run fused")
    func stepByStepWhenNotFusable() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 64, height: 48, orientation: .right, value: page)
        let gaussian = try Pipeline(threshold: AdaptiveThreshold(method: .gaussian, blockSize: 11, c: 2)).run(
            frame.buffer)
        #expect(
            gaussian.timings.fused > .zero && gaussian.timings.threshold == .zero && gaussian.timings.rotation == .zero)
        let plain = try Pipeline().run(frame.buffer)
        #expect(
            gaussian.image.packedBytes()
                == (try OpenCV.adaptiveThreshold(plain.image, AdaptiveThreshold(method: .gaussian, blockSize: 11, c: 2)))
                .packedBytes())
        let scaled = try Pipeline(scale: 0.5, threshold: AdaptiveThreshold(blockSize: 5)).run(frame.buffer)
        #expect(scaled.timings.fused == .zero && scaled.timings.scale > .zero && scaled.timings.threshold > .zero)
        #expect(scaled.image.width == 24 && scaled.image.height == 32)
        // A scale that leaves the size as it is does not stop the fused chain.
        let same = try Pipeline(scale: 1.001, threshold: AdaptiveThreshold(blockSize: 5)).run(frame.buffer)
        #expect(same.timings.fused > .zero && same.transform.scaleX == 1)
        #expect(
            same.image.packedBytes()
                == (try Pipeline(threshold: AdaptiveThreshold(blockSize: 5)).run(frame.buffer)).image.packedBytes())
    }

    @Test("without SIMD kernels (level 0: portable C++) the CPU backend runs OpenCV step by step, with the same bytes")
    func noSIMDRunsStepByStep() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 64, height: 48, orientation: .right, value: page)
        let pipeline = Pipeline(
            region: .pixels(PixelRect(x: 4, y: 6, width: 40, height: 50)),
            threshold: AdaptiveThreshold(blockSize: 15, c: 4))
        let fused = try pipeline.run(frame.buffer)
        let stepByStep = try withSIMDLevel(0) { try pipeline.run(frame.buffer) }
        #expect(fused.timings.fused > .zero)
        #expect(
            stepByStep.timings.fused == .zero && stepByStep.timings.rotation > .zero
                && stepByStep.timings.threshold > .zero)
        #expect(stepByStep.image.packedBytes() == fused.image.packedBytes())
    }

    // MARK: Pools

    @Test("runs with a pool reuse its buffers once the previous output is released")
    func poolReuse() throws {
        let frame = try PaddedFrame(format: .bgra8, width: 64, height: 48, orientation: .right)
        // The fused chain takes one buffer per frame (its output), the mean and the Gaussian alike;
        // step by step (a scale) takes four: gray, upright, scaled, threshold.
        for (threshold, scale, buffersPerFrame) in [
            (AdaptiveThreshold(blockSize: 5, c: 1), 1.0, 1),
            (AdaptiveThreshold(method: .gaussian, blockSize: 5, c: 1), 1.0, 1),
            (AdaptiveThreshold(method: .gaussian, blockSize: 5, c: 1), 0.5, 4),
        ] {
            let pool = PixelBufferPool(capacity: 8)
            let pipeline = Pipeline(
                region: .pixels(PixelRect(x: 8, y: 8, width: 32, height: 40)), scale: scale, threshold: threshold)
            let expected = try pipeline.run(frame.buffer).image.packedBytes()
            for _ in 0..<4 {
                let out = try pipeline.run(frame.buffer, pool: pool)
                #expect(out.image.packedBytes() == expected)
            }
            let stats = pool.statistics()
            #expect(stats.unpooledAllocations == 0)
            #expect(stats.allocations <= buffersPerFrame, "\(threshold.method)")
            #expect(stats.reuses >= 3 * buffersPerFrame, "\(threshold.method)")
        }
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("validate() checks the threshold and scale without a frame")
    func validate() {
        #expect(throws: Never.self) { try Pipeline(scale: 2, threshold: AdaptiveThreshold(blockSize: 11)).validate() }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try Pipeline(threshold: AdaptiveThreshold(blockSize: 4)).validate()
        }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try Pipeline(scale: 0).validate() }
    }

    @Test("The initializers: without automatic preprocessing the frame's orientation; with it, the orientation given")
    func initializers() {
        let plain = Pipeline(scale: 2)
        #expect(plain.automatic == nil && plain.orientation == .fromFrame && plain.scale == 2)
        let detecting = Pipeline(orientation: .unknown, automatic: AutomaticPreprocessing())
        #expect(detecting.automatic == AutomaticPreprocessing() && detecting.orientation == .unknown)
        let off = Pipeline(orientation: .known(.right), automatic: nil)
        #expect(off.automatic == nil && off.orientation == .known(.right))
    }
}
