import Foundation
import Testing

@testable import FrameOCR

/// Machine readable zones (ICAO Doc 9303): check digits, the repair of an engine's reading, the
/// filler-glyph measurement, and the whole path on the ICAO "Utopia" specimens.
@Suite("Machine readable zone")
struct MachineReadableZoneTests {
    static let td3 = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]
    static let td2 = ["I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"]

    @Test("A check's field is the JSON's string, and results written before decode")
    func checkFieldStrings() throws {
        let json = Data(#"{"field":"personalNumber","valid":true}"#.utf8)
        let check = try JSONDecoder().decode(MachineReadableZone.Check.self, from: json)
        #expect(check.field == .personalNumber && check.valid)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(check) == json)
        let fields: [MachineReadableZone.Check.Field] = [
            .documentNumber, .birthDate, .expiryDate, .personalNumber, .composite,
        ]
        #expect(fields.map(\.rawValue) == ["documentNumber", "birthDate", "expiryDate", "personalNumber", "composite"])
    }

    /// Chevron flags for `line`: true where the specimen has a filler.
    static func fillers(_ line: String) -> [Bool] { line.map { $0 == "<" } }

    @Test("ICAO check digits (weights 7, 3, 1) of the specimen's fields")
    func checkDigits() {
        #expect(MachineReadableZone.checkDigit("L898902C3") == 6)
        #expect(MachineReadableZone.checkDigit("D23145890") == 7)
        #expect(MachineReadableZone.checkDigit("740812") == 2)
        #expect(MachineReadableZone.checkDigit("120415") == 9)
        #expect(MachineReadableZone.checkDigit("ZE184226B<<<<<") == 1)
        #expect(MachineReadableZone.checkDigit("L898902C36" + "7408122" + "1204159ZE184226B<<<<<1") == 0)
        let valid = MachineReadableZone.repair(Self.td3, format: .td3)
        #expect(valid.isValid && valid.corrections == 0 && valid.lines == Self.td3)
        #expect(
            valid.checks.map(\.field) == [.documentNumber, .birthDate, .expiryDate, .personalNumber, .composite])
    }

    @Test("An engine's TD3 reading: K/X for fillers (told apart by the glyph), 0 for O, six fillers too many")
    func repairTD3() {
        // What Tesseract read on passport-td3.png with the MRZ alphabet.
        let read = [
            "P<UTOERIKSSON<<ANNAKMARIAK<<<K<K<X<X<K<<<<<<<<<<<<", "L898902C36UT07408122F1204159ZE184226B<<<<<10",
        ]
        let zone = MachineReadableZone.repair(read, format: .td3, chevrons: Self.td3.map(Self.fillers))
        #expect(zone.lines == Self.td3)
        #expect(zone.isValid)
        // 6 fillers cut, 7 K/X → <, 1 0 → O.
        #expect(zone.corrections == 14)
        // Without the glyph measurement a K inside a name cannot be told from a letter.
        let blind = MachineReadableZone.repair(read, format: .td3)
        #expect(blind.lines[0] == "P<UTOERIKSSON<<ANNAKMARIAK<<<K<K<X<X<K<<<<<<")
        #expect(blind.lines[1] == Self.td3[1] && blind.checks.allSatisfy(\.valid))
    }

    @Test("A digit the engine inserted is found by the check digits; a digit misread is repaired by them")
    func repairLength() {
        // As read from passport-td3.png: the Z read twice, as 2 and Z, both boxes in cell 28.
        let read = [Self.td3[0], "L898902C36UT07408122F12041592ZE184226B<<<<<10"]
        var cells = [Array(0..<44), Array(0...28) + Array(28..<44)]
        let inserted = MachineReadableZone.repair(read, format: .td3, cells: cells)
        #expect(inserted.lines == Self.td3)
        #expect(inserted.isValid)
        #expect(inserted.corrections == 2)
        // Without the cells, several deletions make every check digit hold (the optional field
        // is free): none is taken.
        let ambiguous = MachineReadableZone.repair(read, format: .td3)
        #expect(ambiguous.lines == read && !ambiguous.isValid)
        cells[1] = Array(0..<45)
        #expect(MachineReadableZone.repair(read, format: .td3, cells: cells).lines == read)
        // 0 read as O in the document number: only O → 0 makes its check digit hold.
        let misread = MachineReadableZone.repair(
            ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L8989O2C36UTO7408122F1204159ZE184226B<<<<<10"],
            format: .td3)
        #expect(misread.lines == Self.td3)
        #expect(misread.isValid && misread.corrections == 1)
        // 8 read as B: B → 8 and D → 0 both make the check digit hold (and the composite, which
        // weighs the field the same way): left as read, reported.
        let tie = MachineReadableZone.repair([Self.td2[0], "D23145B907UTO7408122F1204159<<<<<<<6"], format: .td2)
        #expect(tie.lines[1] == "D23145B907UTO7408122F1204159<<<<<<<6")
        #expect(tie.checks.filter { !$0.valid }.map(\.field) == [.documentNumber, .composite])
        // A wrong birth date no look-alike explains: reported, not invented.
        let wrong = MachineReadableZone.repair([Self.td2[0], "D231458907UTO7408132F1204159<<<<<<<6"], format: .td2)
        #expect(!wrong.isValid)
        #expect(wrong.checks.filter { !$0.valid }.map(\.field) == [.birthDate, .composite])
        #expect(wrong.lines[1] == "D231458907UTO7408132F1204159<<<<<<<6")
    }

    @Test("Only MRZ-like lines start the second reading")
    func detection() {
        #expect(MachineReadableZone.looksLikeLine("P<UTOERIKSSON<<ANNAKMARIAK<<<K<K<X<X<K"))
        #expect(MachineReadableZone.looksLikeLine("L898902C36UTO7408122F1204159ZE184226B<<<<<10"))
        #expect(!MachineReadableZone.looksLikeLine("This is a lot of 12 point text to test the"))
        #expect(!MachineReadableZone.looksLikeLine("<<<<"))
        #expect(MachineReadableZone.format(lineCount: 2, meanLength: 37) == .td2)
        #expect(MachineReadableZone.format(lineCount: 2, meanLength: 45) == .td3)
        #expect(MachineReadableZone.format(lineCount: 3, meanLength: 30) == .td1)
        #expect(MachineReadableZone.format(lineCount: 1, meanLength: 44) == nil)
    }

    @Test(
        "The specimens' MRZ comes out exactly, with every check digit, in the bottom of the page",
        .tags(.tesseract), arguments: [("mrz-td3-utopia", MachineReadableZone.Format.td3), ("mrz-td2-utopia", .td2)])
    func specimens(name: String, format: MachineReadableZone.Format) throws {
        let image = try PixelBuffer(contentsOfFile: OCRFixture.path(name + ".jpg"))
        let truth = try OCRFixture.text(name + ".gt.txt").split(separator: "\n").map(String.init)
        let result = try sharedRecognizer.recognize(
            image, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        let zone = try #require(result.preprocessing?.machineReadableZone)
        #expect(zone.format == format)
        #expect(zone.lines == truth)
        #expect(zone.isValid)
        let lines = result.lines.filter { truth.contains($0.text) }
        #expect(lines.map(\.text) == truth)
        for line in lines {
            #expect(line.box.rect.y > 0.6 * Double(image.height) && line.box.rect.width > 0.6 * Double(image.width))
        }
        #expect(result.preprocessing?.reasons.contains { $0.hasPrefix("mrz: \(format.rawValue.uppercased())") } == true)
        // Switched off, the engine's own reading stands (and misses at least one line).
        var off = Recognizer.Options()
        off.secondReadings = SecondReadings()
        off.secondReadings?.machineReadableZone = false
        let plain = try sharedRecognizer.recognize(
            image, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()), options: off)
        #expect(plain.preprocessing?.machineReadableZone == nil)
        #expect(!truth.allSatisfy { plain.text.contains($0) })
    }

    @Test("A page without an MRZ is left alone")
    func noZone() throws {
        let page = try PixelBuffer(contentsOfFile: OCRFixture.path("phototest.tif"))
        let result = try sharedRecognizer.recognize(
            page, pipeline: Pipeline(orientation: .fromFrame, automatic: AutomaticPreprocessing()))
        #expect(result.preprocessing?.machineReadableZone == nil)
        #expect(result.preprocessing?.reasons.contains { $0.hasPrefix("mrz") } == false)
    }
}
