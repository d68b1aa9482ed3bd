import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback stream senders on 127.0.0.1 for the live-source tests: no camera and no network
/// needed, only the `ffmpeg` and `gst-launch-1.0` commands (`make deps` installs them).
public enum LoopbackSender {
    /// A UDP port on 127.0.0.1 that was free a moment ago (bound to port 0, read back, closed).
    public static func freeUDPPort() throws -> Int { try freePort(type: Int32(SOCK_DGRAM.rawValue)) }

    /// A TCP port on 127.0.0.1 that was free a moment ago: nothing listens there.
    public static func freeTCPPort() throws -> Int { try freePort(type: Int32(SOCK_STREAM.rawValue)) }

    /// `ffmpeg` sending `video` in a loop, at its own pace (`-re`), as MPEG-TS over UDP to
    /// `udp://127.0.0.1:port`. Re-encoded as MPEG-2 with a key frame every 5 frames and no
    /// B-frames, so that a receiver joining at any time decodes clean frames within 0.2 s.
    public static func ffmpegUDP(video: String, port: Int) throws -> ChildProcess {
        try ChildProcess(
            "ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", video, "-an",
                "-c:v", "mpeg2video", "-g", "5", "-bf", "0", "-q:v", "3", "-f", "mpegts",
                "udp://127.0.0.1:\(port)",
            ])
    }

    /// The caps of ``gstreamerRawUDP(port:)``'s frames: one 320×120 gray frame per datagram.
    public static let rawCaps = "video/x-raw,format=GRAY8,width=320,height=120,framerate=25/1"

    /// `gst-launch-1.0` sending a live test pattern as raw gray frames (``rawCaps``), one UDP
    /// datagram each, to 127.0.0.1:`port`; a pipeline `udpsrc port=… caps="…" ! …` receives it.
    public static func gstreamerRawUDP(port: Int) throws -> ChildProcess {
        try ChildProcess(
            "gst-launch-1.0",
            ["-q", "videotestsrc", "is-live=true", "!", rawCaps, "!", "udpsink", "host=127.0.0.1", "port=\(port)"])
    }

    /// A GStreamer pipeline receiving ``gstreamerRawUDP(port:)``.
    public static func rawUDPPipeline(port: Int) -> String {
        "udpsrc port=\(port) caps=\"\(rawCaps)\" ! videoconvert ! appsink"
    }

    /// A GStreamer pipeline of `count` frames, 320×120 at 25 fps: "FRAME OCR 42" in black bold
    /// 20-point Sans (DejaVu) on white, centred (`videotestsrc pattern=white ! textoverlay`).
    public static func textPipeline(count: Int) -> String {
        "videotestsrc pattern=white num-buffers=\(count) ! video/x-raw,width=320,height=120,framerate=25/1 "
            + "! textoverlay text=\"FRAME OCR 42\" font-desc=\"Sans Bold 20\" color=0xff000000 "
            + "shaded-background=false valignment=center halignment=center ! videoconvert ! appsink"
    }

    private static func freePort(type: Int32) throws -> Int {
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
