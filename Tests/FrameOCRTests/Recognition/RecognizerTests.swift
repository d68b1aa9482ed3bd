import Foundation
import FrameOCREvaluation
import FrameOCRTestSupport
import LiveTestSupport
import Synchronization
import Testing

@testable import FrameOCR

/// Fixture files shipped in Tests/FrameOCRTests/Fixtures (see NOTICE).
enum OCRFixture {
    static func path(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name).path
    }
    static func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
}

/// One recognizer for the suite: engines are expensive to create (model load).
let sharedRecognizer: Recognizer = try! Recognizer()

/// Two regions of phototest.tif read with different settings: its first line (default options)
/// and the word "12" (digits whitelist, single-word PSM) — for tests that mix settings.
struct PhototestRegions {
    let page: PixelBuffer
    let full: RecognitionResult
    let linePipeline: Pipeline
    let digitPipeline: Pipeline
    let digitOptions = Recognizer.Options(pageSegmentationMode: .singleWord, characterWhitelist: "0123456789")
    let expectedLine: String

    init(_ recognizer: Recognizer = sharedRecognizer) throws {
        page = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        full = try recognizer.recognize(page)
        let line = try #require(full.lines.first).box.rect
        linePipeline = Pipeline(region: .pixels(PixelRect(enclosing: line, padding: 8)))
        let twelve = try #require(full.words.first { $0.text == "12" }).box.rect
        digitPipeline = Pipeline(region: .pixels(PixelRect(enclosing: twelve, padding: 6)))
        expectedLine = try recognizer.recognize(page, pipeline: linePipeline).text
    }
}

@Suite("Recognizer on real images", .tags(.tesseract))
struct RecognizerTests {
    @Test("phototest.tif: CER ≤ 2 % against its ground truth")
    func phototestCER() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let result = try sharedRecognizer.recognize(image)
        let cer = TextMetrics.characterErrorRate(
            hypothesis: result.text, reference: try OCRFixture.text("phototest.gt.txt"))
        #expect(cer <= 0.02, "CER \(cer): \(result.text)")
        #expect(result.status == .complete)
        #expect(result.frameWidth == image.width && result.frameHeight == image.height)
    }

    @Test("invertedLineReading false skips Tesseract's inverted second reading of poor lines, for that call only")
    func invertedLineReading() throws {
        // Light text on a dark ground, read without the automatic mode's polarity step.
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("r01-open24h-inverted.png"))
        let on = try sharedRecognizer.recognize(image, pipeline: Pipeline())
        let off = try sharedRecognizer.recognize(
            image, pipeline: Pipeline(), options: Recognizer.Options(invertedLineReading: false))
        let again = try sharedRecognizer.recognize(image, pipeline: Pipeline())
        #expect(on.text.contains("OPEN 24H"), "\(on.text)")
        #expect(!off.text.contains("OPEN"), "\(off.text)")
        #expect(again.text == on.text)
    }

    @Test("Word boxes lie inside the image, in reading order, with confidences in 0…1")
    func boxesAndConfidences() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let result = try sharedRecognizer.recognize(image)
        let words = result.words
        #expect(words.count >= 60)
        for word in words {
            let r = word.box.rect
            #expect(r.x >= 0 && r.y >= 0 && r.maxX <= Double(image.width) && r.maxY <= Double(image.height))
            #expect(r.width > 0 && r.height > 0)
            let c = try #require(word.confidence)
            #expect(c >= 0 && c <= 1)
            #expect(word.box.normalizedRect.x == r.x / Double(image.width))
            for symbol in word.symbols {
                #expect(symbol.choices.count <= 3)
                for alt in symbol.choices { #expect(alt.confidence.map { $0 >= 0 && $0 <= 1 } ?? true) }
            }
        }
        #expect(words.allSatisfy { !$0.symbols.isEmpty })
        // Reading order: lines go down the page, words go right along a line.
        for block in result.blocks {
            for (a, b) in zip(block.lines, block.lines.dropFirst()) { #expect(a.box.rect.y < b.box.rect.y) }
            for line in block.lines {
                for (a, b) in zip(line.words, line.words.dropFirst()) { #expect(a.box.rect.maxX <= b.box.rect.x) }
                #expect(line.text == line.words.map(\.text).joined(separator: " "))
            }
        }
        let whole = try #require(result.confidence)
        #expect(whole > 0.8 && whole <= 1)
        #expect(result.words.first?.text == "This")
    }

    @Test("A page stored in any orientation gives the upright page's text and boxes", arguments: Orientation.allCases)
    func orientedCopies(orientation: Orientation) throws {
        let upright = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif")).convertedToGray()
        var stored = try upright.applyingOrientation(orientation.inverse)
        stored.orientation = orientation
        #expect(stored.uprightWidth == upright.width && stored.uprightHeight == upright.height)
        if orientation == .right { #expect(stored.width == upright.height) }
        let reference = try sharedRecognizer.recognize(upright)
        let result = try sharedRecognizer.recognize(stored)
        #expect(result.text == reference.text)
        #expect(result.words.map(\.box.rect) == reference.words.map(\.box.rect))
        // The transform maps each upright box back into the stored buffer, where that region
        // holds the same pixels as the upright box.
        let word = try #require(result.words.first)
        let raw = result.transform.rawRect(
            fromUpright: PixelRect(
                x: Int(word.box.rect.x), y: Int(word.box.rect.y), width: Int(word.box.rect.width),
                height: Int(word.box.rect.height)))
        let fromStored = try stored.cropped(to: raw).applyingOrientation(orientation).packedBytes()
        let fromUpright = try upright.cropped(
            to: PixelRect(
                x: Int(word.box.rect.x), y: Int(word.box.rect.y), width: Int(word.box.rect.width),
                height: Int(word.box.rect.height))
        ).copy().packedBytes()
        #expect(fromStored == fromUpright)
    }

    @Test("Region, scale and threshold: boxes come back in upright-frame pixels")
    func regionAndScaleMapping() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let full = try sharedRecognizer.recognize(image)
        let firstLine = try #require(full.lines.first)
        let r = firstLine.box.rect
        let region = PixelRect(enclosing: r, padding: 10)
        let pipeline = Pipeline(
            region: .pixels(region), scale: 2, threshold: AdaptiveThreshold(method: .gaussian, blockSize: 31, c: 10))
        let result = try sharedRecognizer.recognize(image, pipeline: pipeline)
        #expect(result.text == firstLine.text)
        #expect(result.transform.scaleX == 2 && result.transform.region == region)
        // The same words, boxes within a couple of pixels of the full-page ones.
        for (a, b) in zip(result.words, firstLine.words) {
            #expect(a.text == b.text)
            #expect(abs(a.box.rect.x - b.box.rect.x) <= 2 && abs(a.box.rect.maxX - b.box.rect.maxX) <= 2)
            #expect(abs(a.box.rect.y - b.box.rect.y) <= 2)
            #expect(a.box.rect.maxY <= Double(region.maxY) && a.box.rect.y >= Double(region.y))
        }
        #expect(result.timings.scale > .zero && result.timings.threshold > .zero && result.timings.recognition > .zero)
        #expect(result.timings.total >= result.timings.recognition)
    }

    @Test("R02: a raw strided buffer with a resolution gives the same text ten times; 0 ppi is refused")
    func rawBufferResolution() throws {
        let page = try PixelBuffer(contentsOfFile: OCRFixture.path("testocr.png")).convertedToGray()
        // Re-wrap the pixels with a padded stride and 0xEE padding, as a camera buffer would be.
        let stride = page.width + 64
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * page.height, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE, count: stride * page.height)
        page.withUnsafePlanes { planes in
            for y in 0..<page.height {
                (memory + y * stride).copyMemory(from: planes[0].row(y).baseAddress!, byteCount: page.width)
            }
        }
        let raw = try PixelBuffer(
            wrapping: memory, byteCount: stride * page.height, width: page.width, height: page.height,
            bytesPerRow: stride, pixelFormat: .gray8, deallocator: { $0.deallocate() })
        let texts = try (0..<10).map { _ in try sharedRecognizer.recognize(raw).text }
        #expect(Set(texts).count == 1)
        let cer = TextMetrics.characterErrorRate(hypothesis: texts[0], reference: try OCRFixture.text("testocr.gt.txt"))
        #expect(cer <= 0.02, "CER \(cer)")
        for bad in [0, -72] {
            #expect(throws: FrameOCRError.self) {
                try sharedRecognizer.recognize(raw, options: Recognizer.Options(sourceResolution: bad))
            }
        }
        do {
            _ = try sharedRecognizer.recognize(raw, options: Recognizer.Options(sourceResolution: 0))
        } catch {
            #expect(error.code == .invalidParameter && error.message.contains("sourceResolution"))
        }
    }

    @Test("R02: Tesseract's log has no 'Invalid resolution' line for a raw buffer")
    func noResolutionWarning() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "frameocr-tess-\(UUID().uuidString).log"
        ).path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let recognizer = try Recognizer(configuration: .init(variables: ["debug_file": log]), maxIdleEngines: 1)
        let page = try PixelBuffer(contentsOfFile: OCRFixture.path("testocr.png")).convertedToGray()
        let text = try recognizer.recognize(page).text
        #expect(text.contains("12 point"))
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!logged.contains("Invalid resolution"), "\(logged)")
        #expect(!logged.contains("Estimating resolution"), "\(logged)")
    }

    @Test("User words and patterns load with the engine and recognition still reads the page")
    func userWordsAndPatterns() throws {
        let recognizer = try Recognizer(
            configuration: .init(userWords: ["FrameOCR", "Tesseract"], userPatterns: [#"\d\d point"#]))
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let cer = TextMetrics.characterErrorRate(
            hypothesis: try recognizer.recognize(image).text,
            reference: try OCRFixture.text("phototest.gt.txt"))
        #expect(cer <= 0.02)
    }

    @Test("R05: a blank frame gives empty text, no words, nil confidence — no throw")
    func blankFrame() throws {
        let white = try PixelBuffer(
            packed: [UInt8](repeating: 255, count: 200 * 40), width: 200, height: 40, pixelFormat: .gray8)
        let result = try sharedRecognizer.recognize(white)
        #expect(result.text == "")
        #expect(result.words.isEmpty && result.blocks.isEmpty)
        #expect(result.confidence == nil)
        #expect(result.status == .complete)
    }

    @Test("Whitelist and PSM apply per call and never leak into the next call")
    func perCallOptions() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let full = try sharedRecognizer.recognize(image)
        let twelve = try #require(full.words.first { $0.text == "12" })
        let r = twelve.box.rect
        let region = Pipeline(region: .pixels(PixelRect(enclosing: r, padding: 6)))
        let digits = Recognizer.Options(pageSegmentationMode: .singleWord, characterWhitelist: "0123456789")
        #expect(try sharedRecognizer.recognize(image, pipeline: region, options: digits).text == "12")
        // The first line read with a digits-only whitelist cannot contain letters …
        let lineBox = try #require(full.lines.first).box.rect
        let line = Pipeline(region: .pixels(PixelRect(enclosing: lineBox, padding: 8)))
        let restricted = try sharedRecognizer.recognize(
            image, pipeline: line, options: Recognizer.Options(characterWhitelist: "0123456789 "))
        #expect(!restricted.text.contains { $0.isLetter })
        // … and the next call with default options reads the letters again.
        #expect(try sharedRecognizer.recognize(image, pipeline: line).text == full.lines.first?.text)
    }

    @Test("R07: 8 concurrent callers × 25 calls with two settings mixed: every result is its own")
    func concurrentPool() async throws {
        let recognizer = try Recognizer()
        let regions = try PhototestRegions(recognizer)
        let (image, linePipeline, digitPipeline, digitOptions) = (
            regions.page, regions.linePipeline, regions.digitPipeline, regions.digitOptions
        )
        let expectedLine = regions.expectedLine
        let expectedDigits = try recognizer.recognize(image, pipeline: digitPipeline, options: digitOptions).text
        #expect(expectedDigits == "12")
        let results = try await withThrowingTaskGroup(of: (Bool, [String]).self) { group in
            for task in 0..<8 {
                let digits = task % 4 == 3
                group.addTask {
                    var texts: [String] = []
                    for _ in 0..<25 {
                        texts.append(
                            digits
                                ? try recognizer.recognize(image, pipeline: digitPipeline, options: digitOptions).text
                                : try recognizer.recognize(image, pipeline: linePipeline).text)
                    }
                    return (digits, texts)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        for (digits, texts) in results {
            #expect(texts.allSatisfy { $0 == (digits ? expectedDigits : expectedLine) })
        }
        #expect(recognizer.idleEngineCount >= 1)
    }

    /// A default recognizer keeps as many idle engines as there are cores; asked to prepare more,
    /// it used to load only that many, and the extra threads loaded engines on every call.
    @Test("prepareEngines(n) sizes the pool: n threads recognize at once without loading an engine")
    func preparedPoolIsKept() async throws {
        let recognizer = try Recognizer(maxIdleEngines: 1)
        #expect(recognizer.maximumIdleEngines == 1 && recognizer.enginesLoaded == 1)
        try recognizer.prepareEngines(4)
        #expect(recognizer.idleEngineCount == 4 && recognizer.maximumIdleEngines == 4 && recognizer.enginesLoaded == 4)
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let line = Pipeline(region: .pixels(PixelRect(x: 0, y: 80, width: 640, height: 60)))
        for _ in 0..<3 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { _ = try recognizer.recognize(image, pipeline: line) } }
                try await group.waitForAll()
            }
        }
        // At most four were in use at once: every call found a prepared engine and returned it.
        #expect(recognizer.enginesLoaded == 4 && recognizer.idleEngineCount == 4)
        // Asking for fewer keeps the larger pool; out-of-range counts are refused.
        try recognizer.prepareEngines(2)
        #expect(recognizer.maximumIdleEngines == 4 && recognizer.idleEngineCount == 4)
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in try recognizer.prepareEngines(-1) }
        expectFrameOCRError(.invalidParameter) { () throws(FrameOCRError) in
            try recognizer.prepareEngines(Recognizer.maximumPreparedEngines + 1)
        }
    }

    @Test("R08: 350 recognitions on one engine: same text, resident memory flat")
    func noLeakPerFrame() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let recognizer = try Recognizer(maxIdleEngines: 1)
        let pipeline = Pipeline(region: .pixels(PixelRect(x: 0, y: 80, width: 640, height: 120)))
        let pool = PixelBufferPool(capacity: 4)
        let first = try recognizer.recognize(image, pipeline: pipeline, pool: pool).text
        #expect(first.contains("12 point"))
        for _ in 0..<50 { _ = try recognizer.recognize(image, pipeline: pipeline, pool: pool) }
        // Resident memory is the process's: tests running in parallel add to it now and then. A
        // leak per frame grows it in every window; the smallest growth of three windows is ours.
        var growths: [Int] = []
        for _ in 0..<3 {
            let before = residentBytes()
            for _ in 0..<100 {
                #expect(try recognizer.recognize(image, pipeline: pipeline, pool: pool).text == first)
            }
            growths.append(residentBytes() - before)
        }
        let growth = growths.min()!
        // Under ASan (make sanitize) freed blocks wait in its quarantine, resident, before reuse.
        #expect(
            growth < (1 << 20) + Sanitizers.quarantineBytes,
            "resident memory grew by \(growths) bytes per 100 recognitions")
        #expect(pool.statistics().allocations <= 4)
    }

    @Test("A deadline that cannot be met gives budgetExceeded and no error")
    func deadline() throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let result = try sharedRecognizer.recognize(image, deadline: .milliseconds(1))
        #expect(result.status == .budgetExceeded)
        #expect(result.confidence.map { $0 >= 0 && $0 <= 1 } ?? true)
        // The engine is fine afterwards.
        #expect(try sharedRecognizer.recognize(image).status == .complete)
    }

    @Test("A missing language is a clear tesseract error")
    func missingLanguage() {
        do {
            _ = try Recognizer(configuration: Recognizer.Configuration(languages: ["xyz"]))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .tesseract && error.message.contains("xyz"))
        }
    }
}

/// Resident set size of this process, from /proc/self/statm.
func residentBytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = s.split(separator: " ")
    return (Int(fields[1]) ?? 0) * 4096
}
