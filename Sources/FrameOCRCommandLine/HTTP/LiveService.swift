import Foundation
import FrameOCR

/// The endpoints of `frameocr video SOURCE --http ADDR:PORT` (docs/http.md, "The live page"):
/// `GET /` (the page), `/stream.mjpg`, `/events`, `/v1/tracks`, `/metrics`, `/healthz`, over a
/// ``LiveView``.
package final class LiveService: Sendable {
    package let view: LiveView
    let requests: ServiceMetrics

    package init(view: LiveView) {
        self.view = view
        requests = ServiceMetrics(
            paths: ["/", "/stream.mjpg", "/events", "/v1/tracks", "/metrics", "/healthz"], workers: 0)
    }

    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        requests.started()
        let response = route(request)
        requests.finished(path: request.path, status: response.status, elapsed: ContinuousClock.now - start)
        return response
    }

    func route(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        guard ["/", "/stream.mjpg", "/events", "/v1/tracks", "/metrics", "/healthz"].contains(path) else {
            return HTTPService.error(404, ServeFailure("notFound", "no endpoint \(path) (see docs/http.md)"))
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPService.error(
                405, ServeFailure("methodNotAllowed", "\(path) takes GET, not \(request.method)"),
                headers: [("Allow", "GET")])
        }
        let noCache = [("Cache-Control", "no-store")]
        switch path {
        case "/":
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", text: Self.page, headers: noCache)
        case "/healthz":
            return HTTPResponse(status: 200, contentType: "application/json", text: #"{"status":"ok"}"#)
        case "/v1/tracks":
            return HTTPResponse(status: 200, contentType: "application/json", text: view.tracksJSON, headers: noCache)
        case "/metrics":
            var p = PrometheusText()
            view.metrics(into: &p)
            return HTTPResponse(
                status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                text: requests.exposition(version: ToolVersion.current) + p.text)
        case "/stream.mjpg":
            let (next, ended) = view.mjpegStream()
            var r = HTTPResponse(
                status: 200, contentType: "multipart/x-mixed-replace; boundary=frame", body: [], headers: noCache)
            r.stream = next
            r.streamEnded = ended
            return r
        default:  // /events
            var r = HTTPResponse(status: 200, contentType: "text/event-stream", body: [], headers: noCache)
            r.stream = view.eventStream(after: request.header("Last-Event-ID").flatMap { UInt64($0) } ?? 0)
            return r
        }
    }

    /// The live page: the annotated stream, the tracks (from `/v1/tracks`, refreshed on each
    /// event of `/events` and every second), and the latency figures (from `/metrics`). Plain
    /// HTML and JavaScript, nothing fetched from elsewhere.
    static let page = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>FrameOCR live</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 1em; background: #111; color: #eee; }
        img { max-width: 100%; border: 1px solid #444; background: #000; }
        table { border-collapse: collapse; margin-top: 1em; }
        td, th { border: 1px solid #444; padding: 2px 8px; text-align: left; }
        #figures td:nth-child(2) { text-align: right; }
        </style>
        </head>
        <body>
        <h1>FrameOCR live</h1>
        <img id="stream" src="/stream.mjpg" alt="the stream, with each track's box, id and text">
        <table id="tracks"><thead><tr><th>id</th><th>text</th><th>state</th><th>readings</th><th>box</th></tr></thead>
        <tbody></tbody></table>
        <table id="figures"><thead><tr><th>figure</th><th>value</th></tr></thead><tbody></tbody></table>
        <script>
        function cell(row, text) { const td = document.createElement('td'); td.textContent = text; row.appendChild(td); }
        async function tracks() {
          const r = await fetch('/v1/tracks', {cache: 'no-store'});
          const j = await r.json();
          const body = document.querySelector('#tracks tbody');
          body.replaceChildren();
          for (const t of j.tracks) {
            const row = document.createElement('tr');
            row.className = 'track';
            cell(row, '#' + t.id); cell(row, t.text); cell(row, t.state); cell(row, t.readings);
            const b = t.box;
            cell(row, [b.x, b.y, b.width, b.height].map(Math.round).join(', '));
            body.appendChild(row);
          }
        }
        async function figures() {
          const text = await (await fetch('/metrics', {cache: 'no-store'})).text();
          const wanted = /^(frameocr_frames_\\w+|frameocr_tracks_\\w+|frameocr_stream_viewers|frameocr_frame_stage_duration_seconds\\{stage="total",quantile="0\\.(5|99)"\\})\\s/;
          const body = document.querySelector('#figures tbody');
          body.replaceChildren();
          for (const line of text.split('\\n')) {
            if (!wanted.test(line)) continue;
            const [name, value] = line.split(' ');
            const row = document.createElement('tr');
            const ms = name.includes('seconds');
            cell(row, ms ? name.replace('frameocr_frame_stage_duration_seconds', 'frame total ms ') : name);
            cell(row, ms ? (parseFloat(value) * 1000).toFixed(1) : value);
            body.appendChild(row);
          }
        }
        function refresh() { tracks().catch(() => {}); figures().catch(() => {}); }
        const events = new EventSource('/events');
        events.addEventListener('track', () => tracks().catch(() => {}));
        setInterval(refresh, 1000);
        refresh();
        </script>
        </body>
        </html>
        """
}
