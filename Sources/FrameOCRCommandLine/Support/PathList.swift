import Foundation

/// `recognize --from FILE|-`: a list of image paths.
enum PathList {
    /// The paths listed in `source` (a file, or `-` for standard input), one per line; blank
    /// lines are skipped and a carriage return before the newline is dropped.
    static func read(_ source: String) throws -> [String] {
        let data: Data
        if source == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: source) else {
                throw UsageError("--from: cannot read \(source)")
            }
            data = d
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
