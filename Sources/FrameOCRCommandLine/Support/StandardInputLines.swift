import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lines of standard input — of a file descriptor, or of any `read` — read in 64 KiB pieces, each at most
/// `maximumLineBytes` long: a longer one is skipped to its end and reported by its length, carriage
/// return included. One carriage return before the newline is dropped; lines that are then empty or
/// only spaces and tabs are skipped; a last line without a newline counts like the others.
package struct StandardInputLines {
    package enum Item: Equatable {
        case line([UInt8])
        case tooLong(Int)
    }

    let maximumLineBytes: Int
    /// Fills the buffer's start and returns the bytes it read: 0 at the end, < 0 on an error (which
    /// ends the input too; `EINTR` is retried by the descriptor's reader).
    private let read: (UnsafeMutableRawBufferPointer) -> Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0  // buffer[start..<scanned] holds no newline: each byte is searched once
    private var ended = false
    private var skipping = 0  // bytes of an over-long line skipped so far (0: not skipping)
    private var chunk = [UInt8](repeating: 0, count: 65536)  // what one read fills, reused

    /// Reads `descriptor` with `read(2)`.
    init(descriptor: Int32, maximumLineBytes: Int) {
        self.init(maximumLineBytes: maximumLineBytes) { chunk in
            while true {
                let n = Glibc.read(descriptor, chunk.baseAddress, chunk.count)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
    }

    /// Reads with `read`, which fills the buffer it is given (64 KiB) from its start.
    package init(maximumLineBytes: Int, read: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.maximumLineBytes = maximumLineBytes
        self.read = read
    }

    package mutating func next() -> Item? {
        while true {
            if let nl = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<nl]
                let skipped = skipping
                start = nl + 1
                scanned = start
                skipping = 0
                if let item = Self.item(line, skipped: skipped, maximum: maximumLineBytes) { return item }
                continue
            }
            // No newline in what is buffered: keep it (up to the limit), then read more.
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            scanned = buffer.count
            if buffer.count > maximumLineBytes {
                skipping += buffer.count
                buffer.removeAll(keepingCapacity: true)
                scanned = 0
            }
            if ended {
                guard !buffer.isEmpty || skipping > 0 else { return nil }
                let item = Self.item(buffer[...], skipped: skipping, maximum: maximumLineBytes)
                // Nothing is left: the next call must not search from the old end (a last line
                // without a newline once trapped the worker here, found by frameocr-fuzz serve).
                buffer.removeAll()
                (start, scanned, skipping) = (0, 0, 0)
                return item
            }
            let read = self.read
            let n = chunk.withUnsafeMutableBytes { read($0) }
            if n <= 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[0..<min(n, chunk.count)])
            }
        }
    }

    /// Reads the `count` bytes that follow the last line returned (a payload), into `destination`
    /// (at least `count` bytes; nil: read and dropped): what is buffered first, then read
    /// straight into `destination`. Returns the bytes read: `count`, or fewer when the input
    /// ended. The next line starts after them.
    package mutating func payload(_ count: Int, into destination: UnsafeMutableRawBufferPointer?) -> Int {
        let buffered = min(count, buffer.count - start)
        if buffered > 0, let destination {
            buffer[start..<start + buffered].withUnsafeBytes {
                destination.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: buffered)
            }
        }
        start += buffered
        scanned = max(scanned, start)
        var got = buffered
        let read = self.read
        while got < count, !ended {
            let n: Int
            if let destination {
                n = read(UnsafeMutableRawBufferPointer(rebasing: destination[got..<count]))
            } else {
                let want = min(chunk.count, count - got)
                n = chunk.withUnsafeMutableBytes { read(UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            }
            if n <= 0 { ended = true } else { got += n }
        }
        return got
    }

    /// What one line (without its newline) is, after `skipped` bytes of it were already dropped:
    /// too long, a line, or nil (blank).
    private static func item(_ line: ArraySlice<UInt8>, skipped: Int, maximum: Int) -> Item? {
        if skipped > 0 || line.count > maximum { return .tooLong(skipped + line.count) }
        let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        if text.allSatisfy({ $0 == 32 || $0 == 9 }) { return nil }
        return .line(Array(text))
    }
}
