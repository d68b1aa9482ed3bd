import Foundation
import FrameOCRCommandLine

// frameocr-fuzz: libFuzzer harnesses for the command line's parsers (Tests/Fuzz/README in
// docs/hardening.md, "Fuzzing").
//
// Built by `make fuzz` with `swift build --sanitize fuzzer --sanitize address
// -Xswiftc -DFRAMEOCR_LIBFUZZER`: libFuzzer's own `main` drives `LLVMFuzzerTestOneInput`, and the
// harness is picked with FRAMEOCR_FUZZ_HARNESS (serve | arguments). In a plain build the
// executable replays inputs instead: `frameocr-fuzz HARNESS FILE|DIR…` runs each file once (the
// regression tests do), and exits 0 when no check failed; `frameocr-fuzz dictionary HARNESS`
// prints the tokens `make fuzz` gives libFuzzer (-dict). A failed check is a `fatalError`: a
// crash to libFuzzer, a trap to the replayer.

/// The harnesses, by name.
enum Harness: String, CaseIterable {
    /// `serve --stdio`: request lines split by the worker's line reader, each parsed and checked,
    /// and the response it would get (`ServeFuzz`).
    case serve
    /// The CLI's arguments through `recognize`'s, `video`'s and `serve`'s option parsing
    /// (`ArgumentsFuzz`).
    case arguments

    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .serve: ServeFuzz.run(bytes)
        case .arguments: ArgumentsFuzz.run(bytes)
        }
    }

    /// The tokens worth trying (option names, request keys, keywords), for libFuzzer's `-dict`:
    /// the parsers look names up in sets, which libFuzzer cannot see compared.
    var dictionary: [String] {
        switch self {
        case .serve: ServeFuzz.dictionary
        case .arguments: ArgumentsFuzz.dictionary
        }
    }
}

/// `tokens` in libFuzzer's dictionary format: one quoted token per line, `\` and `"` escaped,
/// bytes outside printable ASCII as `\xNN`.
func dictionaryFile(_ tokens: [String]) -> String {
    Set(tokens).sorted().map { token in
        "\""
            + token.utf8.map { b -> String in
                switch b {
                case UInt8(ascii: "\\"), UInt8(ascii: "\""): "\\" + String(UnicodeScalar(b))
                case 0x20..<0x7f: String(UnicodeScalar(b))
                default: String(format: "\\x%02X", b)
                }
            }.joined() + "\""
    }.joined(separator: "\n") + "\n"
}

/// FRAMEOCR_FUZZ_HARNESS's harness, for libFuzzer's runs.
let libFuzzerHarness: Harness = {
    let name = ProcessInfo.processInfo.environment["FRAMEOCR_FUZZ_HARNESS"] ?? ""
    guard let harness = Harness(rawValue: name) else {
        let names = Harness.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("frameocr-fuzz: set FRAMEOCR_FUZZ_HARNESS to one of \(names)\n".utf8))
        exit(2)
    }
    return harness
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    libFuzzerHarness.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

/// The request parser both harnesses use: the defaults of `serve --stdio`, no engine loaded.
let fuzzParser = ServeRequestParser(defaults: [:], flags: [])

/// A check the code under test failed: a crash for libFuzzer to keep.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("frameocr-fuzz: \(message())") }
}

/// The working directory the harnesses run in: an empty folder of their own, so that an option
/// naming a file (`--user-words words.txt`) reads nothing of the machine's. Paths with a `/` are
/// left out of the inputs.
let scratchDirectory: Void = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("frameocr-fuzz-scratch")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    guard FileManager.default.changeCurrentDirectoryPath(dir.path) else { fatalError("cannot enter \(dir.path)") }
}()

#if !FRAMEOCR_LIBFUZZER
    /// The replayer: `frameocr-fuzz HARNESS FILE|DIR…`; `frameocr-fuzz dictionary HARNESS` prints
    /// the harness's libFuzzer dictionary.
    @main
    enum Replay {
        static func main() {
            let args = Array(CommandLine.arguments.dropFirst())
            if args.count == 2, args[0] == "dictionary", let harness = Harness(rawValue: args[1]) {
                print(dictionaryFile(harness.dictionary), terminator: "")
                return
            }
            guard let name = args.first, let harness = Harness(rawValue: name), args.count > 1 else {
                let names = Harness.allCases.map(\.rawValue).joined(separator: " | ")
                FileHandle.standardError.write(Data("usage: frameocr-fuzz \(names) FILE|DIR…\n".utf8))
                exit(2)
            }
            var files: [String] = []
            for path in args.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    FileHandle.standardError.write(Data("frameocr-fuzz: no such file \(path)\n".utf8))
                    exit(2)
                }
                if isDirectory.boolValue {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                    files += names.sorted().map { (path as NSString).appendingPathComponent($0) }
                } else {
                    files.append(path)
                }
            }
            let inputs = files.map { path -> [UInt8] in
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("frameocr-fuzz: cannot read \(path)\n".utf8))
                    exit(2)
                }
                return [UInt8](data)
            }
            for input in inputs { input.withUnsafeBytes { harness.run($0) } }
            print("frameocr-fuzz \(name): \(inputs.count) inputs, no check failed")
        }
    }
#endif
