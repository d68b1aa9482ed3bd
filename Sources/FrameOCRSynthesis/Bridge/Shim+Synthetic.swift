internal import CFrameOCRSynthesis
import FrameOCR

// Generated test scenes (the CFrameOCRSynthesis target: `include/focr_synthetic.h`,
// `synthetic.cpp`), through FrameOCR's bridge helpers (`Shim`, package access).
extension Shim {
    /// `focr_text_size`: the size of `text` rendered at `height` pixels with `margin`.
    static func textSize(_ text: String, fontPath: String, height: Int, margin: Int) throws(FrameOCRError) -> (
        width: Int, height: Int
    ) {
        var w: Int32 = 0
        var h: Int32 = 0
        try check(focr_text_size(text, fontPath, Int32(clamping: height), Int32(clamping: margin), &w, &h), .load)
        return (Int(w), Int(h))
    }

    /// `focr_render_text`: `text` drawn into `dst` (gray8, the size ``textSize(_:fontPath:height:margin:)`` gives).
    static func renderText(
        _ text: String, fontPath: String, height: Int, margin: Int, ink: UInt8, paper: UInt8, into dst: PixelBuffer
    ) throws(FrameOCRError) {
        let status = withImage(dst) { d in
            focr_render_text(text, fontPath, Int32(clamping: height), Int32(clamping: margin), ink, paper, d)
        }
        try check(status, .load)
    }

    /// `focr_warp_affine`: `src` drawn into `dst` through the row-major 2×3 map `m`; pixels no
    /// source pixel reaches keep their values.
    static func warpAffine(_ src: PixelBuffer, _ m: [Double], into dst: PixelBuffer) throws(FrameOCRError) {
        precondition(m.count == 6)
        try m.withUnsafeBufferPointer { (p) throws(FrameOCRError) in
            try run(src, into: dst, .rotation) { s, d in focr_warp_affine(s, p.baseAddress, d) }
        }
    }
}
