import Dispatch
import Foundation
import FrameOCR
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The worker behind `serve --stdio`: reads request lines, runs up to `workers` at once on
/// Dispatch's global queue, and writes each response as one `write(2)` of one line.
package final class Server: Sendable {
    package let parser: ServeRequestParser
    package let workers: Int
    /// Recognizers by engine settings, at most ``maximumRecognizers`` (least recently used out).
    private let recognizers = Mutex<[(key: EngineKey, recognizer: Recognizer)]>([])
    private let pool: PixelBufferPool
    /// Standard output failed (the reader went away): stop reading, exit 1.
    private let outputBroken = Atomic<Bool>(false)
    private let output = Mutex<Void>(())
    /// Recognizers kept for different engine settings (languages, engine mode).
    static let maximumRecognizers = 4

    package init(parser: ServeRequestParser, workers: Int) {
        self.parser = parser
        self.workers = workers
        pool = PixelBufferPool(capacity: 8 * workers)
    }

    /// Reads standard input to its end, answering each request; returns the exit status: 0, or 1
    /// when standard output could not be written.
    ///
    /// Each line is parsed here, on the reading thread, so that a protocol 2 payload is read
    /// before the next line: into one of `workers` buffers reused from request to request (a
    /// slot is taken first, so one is always free), and wrapped, not copied. A payload over
    /// `maximumRequestBytes`, or for a frame over the limits, is read and dropped, unkept.
    func serve(maximumRequestBytes: Int) -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // a reader that goes away is a failed write, not a killed worker
        let slots = DispatchSemaphore(value: workers)
        let group = DispatchGroup()
        let buffers = PayloadBuffers()
        var lines = StandardInputLines(descriptor: 0, maximumLineBytes: maximumRequestBytes)
        while let line = lines.next(), !outputBroken.load(ordering: .relaxed) {
            // Back-pressure: no more is read while `workers` requests are in flight.
            slots.wait()
            let start = ContinuousClock.now
            var parsed: ParsedLine
            var buffer: PayloadBuffer?
            switch line {
            case .line(let bytes):
                parsed = parser.parse(bytes)
                buffer = readPayload(&parsed, from: &lines, buffers: buffers, maximumBytes: maximumRequestBytes)
            case .tooLong(let bytes):
                parsed = ParsedLine(
                    request: .failure(
                        ServeFailure(
                            "badRequest", "request line longer than \(maximumRequestBytes) bytes (\(bytes) read)")))
            }
            group.enter()
            DispatchQueue.global().async { [parsed, buffer] in
                defer {
                    if let buffer { buffers.put(buffer) }
                    slots.signal()
                    group.leave()
                }
                self.write(self.respond(to: parsed, start: start).line)
            }
        }
        group.wait()
        return outputBroken.load(ordering: .relaxed) ? 1 : 0
    }

    /// Reads the payload that follows `parsed`'s line: for a raw-pixel request within the limits,
    /// into a buffer from `buffers` (returned, to be put back once the request is answered), its
    /// request's source then the frame wrapped over it; otherwise read and dropped, and the
    /// request failed with why.
    func readPayload(
        _ parsed: inout ParsedLine, from lines: inout StandardInputLines, buffers: PayloadBuffers, maximumBytes: Int
    ) -> PayloadBuffer? {
        let count = parsed.payloadBytes
        guard count > 0 || parsed.request.isPayload else { return nil }
        var buffer: PayloadBuffer?
        do {
            guard count <= maximumBytes else {
                throw ServeFailure(
                    "badRequest", "a payload of \(count) bytes is over --max-request-bytes (\(maximumBytes))")
            }
            var request = try parsed.request.get()
            guard case .payload(let description) = request.source else { throw ServeFailure("internal", "no frame") }
            // The limits and the length, before any byte is kept.
            let required = try description.requiredBytes(limits: request.settings.limits)
            guard count >= required, count == required || description.format.planeCount == 1 else {
                throw FrameOCRError(
                    .invalidBuffer,
                    "a \(description.format) \(description.width)x\(description.height) frame needs "
                        + (description.format.planeCount == 1 ? "at least " : "exactly ")
                        + "\(required) bytes, the request gives \(count)", stage: .buffer)
            }
            let taken = buffers.take(capacity: count)
            buffer = taken
            let got = lines.payload(count, into: UnsafeMutableRawBufferPointer(rebasing: taken.bytes[0..<count]))
            guard got == count else {
                throw ServeFailure("badRequest", "the input ended \(got) bytes into a payload of \(count)")
            }
            request.source = .pixels(
                try description.frame(
                    UnsafeRawBufferPointer(rebasing: taken.bytes[0..<count]), limits: request.settings.limits))
            parsed.request = .success(request)
            return taken
        } catch {
            // Not read yet: read and dropped, so that the next line starts where it does.
            if let buffer { buffers.put(buffer) } else { _ = lines.payload(count, into: nil) }
            parsed.request = .failure(ServeFailure(error))
            return nil
        }
    }

    /// The response to one request line (a test's way in: no payload).
    func respond(to line: [UInt8]) -> ServeResponse {
        respond(to: parser.parse(line), start: ContinuousClock.now)
    }

    /// The response to a parsed request, read from `start`.
    func respond(to parsed: ParsedLine, start: ContinuousClock.Instant) -> ServeResponse {
        let outcome: ServeResponse.Outcome
        do {
            outcome = .result(try carryOut(try parsed.request.get()))
        } catch {
            outcome = .failure(ServeFailure(error))
        }
        return ServeResponse(
            id: parsed.id, elapsed: ContinuousClock.now - start, outcome: outcome, version: parsed.version)
    }

    /// Reads and recognizes a parsed request; returns its result as the request's format renders
    /// it.
    func carryOut(_ request: ServeRequest) throws -> RecognitionOutput.Rendering {
        try recognize(request).rendering
    }

    /// Reads and recognizes a parsed request: its result as the request's format renders it,
    /// and the result itself.
    package func recognize(_ request: ServeRequest) throws -> (
        rendering: RecognitionOutput.Rendering, result: RecognitionResult
    ) {
        let settings = request.settings
        let image: PixelBuffer
        var path: String?
        switch request.source {
        case .path(let p):
            path = p
            image = try PixelBuffer(contentsOfFile: p, limits: settings.limits)
        case .encoded(let bytes): image = try PixelBuffer(encoded: bytes, limits: settings.limits)
        case .pixels(let frame): image = frame
        case .payload: throw ServeFailure("badRequest", "raw pixels without their payload")
        }
        let recognizer = try recognizer(for: settings.configuration)
        let result = try recognizer.recognize(
            image, pipeline: settings.pipeline, options: settings.configuration.defaultOptions,
            timeLimit: settings.timeLimit, pool: pool)
        return (settings.output.render(result, file: path), result)
    }

    /// The recognizer for `configuration`'s engine settings: made once, with one engine loaded
    /// per worker, then shared by every request with the same settings.
    package func recognizer(for configuration: Recognizer.Configuration) throws(FrameOCRError) -> Recognizer {
        let key = EngineKey(configuration)
        if let r = recognizers.withLock({ list -> Recognizer? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let hit = list.remove(at: i)
            list.append(hit)
            return hit.recognizer
        }) {
            return r
        }
        // Made outside the lock (a model load takes a while); two requests racing may both make
        // one, and the second one made is kept.
        let made = try Recognizer(configuration: configuration, maxIdleEngines: workers)
        try made.prepareEngines(workers)  // one per worker: no model load on a request's path
        recognizers.withLock { list in
            list.removeAll { $0.key == key }
            list.append((key, made))
            if list.count > Self.maximumRecognizers { list.removeFirst(list.count - Self.maximumRecognizers) }
        }
        return made
    }

    /// Writes `line` and a newline to standard output in one piece; marks the output broken when
    /// that fails.
    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        output.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    outputBroken.store(true, ordering: .relaxed)
                    return
                }
                offset += n
            }
        }
    }
}

/// The engine-level part of a configuration: requests that share it share a ``Recognizer``
/// (and so its loaded engines).
struct EngineKey: Hashable {
    var languages: [String]
    var tessdataPath: String?
    var engineMode: Int32
    var userWords: [String]
    var userPatterns: [String]

    init(_ c: Recognizer.Configuration) {
        languages = c.languages
        tessdataPath = c.tessdataPath
        engineMode = c.engineMode.rawValue
        userWords = c.userWords
        userPatterns = c.userPatterns
    }
}

/// A payload buffer, reused: grown to the largest payload it has held, never shrunk.
final class PayloadBuffer: @unchecked Sendable {  // used by one request at a time
    private(set) var bytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// Makes room for `capacity` bytes (the contents are not kept).
    func reserve(_ capacity: Int) {
        guard capacity > bytes.count else { return }
        bytes.deallocate()
        bytes = .allocate(byteCount: capacity, alignment: 64)
    }

    deinit { bytes.deallocate() }
}

/// The worker's payload buffers: at most one per request in flight (`--workers`), so their
/// memory is bounded by `workers` × `--max-request-bytes`.
final class PayloadBuffers: Sendable {
    private let free = Mutex<[PayloadBuffer]>([])

    /// A buffer of at least `capacity` bytes: a free one (grown if need be), or a new one.
    func take(capacity: Int) -> PayloadBuffer {
        let buffer = free.withLock { $0.popLast() } ?? PayloadBuffer()
        buffer.reserve(capacity)
        return buffer
    }

    func put(_ buffer: PayloadBuffer) { free.withLock { $0.append(buffer) } }
}

extension Result where Success == ServeRequest {
    /// A raw-pixel request whose payload is still to be read.
    var isPayload: Bool {
        if case .success(let r) = self, case .payload = r.source { return true }
        return false
    }
}
