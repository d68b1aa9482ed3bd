import CFrameOCR
import Foundation
import Testing

@testable import FrameOCR

/// The loader room (Sources/CFrameOCR/loader/media_loader.cpp): the public image-file, video and
/// detector calls, generated from the one list of media calls (focr_media_calls.h), forwarded to
/// libFrameOCRMedia's table. In this test process the table comes from libFrameOCRMedia.so, opened
/// with dlopen beside the test bundle, so its errors cross from the library's own last error into
/// the shim's.
@Suite("Loader: the media calls generated from one list keep the headers' contracts")
struct MediaLoaderTests {
    @Test("A handle output is set to NULL before the call; a failure's message is the library's, copied")
    func outputsAndMessages() {
        let missing = "/nonexistent/frameocr-loader-test.png"
        var image = OpaquePointer(bitPattern: 1)  // not NULL: the forwarder must clear it
        #expect(focr_image_decode_opencv(nil, 0, 1 << 20, &image) == FOCR_E_DECODE)
        #expect(image == nil)
        #expect(String(cString: focr_last_error()) == "empty file")

        var video = OpaquePointer(bitPattern: 1)
        #expect(focr_video_open("/nonexistent/frameocr-loader-test.mp4", nil, &video) == FOCR_E_IO)
        #expect(video == nil)
        #expect(
            String(cString: focr_last_error()) == "/nonexistent/frameocr-loader-test.mp4: No such file or directory")

        var writer = OpaquePointer(bitPattern: 1)
        #expect(
            focr_video_writer_open("/tmp/frameocr-loader-test.mp4", 0, 64, 64, nil, &writer) == FOCR_E_INVALID_ARGUMENT)
        #expect(writer == nil)
    }

    @Test("A file decoded by OpenCV through the table: phototest.tif is 640×480 gray, freed by the common code")
    func decodedThroughTheTable() throws {
        var image: OpaquePointer?
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixture.path("phototest.tif"))))
        #expect(
            bytes.withUnsafeBufferPointer { focr_image_decode_opencv($0.baseAddress, $0.count, 1 << 28, &image) }
                == FOCR_OK)
        let handle = try #require(image)
        let view = focr_decoded_image_view(handle)
        #expect(view.width == 640 && view.height == 480 && view.plane_count == 1)
        #expect(view.format == Int32(FOCR_FORMAT_GRAY8.rawValue) && view.planes.0.bytes_per_row >= 640)
        focr_decoded_image_destroy(handle)
        let empty = focr_decoded_image_view(nil)
        #expect(empty.width == 0 && empty.height == 0 && empty.plane_count == 0)
    }

    @Test("NULL handles: the destroys do nothing, the backend's name is empty")
    func nullHandles() {
        focr_video_destroy(nil)
        focr_video_writer_destroy(nil)
        focr_text_detector_destroy(nil)
        focr_decoded_image_destroy(nil)
        #expect(String(cString: focr_video_backend_name(nil)) == "")
    }

    @Test("Without the media library a call fails with FOCR_E_UNAVAILABLE: the code unsupported, stage as given")
    func unavailableCode() {
        let error = FrameOCRError.from(FOCR_E_UNAVAILABLE, stage: .load)
        #expect(error?.code == .unsupported && error?.code.rawValue == "unsupported" && error?.stage == .load)
        #expect(FrameOCRError.from(FOCR_E_UNSUPPORTED, stage: .load)?.code == .unsupportedFormat)
    }
}
