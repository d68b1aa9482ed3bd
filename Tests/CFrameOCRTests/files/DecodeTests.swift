import CFrameOCR
import Foundation
import Testing

/// The files room (Sources/CFrameOCR/files/decode.cpp): stills decoded by Leptonica, the formats
/// FrameOCR names told by their signature, OpenCV's imgcodecs (libFrameOCRMedia's
/// focr_image_decode_opencv) only for what Leptonica does not read. Leptonica's pixels are checked
/// against OpenCV's, byte for byte, so moving a format from one decoder to the other changes no
/// text.
@Suite("Files: stills decoded by Leptonica, the same pixels as OpenCV's")
struct DecodeTests {
    /// A decoded image: its size, channels and packed bytes (rows without padding).
    struct Decoded: Equatable, CustomStringConvertible {
        var width = 0
        var height = 0
        var channels = 0
        var bytes: [UInt8] = []
        var description: String { "\(width)×\(height)×\(channels)" }
    }

    /// `decode`'s image, or its status and message.
    static func decoded(_ decode: (inout OpaquePointer?) -> focr_status) -> Result<Decoded, FailedDecode> {
        var handle: OpaquePointer?
        let status = decode(&handle)
        guard status == FOCR_OK, let handle else {
            return .failure(FailedDecode(status: status, message: String(cString: focr_last_error())))
        }
        defer { focr_decoded_image_destroy(handle) }
        let view = focr_decoded_image_view(handle)
        let channels = view.format == Int32(FOCR_FORMAT_GRAY8.rawValue) ? 1 : 3
        var out = Decoded(width: Int(view.width), height: Int(view.height), channels: channels)
        let rowBytes = out.width * channels
        for y in 0..<out.height {
            let row = view.planes.0.data.advanced(by: y * view.planes.0.bytes_per_row)
            out.bytes += UnsafeRawBufferPointer(start: row, count: rowBytes)
        }
        return .success(out)
    }

    struct FailedDecode: Error, Equatable {
        var status: focr_status
        var message: String
    }

    static func leptonica(_ bytes: [UInt8]) -> Result<Decoded, FailedDecode> {
        decoded { out in
            bytes.withUnsafeBufferPointer { focr_image_decode_memory($0.baseAddress, $0.count, 1 << 28, &out) }
        }
    }

    static func openCV(_ bytes: [UInt8]) -> Result<Decoded, FailedDecode> {
        decoded { out in
            bytes.withUnsafeBufferPointer { focr_image_decode_opencv($0.baseAddress, $0.count, 1 << 28, &out) }
        }
    }

    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixture.path(name))))
    }

    @Test(
        "Leptonica's pixels are OpenCV's, byte for byte: PNG (gray, RGB, RGBA), TIFF, WebP, JPEG (gray, color, EXIF)",
        arguments: [
            "phototest.tif", "testocr.png", "testocr.tiff", "testocr.webp", "receipt-on-desk.png", "rgba_4x2.png",
            "gray_alpha_2x1.png", "mrz-td3-utopia.jpg", "simple-90.jpg", "exif_orientation6.jpg", "uneven-light.png",
            "lightbox-sign.png",
        ])
    func sameAsOpenCV(name: String) throws {
        let bytes = try Self.fixture(name)
        let lept = try Self.leptonica(bytes).get()
        let cv = try Self.openCV(bytes).get()
        #expect(lept.width > 0 && lept.height > 0)
        #expect(lept == cv, "\(name): \(lept) against \(cv)")
    }

    @Test("GIF (a format OpenCV does not read): the same page as the PNG, gray from its gray palette")
    func gif() throws {
        let gif = try Self.leptonica(Self.fixture("testocr.gif")).get()
        let png = try Self.leptonica(Self.fixture("testocr.png")).get()
        // The PNG is RGB with B = G = R; the GIF's palette holds the same grays.
        #expect(gif.width == 640 && gif.height == 480 && gif.channels == 1 && png.channels == 3)
        #expect(gif.bytes == stride(from: 0, to: png.bytes.count, by: 3).map { png.bytes[$0] })
    }

    /// exif_orientation6.jpg with IFD0's orientation set to `value`, in the byte order given
    /// (the fixture's TIFF header is big-endian, "MM", at byte 30; its one entry, 0x0112, at 40).
    static func exif(_ base: [UInt8], orientation value: UInt8, littleEndian: Bool) -> [UInt8] {
        var b = base
        if littleEndian {
            let tiff: [UInt8] =
                [0x49, 0x49, 0x2A, 0x00, 0x08, 0, 0, 0, 0x01, 0x00] + [0x12, 0x01, 0x03, 0x00, 0x01, 0, 0, 0]
                + [value, 0, 0, 0] + [0, 0, 0, 0]
            b.replaceSubrange(30..<56, with: tiff)
        } else {
            b[49] = value
        }
        return b
    }

    /// `m` (width × height, one byte a pixel) as EXIF orientation `o` makes it upright.
    static func upright(_ m: Decoded, _ o: Int) -> Decoded {
        let (w, h) = (m.width, m.height)
        func at(_ x: Int, _ y: Int) -> UInt8 { m.bytes[y * w + x] }
        let turned = o >= 5
        let (ow, oh) = turned ? (h, w) : (w, h)
        var out = Decoded(width: ow, height: oh, channels: 1)
        for y in 0..<oh {
            for x in 0..<ow {
                let v: UInt8
                switch o {
                case 2: v = at(w - 1 - x, y)
                case 3: v = at(w - 1 - x, h - 1 - y)
                case 4: v = at(x, h - 1 - y)
                case 5: v = at(y, x)
                case 6: v = at(y, h - 1 - x)
                case 7: v = at(w - 1 - y, h - 1 - x)
                case 8: v = at(w - 1 - y, x)
                default: v = at(x, y)
                }
                out.bytes.append(v)
            }
        }
        return out
    }

    @Test(
        "EXIF orientations 1…8, big- and little-endian: turned upright exactly as OpenCV turns them",
        arguments: [false, true])
    func exifOrientations(littleEndian: Bool) throws {
        let base = try Self.fixture("exif_orientation6.jpg")
        let stored = try Self.leptonica(Self.exif(base, orientation: 1, littleEndian: littleEndian)).get()
        #expect(stored.width == 32 && stored.height == 16 && stored.channels == 1)
        for o in 1...8 {
            let bytes = Self.exif(base, orientation: UInt8(o), littleEndian: littleEndian)
            let lept = try Self.leptonica(bytes).get()
            #expect(lept == Self.upright(stored, o), "orientation \(o)")
            #expect(lept == (try Self.openCV(bytes).get()), "orientation \(o) against OpenCV")
        }
        // Values outside 1…8 and a tag of another type leave the pixels as stored.
        #expect(try Self.leptonica(Self.exif(base, orientation: 0, littleEndian: littleEndian)).get() == stored)
        #expect(try Self.leptonica(Self.exif(base, orientation: 9, littleEndian: littleEndian)).get() == stored)
        var long = Self.exif(base, orientation: 6, littleEndian: littleEndian)
        if littleEndian { long[42] = 4 } else { long[43] = 4 }  // type LONG, not SHORT
        #expect(try Self.leptonica(long).get() == stored)
    }

    @Test("An EXIF segment cut short or pointing outside itself is read as no orientation, never past its end")
    func exifOutOfBounds() throws {
        let base = try Self.fixture("exif_orientation6.jpg")
        let stored = try Self.leptonica(Self.exif(base, orientation: 1, littleEndian: false)).get()
        let changes: [[(Int, UInt8)]] = [
            [(34, 0xFF)], [(37, 0x40)],  // IFD0 beyond the segment
            [(38, 0x7F), (39, 0xFF), (41, 0x13)],  // 32767 entries, the first not 0x0112: the walk stops at the end
            [(29, 0x01)],  // "Exif\0\1": not EXIF
        ]
        for change in changes {
            var b = base
            for (at, value) in change { b[at] = value }
            #expect(try Self.leptonica(b).get() == stored, "\(change)")
        }
    }

    @Test("Only the named formats reach a decoder: PDF, PostScript, DICOM, HDR, EXR, PFM, Sun raster, text refused")
    func unnamedFormatsRefused() throws {
        let dicom = try Self.fixture("fuzz/decode-gdcm-abort.bin")
        let others: [(String, [UInt8])] = [
            ("pdf", Array("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n".utf8)),
            ("ps", Array("%!PS-Adobe-3.0\n0 0 moveto\nshowpage\n".utf8)),
            (
                "hdr",
                Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n".utf8) + [UInt8](repeating: 128, count: 16)
            ),
            ("exr", [0x76, 0x2F, 0x31, 0x01, 2, 0, 0, 0] + [UInt8](repeating: 0, count: 64)),
            ("pfm", Array("PF\n2 2\n-1.0\n".utf8) + [UInt8](repeating: 0, count: 48)),
            ("sun", [0x59, 0xA6, 0x6A, 0x95, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 8] + [UInt8](repeating: 0, count: 20)),
            ("text", Array("this is not an image\n".utf8)), ("dicom", dicom),
        ]
        for (name, bytes) in others {
            guard case .failure(let e) = Self.leptonica(bytes) else {
                Issue.record("\(name): decoded")
                continue
            }
            #expect(e.status == FOCR_E_DECODE, "\(name)")
            #expect(e.message.contains("not an image format FrameOCR reads"), "\(name): \(e.message)")
        }
        // OpenCV reads some of them (Radiance HDR): only the format check keeps them out.
        #expect((try? Self.openCV(others[2].1).get()) != nil)
    }

    @Test(
        "The OpenCV fallback still refuses DICOM's signature, which OpenCV would hand to GDCM whatever the first bytes")
    func openCVRefusesDicom() throws {
        guard case .failure(let e) = Self.openCV(try Self.fixture("fuzz/decode-gdcm-abort.bin")) else {
            Issue.record("decoded")
            return
        }
        #expect(e.status == FOCR_E_DECODE && e.message.contains("DICOM (\"DICM\" at byte 128) is not read"))
        // A TIFF carrying the signature is a TIFF to Leptonica: it decodes, the same pixels.
        var tiff = try Self.fixture("phototest.tif")
        let plain = try Self.leptonica(tiff).get()
        tiff.replaceSubrange(128..<132, with: Array("DICM".utf8))
        #expect(try Self.leptonica(tiff).get() == plain)
    }

    /// A 4×2 BMP of 32 bits a pixel (BITMAPINFOHEADER, BI_RGB, rows top-down): pixel x is B 10·x,
    /// G 50, R 200 and a fourth byte `reserved`.
    static func bmp32(reserved: UInt8) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var pixels: [UInt8] = []
        for _ in 0..<2 {
            for x in 0..<4 { pixels += [UInt8(10 * x), 50, 200, reserved] }
        }
        var info: [UInt8] = le32(40) + le32(4) + le32(-2)
        info += le16(1) + le16(32) + le32(0) + le32(pixels.count)
        info += le32(2835) + le32(2835) + le32(0) + le32(0)
        var file: [UInt8] = Array("BM".utf8) + le32(14 + 40 + pixels.count)
        file += le32(0) + le32(54)
        return file + info + pixels
    }

    @Test("A 32-bit BMP goes to OpenCV (Leptonica 1.82 reads it a byte off): its colors exact, the fourth byte unused")
    func bmp32ToOpenCV() throws {
        var expected: [UInt8] = []
        for _ in 0..<2 {
            for x in 0..<4 { expected += [UInt8(10 * x), 50, 200] }
        }
        for reserved in [UInt8(0), 255] {
            let image = try Self.leptonica(Self.bmp32(reserved: reserved)).get()
            #expect(image.width == 4 && image.height == 2 && image.channels == 3)
            #expect(image.bytes == expected, "fourth byte \(reserved)")
        }
    }

    @Test("A 16-bit PNG goes to OpenCV (Leptonica keeps the high byte): v / 257 rounded, named in an error")
    func sixteenBitToOpenCV() throws {
        let image = try Self.leptonica(Self.fixture("gray16_4x2.png")).get()
        #expect(image.bytes == [0, 1, 255, 128, 4, 156, 48, 1])  // 1000 / 257 = 3.9 → 4, not 1000 >> 8 = 3
        var cut = try Self.fixture("gray16_4x2.png")
        cut.removeLast(20)
        guard case .failure(let e) = Self.leptonica(cut) else {
            Issue.record("a cut 16-bit PNG decoded")
            return
        }
        #expect(
            e.status == FOCR_E_DECODE && e.message.hasPrefix("<memory>: a 16-bit PNG; OpenCV: "),
            "\(e.message)")
    }
}
