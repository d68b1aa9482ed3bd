// The names the documentation's Swift blocks take as given, for tools/check_snippets.py: what an
// app has at hand where the example is written (the camera's buffer, a recognizer made at start,
// a processor, its own UI). Type-checked only, never run.
import Foundation
import FrameOCR

// The camera's buffer: its memory, its row stride, the callback that gives it back, and a frame
// of it with its number and time.
var baseAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x1000)! }
let bytesPerRow = 1920 * 4
func releaseCameraBuffer() {}
var pixelBuffer: PixelBuffer { fatalError() }
var n: UInt64 { 0 }
var pts: Duration { .zero }
var frame: PixelBuffer { fatalError() }

// Made once at start.
var recognizer: Recognizer { fatalError() }
var processor: FrameProcessor { fatalError() }
var pipeline: Pipeline { Pipeline() }
var result: RecognitionResult { fatalError() }
var source: VideoSource {
    get { fatalError() }
    set {}
}

// The app's own.
func show(_ items: Any...) {}
func showPartial(_ text: String) {}
func log(_ items: Any...) {}
func change(_ items: Any...) {}
func hide(_ items: Any...) {}
func settle(_ items: Any...) {}
