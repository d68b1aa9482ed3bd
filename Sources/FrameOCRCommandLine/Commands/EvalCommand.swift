import Foundation
import FrameOCR
import FrameOCREvaluation

/// `frameocr eval`: recognition quality over labelled folders, optionally side by side with the
/// `tesseract` command.
enum EvalCommand {
    static let help = """
        Usage: frameocr eval DIR… [options]

        Recognizes every image under each DIR (searched recursively) that has an X.gt.txt
        beside it and scores it against that ground truth: CER and WER (Levenshtein over
        characters and words of the whitespace-normalized texts), bag-of-words recall (reference
        words found in any order) and seconds per image. Reported per image and per folder.
        Folders whose ground truth is not in reading order (funsd, icdar2015, mrz, sroie,
        wildreceipt) are scored by recall; sroie case-insensitively, icdar2015 as the
        competition's end-to-end task matches words (any case, a reference word's first or last
        special character optional), wildreceipt with spaces removed.

        Every image is in a tuning half or a held-out half, fixed in a list (FrameOCR's own list
        of ../shared/data by default; images it does not hold go by a hash of their file name),
        and every folder and group is reported for both halves: choose thresholds on the tuning
        half, check them on the held-out half. Groups: clean (mean CER), documents and hard (word
        recall), uneven-light (mean CER of the relit clean folders).

        Output:
          --format F                table (default) | json | csv (one row per image)
          --output FILE             write to FILE instead of standard output
          --compare-tesseract       also run the `tesseract` command (its defaults: PSM 3,
                                    with OMP_THREAD_LIMIT=1) on the same images, side by side
          --jobs N                  images recognized at once (default: active processors)
          --split FILE              the halves: lines HALF<TAB>PATH, HALF tuning or held-out,
                                    PATH relative to the corpus root (default: FrameOCR's list)
          --light KINDS             also read every image under synthetic uneven light, each
                                    kind reported as FOLDER@KIND: gradient, vignette, shadow
                                    (comma-separated) or all; brightness 0.3…1 (the pages'
                                    gray multiplied by the field)
          --light-noise SIGMA       with --light: Gaussian sensor noise of SIGMA gray levels
                                    added to the relit pages (default 0)

        Robustness suite (docs/accuracy.md):
          --robust KINDS            also read every image made harder, each kind reported as
                                    FOLDER@KIND and summed up beside the pages as stored (mean
                                    CER per half, its noise over seeds): inverted-band,
                                    scale-0.25, scale-0.35, scale-0.5, relit, rotate-3, blur,
                                    jpeg-30 (comma-separated) or all
          --robust-seeds N          each kind read N times, seed 1 nominal and the others with
                                    jittered parameters; their spread is the kind's noise
                                    (1…9, default 1)
          --robust-baseline FILE    the gate: exit 3 when a kind's mean CER is above FILE's by
                                    more than max(0.01, 2 × FILE's noise) (word recall below, for
                                    folders scored by recall), a kind of FILE was not read, or
                                    FILE was made over other pages or seeds
          --write-robust-baseline FILE
                                    write this run's robustness figures to FILE as a baseline
                                    (not when an image failed)
          --save-variants DIR       write every relit or changed page to DIR as PNG, as it was
                                    read (FOLDER@KIND_IMAGE_sSEED.png)

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)
        \(CommonOptions.precisionHelp)

        DIR may also be one image file with its X.gt.txt beside it.

        Exit status: 0 when every image was recognized, 1 when one failed (it is reported and
        left out of the figures), 2 bad usage or no labelled image found, 3 the robustness gate
        failed.
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(
            raw,
            valued: CommonOptions.valued.union([
                "format", "output", "jobs", "split", "light", "light-noise", "robust", "robust-seeds",
                "robust-baseline", "write-robust-baseline", "save-variants", "precision",
            ]),
            flagNames: CommonOptions.flags.union(["help", "compare-tesseract"]))
        if a.flag("help") {
            print(help)
            return 0
        }
        guard !a.positionals.isEmpty else { throw UsageError("eval needs at least one DIR") }
        let name = a.value("format") ?? "table"
        guard let format = EvaluationOutput.Format(rawValue: name) else {
            throw UsageError("--format: '\(name)' is not table, json or csv")
        }
        let jobs = try a.int("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard jobs >= 1 else { throw UsageError("--jobs: must be ≥ 1") }
        try CommonOptions.configureNeuralRuntime(a, workers: jobs)
        let pipeline = try CommonOptions.pipeline(a)
        let limits = try CommonOptions.limits(a)
        let configuration = try CommonOptions.recognizer(a)
        let split =
            try a.value("split").map { path throws(FrameOCRError) in try Evaluation.Split(contentsOfFile: path) }
            ?? .corpus
        let lights = try self.lights(a.value("light"))
        let noise = try a.double("light-noise") ?? 0
        guard noise >= 0 && noise <= 64 else { throw UsageError("--light-noise: must be in 0…64 gray levels") }
        let kinds = try robustKinds(a.value("robust"))
        let seeds = try a.int("robust-seeds") ?? 1
        guard (1...9).contains(seeds) else { throw UsageError("--robust-seeds: must be in 1…9") }
        if (a.value("robust-baseline") != nil || a.value("write-robust-baseline") != nil) && kinds.isEmpty {
            throw UsageError("--robust-baseline and --write-robust-baseline need --robust")
        }
        let gate = try a.value("robust-baseline").map { path throws(UsageError) in try readBaseline(path) }
        if let folder = a.value("save-variants") {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw FrameOCRError(.io, "\(folder): cannot create: \(error)", stage: .write)
            }
        }
        let variants = kinds.flatMap { k in (1...seeds).map { RobustVariant(k, seed: UInt64($0)) } }
        let run = try EvaluationRun(directories: a.positionals, lights: lights, robust: variants, split: split)
        guard !run.samples.isEmpty else {
            throw UsageError("no image with an X.gt.txt beside it under \(a.positionals.joined(separator: ", "))")
        }
        let command = a.flag("compare-tesseract") ? Evaluation.TesseractCommand.path() : nil
        if a.flag("compare-tesseract") {
            guard command != nil else {
                throw FrameOCRError(.tesseract, "the tesseract command is not on PATH", stage: .recognition)
            }
        }

        let recognizer = try Recognizer(configuration: configuration, maxIdleEngines: jobs)
        try recognizer.prepareEngines(jobs)
        let languages = configuration.languages.joined(separator: "+")
        let rows = try run.evaluate(
            with: EvaluationRun.Reader(
                recognizer: recognizer, pipeline: pipeline, limits: limits, noise: noise,
                saveVariants: a.value("save-variants")),
            jobs: jobs,
            tesseract: command.map { EvaluationRun.TesseractSide(command: $0, arguments: ["-l", languages]) })
        for r in rows where r.error != nil { printError("frameocr: \(r.file): \(r.error!)") }
        try FileOutput.write(EvaluationOutput.render(rows, as: format), to: a.value("output"))
        let figures = EvaluationRun.robustFigures(rows)
        // A baseline over fewer pages than asked for would fail every later run: none is written
        // when a page failed.
        if let path = a.value("write-robust-baseline"), !rows.contains(where: { $0.error != nil }) {
            let baseline = EvaluationRun.RobustBaseline(
                command: (["frameocr", "eval"] + raw).joined(separator: " "), figures: figures)
            try FileOutput.write(JSONOutput.encode(baseline, pretty: true) + "\n", to: path)
        }
        if rows.contains(where: { $0.error != nil }) { return 1 }
        if let gate {
            let checks = EvaluationRun.check(figures, against: gate)
            printError(EvaluationOutput.gateReport(checks, baseline: a.value("robust-baseline")!))
            if checks.isEmpty || checks.contains(where: { $0.failure != nil }) { return 3 }
        }
        return 0
    }

    /// The kinds of `--robust` (nil: none).
    static func robustKinds(_ value: String?) throws(UsageError) -> [RobustVariant.Kind] {
        try kinds(value, option: "robust")
    }

    /// A baseline written by `--write-robust-baseline`.
    static func readBaseline(_ path: String) throws(UsageError) -> EvaluationRun.RobustBaseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("--robust-baseline: \(path) cannot be read")
        }
        do { return try JSONDecoder().decode(EvaluationRun.RobustBaseline.self, from: data) } catch {
            throw UsageError("--robust-baseline: \(path) is not a robustness baseline: \(error)")
        }
    }

    /// The kinds of `--light` (nil: none).
    static func lights(_ value: String?) throws(UsageError) -> [SyntheticLight.Kind] {
        try kinds(value, option: "light")
    }

    /// A comma-separated list of `K`'s names, or `all`, in the order given without repeats.
    static func kinds<K: CaseIterable & RawRepresentable & Equatable>(_ value: String?, option: String)
        throws(UsageError) -> [K] where K.RawValue == String
    {
        guard let value else { return [] }
        if value == "all" { return Array(K.allCases) }
        var kinds: [K] = []
        for name in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let k = K(rawValue: trimmed) else {
                let names = K.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("--\(option): '\(trimmed)' is not one of \(names) or all")
            }
            if !kinds.contains(k) { kinds.append(k) }
        }
        return kinds
    }
}
