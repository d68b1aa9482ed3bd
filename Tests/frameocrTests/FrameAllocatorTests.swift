import FrameOCR
import Testing

@testable import FrameOCRCommandLine

/// `video`'s malloc settings (FrameAllocator): set, unless the environment sets malloc's own; the
/// library's call refuses thresholds out of range.
@Suite("video: glibc's malloc kept from giving each frame's memory back")
struct FrameAllocatorTests {
    @Test("Thresholds: 64 MiB kept at an arena's top, blocks from 32 MiB mapped alone")
    func thresholds() {
        #expect(FrameAllocator.trimThreshold == 67_108_864)
        #expect(FrameAllocator.mmapThreshold == 33_554_432)
    }

    @Test("Set (glibc accepts both) with no tunables in the environment; left alone when GLIBC_TUNABLES sets malloc's")
    func environment() {
        #expect(FrameAllocator.configureForFrames(environment: [:]))
        #expect(FrameAllocator.configureForFrames(environment: ["GLIBC_TUNABLES": "glibc.rtld.nns=2"]))
        #expect(
            !FrameAllocator.configureForFrames(environment: [
                "GLIBC_TUNABLES": "glibc.rtld.nns=2:glibc.malloc.trim_threshold=1048576"
            ]))
    }

    @Test("A threshold below 1 or above 2³¹−1 is invalidParameter naming it")
    func outOfRange() {
        let low = #expect(throws: FrameOCRError.self) { try FrameAllocator.keepFrameMemory(trimThreshold: 0) }
        #expect(low?.code == .invalidParameter && low?.message.contains("trimThreshold") == true)
        let high = #expect(throws: FrameOCRError.self) {
            try FrameAllocator.keepFrameMemory(mmapThreshold: Int(Int32.max) + 1)
        }
        #expect(high?.code == .invalidParameter && high?.message.contains("mmapThreshold") == true)
    }
}
