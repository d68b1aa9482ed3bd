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
    func serve(maximumRequestBytes: Int) -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // a reader that goes away is a failed write, not a killed worker
        let slots = DispatchSemaphore(value: workers)
        let group = DispatchGroup()
        var lines = StandardInputLines(descriptor: 0, maximumLineBytes: maximumRequestBytes)
        while let line = lines.next(), !outputBroken.load(ordering: .relaxed) {
            // Back-pressure: no more is read while `workers` requests are in flight.
            slots.wait()
            group.enter()
            DispatchQueue.global().async {
                defer {
                    slots.signal()
                    group.leave()
                }
                let start = ContinuousClock.now
                let response: ServeResponse
                switch line {
                case .line(let bytes): response = self.respond(to: bytes)
                case .tooLong(let bytes):
                    response = ServeResponse(
                        id: .none, elapsed: ContinuousClock.now - start,
                        outcome: .failure(
                            ServeFailure(
                                "badRequest", "request line longer than \(maximumRequestBytes) bytes (\(bytes) read)")))
                }
                self.write(response.line)
            }
        }
        group.wait()
        return outputBroken.load(ordering: .relaxed) ? 1 : 0
    }

    /// The response to one request line.
    func respond(to line: [UInt8]) -> ServeResponse {
        let start = ContinuousClock.now
        let (id, parsed) = parser.parse(line)
        let outcome: ServeResponse.Outcome
        do {
            outcome = .result(try carryOut(try parsed.get()))
        } catch {
            outcome = .failure(ServeFailure(error))
        }
        return ServeResponse(id: id, elapsed: ContinuousClock.now - start, outcome: outcome)
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
