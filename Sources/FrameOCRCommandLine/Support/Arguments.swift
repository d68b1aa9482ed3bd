import Foundation

/// A small command-line parser: `--name value`, `--name=value`, flags, and positionals.
package struct Arguments {
    package private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

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
                guard value == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard i < args.count else { throw UsageError("--\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                values[name] = value
            } else {
                throw UsageError("unknown option --\(name)")
            }
        }
    }

    /// Every option given a value, by name (the last one given wins).
    package var namedValues: [String: String] { values }
    /// Every flag given.
    package var givenFlags: Set<String> { flags }

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    func int(_ name: String) throws(UsageError) -> Int? {
        guard let v = values[name] else { return nil }
        guard let n = Int(v) else { throw UsageError("--\(name): '\(v)' is not an integer") }
        return n
    }

    func double(_ name: String) throws(UsageError) -> Double? {
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
    init(_ message: String) { description = message }
}
