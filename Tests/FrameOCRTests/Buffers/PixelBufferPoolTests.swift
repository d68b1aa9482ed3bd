import FrameOCRTestSupport
import Synchronization
import Testing

@testable import FrameOCR

@Suite("PixelBufferPool")
struct PixelBufferPoolTests {
    @Test("a released buffer is reused; a held one is never handed out twice")
    func reuseAfterRelease() throws {
        let pool = PixelBufferPool(capacity: 4)
        var a: PixelBuffer? = try pool.buffer(width: 8, height: 4, pixelFormat: .gray8)
        let b = try pool.buffer(width: 8, height: 4, pixelFormat: .gray8)
        let addressA = baseAddress(a!)
        #expect(!a!.sharesStorage(with: b))
        #expect(addressA != baseAddress(b))
        #expect(pool.statistics() == .init(pooled: 2, reuses: 0, allocations: 2, unpooledAllocations: 0))

        a = nil  // release
        let c = try pool.buffer(width: 8, height: 4, pixelFormat: .gray8)
        #expect(baseAddress(c) == addressA)
        #expect(!c.sharesStorage(with: b))
        #expect(pool.statistics().reuses == 1)

        // Both held: the next request allocates.
        let d = try pool.buffer(width: 8, height: 4, pixelFormat: .gray8)
        #expect(!d.sharesStorage(with: b) && !d.sharesStorage(with: c))
        #expect(pool.statistics() == .init(pooled: 3, reuses: 1, allocations: 3, unpooledAllocations: 0))

        // A different shape never reuses these.
        let e = try pool.buffer(width: 4, height: 8, pixelFormat: .gray8)
        #expect(e.width == 4 && e.height == 8 && pool.statistics().reuses == 1)
        withExtendedLifetime((b, c, d, e)) {}
    }

    @Test("a crop or copy of a pooled buffer keeps it held")
    func cropKeepsBufferHeld() throws {
        let pool = PixelBufferPool(capacity: 4)
        var a: PixelBuffer? = try pool.buffer(width: 8, height: 8, pixelFormat: .gray8)
        let crop = try a!.cropped(to: PixelRect(x: 0, y: 0, width: 2, height: 2))
        a = nil
        let b = try pool.buffer(width: 8, height: 8, pixelFormat: .gray8)
        #expect(!b.sharesStorage(with: crop))
        #expect(pool.statistics().reuses == 0)
        withExtendedLifetime(crop) {}
    }

    @Test("a full pool allocates buffers it does not keep")
    func fullPool() throws {
        let pool = PixelBufferPool(capacity: 2)
        let held = try (0..<3).map { _ in try pool.buffer(width: 4, height: 4, pixelFormat: .bgra8) }
        #expect(pool.statistics() == .init(pooled: 2, reuses: 0, allocations: 2, unpooledAllocations: 1))
        #expect(!held[0].sharesStorage(with: held[1]) && !held[1].sharesStorage(with: held[2]))
    }

    @Test("operations take their outputs from the pool and reuse them once released")
    func operationsUsePool() throws {
        let pool = PixelBufferPool(capacity: 4)
        let frame = try PaddedFrame(format: .bgra8, width: 33, height: 17)
        var first: PixelBuffer? = try frame.buffer.convertedToGray(pool: pool)
        let expected = first!.packedBytes()
        first = nil
        for _ in 0..<5 {
            let gray = try frame.buffer.convertedToGray(pool: pool)
            #expect(gray.packedBytes() == expected)
        }
        #expect(pool.statistics().allocations == 1)
        #expect(pool.statistics().reuses == 5)
        #expect(frame.damagedPaddingBytes() == 0)
    }

    @Test("concurrent requests never share a buffer")
    func concurrentRequests() async throws {
        let pool = PixelBufferPool(capacity: 8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<200 {
                        let b = try pool.buffer(width: 16, height: 2, pixelFormat: .gray8)
                        let mark = UInt8(truncatingIfNeeded: t * 31 + i)
                        b.withUnsafePlanes { p in _ = p[0].row(0).initializeMemory(as: UInt8.self, repeating: mark) }
                        await Task.yield()
                        let row = b.packedBytes().prefix(16)
                        #expect(row.allSatisfy { $0 == mark }, "buffer was handed to another task while held")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(pool.statistics().pooled <= 8)
        #expect(pool.statistics().reuses > 0)
    }
}
