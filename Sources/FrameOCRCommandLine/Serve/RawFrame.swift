import FrameOCR

/// A raw frame's description, as `serve --http` takes it (query parameters or headers) and the
/// worker protocol's version 2 (request keys): the pixel format, width, height and bytes per row.
/// The frame's orientation is the request's `orientation` option, as for an image file.
package struct PixelDescription: Equatable, Sendable {
    package var format: PixelFormat
    package var width: Int
    package var height: Int
    /// The stride of one row, bytes (packed formats only; nil: `width` × bytes per pixel).
    package var bytesPerRow: Int?

    package init(format: PixelFormat, width: Int, height: Int, bytesPerRow: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
    }

    /// The description's keys.
    package static let keys: Set<String> = ["pixelFormat", "width", "height", "bytesPerRow"]
    /// The pixel formats taken raw, by name.
    package static let formats: [String: PixelFormat] = [
        "gray8": .gray8, "bgra8": .bgra8, "rgba8": .rgba8, "bgr8": .bgr8, "rgb8": .rgb8, "nv12": .nv12,
        "nv12FullRange": .nv12FullRange, "i420": .i420,
    ]
    package static var formatNames: String { formats.keys.sorted().joined(separator: ", ") }

    /// The description from its keys' values (`value(key)`: the key's text; nil: absent); nil
    /// when no key is given at all (not raw pixels).
    /// - Throws: ``ServeFailure`` `badRequest` for a missing or unknown format, a missing width
    ///   or height, or a value that is not a positive integer.
    package init?(_ value: (String) throws -> String?) throws {
        let given = try Self.keys.compactMap { try value($0) }
        guard !given.isEmpty else { return nil }
        guard let name = try value("pixelFormat") else {
            throw ServeFailure("badRequest", "raw pixels need pixelFormat (\(Self.formatNames))")
        }
        guard let format = Self.formats[name] else {
            throw ServeFailure("badRequest", "pixelFormat: '\(name)' is not one of \(Self.formatNames)")
        }
        func number(_ key: String) throws -> Int? {
            guard let text = try value(key) else { return nil }
            guard let n = Int(text), n > 0 else { throw ServeFailure("badRequest", "\(key): a positive integer") }
            return n
        }
        guard let width = try number("width"), let height = try number("height") else {
            throw ServeFailure("badRequest", "raw pixels need width and height")
        }
        self.init(format: format, width: width, height: height, bytesPerRow: try number("bytesPerRow"))
    }

    /// The bytes a frame of this description needs: for a packed format the rows at
    /// ``bytesPerRow`` but the last, which needs only its pixels; for NV12 and I420 the planes
    /// one after another, unpadded (`w·h + 2·⌈w/2⌉·⌈h/2⌉`).
    /// - Throws: ``FrameOCRError/Code/imageTooLarge`` for more pixels than `limits` allow (checked
    ///   first, so nothing here overflows); ``ServeFailure`` `badRequest` for a `bytesPerRow` on
    ///   NV12 or I420, ``FrameOCRError/Code/invalidBuffer`` for one shorter than a row.
    package func requiredBytes(limits: ImageLimits) throws -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limits.maximumPixels else {
            throw FrameOCRError(
                .imageTooLarge, "a \(width)x\(height) frame is over the limit of \(limits.maximumPixels) pixels",
                stage: .buffer)
        }
        if format.planeCount == 1 {
            let row = width * format.bytesPerSample(plane: 0)
            let stride = bytesPerRow ?? row
            guard stride >= row, stride <= 1 << 30 else {
                throw FrameOCRError(
                    .invalidBuffer, "bytesPerRow \(stride) is shorter than a row of \(row) bytes", stage: .buffer)
            }
            return (height - 1) * stride + row
        }
        if let bpr = bytesPerRow, bpr != width {
            throw ServeFailure("badRequest", "bytesPerRow: \(format) frames are taken with unpadded planes only")
        }
        return (0..<format.planeCount).reduce(0) { sum, plane in
            let (w, h) = format.planeSize(plane, width: width, height: height)
            return sum + w * h * format.bytesPerSample(plane: plane)
        }
    }

    /// `bytes` wrapped as a frame of this description (no copy): one plane at ``bytesPerRow`` for
    /// the packed formats; planes one after another, rows unpadded, for NV12 and I420. The frame
    /// reads `bytes` in place: they must stay valid and unchanged while it is used.
    /// - Throws: as ``requiredBytes(limits:)``; ``FrameOCRError/Code/invalidBuffer`` for `bytes`
    ///   of the wrong length (shorter than required; for NV12 and I420, not exactly it).
    package func frame(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws -> PixelBuffer {
        let required = try requiredBytes(limits: limits)
        guard let start = bytes.baseAddress, bytes.count >= required else {
            throw FrameOCRError(
                .invalidBuffer, "a \(format) \(width)x\(height) frame needs \(required) bytes, got \(bytes.count)",
                stage: .buffer)
        }
        let base = UnsafeMutableRawPointer(mutating: start)
        if format.planeCount == 1 {
            return try PixelBuffer(
                wrapping: base, byteCount: bytes.count, width: width, height: height,
                bytesPerRow: bytesPerRow ?? width * format.bytesPerSample(plane: 0), pixelFormat: format)
        }
        return try PixelBuffer(
            wrappingContiguous: UnsafeMutableRawBufferPointer(start: base, count: bytes.count), width: width,
            height: height, pixelFormat: format)
    }
}
