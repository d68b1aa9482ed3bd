// The HTTP server of focr_http.h over libmicrohttpd: a thread per connection, each request's body
// gathered (bounded) and handed with the request to one handler, whose response is copied out.
#include "focr_http.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// After the system headers it needs (sys/socket.h, stdarg.h): libmicrohttpd's own header. The
// link flags come from the CMicroHTTPD system-library target (pkg-config libmicrohttpd).
#include <microhttpd.h>

struct focr_http_server {
    struct MHD_Daemon *daemon;
    /// Requests from their headers until their response is sent (or their connection closed).
    _Atomic uint32_t active;
    focr_http_handler handler;
    void *context;
    focr_http_limits limits;
    uint16_t port;
};

struct focr_http_request {
    struct MHD_Connection *connection;
    const char *method;
    const char *path;
    uint8_t *body;
    size_t body_size;
    size_t body_capacity;
    struct timespec started;
    /// A response queued before the body was read (413): the rest of the body is dropped.
    int answered;
    /// The handler's response was queued (1) or could not be (-1); 0: not yet.
    int responded;
};

/// Adds "Name: value\n" lines to `response` (lines without a colon, or of 1024 bytes or more, are
/// skipped).
static void add_headers(struct MHD_Response *response, const char *headers);

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/// Queues `status` with `content_type`, `body` and header lines ("Name: value\n"); MHD_NO when
/// the response could not be made (MHD then closes the connection).
static enum MHD_Result queue(struct MHD_Connection *connection, int status, const char *content_type,
                             const uint8_t *body, size_t size, const char *headers) {
    struct MHD_Response *response =
        MHD_create_response_from_buffer(size, (void *)(body != NULL ? body : (const uint8_t *)""), MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    if (content_type != NULL) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    add_headers(response, headers);
    const enum MHD_Result queued = MHD_queue_response(connection, (unsigned int)status, response);
    MHD_destroy_response(response);
    return queued;
}

struct stream {
    focr_http_stream_next next;
    focr_http_stream_free free_stream;
    void *context;
};

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    struct stream *s = cls;
    const int64_t n = s->next(s->context, (uint8_t *)buf, max);
    if (n < 0) return MHD_CONTENT_READER_END_OF_STREAM;
    return (ssize_t)n;
}

static void free_stream(void *cls) {
    struct stream *s = cls;
    s->free_stream(s->context);
    free(s);
}

int32_t focr_http_respond_stream(focr_http_request *request, const focr_http_response *response,
                                 focr_http_stream_next next, focr_http_stream_free free_context, void *context) {
    if (request == NULL || response == NULL || next == NULL || free_context == NULL || request->responded != 0) {
        if (free_context != NULL) free_context(context);
        return -1;
    }
    struct stream *s = malloc(sizeof *s);
    if (s == NULL) {
        free_context(context);
        request->responded = -1;
        return -1;
    }
    s->next = next;
    s->free_stream = free_context;
    s->context = context;
    // Blocks of up to 64 KiB; the stream is freed by MHD with the response (free_stream).
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 65536, read_stream, s, free_stream);
    if (r == NULL) {
        free_stream(s);
        request->responded = -1;
        return -1;
    }
    if (response->content_type != NULL) MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, response->content_type);
    add_headers(r, response->headers);
    const enum MHD_Result queued = MHD_queue_response(request->connection, (unsigned int)response->status, r);
    MHD_destroy_response(r);
    request->responded = queued == MHD_YES ? 1 : -1;
    return queued == MHD_YES ? 0 : -1;
}

static void add_headers(struct MHD_Response *response, const char *headers) {
    if (headers == NULL) return;
    const char *line = headers;
    while (*line != '\0') {
        const char *end = strchr(line, '\n');
        const size_t length = end != NULL ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', length);
        if (colon != NULL && length < 1024) {
            char name[1024], value[1024];
            const size_t n = (size_t)(colon - line);
            memcpy(name, line, n);
            name[n] = '\0';
            const char *v = colon + 1;
            while (v < line + length && *v == ' ') ++v;
            const size_t m = (size_t)(line + length - v);
            memcpy(value, v, m);
            value[m] = '\0';
            MHD_add_response_header(response, name, value);
        }
        if (end == NULL) break;
        line = end + 1;
    }
}

static const char too_large[] =
    "{\"error\":{\"code\":\"bodyTooLarge\",\"message\":\"the request body is larger than the server takes\"}}";

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection, const char *url,
                                      const char *method, const char *version, const char *upload_data,
                                      size_t *upload_data_size, void **con_cls) {
    (void)version;
    focr_http_server *server = cls;
    focr_http_request *request = *con_cls;
    if (request == NULL) {
        // The headers are in: the request starts. A declared length over the limit is answered
        // at once, before any of the body is read.
        request = calloc(1, sizeof *request);
        if (request == NULL) return MHD_NO;
        request->connection = connection;
        clock_gettime(CLOCK_MONOTONIC, &request->started);
        *con_cls = request;
        atomic_fetch_add(&server->active, 1);
        const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        const unsigned long long declared = length != NULL ? strtoull(length, NULL, 10) : 0;
        if (declared > 0 && declared <= server->limits.max_body_bytes) {
            // The declared length at once: no copy while the body grows.
            request->body = malloc((size_t)declared);
            request->body_capacity = request->body != NULL ? (size_t)declared : 0;
        }
        if (length != NULL && declared > server->limits.max_body_bytes) {
            request->answered = 1;
            return queue(connection, MHD_HTTP_CONTENT_TOO_LARGE, "application/json", (const uint8_t *)too_large,
                         sizeof too_large - 1, "Connection: close\n");
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        const size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (request->answered) return MHD_YES;
        // A client that sends its body slower than the upload limit allows is cut off.
        if (seconds_since(&request->started) > (double)server->limits.upload_timeout_s) return MHD_NO;
        if (request->body_size + n > server->limits.max_body_bytes) return MHD_NO;  // chunked, too long
        if (request->body_size + n > request->body_capacity) {
            size_t capacity = request->body_capacity > 0 ? request->body_capacity : 65536;
            while (capacity < request->body_size + n) capacity *= 2;
            if (capacity > server->limits.max_body_bytes) capacity = (size_t)server->limits.max_body_bytes;
            uint8_t *grown = realloc(request->body, capacity);
            if (grown == NULL) return MHD_NO;
            request->body = grown;
            request->body_capacity = capacity;
        }
        memcpy(request->body + request->body_size, upload_data, n);
        request->body_size += n;
        return MHD_YES;
    }
    if (request->answered) return MHD_YES;
    request->answered = 1;
    request->method = method;
    request->path = url;
    server->handler(server->context, request);
    if (request->responded == 0) {
        static const char unanswered[] = "{\"error\":{\"code\":\"internal\",\"message\":\"no response\"}}";
        return queue(connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "application/json", (const uint8_t *)unanswered,
                     sizeof unanswered - 1, NULL);
    }
    return request->responded > 0 ? MHD_YES : MHD_NO;
}

int32_t focr_http_respond(focr_http_request *request, const focr_http_response *response) {
    if (request == NULL || response == NULL || request->responded != 0) return -1;
    const enum MHD_Result queued = queue(request->connection, response->status, response->content_type,
                                         response->body, response->body_size, response->headers);
    request->responded = queued == MHD_YES ? 1 : -1;
    return queued == MHD_YES ? 0 : -1;
}

static void completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                      enum MHD_RequestTerminationCode code) {
    (void)connection;
    (void)code;
    focr_http_server *server = cls;
    focr_http_request *request = *con_cls;
    if (request == NULL) return;
    atomic_fetch_sub(&server->active, 1);
    free(request->body);
    free(request);
    *con_cls = NULL;
}

// libmicrohttpd's messages (a refused connection, a timeout) are not the caller's errors: dropped.
static void quiet_logger(void *cls, const char *format, va_list ap) {
    (void)cls;
    (void)format;
    (void)ap;
}

const char *focr_http_method(const focr_http_request *request) { return request->method; }
const char *focr_http_path(const focr_http_request *request) { return request->path; }

const uint8_t *focr_http_body(const focr_http_request *request, size_t *size) {
    if (size != NULL) *size = request->body_size;
    return request->body;
}

const char *focr_http_query(const focr_http_request *request, const char *key) {
    const char *value = MHD_lookup_connection_value(request->connection, MHD_GET_ARGUMENT_KIND, key);
    if (value != NULL) return value;
    // A key without a value ("?noAuto") is listed with a NULL value.
    enum MHD_Result present = MHD_lookup_connection_value_n(request->connection, MHD_GET_ARGUMENT_KIND, key,
                                                            strlen(key), NULL, NULL);
    return present == MHD_YES ? "" : NULL;
}

const char *focr_http_header(const focr_http_request *request, const char *name) {
    return MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, name);
}

struct each_context {
    void *context;
    void (*each)(void *context, const char *key, const char *value);
};

static enum MHD_Result each_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct each_context *c = cls;
    c->each(c->context, key, value);
    return MHD_YES;
}

void focr_http_each_query(const focr_http_request *request, void *context,
                          void (*each)(void *context, const char *key, const char *value)) {
    struct each_context c = {context, each};
    MHD_get_connection_values(request->connection, MHD_GET_ARGUMENT_KIND, each_argument, &c);
}

focr_http_server *focr_http_start(const char *address, uint16_t port, const focr_http_limits *limits,
                                  focr_http_handler handler, void *context, char *error, size_t error_size) {
    if (error != NULL && error_size > 0) error[0] = '\0';
    if (address == NULL || handler == NULL) {
        if (error != NULL) snprintf(error, error_size, "no address or no handler");
        return NULL;
    }
    struct sockaddr_in socket_address;
    memset(&socket_address, 0, sizeof socket_address);
    socket_address.sin_family = AF_INET;
    socket_address.sin_port = htons(port);
    const char *numeric = strcmp(address, "localhost") == 0 ? "127.0.0.1" : address;
    if (inet_pton(AF_INET, numeric, &socket_address.sin_addr) != 1) {
        if (error != NULL) snprintf(error, error_size, "'%s' is not an IPv4 address", address);
        return NULL;
    }
    focr_http_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        if (error != NULL) snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    focr_http_limits l = limits != NULL ? *limits : (focr_http_limits){0, 0, 0, 0};
    if (l.max_connections == 0) l.max_connections = 64;
    if (l.idle_timeout_s == 0) l.idle_timeout_s = 10;
    if (l.upload_timeout_s == 0) l.upload_timeout_s = 30;
    if (l.max_body_bytes == 0) l.max_body_bytes = 64ull << 20;
    server->limits = l;
    server->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_USE_ITC, port, NULL,
        NULL, access_handler, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&socket_address,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)l.max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned int)l.idle_timeout_s, MHD_OPTION_NOTIFY_COMPLETED, completed, server, MHD_OPTION_EXTERNAL_LOGGER,
        quiet_logger, NULL, MHD_OPTION_END);
    if (server->daemon == NULL) {
        if (error != NULL)
            snprintf(error, error_size, "cannot listen on %s:%u (in use, or not an address of this machine)", address,
                     (unsigned)port);
        free(server);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info != NULL ? info->port : port;
    return server;
}

uint16_t focr_http_port(const focr_http_server *server) { return server->port; }

uint32_t focr_http_active(focr_http_server *server) { return atomic_load(&server->active); }

void focr_http_quiesce(focr_http_server *server) {
    const MHD_socket listening = MHD_quiesce_daemon(server->daemon);
    if (listening != MHD_INVALID_SOCKET) close(listening);
}

void focr_http_stop(focr_http_server *server) {
    if (server == NULL) return;
    MHD_stop_daemon(server->daemon);
    free(server);
}

int32_t focr_http_thread_nice(int32_t nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) == 0 ? 0 : -1;
}
