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
        wildreceipt) are scored by recall; sroie case-insensitively, wildreceipt with spaces
        removed.

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

        Preprocessing:
        \(CommonOptions.help)

        Recognition:
        \(CommonOptions.recognitionHelp)

        Exit status: 0 when every image was recognized, 1 when one failed (it is reported and
        left out of the figures), 2 bad usage or no labelled image found.
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let a = try Arguments(
            raw, valued: CommonOptions.valued.union(["format", "output", "jobs", "split", "light", "light-noise"]),
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
        let pipeline = try CommonOptions.pipeline(a)
        let limits = try CommonOptions.limits(a)
        let configuration = try CommonOptions.recognizer(a)
        let split =
            try a.value("split").map { path throws(FrameOCRError) in try Evaluation.Split(contentsOfFile: path) }
            ?? .corpus
        let lights = try self.lights(a.value("light"))
        let noise = try a.double("light-noise") ?? 0
        guard noise >= 0 && noise <= 64 else { throw UsageError("--light-noise: must be in 0…64 gray levels") }
        let run = try EvaluationRun(directories: a.positionals, lights: lights, split: split)
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
            with: EvaluationRun.Reader(recognizer: recognizer, pipeline: pipeline, limits: limits, noise: noise),
            jobs: jobs,
            tesseract: command.map { EvaluationRun.TesseractSide(command: $0, arguments: ["-l", languages]) })
        for r in rows where r.error != nil { printError("frameocr: \(r.file): \(r.error!)") }
        try FileOutput.write(EvaluationOutput.render(rows, as: format), to: a.value("output"))
        return rows.contains { $0.error != nil } ? 1 : 0
    }

    /// The kinds of `--light` (nil: none).
    static func lights(_ value: String?) throws(UsageError) -> [SyntheticLight.Kind] {
        guard let value else { return [] }
        if value == "all" { return SyntheticLight.Kind.allCases }
        var kinds: [SyntheticLight.Kind] = []
        for name in value.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let k = SyntheticLight.Kind(rawValue: trimmed) else {
                throw UsageError("--light: '\(trimmed)' is not gradient, vignette, shadow or all")
            }
            if !kinds.contains(k) { kinds.append(k) }
        }
        return kinds
    }
}
