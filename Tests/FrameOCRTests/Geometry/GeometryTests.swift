import FrameOCR
import Testing

@Suite("Geometry: rectangles")
struct GeometryTests {
    @Test("overlapFraction: intersection over the smaller box; 0 when apart or empty")
    func overlap() {
        #expect(
            Rect(x: 0, y: 0, width: 10, height: 10).overlapFraction(with: Rect(x: 5, y: 0, width: 10, height: 10))
                == 0.5)
        #expect(
            Rect(x: 0, y: 0, width: 10, height: 10).overlapFraction(with: Rect(x: 2, y: 2, width: 4, height: 4)) == 1)
        #expect(
            Rect(x: 0, y: 0, width: 10, height: 10).overlapFraction(with: Rect(x: 10, y: 0, width: 5, height: 5)) == 0)
        #expect(
            Rect(x: 0, y: 0, width: 0, height: 10).overlapFraction(with: Rect(x: 0, y: 0, width: 5, height: 5))
                == 0)
    }

    @Test("PixelRect.area is width × height; intersection of touching rectangles is nil")
    func pixelRect() {
        #expect(PixelRect(x: 3, y: 4, width: 7, height: 5).area == 35)
        #expect(
            PixelRect(x: 0, y: 0, width: 4, height: 4).intersection(PixelRect(x: 4, y: 0, width: 4, height: 4)) == nil)
        #expect(
            PixelRect(x: 0, y: 0, width: 4, height: 4).intersection(PixelRect(x: 2, y: 1, width: 4, height: 4))
                == PixelRect(x: 2, y: 1, width: 2, height: 3))
    }
}
