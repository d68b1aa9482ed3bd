import Foundation
import FrameOCR

/// `frameocr`: recognize text in images; write the image Tesseract would see. The executable's
/// `main` calls ``main(_:)``; everything else of the tool is in this target, where the fuzz
/// harnesses (`Tests/Fuzz/Swift`) reach its parsers.
package enum FrameOCRTool {
    static let version = ToolVersion.current

    static let usage = """
        frameocr \(version) — zero-copy frames in, recognized text out (OpenCV + Tesseract)

        Usage:
          frameocr recognize IMAGE… [options]    recognize text in image files
          frameocr preprocess IN OUT [options]   write the image the recognizer would see
          frameocr video SOURCE [options]        recognize every frame of a video, an image
                                                 directory, a camera, a stream URL or a GStreamer
                                                 pipeline live, then report latencies
          frameocr eval DIR… [options]           score recognition against X.gt.txt ground truth
                                                 (CER, WER, word recall), optionally beside
                                                 the tesseract command
          frameocr serve --stdio [options]       a long-lived worker: JSON Lines requests on standard
                                                 input, responses on standard output (docs/serve.md)
          frameocr serve --http ADDR:PORT [...]  the same over HTTP: POST /v1/recognize, GET /metrics
                                                 (Prometheus), /healthz, /v1/version (docs/http.md)
          frameocr devices [--json]              list OpenCL devices and whether our kernels run there
          frameocr --version | --help
          frameocr COMMAND --help                options of a command

        Images: PNG, JPEG, TIFF, BMP, PNM, WebP, GIF, JPEG 2000 (Leptonica). Exit status: 0 success,
        1 a file failed (the others are still processed), 2 bad usage.
        """

    /// Runs the command `arguments` name (the process's arguments after its name) and returns
    /// the exit status. On the main actor, so that the commands' bodies (the closures below)
    /// run on the main thread: `serve` and `recognize --jobs` block it while they wait for their
    /// workers, which must not take a thread of Dispatch's global pool (2 threads on 2 cores;
    /// taking one made `serve --workers 2` run one request at a time).
    @MainActor
    package static func main(_ arguments: [String]) async -> Int32 {
        var args = arguments
        guard let command = args.first else {
            printError(usage)
            return 2
        }
        args.removeFirst()
        let code: Int32
        switch command {
        case "--version", "version":
            print("frameocr \(version) (tesseract \(Recognizer.tesseractVersion))")
            code = 0
        case "--help", "-h", "help":
            print(usage)
            code = 0
        case "recognize":
            code = await run { try RecognizeCommand.run(args) }
        case "preprocess":
            code = await run { try PreprocessCommand.run(args) }
        case "video":
            code = await run { try await VideoCommand.run(args) }
        case "eval":
            code = await run { try EvalCommand.run(args) }
        case "serve":
            code = await run { try ServeCommand.run(args) }
        case "devices":
            code = await run { try DevicesCommand.run(args) }
        default:
            printError("frameocr: unknown command '\(command)'\n\n\(usage)")
            code = 2
        }
        return code
    }

    /// Runs a command, turning usage errors and library errors into messages and exit codes.
    /// On the main actor, like `main`: a command's body starts on the main thread.
    @MainActor
    static func run(_ body: () async throws -> Int32) async -> Int32 {
        do {
            return try await body()
        } catch let e as UsageError {
            printError("frameocr: \(e.description)\n(see frameocr --help)")
            return 2
        } catch let e as FrameOCRError {
            printError("frameocr: \(e.description)")
            return e.code == .invalidParameter || e.code == .invalidROI ? 2 : 1
        } catch {
            printError("frameocr: \(error)")
            return 1
        }
    }
}
