import Foundation
import FrameOCRTestSupport
import Testing

@testable import FrameOCR

/// Issue 15, item 5: OpenCL calls that fail (a build, out of resources, an enqueue or a map in
/// the middle of a stream), made to fail on PoCL by the shim's debug-only fault injection
/// (`focr_cl_debug_inject_fault`). Under `.automatic` the frame and the rest go to the CPU, with
/// the reason recorded; under `.openCL` the frame throws `openCL` and the next one works.
@Suite(.serialized, .tags(.opencl)) struct OpenCLFaultTests {
    /// A BGRA page stored `.right`, thresholded: every kernel of the fused chain runs.
    static func frame() throws -> PixelBuffer {
        let f = try PaddedFrame(format: .bgra8, width: 96, height: 160, padding: 8, value: page)
        var buffer = try f.buffer.copy()
        buffer.orientation = .right
        return buffer
    }

    static let threshold = AdaptiveThreshold(method: .mean, blockSize: 15, c: 6)

    /// `.automatic` picks the OpenCL device `FRAMEOCR_OPENCL_DEVICE` names (PoCL here has no
    /// GPU), from a clean state; the fault and the device choice are undone afterwards.
    static func withAutomaticOnOpenCL(_ body: () throws -> Void) throws {
        let before = ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_DEVICE"]
        setenv("FRAMEOCR_OPENCL_DEVICE", String(clContext.device.index), 1)
        OpenCLRuntime.shared.resetAutomaticFailure()
        defer {
            try? Shim.injectOpenCLFault(.none)
            OpenCLRuntime.shared.resetAutomaticFailure()
            if let before { setenv("FRAMEOCR_OPENCL_DEVICE", before, 1) } else { unsetenv("FRAMEOCR_OPENCL_DEVICE") }
        }
        try body()
    }

    @Test(
        "automatic: a call that fails mid-stream sends that frame and the rest to the CPU, with the reason",
        arguments: [
            (Shim.OpenCLFault.enqueue, "OpenCL error -5"), (.allocate, "OpenCL error -5"), (.map, "OpenCL error -12"),
        ])
    func automaticFallsBackAndStays(fault: Shim.OpenCLFault, code: String) throws {
        try Self.withAutomaticOnOpenCL {
            let frame = try Self.frame()
            let automatic = Pipeline(threshold: Self.threshold, backend: .automatic)
            let cpu = try Pipeline(threshold: Self.threshold, backend: .cpu).run(frame)
            let first = try automatic.run(frame)
            #expect(first.backend == .openCL(device: clContext.device.name) && first.fallbackReason == nil)
            #expect(first.image.packedBytes() == cpu.image.packedBytes())

            try Shim.injectOpenCLFault(fault, count: 1)
            let failed = try automatic.run(frame)
            #expect(failed.backend == .cpu)
            let reason = try #require(failed.fallbackReason)
            #expect(reason.contains(code) && reason.contains("the CPU serves .automatic from now on"), "\(reason)")
            #expect(failed.image.packedBytes() == cpu.image.packedBytes(), "the frame is redone on the CPU, exactly")

            // The fault is over, but the process stays on the CPU, saying why.
            try Shim.injectOpenCLFault(.none)
            let later = try automatic.run(frame)
            #expect(later.backend == .cpu && later.fallbackReason == reason)
            #expect(OpenCLRuntime.shared.automaticFallbackReason == reason)
        }
    }

    @Test("A failure after kernels were enqueued waits for them: the caller's memory is not written after the call")
    func failuresDrainTheQueue() throws {
        defer { try? Shim.injectOpenCLFault(.none) }
        // Large frames, so that the chain's kernels are still running when the map (or the last
        // enqueue) fails; the destination is freed at once and reused by the next allocation.
        // Without the drain this corrupted the heap (a crash in malloc, seen in CI).
        let f = try PaddedFrame(format: .bgra8, width: 1280, height: 720, padding: 8, value: page)
        var frame = try f.buffer.copy()
        frame.orientation = .right
        let pipeline = Pipeline(threshold: Self.threshold, backend: .openCL(device: String(clContext.device.index)))
        let cpu = try Pipeline(threshold: Self.threshold, backend: .cpu).run(frame).image.packedBytes()
        for round in 0..<12 {
            try Shim.injectOpenCLFault(round % 2 == 0 ? .map : .enqueue, skip: round % 2 == 0 ? 0 : 2, count: 1)
            expectFrameOCRError(.openCL) { () throws(FrameOCRError) in _ = try pipeline.run(frame) }
            let scratch = [UInt8](repeating: UInt8(round), count: 1280 * 720)  // takes the freed memory
            #expect(scratch.allSatisfy { $0 == UInt8(round) }, "round \(round): written after the call returned")
        }
        try Shim.injectOpenCLFault(.none)
        #expect(try pipeline.run(frame).image.packedBytes() == cpu)
    }

    @Test("automatic: input errors are not OpenCL's and do not send the stream to the CPU")
    func inputErrorsDoNotFallBack() throws {
        try Self.withAutomaticOnOpenCL {
            var p = Pipeline(threshold: Self.threshold, backend: .automatic)
            p.region = .pixels(PixelRect(x: 500, y: 500, width: 10, height: 10))
            p.regionPolicy = .strict
            let frame = try Self.frame()
            expectFrameOCRError(.invalidROI) { () throws(FrameOCRError) in _ = try p.run(frame) }
            #expect(OpenCLRuntime.shared.automaticFallbackReason == nil)
        }
    }

    @Test("openCL: a failed enqueue throws openCL for that frame; the next frame works")
    func openCLThrowsAndRecovers() throws {
        defer { try? Shim.injectOpenCLFault(.none) }
        let frame = try Self.frame()
        let pipeline = Pipeline(threshold: Self.threshold, backend: .openCL(device: String(clContext.device.index)))
        let cpu = try Pipeline(threshold: Self.threshold, backend: .cpu).run(frame)
        try Shim.injectOpenCLFault(.enqueue, skip: 1, count: 1)  // the second kernel of the chain
        let e = expectFrameOCRError(.openCL) { () throws(FrameOCRError) in _ = try pipeline.run(frame) }
        #expect(e?.message.contains("failed with OpenCL error -5") == true, "\(String(describing: e))")
        let next = try pipeline.run(frame)
        #expect(next.image.packedBytes() == cpu.image.packedBytes())
    }

    @Test("openCL: a processor counts the failed frame and goes on with the next")
    func processorGoesOn() async throws {
        defer { try? Shim.injectOpenCLFault(.none) }
        var pipeline = Pipeline(threshold: Self.threshold, backend: .openCL(device: String(clContext.device.index)))
        pipeline.orientation = .fromFrame
        let processor = try FrameProcessor(
            configuration: .init(pipeline: pipeline, workerCount: 1, queueCapacity: 4, dropPolicy: .block),
            recognizer: FixedCostRecognizer(cost: .milliseconds(1)))
        let frame = try Self.frame()
        try Shim.injectOpenCLFault(.map, count: 1)
        for id in 1...3 {
            _ = await processor.submit(Frame(id: UInt64(id), timestamp: .milliseconds(id), buffer: frame))
        }
        await processor.finish()
        var statuses: [UInt64: FrameResult.Status] = [:]
        var errors: [UInt64: FrameOCRError.Code] = [:]
        for await r in processor.results {
            statuses[r.frameID] = r.status
            errors[r.frameID] = r.error?.code
        }
        #expect(statuses == [1: .failed, 2: .complete, 3: .complete])
        #expect(errors[1] == .openCL)
        let s = processor.statistics()
        #expect(s.submitted == 3 && s.processed == 3 && s.failed == 1 && s.droppedTotal == 0)
    }

    @Test("A program that does not build: .openCL throws openCL; .automatic stays on the CPU, saying why")
    func buildFailure() throws {
        defer { try? Shim.injectOpenCLFault(.none) }
        let before = ProcessInfo.processInfo.environment["FRAMEOCR_OPENCL_DEVICE"]
        setenv("FRAMEOCR_OPENCL_DEVICE", String(clContext.device.index), 1)
        defer {
            if let before { setenv("FRAMEOCR_OPENCL_DEVICE", before, 1) } else { unsetenv("FRAMEOCR_OPENCL_DEVICE") }
        }
        // A runtime of its own: the shared one keeps the context it built at the start.
        let runtime = OpenCLRuntime()
        try Shim.injectOpenCLFault(.build, count: 1)
        let e = expectFrameOCRError(.openCL) { () throws(FrameOCRError) in _ = try runtime.context(named: nil) }
        #expect(e?.message.contains("clBuildProgram failed with OpenCL error -11") == true, "\(String(describing: e))")
        guard case .failure(let reason) = runtime.automaticContext() else {
            Issue.record("a failed build must keep .automatic on the CPU")
            return
        }
        #expect(reason.message == e?.message, "the failure is remembered: one build attempt, not one per frame")
    }
}
