import Foundation
import FrameOCR
import FrameOCRCommandLine

/// The command line's option parsing: ``Arguments`` and what `recognize`, `video` and `serve`
/// make of them, short of reading an image or opening a source.
///
/// Input: the first byte picks the command; the rest, split at NUL bytes, are the arguments (at
/// most 64; those with a `/` are left out, so that no option names a file outside the harness's
/// empty working directory).
///
/// Checks:
/// - a bad argument is a `UsageError` or a `FrameOCRError`, never another error or a crash;
/// - what parses gives the same options when written back as `--name=value`, the flags, `--` and
///   the positionals, and parsed again;
/// - what is accepted is valid: the pipeline, the recognition options, the image limit in
///   1…2^30, a processor configuration, and a video SOURCE whose `validate()` passes;
/// - a duration that parses is finite and > 0.
enum ArgumentsFuzz {

    /// Every option of the three commands as `--name` and `--name=`, and the keywords of their
    /// values.
    static var dictionary: [String] {
        let names = RecognizeCommand.valued.union(VideoCommand.valued).union(ServeCommand.valued)
        let flags = RecognizeCommand.flags.union(VideoCommand.flags).union(ServeCommand.flags)
        let keywords = [
            "none", "mean", "gaussian", ":inv", "up", "down", "left", "right", "upMirrored", "auto", "cpu",
            "opencl", "latest", "newest", "block", "off", "ms", "us", "µs", "s", "m", "h", "json", "jsonl",
            "text", "tsv", "hocr", "eng", "+", ",", "!", "appsink", "videotestsrc", "rtsp:", "udp:", "0",
        ]
        return names.flatMap { ["--\($0)", "--\($0)="] } + flags.map { "--\($0)" } + ["--", "\0"] + keywords
    }

    static func run(_ bytes: UnsafeRawBufferPointer) {
        _ = scratchDirectory
        guard let selector = bytes.first else { return }
        let args = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).prefix(64)
            .map { String(decoding: $0, as: UTF8.self) }.filter { !$0.contains("/") }
        for text in args {
            if let d = Arguments.parseDuration(text) { check(d > .zero, "duration \(text): \(d)") }
        }
        do {
            switch selector % 3 {
            case 0:
                let a = try parsed(args, valued: RecognizeCommand.valued, flags: RecognizeCommand.flags)
                try checkCommon(a)
            case 1:
                let a = try parsed(args, valued: VideoCommand.valued, flags: VideoCommand.flags)
                let plan = try VideoCommand.plan(a)
                try plan.configuration.validate()
                try plan.location.validate()
            default:
                let a = try parsed(args, valued: ServeCommand.valued, flags: ServeCommand.flags)
                var values = a.namedValues
                values["workers"] = nil
                values["max-request-bytes"] = nil
                let settings = try fuzzParser.settings(
                    values: values, flags: a.givenFlags.subtracting(["stdio", "help"]))
                try settings.pipeline.validate()
                try settings.configuration.defaultOptions.validate()
                check(ServeProtocol.formats.contains(settings.format), "format \(settings.format)")
            }
        } catch is UsageError {
        } catch is FrameOCRError {
        } catch {
            fatalError("frameocr-fuzz: \(args): an error of another type: \(error)")
        }
    }

    /// Parses `args`, and checks that the options written back parse the same.
    static func parsed(_ args: [String], valued: Set<String>, flags: Set<String>) throws -> Arguments {
        let a = try Arguments(args, valued: valued, flagNames: flags)
        check(Set(a.namedValues.keys).isSubset(of: valued), "a value for an unknown option")
        check(a.givenFlags.isSubset(of: flags), "an unknown flag")
        let written =
            a.namedValues.sorted { $0.key < $1.key }.map { "--\($0.key)=\($0.value)" }
            + a.givenFlags.sorted().map { "--\($0)" } + ["--"] + a.positionals
        let again = try Arguments(written, valued: valued, flagNames: flags)
        check(
            again.namedValues == a.namedValues && again.givenFlags == a.givenFlags
                && again.positionals == a.positionals, "\(args) written back as \(written) parses differently")
        return a
    }

    static func checkCommon(_ a: Arguments) throws {
        let pipeline = try CommonOptions.pipeline(a)
        try pipeline.validate()
        let configuration = try CommonOptions.recognizer(a)
        try configuration.defaultOptions.validate()
        let limits = try CommonOptions.limits(a)
        check(
            (1...ImageLimits.maximumPixelsCeiling).contains(limits.maximumPixels),
            "limit \(limits.maximumPixels) pixels")
    }
}
