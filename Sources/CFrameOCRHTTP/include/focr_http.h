/*
 * focr_http.h — an HTTP/1.1 server for `frameocr serve --http` and `frameocr video --http`,
 * over libmicrohttpd (Debian's libmicrohttpd-dev): a thread per connection (MHD's own), bounded
 * connections and bodies (each, and all together), idle, header and upload time limits (the last
 * two kept by a watchdog thread of ours: MHD's timeout is an idle one, which a client sending a
 * byte now and then never reaches), and one handler that answers a whole
 * request (method, path, query, headers, body) with a whole response. Implemented in http.c. Pure C; no libmicrohttpd type leaves it.
 *
 * Threads: the handler is called on the connection's thread, several at once; it may block (a
 * recognition) without holding back other connections. Strings are borrowed for the call.
 */
#ifndef FOCR_HTTP_H
#define FOCR_HTTP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct focr_http_server focr_http_server;
typedef struct focr_http_request focr_http_request;

/** The server's limits. Zero fields take the defaults in brackets. */
typedef struct focr_http_limits {
    /** Connections open at once; more are refused at accept [64]. */
    uint32_t max_connections;
    /** Seconds a connection may be idle (nothing received or sent) before it is closed [10]. */
    uint32_t idle_timeout_s;
    /** Seconds from a request's headers to the end of its body; a client that sends slower is
     *  cut off (the connection closed) [30]. */
    uint32_t upload_timeout_s;
    /** Seconds from a connection's opening, or from its previous response, to the end of the
     *  next request's headers; a client that sends them slower is cut off [10]. */
    uint32_t header_timeout_s;
    /** The largest body taken, bytes; a larger Content-Length is answered 413 at once, a longer
     *  chunked body closes the connection [64 MiB]. */
    uint64_t max_body_bytes;
    /** The bytes held for bodies across all connections (at least max_body_bytes): a request
     *  whose declared length does not fit is answered 503 (`busy`, Retry-After: 1) before its
     *  body is read; a chunked body that outgrows it closes its connection [256 MiB]. */
    uint64_t max_body_total;
} focr_http_limits;

/** What the server has counted since it started. */
typedef struct focr_http_stats {
    /** Bytes held for request bodies now. */
    uint64_t body_bytes;
    /** Connections cut off for headers later than header_timeout_s / a body later than
     *  upload_timeout_s. */
    uint64_t cut_headers, cut_bodies;
    /** Requests refused (503) or connections closed because the bodies held were at max_body_total. */
    uint64_t refused_busy;
} focr_http_stats;

/** A response: `status` (an HTTP code), `content_type` (NUL-terminated), `body` (`body_size`
 *  bytes) and extra headers as "Name: value\n" lines (NULL: none). */
typedef struct focr_http_response {
    int32_t status;
    const char *content_type;
    const uint8_t *body;
    size_t body_size;
    const char *headers;
} focr_http_response;

/** Answers `request`: called once per request on its connection's thread, it calls
 *  focr_http_respond (a request left unanswered gets a 500). */
typedef void (*focr_http_handler)(void *context, focr_http_request *request);

/** Queues `response` for `request` (its strings and body are copied: they need live only for
 *  the call); once per request, later calls are ignored. 0 when queued, -1 otherwise. */
int32_t focr_http_respond(focr_http_request *request, const focr_http_response *response);

/** A streamed body's next part: write at most `capacity` bytes at `buffer` and return how many
 *  (> 0), or -1 to end the stream. Called on the connection's thread whenever the client has
 *  taken what was sent, so it may block for the next part (a frame, an event); it should return
 *  within a second or so, writing a keep-alive if nothing came, so that a stop is not held up. */
typedef int64_t (*focr_http_stream_next)(void *stream, uint8_t *buffer, size_t capacity);
/** The stream is over (ended, the client went away, or the server stopped): release `stream`. */
typedef void (*focr_http_stream_free)(void *stream);

/** Answers `request` with a body of unknown length read from `next(stream, …)` until it ends
 *  (`response`'s body is ignored; its status, type and headers are sent first); `free_stream`
 *  is called once the stream is over, also when this fails. 0 when queued, -1 otherwise. */
int32_t focr_http_respond_stream(focr_http_request *request, const focr_http_response *response,
                                 focr_http_stream_next next, focr_http_stream_free free_stream, void *stream);

/** The request's method ("GET", "POST", …), path (without the query) and body. */
const char *focr_http_method(const focr_http_request *request);
const char *focr_http_path(const focr_http_request *request);
const uint8_t *focr_http_body(const focr_http_request *request, size_t *size);
/** A query argument's value (the first of that name; "" for a key without value; NULL: none). */
const char *focr_http_query(const focr_http_request *request, const char *key);
/** A header's value (case-insensitive name; NULL: none). */
const char *focr_http_header(const focr_http_request *request, const char *name);
/** Calls `each` for every query argument in order (value NULL for a key without one). */
void focr_http_each_query(const focr_http_request *request, void *context,
                          void (*each)(void *context, const char *key, const char *value));

/**
 * Starts a server on `address` (IPv4 dotted, or "localhost") and `port` (0: any free one) with
 * `limits` (NULL: the defaults), answering with `handler(context, …)`. NULL on failure, with a
 * message in `error` (`error_size` bytes, NUL-terminated): the address does not parse, the port
 * is taken, the daemon does not start.
 */
focr_http_server *focr_http_start(const char *address, uint16_t port, const focr_http_limits *limits,
                                  focr_http_handler handler, void *context, char *error, size_t error_size);
/** The port the server listens on. */
uint16_t focr_http_port(const focr_http_server *server);
/** Requests from their headers until their response has been sent or their connection closed:
 *  uploading, waiting for a worker, being answered, or their response being sent. */
uint32_t focr_http_active(focr_http_server *server);
/** The server's counts now (read without a lock: each field is exact, not all at one instant). */
void focr_http_statistics(focr_http_server *server, focr_http_stats *stats);
/** Stops accepting connections (those open go on); the listening socket is closed. */
void focr_http_quiesce(focr_http_server *server);
/** Stops the server: every connection is closed and its thread joined; `server` is freed. */
void focr_http_stop(focr_http_server *server);

/** Sets the calling thread's nice value (Linux: a thread's own, `setpriority` on its thread id):
 *  for a thread whose work may wait, such as the live page's encoder. 0 when set, -1 otherwise. */
int32_t focr_http_thread_nice(int32_t nice);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_HTTP_H */
