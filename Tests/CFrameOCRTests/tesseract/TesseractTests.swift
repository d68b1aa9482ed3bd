import CFrameOCR
import Foundation
import Synchronization
import Testing

@testable import FrameOCR

/// The Tesseract room (Sources/CFrameOCR/tesseract/): the OpenMP policy it applies on every
/// thread that recognizes (`focr_openmp_max_active_levels`, focr_tesseract.h).
@Suite("Tesseract: OpenMP per recognizing thread", .tags(.tesseract))
struct TesseractTests {
    @Test("OpenMP is made single-threaded on every thread that recognizes, not only the first")
    func openMPPerThread() throws {
        let image = try PixelBuffer(contentsOfFile: Fixture.path("phototest.tif"))
        let env = ProcessInfo.processInfo.environment
        let userSetting = env["OMP_THREAD_LIMIT"] != nil || env["OMP_NUM_THREADS"] != nil
        // libgomp keeps max-active-levels per thread: a fresh thread starts at the default, and
        // the recognizer must set it to 0 there before recognizing (it was set only on the
        // first thread, and a second recognizing thread ran OpenMP teams: 4× slower batches).
        _ = shimTestRecognizer.idleEngineCount  // the process-wide policy is taken here, not on the new thread
        let levels = Mutex<(before: Int32, after: Int32, text: String)>((0, 0, ""))
        let thread = Thread {
            let before = focr_openmp_max_active_levels()
            let text = (try? shimTestRecognizer.recognize(image).text) ?? ""
            levels.withLock { $0 = (before, focr_openmp_max_active_levels(), text) }
        }
        thread.start()
        while levels.withLock({ $0.text.isEmpty }) { Thread.sleep(forTimeInterval: 0.01) }
        let seen = levels.withLock { $0 }
        #expect(seen.text.contains("lazy fox"))
        if userSetting {
            #expect(seen.after == seen.before, "the environment's OpenMP setting stands")
        } else {
            #expect(seen.before > 0, "a fresh thread starts with OpenMP's default")
            #expect(seen.after == 0)
        }
    }
}
