import Foundation
import Testing

@testable import FrameOCRCommandLine

@Suite("StandardInputLines: lines, and the payloads that follow them")
struct StandardInputLinesTests {
    /// A reader over `input`, read `piece` bytes at a time.
    static func reader(_ input: [UInt8], piece: Int, maximum: Int = 64) -> StandardInputLines {
        final class Source: @unchecked Sendable {  // read by one reader
            var offset = 0
        }
        let source = Source()
        return StandardInputLines(maximumLineBytes: maximum) { buffer in
            let n = min(piece, buffer.count, input.count - source.offset)
            guard n > 0 else { return 0 }
            input[source.offset..<source.offset + n].withUnsafeBytes { buffer.copyMemory(from: $0) }
            source.offset += n
            return n
        }
    }

    @Test(
        "A payload after a line is read whole whether buffered or not, kept or dropped, and the next line starts after it; one cut short reports what came",
        arguments: [1, 3, 7, 65536])
    func payloads(piece: Int) {
        let input = Array("one\r\nAB\nCD\ntwo\n\nXYZW\nthree\n12".utf8)
        var r = Self.reader(input, piece: piece)
        #expect(r.next() == .line(Array("one".utf8)))
        var kept = [UInt8](repeating: 0, count: 6)
        #expect(kept.withUnsafeMutableBytes { r.payload(6, into: $0) } == 6)
        #expect(kept == Array("AB\nCD\n".utf8))  // newlines inside a payload are its bytes
        #expect(r.next() == .line(Array("two".utf8)))
        #expect(r.payload(0, into: nil) == 0)
        // The blank line is the payload's first byte here: dropped with it.
        #expect(r.payload(6, into: nil) == 6)
        #expect(r.next() == .line(Array("three".utf8)))
        var tail = [UInt8](repeating: 0, count: 5)
        #expect(tail.withUnsafeMutableBytes { r.payload(5, into: $0) } == 2)
        #expect(tail.prefix(2) == [0x31, 0x32])
        #expect(r.next() == nil)
    }
}
