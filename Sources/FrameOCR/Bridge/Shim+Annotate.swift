internal import CFrameOCR

// Outlines and labels drawn for people (`include/focr_annotate.h`, `image/annotate.cpp`).
extension Shim {
    /// `focr_annotate`: `annotations` drawn onto `image` (bgr8) in place, in order; the labels
    /// as ``Annotation/printableLabel`` (one `?` per non-ASCII character).
    /// - Throws: ``FrameOCRError/Code/invalidParameter`` for a corner that is not finite,
    ///   ``FrameOCRError/Code/unsupportedFormat`` for an image that is not bgr8 (stage
    ///   `.annotation`).
    static func annotate(_ image: PixelBuffer, _ annotations: [Annotation]) throws(FrameOCRError) {
        // Every label, NUL-terminated, in one block; each annotation points into it.
        var bytes: [CChar] = []
        var offsets: [Int] = []
        for a in annotations {
            offsets.append(bytes.count)
            bytes.append(contentsOf: a.printableLabel.utf8.map { CChar(bitPattern: $0) })
            bytes.append(0)
        }
        let status = bytes.withUnsafeBufferPointer { labels in
            var items = annotations.enumerated().map { i, a in
                let q = a.quad
                return focr_annotation(
                    x: (q.topLeft.x, q.topRight.x, q.bottomRight.x, q.bottomLeft.x),
                    y: (q.topLeft.y, q.topRight.y, q.bottomRight.y, q.bottomLeft.y),
                    blue: a.color.blue, green: a.color.green, red: a.color.red, stroke: a.stroke.cValue,
                    label: labels.baseAddress.map { base in base + offsets[i] })
            }
            return withImage(image) { d in
                items.withUnsafeMutableBufferPointer { focr_annotate(d, $0.baseAddress, $0.count) }
            }
        }
        try check(status, .annotation)
    }
}

extension Annotation.Stroke {
    /// The shim's `focr_annotation_stroke`.
    var cValue: Int32 {
        switch self {
        case .solid: Int32(FOCR_STROKE_SOLID.rawValue)
        case .thin: Int32(FOCR_STROKE_THIN.rawValue)
        case .dashed: Int32(FOCR_STROKE_DASHED.rawValue)
        }
    }
}
