import Foundation

/// A small command-line parser: `--name value`, `--name=value`, flags, and positionals; `--`
/// ends the options. The command line's commands and the benchmark (`frameocr-bench`) parse
/// with it.
package struct Arguments {
    package private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    /// Every option in the order given: its name, and its value (nil for a flag).
    package private(set) var options: [(name: String, value: String?)] = []

    /// - Parameters:
    ///   - valued: options that take a value.   - flagNames: options without a value.
    /// - Throws: `UsageError` for an unknown option or a missing value.
    package init(_ args: [String], valued: Set<String>, flagNames: Set<String>) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("--") || a == "-" {
                if a == "--" {
                    onlyPositionals = true
                    continue
                }
                positionals.append(a)
                continue
            }
            var name = String(a.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if flagNames.contains(name) {
                guard value == nil else { throw UsageError("--\(name) takes no value", unknownArgument: a) }
                flags.insert(name)
                options.append((name, nil))
            } else if valued.contains(name) {
                if value == nil {
                    guard i < args.count else { throw UsageError("--\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                values[name] = value
                options.append((name, value))
            } else {
                throw UsageError("unknown option --\(name)", unknownArgument: a)
            }
        }
    }

    /// Every option given a value, by name (the last one given wins).
    package var namedValues: [String: String] { values }
    /// Every flag given.
    package var givenFlags: Set<String> { flags }

    package func value(_ name: String) -> String? { values[name] }
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    package func int(_ name: String) throws(UsageError) -> Int? {
        guard let v = values[name] else { return nil }
        guard let n = Int(v) else { throw UsageError("--\(name): '\(v)' is not an integer") }
        return n
    }

    package func double(_ name: String) throws(UsageError) -> Double? {
        guard let v = values[name] else { return nil }
        guard let n = Double(v), n.isFinite else { throw UsageError("--\(name): '\(v)' is not a number") }
        return n
    }

    /// Four comma-separated numbers.
    func quadruple(_ name: String) throws(UsageError) -> (Double, Double, Double, Double)? {
        guard let v = values[name] else { return nil }
        let parts = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let a = parts[0], let b = parts[1], let c = parts[2], let d = parts[3],
            [a, b, c, d].allSatisfy(\.isFinite)
        else { throw UsageError("--\(name): '\(v)' must be four numbers x,y,w,h") }
        return (a, b, c, d)
    }
}

/// A command-line mistake: printed with the usage hint, exit status 2.
package struct UsageError: Error, CustomStringConvertible {
    package let description: String
    /// The argument as given when no option takes it: an unknown option (`--nmae=3`), or a flag
    /// given a value (`--quick=1`).
    package let unknownArgument: String?

    package init(_ message: String, unknownArgument: String? = nil) {
        description = message
        self.unknownArgument = unknownArgument
    }
}
