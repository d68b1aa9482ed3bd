import Foundation

// frameocr-fuzz: libFuzzer harnesses for the command line's parsers (Tests/Fuzz/README in
// docs/hardening.md, "Fuzzing").
//
// Built by `make fuzz` with `swift build --sanitize fuzzer --sanitize address
// -Xswiftc -DFRAMEOCR_LIBFUZZER`: libFuzzer's own `main` drives `LLVMFuzzerTestOneInput`, and the
// harness is picked with FRAMEOCR_FUZZ_HARNESS (serve | arguments). In a plain build the
// executable replays inputs instead: `frameocr-fuzz HARNESS FILE|DIR…` runs each file once (the
// regression tests do), and exits 0 when no check failed. A failed check is a `fatalError`: a
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
    /// The replayer: `frameocr-fuzz HARNESS FILE|DIR…`.
    @main
    enum Replay {
        static func main() {
            let args = Array(CommandLine.arguments.dropFirst())
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
