import Foundation
import FrameOCREvaluation
import FrameOCRSynthesis
import FrameOCRTestSupport
import LiveTestSupport
import Synchronization
import Testing

@testable import FrameOCR

/// The CTC line engine (``TextLineRecognizer``: PP-OCRv4's recognizer through OpenCV's dnn
/// module, installed by `make deps`) and the seam it shares with Tesseract (``LineRecognizing``,
/// ``TesseractLineRecognizer``). The lines are rendered in DejaVu Sans (FrameOCRSynthesis), so the
/// texts read are exact.
@Suite("Line engines: the CTC recognizer and Tesseract behind one seam")
struct TextLineRecognizerTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    /// `text` rendered dark on light, the font `height` pixels tall, with a margin of a quarter of
    /// it: a line's crop as a detector's region gives it.
    static func line(_ text: String, height: Int = 40, ink: UInt8 = 20, paper: UInt8 = 230) throws -> PixelBuffer {
        try PixelBuffer.rendering(text, fontPath: font, height: height, margin: height / 4, ink: ink, paper: paper)
    }

    /// The installed model (`make deps`), loaded once per configuration; a missing one fails each
    /// test that needs it with the load's error instead of stopping the test process.
    static let loaded = Result { () throws(FrameOCRError) in try TextLineRecognizer() }
    static func recognizer() throws -> TextLineRecognizer { try loaded.get() }
    static let withAlternates = Result { () throws(FrameOCRError) in
        try TextLineRecognizer(configuration: .init(alternates: 4))
    }

    @Test(
        "Rendered words read exactly: a word, a plate, digits, a sign",
        arguments: [
            "HELLO", "AB12 CDE", "4711", "0123456789", "Platform 9", "EXIT",
        ])
    func readsExactly(_ text: String) throws {
        let image = try Self.line(text)
        let read = try Self.recognizer().recognizeLine(image)
        #expect(read.text == text)
        #expect(read.engine == .ctc)
        #expect(read.characters.map(\.text).joined() == read.text)
        let confidence = try #require(read.confidence)
        #expect(confidence > 0.8 && confidence <= 1, "\(text): \(confidence)")
        // The line's confidence is the mean of its characters'.
        let mean = read.characters.compactMap(\.confidence).reduce(0, +) / Float(read.characters.count)
        #expect(abs(confidence - mean) < 1e-6)
        #expect(read.characters.allSatisfy { $0.choices.isEmpty })
    }

    @Test("Light text on a dark ground reads as dark on light does")
    func inverted() throws {
        let read = try Self.recognizer().recognizeLine(Self.line("OPEN 24H", ink: 235, paper: 25))
        #expect(read.text == "OPEN 24H")
    }

    @Test("Character boxes: left to right, not overlapping, inside the image, the image's height")
    func boxes() throws {
        let image = try Self.line("AB12 CDE")
        let read = try Self.recognizer().recognizeLine(image)
        #expect(read.characters.count == 8)
        var previous = -1.0
        for c in read.characters {
            #expect(c.box.x >= previous, "\(c.text) at \(c.box.x), the one before ends at \(previous)")
            #expect(c.box.width > 0 && c.box.x >= 0 && c.box.maxX <= Double(image.width))
            #expect(c.box.y == 0 && c.box.height == Double(image.height))
            previous = c.box.maxX
        }
        // Each box lies over its own part of the line: "A" in the left half, "E" in the right.
        #expect(try #require(read.characters.first).box.maxX < Double(image.width) / 2)
        #expect(try #require(read.characters.last).box.x > Double(image.width) / 2)
    }

    @Test("Alternates: the character's own text first, then the others, most probable first")
    func alternates() throws {
        let recognizer = try Self.withAlternates.get()
        let read = try recognizer.recognizeLine(Self.line("AB12 CDE"))
        #expect(read.text == "AB12 CDE")
        for c in read.characters {
            #expect(c.choices.count == 5, "\(c.text): \(c.choices)")
            #expect(c.choices.first?.text == c.text)
            #expect(c.choices.first?.confidence == c.confidence)
            #expect(c.choices.first?.log10RelativeLikelihood == 0)
            let confidences = c.choices.map { $0.confidence ?? -1 }
            #expect(confidences == confidences.sorted(by: >), "\(c.text): \(confidences)")
            #expect(Set(c.choices.map(\.text)).count == c.choices.count)
            for a in c.choices.dropFirst() {
                let l = try #require(a.log10RelativeLikelihood)
                #expect(l <= 0)
                #expect(TextLineRecognizer.Alphabet.latin.contains(a.text))
            }
        }
        // The same reading with and without alternates.
        let plain = try Self.recognizer().recognizeLine(Self.line("AB12 CDE"))
        #expect(plain.characters.map(\.box) == read.characters.map(\.box))
        #expect(plain.characters.map(\.confidence) == read.characters.map(\.confidence))
    }

    @Test("Choices per call, counted as RecognitionOptions.alternates counts them: the character's own first")
    func choicesPerCall() throws {
        // A recognizer made without alternates gives them when a call asks (the engine pool's is
        // made once, the calls' options differ).
        let recognizer = try Self.recognizer()
        let line = try Self.line("AB12 CDE")
        let five = try Self.withAlternates.get().recognizeLine(line)
        for n in 0...5 {
            let read = try recognizer.recognizeLine(line, choices: n)
            #expect(read.text == "AB12 CDE")
            for (c, full) in zip(read.characters, five.characters) {
                #expect(c.choices.count == n, "\(n): \(c.text): \(c.choices)")
                // The first n of the recognizer's own five: the same texts and values.
                #expect(c.choices == Array(full.choices.prefix(n)))
            }
        }
        #expect(try recognizer.recognizeLine(line) == recognizer.recognizeLine(line, choices: 0))
        for bad in [-1, 6] {
            #expect(throws: FrameOCRError.self) { try recognizer.recognizeLine(line, choices: bad) }
            do {
                _ = try recognizer.recognizeLine(line, choices: bad)
            } catch {
                #expect(error.code == .invalidParameter && error.message.contains("choices"))
            }
        }
    }

    @Test("The whitelist: a letter outside it is never output; the space stays")
    func whitelist() throws {
        let recognizer = try TextLineRecognizer(configuration: .init(whitelist: "0123456789ABCDEFGHIJKMNOPQRSTUVWXYZ"))
        let read = try recognizer.recognizeLine(Self.line("HELLO 42"))
        #expect(!read.text.contains("L"), "\(read.text)")
        #expect(read.text.hasPrefix("HE") && read.text.hasSuffix(" 42"), "\(read.text)")
        let allowed = Set("0123456789ABCDEFGHIJKMNOPQRSTUVWXYZ ")
        #expect(read.text.allSatisfy(allowed.contains))
        // Digits only: a plate's letters are not read, its digits are.
        let digits = try TextLineRecognizer(configuration: .init(whitelist: "0123456789"))
        let plate = try digits.recognizeLine(Self.line("AB12 CDE"))
        #expect(plate.text.allSatisfy { $0.isNumber || $0 == " " }, "\(plate.text)")
        #expect(plate.text.contains("12"), "\(plate.text)")
    }

    @Test("The Latin alphabet: 113 classes, no Chinese key allowed, none read from a scene's texture")
    func latinAlphabet() throws {
        let latin = try Self.recognizer()
        let mask = try #require(latin.allowed)
        let allowedKeys = latin.keys.indices.filter { mask[$0] != 0 }.map { latin.keys[$0] }
        #expect(allowedKeys.count == 113)
        #expect(Set("!~09AZaz é°§¥".map(String.init)).isSubset(of: Set(allowedKeys)))
        #expect(allowedKeys.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value < 0x3000 || $0.value == 0x20AC } })
        // Chinese characters: with every class the network reads them as Chinese keys; with the
        // Latin alphabet, never.
        let texture = try Self.strokes()
        let all = try TextLineRecognizer(configuration: .init(alphabet: .all))
        #expect(all.allowed == nil)
        let everything = try all.recognizeLine(texture)
        let cjk = { (s: String) in s.unicodeScalars.contains { $0.value >= 0x2E80 } }
        #expect(everything.text.unicodeScalars.filter { $0.value >= 0x2E80 }.count >= 3, "\(everything.text)")
        let restricted = try latin.recognizeLine(texture)
        #expect(!cjk(restricted.text), "\(restricted.text)")
        #expect(restricted.characters.allSatisfy { TextLineRecognizer.Alphabet.latin.contains($0.text) })
    }

    /// Chinese characters made of straight strokes — 口 日 田 十 王 工 — drawn as bars 4 pixels
    /// thick in 40-pixel cells, dark on light (no font here has them).
    static func strokes() throws -> PixelBuffer {
        // Each bar: x0, y0, x1, y1 in a 32×32 box (a horizontal or vertical segment).
        let square = [(0, 0, 31, 0), (0, 0, 0, 31), (31, 0, 31, 31), (0, 31, 31, 31)]
        let glyphs: [[(Int, Int, Int, Int)]] = [
            square,  // 口
            square + [(0, 15, 31, 15)],  // 日
            square + [(0, 15, 31, 15), (15, 0, 15, 31)],  // 田
            [(0, 15, 31, 15), (15, 0, 15, 31)],  // 十
            [(2, 1, 29, 1), (4, 15, 27, 15), (0, 30, 31, 30), (15, 1, 15, 30)],  // 王
            [(3, 2, 28, 2), (0, 29, 31, 29), (15, 2, 15, 29)],  // 工
        ]
        let (cell, margin) = (40, 8)
        let (w, h) = (glyphs.count * cell + 2 * margin, 48)
        var pixels = [UInt8](repeating: 230, count: w * h)
        for (i, bars) in glyphs.enumerated() {
            let (ox, oy) = (margin + i * cell + 4, 8)
            for (x0, y0, x1, y1) in bars {
                for y in y0...y1 {
                    for x in x0...x1 {
                        for t in 0..<4 where x0 == x1 || y0 == y1 {
                            let (px, py) = x0 == x1 ? (ox + x + t - 2, oy + y) : (ox + x, oy + y + t - 2)
                            if px >= 0 && px < w && py >= 0 && py < h { pixels[py * w + px] = 20 }
                        }
                    }
                }
            }
        }
        return try PixelBuffer(packed: pixels, width: w, height: h, pixelFormat: .gray8)
    }

    @Test("Gray, BGRA with padding and RGB give the same reading")
    func formats() throws {
        let gray = try Self.line("AB12 CDE")
        let expected = try Self.recognizer().recognizeLine(gray)
        let bytes = gray.packedBytes()
        let bgra = try PaddedFrame(format: .bgra8, width: gray.width, height: gray.height, padding: 12) { _, x, y, b in
            b == 3 ? 255 : bytes[y * gray.width + x]
        }
        #expect(try Self.recognizer().recognizeLine(bgra.buffer) == expected)
        let rgb = try PaddedFrame(format: .rgb8, width: gray.width, height: gray.height, padding: 5) { _, x, y, _ in
            bytes[y * gray.width + x]
        }
        #expect(try Self.recognizer().recognizeLine(rgb.buffer) == expected)
    }

    @Test("A line wider than maximumWidth is squeezed to it and still read; its boxes in the image's pixels")
    func squeezed() throws {
        let text = "PLATFORM 9 EXIT"
        let image = try Self.line(text)
        // At 48 px tall the line is about 390 px wide: squeezed to 280.
        let natural = (48 * image.width + image.height - 1) / image.height
        #expect(natural > 360)
        let narrow = try TextLineRecognizer(configuration: .init(maximumWidth: 280))
        let read = try narrow.recognizeLine(image)
        #expect(read.text == text)
        let last = try #require(read.characters.last)
        #expect(last.box.maxX <= Double(image.width) && last.box.maxX > Double(image.width) * 0.8)
    }

    @Test("Lines read together: each as it reads alone, in the callers' order; none: no reading; choices checked")
    func linesTogether() throws {
        let recognizer = try Self.recognizer()
        let texts = ["HELLO", "AB12 CDE", "4711", "Platform 9 and three quarters", "EXIT", "0123456789"]
        let images = try texts.map { try Self.line($0) }
        let together = try recognizer.recognizeLines(images, choices: 3)
        #expect(together.map(\.text) == texts)
        for (image, read) in zip(images, together) {
            let alone = try recognizer.recognizeLine(image, choices: 3)
            #expect(read.characters.map(\.text) == alone.characters.map(\.text))
            #expect(read.characters.map(\.box) == alone.characters.map(\.box))
            #expect(read.characters.map { $0.choices.count } == alone.characters.map { $0.choices.count })
            #expect(abs((read.confidence ?? 0) - (alone.confidence ?? 0)) < 1e-4, "\(read.text)")
        }
        #expect(try recognizer.recognizeLines([], choices: 0).isEmpty)
        #expect(throws: FrameOCRError.self) { try recognizer.recognizeLines(images, choices: 6) }
    }

    @Test("Six callers at once get the same readings")
    func threads() throws {
        let image = try Self.line("AB12 CDE")
        let recognizer = try Self.recognizer()
        let expected = try recognizer.recognizeLine(image)
        let results = Mutex<[LineRecognition]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            if let r = try? recognizer.recognizeLine(image) { results.withLock { $0.append(r) } }
        }
        #expect(results.withLock { $0 } == Array(repeating: expected, count: 6))
    }

    @Test("Typed errors: settings out of range, an empty whitelist, a missing model or keys, keys that do not match")
    func errors() throws {
        for bad in [
            TextLineRecognizer.Configuration(height: 8), TextLineRecognizer.Configuration(height: 50),
            TextLineRecognizer.Configuration(minimumWidth: 0), TextLineRecognizer.Configuration(maximumWidth: 9000),
            TextLineRecognizer.Configuration(alternates: 5), TextLineRecognizer.Configuration(alternates: -1),
            TextLineRecognizer.Configuration(whitelist: ""),
        ] {
            #expect { try TextLineRecognizer(configuration: bad) } throws: {
                ($0 as? FrameOCRError)?.code == .invalidParameter && ($0 as? FrameOCRError)?.stage == .recognition
            }
        }
        // A whitelist with no character of the alphabet's.
        #expect { try TextLineRecognizer(configuration: .init(whitelist: "中文")) } throws: {
            ($0 as? FrameOCRError)?.code == .invalidParameter
        }
        #expect { try TextLineRecognizer(configuration: .init(modelPath: "/nonexistent/model.onnx")) } throws: {
            ($0 as? FrameOCRError)?.code == .io && ($0 as? FrameOCRError)?.stage == .recognition
        }
        #expect { try TextLineRecognizer(configuration: .init(keysPath: "/nonexistent/keys.txt")) } throws: {
            ($0 as? FrameOCRError)?.code == .io
        }
        let keys = NSTemporaryDirectory() + "frameocr-keys-\(UUID().uuidString).txt"
        try Data("a\nb\nc\n".utf8).write(to: URL(fileURLWithPath: keys))
        defer { try? FileManager.default.removeItem(atPath: keys) }
        #expect { try TextLineRecognizer(configuration: .init(keysPath: keys)) } throws: { error in
            let e = error as? FrameOCRError
            return e?.code == .unsupportedFormat && e?.message.contains("3 keys") == true
                && e?.message.contains("6623") == true
        }
        let junk = NSTemporaryDirectory() + "frameocr-not-a-model-\(UUID().uuidString).onnx"
        try Data("not an onnx model".utf8).write(to: URL(fileURLWithPath: junk))
        defer { try? FileManager.default.removeItem(atPath: junk) }
        #expect { try TextLineRecognizer(configuration: .init(modelPath: junk)) } throws: {
            ($0 as? FrameOCRError)?.code == .unsupportedFormat
        }
        let nv12 = try PixelBuffer(width: 64, height: 32, pixelFormat: .nv12)
        #expect { try Self.recognizer().recognizeLine(nv12) } throws: {
            ($0 as? FrameOCRError)?.code == .unsupportedFormat
        }
    }

    @Test("An empty line reads as nothing, with no confidence")
    func blank() throws {
        let blank = try PixelBuffer(
            packed: [UInt8](repeating: 230, count: 200 * 48), width: 200, height: 48, pixelFormat: .gray8)
        let read = try Self.recognizer().recognizeLine(blank)
        #expect(read.text == "" && read.characters.isEmpty && read.confidence == nil)
    }

    @Test("Tesseract behind the same seam: PSM 7, symbols with their boxes, spaces between words", .tags(.tesseract))
    func tesseract() throws {
        let image = try Self.line("AB12 CDE")
        let tesseract = try TesseractLineRecognizer(sharing: sharedRecognizer)
        #expect(tesseract.options.pageSegmentationMode == .singleLine && tesseract.options.includeSymbols)
        let read = try tesseract.recognizeLine(image)
        #expect(read.engine == .tesseract)
        #expect(read.text == "AB12 CDE")
        #expect(read.characters.map(\.text).joined() == read.text)
        #expect(read.characters.filter { $0.text == " " }.allSatisfy { $0.confidence == nil })
        var previous = -1.0
        for c in read.characters {
            #expect(c.box.x >= previous - 1 && c.box.x >= 0 && c.box.maxX <= Double(image.width) + 0.5)
            #expect(c.box.y >= 0 && c.box.maxY <= Double(image.height) + 0.5)
            previous = c.box.maxX
        }
        // Both engines through the protocol.
        let engines: [any LineRecognizing] = [tesseract, try Self.recognizer()]
        let texts = try engines.map { try $0.recognizeLine(image).text }
        #expect(texts == ["AB12 CDE", "AB12 CDE"])
        #expect(engines.map(\.engine) == [.tesseract, .ctc])
    }

    @Test("Rough time per 320×48 line: the CTC engine against Tesseract (printed, not checked)", .tags(.tesseract))
    func timing() throws {
        // "AB12 CDE" drawn in the middle of a 320×48 crop: the CTC engine's input is the crop as it is.
        let card = try Self.line("AB12 CDE", height: 30)
        let image = try PixelBuffer(
            packed: [UInt8](repeating: 230, count: 320 * 48), width: 320, height: 48, pixelFormat: .gray8)
        try image.draw(
            card, affine: [1, 0, Double(320 - card.width) / 2, 0, 1, Double(48 - card.height) / 2])
        let ctc = try Self.recognizer()
        let tesseract = try TesseractLineRecognizer(sharing: sharedRecognizer)
        #expect(try ctc.recognizeLine(image).text == "AB12 CDE")
        #expect(try tesseract.recognizeLine(image).text == "AB12 CDE")
        let clock = ContinuousClock()
        func median(_ engine: any LineRecognizing) throws -> Duration {
            var times: [Duration] = []
            for _ in 0..<15 {
                let start = clock.now
                _ = try engine.recognizeLine(image)
                times.append(clock.now - start)
            }
            return times.sorted()[times.count / 2]
        }
        let c = try median(ctc)
        let t = try median(tesseract)
        print(
            String(
                format: "line 320×48: CTC %.1f ms, Tesseract %.1f ms (median of 15, one thread)", c.milliseconds,
                t.milliseconds))
    }
}

/// The recognizer's memory over many line widths (issue 42): OpenVINO's CPU plug-in keeps kernels
/// compiled for every input shape it has run, 155 MB → 1.36 GB over 275 widths with its default
/// cache; FrameOCR bounds that cache (`CPU_RUNTIME_CACHE_CAPACITY`, openvino/runtime.hpp). The
/// recognizer here pads to multiples of 8 only (its default steps are 160), so nearly every line
/// is a shape of its own: about 90, far beyond the cache's 16 entries.
@Suite("TextLineRecognizer: memory over 1,000 line widths")
struct TextLineRecognizerMemoryTests {
    @Test(
        "1,000 lines of random widths (40–800 px), ~90 input shapes: resident memory grows ≤ 50 MB after the first 100")
    func randomWidths() throws {
        let recognizer = try TextLineRecognizer(configuration: .init(minimumWidth: 8, widthStep: 8, maximumWidth: 800))
        let word = try TextLineRecognizerTests.line("AB12 CDE", height: 36)
        var generator = TextConsensusTests.SeededGenerator(state: 42)
        var shapes = Set<Int>()
        var after100 = 0
        for i in 0..<1000 {
            let width = Int.random(in: 40...800, using: &generator)
            let image = try word.resized(width: width, height: word.height)
            let read = try recognizer.recognizeLine(image)
            shapes.insert(read.characters.isEmpty ? -width : (width * 48 + word.height - 1) / word.height / 8)
            if i == 99 { after100 = residentBytes() }
        }
        let growth = residentBytes() - after100
        #expect(shapes.count > 60, "\(shapes.count) input shapes")
        #expect(
            growth <= (50 << 20) + Sanitizers.quarantineBytes,
            "resident memory grew \(growth >> 20) MB after the first 100")
        print(
            "1,000 lines, about \(shapes.count) input shapes: resident memory grew \(growth >> 20) MB after the first 100"
        )
    }
}
