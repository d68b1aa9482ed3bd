import Foundation
import FrameOCR

/// A labelled corpus read and scored: what `frameocr eval` runs, and what the benchmark's
/// documents, scenes and plates rows read and score (they measure `frameocr eval`'s work).
///
/// 1. Found: every image with an `X.gt.txt` beside it under some folders
///    (``Evaluation/samples(in:)``), each as stored, then under each synthetic light asked for,
///    then as each robustness variant asked for (``RobustVariant``) — an ``Item`` each.
/// 2. Read: ``read(_:with:pool:)`` decodes one item's image, lays its light or variant on, and times its
///    recognition; ``evaluate(with:jobs:tesseract:)``, ``texts(with:jobs:order:)`` and
///    ``results(with:jobs:order:_:)`` read every item with N threads (``JobLoop``).
/// 3. Scored: each text against its ground truth with its folder's ``Evaluation/Scoring``, an
///    ``ImageRow`` per item, in its half (``Evaluation/Split``).
/// 4. Summed up per folder, per folder and half, and per group (`EvaluationRun+Summaries.swift`),
///    and per robustness variant, with its gate (`EvaluationRun+Robust.swift`).
package struct EvaluationRun: Sendable {
    /// One image to read: a sample, as stored, under a synthetic light, or as a robustness
    /// variant.
    package struct Item: Sendable {
        package var sample: Evaluation.Sample
        /// The synthetic light it is read under (nil: none).
        package var light: SyntheticLight.Kind?
        /// The robustness variant it is read as (nil: none).
        package var robust: RobustVariant?

        /// The folder it is reported under: the sample's, `FOLDER@KIND` under a light or as a
        /// variant (every seed of a variant under the same name).
        package var folder: String {
            sample.folder + (light.map { "@" + $0.rawValue } ?? robust.map { "@" + $0.kind.rawValue } ?? "")
        }
        /// Whether it is read other than as stored.
        package var isChanged: Bool { light != nil || robust != nil }
        /// The name its page is saved under (`--save-variants`): the folder and the image's name
        /// with `/` as `_`, then the variant's seed — `Fixtures@rotate-3_phototest_s2.png`.
        package var savedName: String {
            let image = ((sample.image as NSString).lastPathComponent as NSString).deletingPathExtension
            return folder.replacingOccurrences(of: "/", with: "_") + "_" + image
                + (robust.map { "_s\($0.seed)" } ?? "") + ".png"
        }
        /// Its folder's scoring, by the image's full directory (`crops` under `license-plates`).
        package var scoring: Evaluation.Scoring {
            .forFolder(named: (sample.image as NSString).deletingLastPathComponent)
        }
    }

    /// How the items are read.
    package struct Reader: Sendable {
        package var recognizer: Recognizer
        package var pipeline: Pipeline
        /// The largest image decoded (`--max-pixels`).
        package var limits: ImageLimits
        /// Gaussian sensor noise added under a synthetic light, in gray levels (`--light-noise`).
        package var noise: Double
        /// A folder each relit or changed page is written to as PNG as it is read
        /// (`--save-variants`; ``Item/savedName``), nil: none.
        package var saveVariants: String?

        package init(
            recognizer: Recognizer, pipeline: Pipeline, limits: ImageLimits = .default, noise: Double = 0,
            saveVariants: String? = nil
        ) {
            self.recognizer = recognizer
            self.pipeline = pipeline
            self.limits = limits
            self.noise = noise
            self.saveVariants = saveVariants
        }
    }

    /// One item read.
    package struct Reading {
        /// The image as it was recognized (under its light).
        package var image: PixelBuffer
        package var result: RecognitionResult
        /// The recognition's seconds (not the decoding, nor laying the light on).
        package var seconds: Double
    }

    /// The `tesseract` command beside FrameOCR (`frameocr eval --compare-tesseract`).
    package struct TesseractSide: Sendable {
        /// The executable (``Evaluation/TesseractCommand/path()``).
        package var command: String
        /// Its arguments after `FILE stdout`.
        package var arguments: [String]

        package init(command: String, arguments: [String]) {
            self.command = command
            self.arguments = arguments
        }
    }

    /// One side's figures for one image.
    package struct Side: Codable, Sendable {
        package var cer: Double
        package var wer: Double
        package var recall: Double
        package var wordsFound: Int
        package var referenceWords: Int
        package var seconds: Double
        package var text: String
        /// What automatic preprocessing decided (frameocr only).
        package var preprocessing: [String]?

        /// `text` scored against `reference` under `scoring`.
        init(_ text: String, reference: String, scoring: Evaluation.Scoring, seconds: Double) {
            let s = Evaluation.score(hypothesis: text, reference: reference, scoring: scoring)
            (cer, wer, recall, wordsFound, referenceWords) = (s.cer, s.wer, s.recall, s.wordsFound, s.referenceWords)
            self.seconds = seconds
            self.text = text
        }

        /// The figures as a score.
        package var score: Evaluation.Score {
            Evaluation.Score(cer: cer, wer: wer, wordsFound: wordsFound, referenceWords: referenceWords)
        }
    }

    /// One item's row: its figures on each side, or why it failed.
    package struct ImageRow: Codable, Sendable {
        package var file: String
        /// The folder it is reported under; `FOLDER@KIND` when read under a synthetic light.
        package var folder: String
        /// `tuning` or `held-out`.
        package var half: Evaluation.Half
        /// The synthetic light it was read under (nil: none).
        package var light: SyntheticLight.Kind?
        /// The robustness variant it was read as (nil: none).
        package var robust: RobustVariant?
        package var frameocr: Side?
        package var tesseract: Side?
        package var error: String?
    }

    /// The labelled images found, as stored.
    package let samples: [Evaluation.Sample]
    /// Every image to read: each sample as stored, then each under each light, then as each
    /// robustness variant.
    package let items: [Item]
    /// The tuning and held-out halves the rows are reported in.
    package let split: Evaluation.Split

    /// Finds the labelled images under `directories` (searched recursively; a path that is an
    /// image file with its `X.gt.txt` beside it is that one sample).
    /// - Throws: ``FrameOCRError/Code/io`` when a directory cannot be read or a file has no
    ///   ground truth beside it.
    package init(
        directories: [String], lights: [SyntheticLight.Kind] = [], robust: [RobustVariant] = [],
        split: Evaluation.Split = .corpus
    ) throws(FrameOCRError) {
        var found: [Evaluation.Sample] = []
        for dir in directories { found += try Evaluation.samples(at: dir) }
        self.init(samples: found, lights: lights, robust: robust, split: split)
    }

    /// The labelled images `samples` (found by ``Evaluation/samples(in:)``, perhaps only some of
    /// them: the benchmark's plates row takes `license-plates`' photos without its `crops`).
    package init(
        samples: [Evaluation.Sample], lights: [SyntheticLight.Kind] = [], robust: [RobustVariant] = [],
        split: Evaluation.Split = .corpus
    ) {
        self.samples = samples
        items =
            samples.map { Item(sample: $0) } + lights.flatMap { l in samples.map { Item(sample: $0, light: l) } }
            + robust.flatMap { v in samples.map { Item(sample: $0, robust: v) } }
        self.split = split
    }

    /// Reads one item: decodes its image, lays its light or variant on, recognizes it and times
    /// the recognition.
    package func read(_ item: Item, with reader: Reader, pool: PixelBufferPool) throws -> Reading {
        let clock = ContinuousClock()
        var image = try PixelBuffer(contentsOfFile: item.sample.image, limits: reader.limits)
        // The light or variant is laid on before the clock starts: it is not FrameOCR's work.
        if let light = item.light { image = try SyntheticLight(light, noise: reader.noise).apply(to: image) }
        if let robust = item.robust { image = try robust.apply(to: image) }
        if let folder = reader.saveVariants, item.isChanged { try image.write(toFile: folder + "/" + item.savedName) }
        let start = clock.now
        let result = try reader.recognizer.recognize(image, pipeline: reader.pipeline, pool: pool)
        return Reading(image: image, result: result, seconds: (clock.now - start).milliseconds / 1000)
    }

    /// `frameocr eval`: every item read with `jobs` threads and scored, and with `tesseract` also
    /// read by the `tesseract` command (a relit or changed page written as PNG for it first). An item that
    /// fails is a row with its error, left out of the figures.
    /// - Throws: ``FrameOCRError/Code/io`` when the folder for the relit pages cannot be made.
    package func evaluate(with reader: Reader, jobs: Int, tesseract: TesseractSide? = nil) throws(FrameOCRError)
        -> [ImageRow]
    {
        let scratch = tesseract != nil && items.contains(where: \.isChanged) ? try Self.temporaryDirectory() : nil
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        return JobLoop.map(items.count, jobs: jobs) { i, pool in
            let item = items[i]
            var row = ImageRow(
                file: item.sample.image, folder: item.folder, half: split.half(of: item.sample).half, light: item.light,
                robust: item.robust)
            let scoring = item.scoring
            do {
                let reference = try String(contentsOfFile: item.sample.groundTruth, encoding: .utf8)
                let reading = try read(item, with: reader, pool: pool)
                row.frameocr = Side(
                    reading.result.text, reference: reference, scoring: scoring, seconds: reading.seconds)
                row.frameocr?.preprocessing = reading.result.preprocessing?.reasons
                if let tesseract {
                    // The command reads a file: a relit or changed page is written as PNG first.
                    var file = item.sample.image
                    if let scratch, item.isChanged {
                        file = scratch + "/\(i).png"
                        try reading.image.write(toFile: file)
                    }
                    defer { if file != item.sample.image { try? FileManager.default.removeItem(atPath: file) } }
                    let clock = ContinuousClock()
                    let start = clock.now
                    let theirs = try Evaluation.TesseractCommand.run(
                        tesseract.command, file, arguments: tesseract.arguments)
                    row.tesseract = Side(
                        theirs, reference: reference, scoring: scoring, seconds: (clock.now - start).milliseconds / 1000
                    )
                }
            } catch {
                row.error = "\(error)"
            }
            return row
        }
    }

    /// Every item's recognized text, read with `jobs` threads in `order` (indices of ``items``;
    /// default: as listed), and the failures (`IMAGE: error`, in item order); a failed item's
    /// text is empty. What the benchmark times.
    package func texts(with reader: Reader, jobs: Int, order: [Int]? = nil) -> (texts: [String], failures: [String]) {
        let round = results(with: reader, jobs: jobs, order: order) { $0.text }
        return (round.values.map { $0 ?? "" }, round.failures)
    }

    /// Every item read as ``texts(with:jobs:order:)`` reads it, `value` of each result kept (nil
    /// for a failed item), and the failures (`IMAGE: error`, in item order).
    package func results<T: Sendable>(
        with reader: Reader, jobs: Int, order: [Int]? = nil, _ value: @Sendable (RecognitionResult) -> T
    ) -> (values: [T?], failures: [String]) {
        let outcomes = JobLoop.map(items.count, jobs: jobs, order: order) { i, pool -> (T?, String?) in
            do { return (value(try read(items[i], with: reader, pool: pool).result), nil) } catch {
                return (nil, "\(items[i].sample.image): \(error)")
            }
        }
        return (outcomes.map(\.0), outcomes.compactMap(\.1))
    }

    /// `texts` (one per item, in order) scored as ``evaluate(with:jobs:tesseract:)`` scores them,
    /// with no time.
    /// - Throws: when a ground truth cannot be read.
    package func rows(texts: [String]) throws -> [ImageRow] {
        try zip(items, texts).map { item, text in
            let reference = try String(contentsOfFile: item.sample.groundTruth, encoding: .utf8)
            return ImageRow(
                file: item.sample.image, folder: item.folder, half: split.half(of: item.sample).half, light: item.light,
                robust: item.robust, frameocr: Side(text, reference: reference, scoring: item.scoring, seconds: 0))
        }
    }

    /// A new private folder for the relit pages the `tesseract` command reads.
    static func temporaryDirectory() throws(FrameOCRError) -> String {
        let path = NSTemporaryDirectory() + "frameocr-eval-\(UUID().uuidString)"
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw FrameOCRError(.io, "\(path): cannot create: \(error)", stage: .load)
        }
        return path
    }
}
