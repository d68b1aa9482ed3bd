import Foundation

/// Writes `message` and a newline to standard error (the command line's messages, and the
/// reports that go beside a machine-readable standard output).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Writes `text` to standard output unbuffered (`video`'s result lines come from another task
/// than its report).
func writeOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}
