import FrameOCR
import Testing

@Suite("Duration as milliseconds and seconds")
struct DurationUnitsTests {
    @Test("Exact for whole and fractional units, zero and negative durations")
    func units() {
        #expect((Duration.milliseconds(12) + .microseconds(500)).milliseconds == 12.5)
        #expect(Duration.milliseconds(1500).seconds == 1.5)
        #expect(Duration.seconds(3).milliseconds == 3000)
        #expect(Duration.zero.milliseconds == 0 && Duration.zero.seconds == 0)
        #expect(Duration.milliseconds(-250).seconds == -0.25)
        #expect(Duration.nanoseconds(1).milliseconds == 1e-6)
    }
}
