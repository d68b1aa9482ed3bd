/// A machine readable zone (MRZ) of a passport, ID card or visa, as ICAO Doc 9303 (parts 4–6)
/// lays it out: TD1 (3 lines of 30 characters), TD2 (2 × 36) or TD3 (2 × 44; also MRV-A),
/// alphabet `A`–`Z`, `0`–`9` and the filler `<`.
///
/// The machine-readable-zone reading (``SecondReadings/machineReadableZone``) finds lines that look
/// like an MRZ in a reading, reads their region again with only the MRZ alphabet, and repairs the
/// reading with what the layout guarantees (``repair(_:format:chevrons:cells:)``): the line length, the
/// filler glyph, letters where only letters may stand and digits where only digits may, and the
/// check digits. The repaired lines replace the MRZ lines of the result.
public struct MachineReadableZone: Hashable, Sendable, Codable {
    /// The ICAO document layouts.
    public enum Format: String, Hashable, Sendable, Codable, CaseIterable {
        /// ID-1 size cards: 3 lines × 30 characters.
        case td1
        /// ID-2 size documents (and MRV-B visas): 2 lines × 36.
        case td2
        /// Passports (and MRV-A visas): 2 lines × 44.
        case td3

        public var lineCount: Int { self == .td1 ? 3 : 2 }
        public var lineLength: Int {
            switch self {
            case .td1: 30
            case .td2: 36
            case .td3: 44
            }
        }
    }

    /// One check digit of the layout and whether the reading satisfies it.
    public struct Check: Hashable, Sendable, Codable {
        /// A field of the layout that a check digit protects (ICAO 9303). The raw value is the
        /// JSON's `field` string, so results written before this was an enum decode unchanged.
        public enum Field: String, Hashable, Sendable, Codable {
            /// The document number (its 9 characters).
            case documentNumber
            /// The date of birth, `YYMMDD`.
            case birthDate
            /// The date of expiry, `YYMMDD`.
            case expiryDate
            /// The personal number or other optional data (TD3 only).
            case personalNumber
            /// The composite check digit over the document number, the dates and the optional
            /// data, with their own check digits.
            case composite
        }

        /// The field it protects.
        public var field: Field
        public var valid: Bool
    }

    public var format: Format
    /// The repaired lines, top to bottom, each exactly ``Format/lineLength`` characters when the
    /// reading could be brought to that length.
    public var lines: [String]
    /// Every check digit of the layout, in the order ICAO lists them.
    public var checks: [Check]
    /// Characters changed from the engine's reading (filler glyphs, letter/digit confusions,
    /// check-digit repairs, length fixes).
    public var corrections: Int

    /// Whether every line has its length and every check digit holds.
    public var isValid: Bool {
        lines.count == format.lineCount && lines.allSatisfy { $0.count == format.lineLength }
            && checks.allSatisfy(\.valid)
    }

    /// The MRZ alphabet (Tesseract's whitelist for the second reading).
    public static let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<"

    // MARK: - Layout

    enum Kind { case alpha, digits, alphanumeric, sex, check }

    /// A run of positions of one kind; `checks` names the field a check-digit position protects.
    struct Field {
        var line: Int, range: Range<Int>, kind: Kind, check: String? = nil
    }

    /// ICAO 9303 field positions (0-based) per format.
    static func layout(_ format: Format) -> (
        fields: [Field], checks: [(Check.Field, [(line: Int, range: Range<Int>)], (line: Int, at: Int))]
    ) {
        switch format {
        case .td3, .td2:
            let n = format.lineLength
            let optionalEnd = format == .td3 ? 42 : 35
            var fields = [
                Field(line: 0, range: 0..<5, kind: .alpha), Field(line: 0, range: 5..<n, kind: .alpha),
                Field(line: 1, range: 0..<9, kind: .alphanumeric), Field(line: 1, range: 9..<10, kind: .check),
                Field(line: 1, range: 10..<13, kind: .alpha), Field(line: 1, range: 13..<19, kind: .digits),
                Field(line: 1, range: 19..<20, kind: .check), Field(line: 1, range: 20..<21, kind: .sex),
                Field(line: 1, range: 21..<27, kind: .digits), Field(line: 1, range: 27..<28, kind: .check),
                Field(line: 1, range: 28..<optionalEnd, kind: .alphanumeric),
                Field(line: 1, range: n - 1..<n, kind: .check),
            ]
            var checks: [(Check.Field, [(line: Int, range: Range<Int>)], (line: Int, at: Int))] = [
                (.documentNumber, [(1, 0..<9)], (1, 9)), (.birthDate, [(1, 13..<19)], (1, 19)),
                (.expiryDate, [(1, 21..<27)], (1, 27)),
            ]
            if format == .td3 {
                fields.insert(Field(line: 1, range: 42..<43, kind: .check), at: fields.count - 1)
                checks.append((.personalNumber, [(1, 28..<42)], (1, 42)))
                checks.append((.composite, [(1, 0..<10), (1, 13..<20), (1, 21..<43)], (1, 43)))
            } else {
                checks.append((.composite, [(1, 0..<10), (1, 13..<20), (1, 21..<35)], (1, 35)))
            }
            return (fields, checks)
        case .td1:
            let fields = [
                Field(line: 0, range: 0..<5, kind: .alpha), Field(line: 0, range: 5..<14, kind: .alphanumeric),
                Field(line: 0, range: 14..<15, kind: .check), Field(line: 0, range: 15..<30, kind: .alphanumeric),
                Field(line: 1, range: 0..<6, kind: .digits), Field(line: 1, range: 6..<7, kind: .check),
                Field(line: 1, range: 7..<8, kind: .sex), Field(line: 1, range: 8..<14, kind: .digits),
                Field(line: 1, range: 14..<15, kind: .check), Field(line: 1, range: 15..<18, kind: .alpha),
                Field(line: 1, range: 18..<29, kind: .alphanumeric), Field(line: 1, range: 29..<30, kind: .check),
                Field(line: 2, range: 0..<30, kind: .alpha),
            ]
            let checks: [(Check.Field, [(line: Int, range: Range<Int>)], (line: Int, at: Int))] = [
                (.documentNumber, [(0, 5..<14)], (0, 14)), (.birthDate, [(1, 0..<6)], (1, 6)),
                (.expiryDate, [(1, 8..<14)], (1, 14)),
                (.composite, [(0, 5..<30), (1, 0..<7), (1, 8..<15), (1, 18..<29)], (1, 29)),
            ]
            return (fields, checks)
        }
    }

    /// The ICAO check digit (weights 7, 3, 1; `<` = 0, `A` = 10 … `Z` = 35) of `chars`.
    public static func checkDigit<S: Sequence>(_ chars: S) -> Int where S.Element == Character {
        let weights = [7, 3, 1]
        var sum = 0
        for (i, c) in chars.enumerated() { sum += value(c) * weights[i % 3] }
        return sum % 10
    }

    static func value(_ c: Character) -> Int {
        guard let a = c.asciiValue else { return 0 }
        switch a {
        case 48...57: return Int(a) - 48
        case 65...90: return Int(a) - 55
        default: return 0
        }
    }

    /// Letters the engine confuses with digits in OCR-B, both ways.
    static let digitForLetter: [Character: Character] = [
        "O": "0", "D": "0", "Q": "0", "U": "0", "I": "1", "L": "1", "Z": "2",
        "S": "5", "G": "6", "B": "8", "T": "7", "A": "4",
    ]
    static let letterForDigit: [Character: Character] = [
        "0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B", "4": "A", "7": "T",
    ]

    // MARK: - Repair

    /// Repairs an engine's reading of an MRZ.
    ///
    /// - Parameters:
    ///   - raw: the lines as read (spaces are dropped), top to bottom; `format.lineCount` of them.
    ///   - format: the layout.
    ///   - chevrons: per line, per character cell (``Format/lineLength`` cells), whether the
    ///     cell's glyph is the filler chevron (`focr_mrz_chevrons`); nil when not measured.
    ///   - cells: per line, per character read (spaces dropped), the character cell its box's
    ///     centre falls in; nil when not known.
    /// - Returns: the repaired zone. Steps: (1) a line longer than the layout is cut back by
    ///   fillers (`<`, or `K`/`X`, the engine's usual misreadings of it) at its end, a shorter
    ///   line ending in fillers is padded with `<`; (2) a `K` or `X` in a letter or
    ///   alphanumeric field whose cell is a chevron becomes `<`; (3) in letter fields digits
    ///   become their look-alike letters, in digit fields letters their look-alike digits (and
    ///   `<` in a date stays wrong); (4) a failing check digit is repaired when exactly one
    ///   look-alike substitution in its field (or in the check digit itself) makes it hold.
    ///   A line still one or two characters too long (the engine read one glyph twice, as `2`
    ///   and `Z`) is tried without each of them — only characters sharing a cell with a neighbour
    ///   when `cells` are given — and the deletion that makes every check digit hold with the
    ///   fewest changes is taken when it is the only one.
    public static func repair(_ raw: [String], format: Format, chevrons: [[Bool]]? = nil, cells: [[Int]]? = nil)
        -> MachineReadableZone
    {
        let n = format.lineLength
        var corrections = 0
        var lines: [[Character]] = raw.map { Array($0.uppercased().filter { !$0.isWhitespace }) }
        for i in lines.indices {
            let before = lines[i]
            while lines[i].count > n, let last = lines[i].last, "<KX".contains(last) { lines[i].removeLast() }
            if lines[i].count < n, lines[i].last == "<" { lines[i] += Array(repeating: "<", count: n - lines[i].count) }
            corrections += abs(before.count - lines[i].count)
        }
        let plain = repairAligned(lines, format: format, chevrons: chevrons, corrections: corrections)
        guard !plain.isValid, let long = lines.firstIndex(where: { (n + 1...n + 2).contains($0.count) }) else {
            return plain
        }
        var valid: [MachineReadableZone] = []
        let shared: (Int) -> Bool = { i in
            guard let c = cells?[safe: long], c.count >= lines[long].count else { return true }
            return (i > 0 && c[i - 1] == c[i]) || (i + 1 < c.count && c[i + 1] == c[i])
        }
        for drop in Self.deletions(of: lines[long].count - n, from: lines[long].count) where drop.allSatisfy(shared) {
            var candidate = lines
            candidate[long] = lines[long].enumerated().filter { !drop.contains($0.offset) }.map(\.element)
            let zone = repairAligned(
                candidate, format: format, chevrons: chevrons, corrections: corrections + drop.count)

            if zone.isValid && !valid.contains(where: { $0.lines == zone.lines }) { valid.append(zone) }
        }
        // The reading that needs the fewest changes, when only one does.
        let fewest = valid.map(\.corrections).min()
        let best = valid.filter { $0.corrections == fewest }
        return best.count == 1 ? best[0] : plain
    }

    /// Every set of `k` (1 or 2) positions out of `count`.
    static func deletions(of k: Int, from count: Int) -> [Set<Int>] {
        k == 1 ? (0..<count).map { [$0] } : (0..<count).flatMap { i in (i + 1..<count).map { [i, $0] } }
    }

    /// Steps 2–4 of ``repair(_:format:chevrons:)`` on lines already brought to length.
    static func repairAligned(_ lines: [[Character]], format: Format, chevrons: [[Bool]]?, corrections: Int)
        -> MachineReadableZone
    {
        let n = format.lineLength
        var lines = lines
        var corrections = corrections
        let (fields, checkList) = layout(format)
        func set(_ line: Int, _ at: Int, _ c: Character) {
            guard lines[line][at] != c else { return }
            lines[line][at] = c
            corrections += 1
        }
        for f in fields where f.line < lines.count && lines[f.line].count == n {
            for at in f.range {
                let c = lines[f.line][at]
                switch f.kind {
                case .alpha, .alphanumeric:
                    if c == "K" || c == "X", let cells = chevrons?[safe: f.line], cells.count == n, cells[at] {
                        set(f.line, at, "<")
                    }
                    if f.kind == .alpha, let l = letterForDigit[lines[f.line][at]] { set(f.line, at, l) }
                case .digits, .check:
                    if let d = digitForLetter[c] { set(f.line, at, d) }
                case .sex:
                    if c == "P" || c == "E" {
                        set(f.line, at, "F")
                    } else if c == "H" || c == "N" {
                        set(f.line, at, "M")
                    }
                }
            }
        }
        var checks: [Check] = []
        guard lines.count == format.lineCount, lines.allSatisfy({ $0.count == n }) else {
            return MachineReadableZone(
                format: format, lines: lines.map { String($0) },
                checks: checkList.map { Check(field: $0.0, valid: false) }, corrections: corrections)
        }
        func holds(_ parts: [(line: Int, range: Range<Int>)], _ at: (line: Int, at: Int)) -> Bool {
            let digit = lines[at.line][at.at]
            let expected = checkDigit(parts.flatMap { lines[$0.line][$0.range] })
            // An empty optional field may carry `<` as its check digit.
            if digit == "<" {
                return expected == 0 && parts.allSatisfy { lines[$0.line][$0.range].allSatisfy { $0 == "<" } }
            }
            return value(digit) == expected && digit.isNumber
        }
        let composite = checkList[checkList.count - 1]
        for (name, parts, at) in checkList {
            if !holds(parts, at) && name != composite.0 {
                // Single look-alike substitutions inside the field that make its check digit hold,
                // and which of them also make the composite check digit hold.
                var fixes: [(line: Int, at: Int, c: Character)] = []
                var withComposite: [(line: Int, at: Int, c: Character)] = []
                for p in parts {
                    for i in p.range {
                        let c = lines[p.line][i]
                        for alt in [digitForLetter[c], letterForDigit[c]].compactMap({ $0 }) {
                            lines[p.line][i] = alt
                            if holds(parts, at) {
                                fixes.append((p.line, i, alt))
                                if holds(composite.1, composite.2) { withComposite.append((p.line, i, alt)) }
                            }
                            lines[p.line][i] = c
                        }
                    }
                }
                // Otherwise prefer a change that agrees with the field's other characters (a
                // letter among digits becoming a digit). A change is taken only when it is the one.
                func agrees(_ f: (line: Int, at: Int, c: Character)) -> Bool {
                    let others = parts.flatMap { p in
                        p.range.filter { !(p.line == f.line && $0 == f.at) }.map { lines[p.line][$0] }
                    }
                    .filter { $0 != "<" }
                    let digits = others.filter(\.isNumber).count
                    return f.c.isNumber ? 2 * digits >= others.count : 2 * digits < others.count
                }
                for candidates in [fixes, withComposite, fixes.filter(agrees)] where candidates.count == 1 {
                    set(candidates[0].line, candidates[0].at, candidates[0].c)
                    break
                }
            }
            checks.append(Check(field: name, valid: holds(parts, at)))
        }
        return MachineReadableZone(
            format: format, lines: lines.map { String($0) }, checks: checks, corrections: corrections)
    }

    /// Whether a line of a reading looks like part of an MRZ: at least 24 characters without
    /// spaces, nine in ten of them from the MRZ alphabet (or `K`, `X` for fillers), and a run of
    /// two fillers.
    static func looksLikeLine(_ text: String) -> Bool {
        let chars = text.filter { !$0.isWhitespace }
        guard chars.count >= 24 else { return false }
        let inAlphabet = chars.filter { alphabet.contains($0) }.count
        return Double(inAlphabet) >= 0.9 * Double(chars.count)
            && (chars.contains("<<") || chars.contains("<K") || chars.contains("K<"))
    }

    /// The format whose line length is nearest the lines' mean length (TD1 for three lines).
    static func format(lineCount: Int, meanLength: Double) -> Format? {
        switch lineCount {
        case 3: return .td1
        case 2: return meanLength < 40 ? .td2 : .td3
        default: return nil
        }
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
