import CFrameOCR
import Foundation
import Testing

@testable import FrameOCR

/// The media library's recognition room (Sources/CFrameOCRMedia/recognition/recognizer.cpp,
/// focr_recognize.h), called through the loader: the CTC recognizer's keys, its decoding's
/// outputs, its checks, and whether its one compiled network (OpenVINO) serves every input width.
/// Needs the installed model and OpenVINO (`make deps`).
@Suite("Recognition: the CTC recognizer's C calls")
struct TextRecognizerTests {
    static let model = TextLineRecognizer.defaultModelPath
    static let keys = TextLineRecognizer.defaultKeysPath

    /// A recognizer on the CPU; freed by the caller.
    static func create() throws -> OpaquePointer {
        var out: OpaquePointer?
        let status = focr_text_recognizer_create(model, keys, Int32(FOCR_DNN_DEVICE_CPU.rawValue), &out)
        #expect(status == FOCR_OK, "\(String(cString: focr_last_error()))")
        return try #require(out)
    }

    /// R01's "OPEN 24H", light on dark, 320×64 gray (a fixture).
    static func openSign() throws -> PixelBuffer {
        try PixelBuffer(contentsOfFile: Fixture.path("r01-open24h-inverted.png"))
    }

    static func params(
        minWidth: Int32 = 320, widthStep: Int32 = 8, maxWidth: Int32 = 1600, topK: Int32 = 0
    ) -> focr_recognizer_params {
        focr_recognizer_params(
            height: 48, min_width: minWidth, width_step: widthStep, max_width: maxWidth, allowed: nil, top_k: topK)
    }

    /// Reads `image` with `handle`: the characters written and the line.
    static func read(
        _ handle: OpaquePointer, _ image: PixelBuffer, _ p: focr_recognizer_params, capacity: Int = 256,
        allowed: [UInt8]? = nil
    ) -> (status: focr_status, characters: [focr_recognized_char], line: focr_recognized_line) {
        var out = [focr_recognized_char](repeating: focr_recognized_char(), count: capacity)
        var line = focr_recognized_line()
        var params = p
        let mask = allowed ?? []
        let status = out.withUnsafeMutableBufferPointer { buffer in
            mask.withUnsafeBufferPointer { m in
                params.allowed = allowed == nil ? nil : m.baseAddress
                return Shim.withImage(image) {
                    focr_text_recognizer_recognize(handle, $0, &params, buffer.baseAddress, Int32(capacity), &line)
                }
            }
        }
        return (status, Array(out.prefix(Int(min(line.count, Int32(capacity))))), line)
    }

    static func text(_ handle: OpaquePointer, _ characters: [focr_recognized_char]) -> String {
        characters.map { c in
            var key: UnsafePointer<CChar>?
            _ = focr_text_recognizer_key(handle, c.class_index, &key)
            return String(cString: key!)
        }.joined()
    }

    /// The bytes of `characters` (the struct has no padding: 4-byte fields only).
    static func bytes(_ characters: [focr_recognized_char]) -> [UInt8] {
        characters.withUnsafeBytes { Array($0) }
    }

    @Test("Keys: the blank, the file's lines in order, the space last; an index out of range is refused")
    func keys() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        var count: Int32 = 0
        #expect(focr_text_recognizer_key_count(handle, &count) == FOCR_OK)
        #expect(count == 6625)
        var key: UnsafePointer<CChar>?
        #expect(focr_text_recognizer_key(handle, 0, &key) == FOCR_OK && String(cString: key!) == "")
        #expect(focr_text_recognizer_key(handle, 1, &key) == FOCR_OK && String(cString: key!) == "'")
        #expect(focr_text_recognizer_key(handle, 6624, &key) == FOCR_OK && String(cString: key!) == " ")
        for bad: Int32 in [-1, 6625] {
            key = UnsafePointer(bitPattern: 1)
            #expect(focr_text_recognizer_key(handle, bad, &key) == FOCR_E_INVALID_ARGUMENT)
            #expect(key == nil)
            #expect(String(cString: focr_last_error()).contains("not in 0…6624"))
        }
    }

    @Test("A sign read: its text, the input's width and steps, the mean probability, extents inside the image")
    func reads() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        let image = try Self.openSign()
        let (status, characters, line) = Self.read(handle, image, Self.params())
        #expect(status == FOCR_OK)
        // The network may read a space where the text ends (PaddleOCR's decoding keeps it; the
        // Swift recognizer drops spaces at the ends).
        #expect(Self.text(handle, characters).trimmingCharacters(in: .whitespaces) == "OPEN 24H")
        // 320×64 at 48 rows: 240 columns, padded to 320, 40 steps of 8.
        #expect(line.resized_width == 240 && line.input_width == 320 && line.time_steps == 40)
        let mean = characters.map(\.probability).reduce(0, +) / Float(characters.count)
        #expect(abs(line.mean_probability - mean) < 1e-6 && mean > 0.8)
        for (c, next) in zip(characters, characters.dropFirst()) {
            #expect(c.first_step <= c.best_step && c.best_step <= c.last_step && c.last_step < next.first_step)
            #expect(c.x0 >= 0 && c.x0 <= c.x1 && c.x1 <= next.x0 && next.x1 <= Float(image.width))
            #expect(c.alternate_count == 0)
        }
    }

    @Test("The count may exceed the capacity: only the capacity is written")
    func capacity() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        var out = [focr_recognized_char](repeating: focr_recognized_char(), count: 3)
        out[2].class_index = -7
        var line = focr_recognized_line()
        var p = Self.params()
        let image = try Self.openSign()
        let all = Self.read(handle, image, p).line.count
        #expect(all >= 8)
        let status = out.withUnsafeMutableBufferPointer { buffer in
            Shim.withImage(image) { focr_text_recognizer_recognize(handle, $0, &p, buffer.baseAddress, 2, &line) }
        }
        #expect(status == FOCR_OK && line.count == all)
        #expect(out[0].class_index > 0 && out[1].class_index > 0 && out[2].class_index == -7)
        // No room at all: the count still comes back.
        var empty = focr_recognized_line()
        let none = Shim.withImage(image) { focr_text_recognizer_recognize(handle, $0, &p, nil, 0, &empty) }
        #expect(none == FOCR_OK && empty.count == all)
    }

    @Test("Alternates at the character's best step, most probable first, never the blank or the character")
    func alternates() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        let (status, characters, _) = Self.read(handle, try Self.openSign(), Self.params(topK: 4))
        #expect(status == FOCR_OK && characters.count >= 8)
        for c in characters {
            #expect(c.alternate_count == 4)
            let (classes, probabilities) = withUnsafeBytes(of: c.alternate_class) { cs in
                withUnsafeBytes(of: c.alternate_probability) { ps in
                    (Array(cs.bindMemory(to: Int32.self)), Array(ps.bindMemory(to: Float.self)))
                }
            }
            #expect(probabilities == probabilities.sorted(by: >))
            #expect(probabilities.allSatisfy { $0 <= c.probability })
            #expect(!classes.contains(0) && !classes.contains(c.class_index) && Set(classes).count == 4)
        }
    }

    @Test("The allowed mask: a class not allowed is never output; no class allowed is refused")
    func allowedMask() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        let image = try Self.openSign()
        var count: Int32 = 0
        _ = focr_text_recognizer_key_count(handle, &count)
        var key: UnsafePointer<CChar>?
        var mask = [UInt8](repeating: 0, count: Int(count))
        for i in 1..<Int(count) {
            _ = focr_text_recognizer_key(handle, Int32(i), &key)
            if "0123456789 ".contains(String(cString: key!)) { mask[i] = 1 }
        }
        let (status, characters, _) = Self.read(handle, image, Self.params(), allowed: mask)
        #expect(status == FOCR_OK)
        #expect(Self.text(handle, characters).contains("24"))
        #expect(characters.allSatisfy { mask[Int($0.class_index)] != 0 })
        let nothing = [UInt8](repeating: 0, count: Int(count))
        let refused = Self.read(handle, image, Self.params(), allowed: nothing)
        #expect(refused.status == FOCR_E_INVALID_ARGUMENT)
    }

    @Test("Parameters out of range are refused, each by name")
    func parameters() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        let image = try Self.openSign()
        var bad: [(focr_recognizer_params, String)] = []
        for h: Int32 in [8, 50, 264] {
            var p = Self.params()
            p.height = h
            bad.append((p, "height"))
        }
        bad.append((Self.params(minWidth: 4), "min_width"))
        bad.append((Self.params(minWidth: 5000), "min_width"))
        bad.append((Self.params(widthStep: 4), "width_step"))
        bad.append((Self.params(widthStep: 12), "width_step"))
        bad.append((Self.params(widthStep: 4104), "width_step"))
        bad.append((Self.params(maxWidth: 0), "max_width"))
        bad.append((Self.params(maxWidth: 9000), "max_width"))
        bad.append((Self.params(topK: -1), "top_k"))
        bad.append((Self.params(topK: 5), "top_k"))
        for (p, name) in bad {
            let (status, _, _) = Self.read(handle, image, p)
            #expect(status == FOCR_E_INVALID_ARGUMENT, "\(name)")
            #expect(String(cString: focr_last_error()).contains(name))
        }
        var line = focr_recognized_line()
        var p = Self.params()
        #expect(
            Shim.withImage(image) { focr_text_recognizer_recognize(handle, $0, &p, nil, -1, &line) }
                == FOCR_E_INVALID_ARGUMENT)
        #expect(
            Shim.withImage(image) { focr_text_recognizer_recognize(handle, $0, nil, nil, 0, &line) }
                == FOCR_E_INVALID_ARGUMENT)
    }

    @Test("Create: missing files, keys that do not match the model, a bad device, NULL; destroy(NULL)")
    func create() throws {
        var out = OpaquePointer(bitPattern: 1)
        #expect(focr_text_recognizer_create("/nonexistent/rec.onnx", Self.keys, 0, &out) == FOCR_E_IO)
        #expect(out == nil)
        #expect(focr_text_recognizer_create(Self.model, "/nonexistent/keys.txt", 0, &out) == FOCR_E_IO)
        #expect(focr_text_recognizer_create(Self.model, Self.keys, 4, &out) == FOCR_E_INVALID_ARGUMENT)
        #expect(focr_text_recognizer_create(Self.model, Self.keys, -1, &out) == FOCR_E_INVALID_ARGUMENT)
        #expect(focr_text_recognizer_create(nil, Self.keys, 0, &out) == FOCR_E_INVALID_ARGUMENT)
        #expect(focr_text_recognizer_create(Self.model, Self.keys, 0, nil) == FOCR_E_INVALID_ARGUMENT)
        let keys = NSTemporaryDirectory() + "frameocr-keys-\(UUID().uuidString).txt"
        try Data("a\nb\n".utf8).write(to: URL(fileURLWithPath: keys))
        defer { try? FileManager.default.removeItem(atPath: keys) }
        #expect(focr_text_recognizer_create(Self.model, keys, 0, &out) == FOCR_E_UNSUPPORTED)
        let message = String(cString: focr_last_error())
        #expect(message.contains("1×40×6625") && message.contains("2 keys"), "\(message)")
        focr_text_recognizer_destroy(nil)
        var count: Int32 = 0
        #expect(focr_text_recognizer_key_count(nil, &count) == FOCR_E_INVALID_ARGUMENT)
        var decision = focr_dnn_decision()
        #expect(focr_text_recognizer_device(nil, &decision) == FOCR_E_INVALID_ARGUMENT)
    }

    @Test("Device: the CPU queries nothing; the decision's strings live as long as the handle; 4 is no device")
    func device() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        var d = focr_dnn_decision()
        #expect(focr_text_recognizer_device(handle, &d) == FOCR_OK)
        #expect(d.requested == Int32(FOCR_DNN_DEVICE_CPU.rawValue) && d.chosen == d.requested)
        #expect(d.fell_back == 0 && d.queried == 0 && d.probed == 0)
        #expect(String(cString: try #require(d.reason)) == "asked for the CPU")
        #expect(String(cString: try #require(d.device)).isEmpty)
        #expect(String(cString: try #require(d.devices)).isEmpty)
        #expect(focr_text_recognizer_device(handle, nil) == FOCR_E_INVALID_ARGUMENT)
        var out: OpaquePointer?
        #expect(focr_text_recognizer_create(Self.model, Self.keys, 4, &out) == FOCR_E_INVALID_ARGUMENT && out == nil)
        #expect(
            String(cString: focr_last_error()).contains(
                "text_recognizer_create: device 4 is not 0 (CPU), 1 (GPU), 2 (auto) or 3 (NPU)"))
    }

    @Test("Inputs padded to min_width and then to a multiple of width_step")
    func widthStep() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        let sign = try Self.openSign()  // 320×64: 240 columns at 48 rows
        let left = try sign.cropped(to: PixelRect(x: 0, y: 0, width: 100, height: 64))  // 75 columns
        for (image, minWidth, step, resized, width) in [
            (sign, Int32(160), Int32(160), Int32(240), Int32(320)), (left, 160, 160, 75, 160),
            (left, 8, 8, 75, 80), (sign, 8, 96, 240, 288), (sign, 320, 160, 240, 320), (left, 200, 64, 75, 256),
        ] {
            let (status, _, line) = Self.read(handle, image, Self.params(minWidth: minWidth, widthStep: step))
            #expect(status == FOCR_OK)
            #expect(
                line.resized_width == resized && line.input_width == width && line.time_steps == width / 8,
                "min_width \(minWidth), width_step \(step): \(line.resized_width) → \(line.input_width)")
        }
    }

    @Test(
        "One network for every width: widths 320, 160, 640, 480, 800 in turn, twice, read as a fresh handle reads each"
    )
    func oneNetworkEveryWidth() throws {
        // The sign as 320×48, its left half (160×48), and stretched to 640, 480 and 800 columns:
        // with min_width 8 the inputs are as wide. One compiled network runs them all in turn
        // (OpenVINO's dynamic width), and each again in a second round.
        let sign = try Self.openSign().resized(width: 320, height: 48)
        let images = [
            sign, try sign.cropped(to: PixelRect(x: 0, y: 0, width: 160, height: 48)),
            try sign.resized(width: 640, height: 48), try sign.resized(width: 480, height: 48),
            try sign.resized(width: 800, height: 48),
        ]
        let widths: [Int32] = [320, 160, 640, 480, 800]
        let kept = try Self.create()
        defer { focr_text_recognizer_destroy(kept) }
        for round in 0..<2 {
            for (image, width) in zip(images, widths) {
                let p = Self.params(minWidth: 8, topK: 4)
                let again = Self.read(kept, image, p)
                let fresh = try Self.create()
                let first = Self.read(fresh, image, p)
                focr_text_recognizer_destroy(fresh)
                #expect(again.status == FOCR_OK && first.status == FOCR_OK)
                #expect(again.line.input_width == width && again.line.time_steps == width / 8)
                #expect(!first.characters.isEmpty, "width \(width): nothing read")
                #expect(
                    Self.bytes(again.characters) == Self.bytes(first.characters),
                    "round \(round), width \(width): \(Self.text(kept, again.characters)) against \(Self.text(kept, first.characters))"
                )
                #expect(again.line.mean_probability == first.line.mean_probability)
            }
        }
    }

    @Test(
        "A batch: 13 lines of 4 widths (11 of 320: runs of 8, 2 and 1), each read as it is alone; bad input named, count 0 a no-op"
    )
    func batch() throws {
        let handle = try Self.create()
        defer { focr_text_recognizer_destroy(handle) }
        let sign = try Self.openSign()  // 320×64: 240 columns at 48 rows, W 320
        let left = try sign.cropped(to: PixelRect(x: 0, y: 0, width: 100, height: 64))  // 75 columns, W 320
        let wide = try sign.resized(width: 900, height: 64)  // 675 columns, W 680
        let wider = try sign.resized(width: 1200, height: 64)  // 900 columns, W 904
        // Widths interleaved, so that the batch's order is not the lines' order.
        var images: [PixelBuffer] = [wide, sign, left, wider]
        for k in 0..<9 { images.append(k % 2 == 0 ? sign : left) }
        let p = Self.params(topK: 2)
        let capacity = 128
        var out = [focr_recognized_char](repeating: focr_recognized_char(), count: capacity * images.count)
        var lines = [focr_recognized_line](repeating: focr_recognized_line(), count: images.count)
        func run(_ images: [PixelBuffer], count: Int32) -> focr_status {
            var params = p
            return Shim.withImages(images[...]) { descriptors in
                out.withUnsafeMutableBufferPointer { o in
                    lines.withUnsafeMutableBufferPointer { l in
                        focr_text_recognizer_recognize_batch(
                            handle, descriptors, count, &params, o.baseAddress, Int32(capacity), l.baseAddress)
                    }
                }
            }
        }
        #expect(run(images, count: Int32(images.count)) == FOCR_OK, "\(String(cString: focr_last_error()))")
        for (i, image) in images.enumerated() {
            let alone = Self.read(handle, image, p, capacity: capacity)
            let line = lines[i]
            let read = Array(out[i * capacity..<i * capacity + Int(min(line.count, Int32(capacity)))])
            #expect(alone.status == FOCR_OK && line.count > 0)
            #expect(Self.text(handle, read) == Self.text(handle, alone.characters), "line \(i)")
            #expect(line.input_width == alone.line.input_width && line.time_steps == alone.line.time_steps)
            #expect(line.resized_width == alone.line.resized_width)
            // The same steps and extents; probabilities as f32 kernels of another batch size give them.
            #expect(read.map(\.first_step) == alone.characters.map(\.first_step), "line \(i)")
            #expect(read.map(\.last_step) == alone.characters.map(\.last_step), "line \(i)")
            #expect(read.map(\.x0) == alone.characters.map(\.x0) && read.map(\.x1) == alone.characters.map(\.x1))
            #expect(abs(line.mean_probability - alone.line.mean_probability) < 1e-4, "line \(i)")
        }
        #expect(
            [lines[0].input_width, lines[1].input_width, lines[2].input_width, lines[3].input_width] == [
                680, 320, 320, 904,
            ])
        // A bad image is named by its index; nothing is read.
        let planar = try PixelBuffer(width: 8, height: 8, pixelFormat: .i420)
        images[5] = planar
        #expect(run(images, count: Int32(images.count)) == FOCR_E_UNSUPPORTED)
        #expect(String(cString: focr_last_error()).contains("srcs[5] must be gray or packed colour"))
        #expect(run(images, count: -1) == FOCR_E_INVALID_ARGUMENT)
        #expect(run([], count: 0) == FOCR_OK)
    }

    @Test("The text-angle classifier's calls: create, classify into 0…1, and their errors")
    func angleClassifier() throws {
        var out: OpaquePointer?
        #expect(focr_text_angle_classifier_create(nil, &out) == FOCR_E_INVALID_ARGUMENT && out == nil)
        #expect(focr_text_angle_classifier_create(TextAngleClassifier.defaultModelPath, nil) == FOCR_E_INVALID_ARGUMENT)
        #expect(focr_text_angle_classifier_create("/nonexistent/cls.onnx", &out) == FOCR_E_IO && out == nil)
        // The recognizer's model is no classifier: its output is not 1×2.
        #expect(focr_text_angle_classifier_create(Self.model, &out) == FOCR_E_UNSUPPORTED && out == nil)
        #expect(String(cString: focr_last_error()).contains("not 1×2"))
        let status = focr_text_angle_classifier_create(TextAngleClassifier.defaultModelPath, &out)
        #expect(status == FOCR_OK, "\(String(cString: focr_last_error()))")
        let handle = try #require(out)
        defer { focr_text_angle_classifier_destroy(handle) }
        focr_text_angle_classifier_destroy(nil)
        let sign = try Self.openSign()
        var upright: Float = -1
        var turned: Float = -1
        #expect(Shim.withImage(sign) { focr_text_angle_classifier_classify(handle, $0, &upright) } == FOCR_OK)
        let down = try sign.applyingOrientation(.down)
        #expect(Shim.withImage(down) { focr_text_angle_classifier_classify(handle, $0, &turned) } == FOCR_OK)
        #expect((0...1).contains(upright) && (0...1).contains(turned))
        // The sign (light on dark) is one the model finds hard: upright it already leans to 180°
        // (0.69; PP-OCR flips at 0.9), turned it says 180° more surely (0.89).
        #expect(turned > upright)
        #expect(
            Shim.withImage(sign) { focr_text_angle_classifier_classify(handle, $0, nil) } == FOCR_E_INVALID_ARGUMENT)
        #expect(
            Shim.withImage(sign) { focr_text_angle_classifier_classify(nil, $0, &upright) } == FOCR_E_INVALID_ARGUMENT)
    }

    @Test(
        "The classifier's batch: 11 crops (runs of 8, 2 and 1), each the probability it has alone; bad input named, count 0 a no-op"
    )
    func angleClassifierBatch() throws {
        var out: OpaquePointer?
        #expect(focr_text_angle_classifier_create(TextAngleClassifier.defaultModelPath, &out) == FOCR_OK)
        let handle = try #require(out)
        defer { focr_text_angle_classifier_destroy(handle) }
        let sign = try Self.openSign()  // 320×64: 240 columns at 48 rows, squeezed to 192
        let left = try sign.cropped(to: PixelRect(x: 0, y: 0, width: 100, height: 64))  // 75 columns, padded
        let down = try sign.applyingOrientation(.down)
        var images: [PixelBuffer] = [sign, left, down]
        for k in 0..<8 { images.append([sign, left, down][k % 3]) }
        var p = [Float](repeating: -1, count: images.count)
        func run(_ images: [PixelBuffer], count: Int32) -> focr_status {
            Shim.withImages(images[...]) { descriptors in
                p.withUnsafeMutableBufferPointer {
                    focr_text_angle_classifier_classify_batch(handle, descriptors, count, $0.baseAddress)
                }
            }
        }
        #expect(run(images, count: Int32(images.count)) == FOCR_OK, "\(String(cString: focr_last_error()))")
        for (i, image) in images.enumerated() {
            var alone: Float = -1
            #expect(Shim.withImage(image) { focr_text_angle_classifier_classify(handle, $0, &alone) } == FOCR_OK)
            // The same crop gives its probability alone, as f32 kernels of another batch size give it.
            #expect(abs(p[i] - alone) < 1e-5, "crop \(i): \(p[i]) against \(alone)")
        }
        #expect(p[2] > p[0], "the sign turned leans further to 180° than upright: \(p[2]) against \(p[0])")
        // A bad image is named by its index.
        images[4] = try PixelBuffer(width: 8, height: 8, pixelFormat: .nv12)
        #expect(run(images, count: Int32(images.count)) == FOCR_E_UNSUPPORTED)
        #expect(String(cString: focr_last_error()).contains("srcs[4] must be gray or packed colour"))
        #expect(run(images, count: -1) == FOCR_E_INVALID_ARGUMENT)
        #expect(run([], count: 0) == FOCR_OK)
        #expect(focr_text_angle_classifier_classify_batch(nil, nil, 0, nil) == FOCR_E_INVALID_ARGUMENT)
        #expect(focr_text_angle_classifier_classify_batch(handle, nil, 2, nil) == FOCR_E_INVALID_ARGUMENT)
    }
}
