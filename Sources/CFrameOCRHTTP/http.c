// The HTTP server of focr_http.h over libmicrohttpd: a thread per connection, each request's body
// gathered (bounded) and handed with the request to one handler, whose response is copied out.
#include "focr_http.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// After the system headers it needs (sys/socket.h, stdarg.h): libmicrohttpd's own header. The
// link flags come from the CMicroHTTPD system-library target (pkg-config libmicrohttpd).
#include <microhttpd.h>

/// What a connection is doing, for the watchdog: each phase but `answering` has a deadline.
enum phase {
    /// Connected, or its previous response sent: the next request's headers are due within
    /// `header_timeout_s`.
    awaiting_headers,
    /// Headers in, the body not yet: the body is due within `upload_timeout_s` of the headers.
    receiving_body,
    /// The handler runs, or the response is being sent (a stream may last): no deadline.
    answering,
};

/// One open connection, linked in its server's list from MHD's "started" notice to its
/// "closed" notice (which MHD gives before it closes the socket, so `fd` is open while linked).
struct connection_state {
    int fd;
    enum phase phase;
    struct timespec since;
    /// Shut down by the watchdog already.
    int cut;
    struct connection_state *next, *previous;
};

struct focr_http_server {
    struct MHD_Daemon *daemon;
    /// Requests from their headers until their response is sent (or their connection closed).
    _Atomic uint32_t active;
    focr_http_handler handler;
    void *context;
    focr_http_limits limits;
    uint16_t port;
    /// Bytes held for request bodies across all connections (at most limits.max_body_total).
    _Atomic uint64_t body_bytes;
    _Atomic uint64_t cut_headers, cut_bodies, refused_busy;
    /// The open connections (under `lock`), and the watchdog that cuts off the late ones.
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct connection_state *connections;
    pthread_t watchdog;
    int watchdog_running;
    int stopping;
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
    /// Bytes of the server's body budget this request holds (its buffer's capacity).
    size_t reserved;
    /// Its connection's watchdog entry (NULL: none).
    struct connection_state *state;
};

/// Adds "Name: value\n" lines to `response` (lines without a colon, or of 1024 bytes or more, are
/// skipped).
static void add_headers(struct MHD_Response *response, const char *headers);

/// Moves `state` to `phase` from now (under the server's lock: the watchdog reads both).
static void set_phase(focr_http_server *server, struct connection_state *state, enum phase phase) {
    if (state == NULL) return;
    pthread_mutex_lock(&server->lock);
    state->phase = phase;
    clock_gettime(CLOCK_MONOTONIC, &state->since);
    pthread_mutex_unlock(&server->lock);
}

/// Takes `bytes` more of the server's body budget for `request`; 0 when taken, -1 when the
/// bodies held across connections would pass limits.max_body_total.
static int reserve(focr_http_server *server, focr_http_request *request, size_t bytes) {
    uint64_t held = atomic_load(&server->body_bytes);
    do {
        if (held + bytes > server->limits.max_body_total) return -1;
    } while (!atomic_compare_exchange_weak(&server->body_bytes, &held, held + bytes));
    request->reserved += bytes;
    return 0;
}

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
static const char busy[] =
    "{\"error\":{\"code\":\"busy\",\"message\":\"the request bodies being received fill the server's body memory "
    "(--max-body-memory); retry\"}}";

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
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        request->state = info != NULL ? info->socket_context : NULL;
        set_phase(server, request->state, receiving_body);
        const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        const unsigned long long declared = length != NULL ? strtoull(length, NULL, 10) : 0;
        if (length != NULL && declared > server->limits.max_body_bytes) {
            request->answered = 1;
            return queue(connection, MHD_HTTP_CONTENT_TOO_LARGE, "application/json", (const uint8_t *)too_large,
                         sizeof too_large - 1, "Connection: close\n");
        }
        if (declared > 0) {
            // The declared length at once (no copy while the body grows), if the bodies held
            // across connections leave room for it; otherwise 503 before any of it is read.
            if (reserve(server, request, (size_t)declared) != 0) {
                atomic_fetch_add(&server->refused_busy, 1);
                request->answered = 1;
                return queue(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "application/json", (const uint8_t *)busy,
                             sizeof busy - 1, "Connection: close\nRetry-After: 1\n");
            }
            request->body = malloc((size_t)declared);
            request->body_capacity = request->body != NULL ? (size_t)declared : 0;
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
            // A chunked body takes its budget as it grows; past the budget the connection closes.
            if (capacity > request->reserved && reserve(server, request, capacity - request->reserved) != 0) {
                atomic_fetch_add(&server->refused_busy, 1);
                return MHD_NO;
            }
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
    set_phase(server, request->state, answering);
    request->method = method;
    request->path = url;
    server->handler(server->context, request);
    // The body has been read and answered: its buffer and its share of the budget are given back
    // now, before the reply is sent, so that a client retrying on its reply finds the budget there
    // (given back in `completed` instead, a retry raced the connection's end: CI's TSan run
    // answered one 503 busy).
    atomic_fetch_sub(&server->body_bytes, (uint64_t)request->reserved);
    request->reserved = 0;
    free(request->body);
    request->body = NULL;
    request->body_size = 0;
    request->body_capacity = 0;
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
    atomic_fetch_sub(&server->body_bytes, (uint64_t)request->reserved);
    // A kept-alive connection's next request is due within the header timeout from now.
    set_phase(server, request->state, awaiting_headers);
    free(request->body);
    free(request);
    *con_cls = NULL;
}

/// MHD's notices of a connection opened and closed: the watchdog's list.
static void connection_notice(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
    focr_http_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct connection_state *state = calloc(1, sizeof *state);
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (state == NULL || info == NULL) {
            free(state);
            *socket_context = NULL;
            return;
        }
        state->fd = info->connect_fd;
        state->phase = awaiting_headers;
        clock_gettime(CLOCK_MONOTONIC, &state->since);
        pthread_mutex_lock(&server->lock);
        state->next = server->connections;
        if (server->connections != NULL) server->connections->previous = state;
        server->connections = state;
        pthread_mutex_unlock(&server->lock);
        *socket_context = state;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct connection_state *state = *socket_context;
        if (state == NULL) return;
        pthread_mutex_lock(&server->lock);
        if (state->previous != NULL) state->previous->next = state->next;
        else server->connections = state->next;
        if (state->next != NULL) state->next->previous = state->previous;
        pthread_mutex_unlock(&server->lock);
        free(state);
        *socket_context = NULL;
    }
}

/// Every quarter second: a connection whose request headers, or whose body, are later than their
/// limit is shut down (its thread then sees the end of the stream and MHD closes it). A client
/// sending a byte now and then is cut off this way; MHD's own timeout is only an idle one.
static void *watchdog(void *cls) {
    focr_http_server *server = cls;
    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        struct timespec now, until;
        clock_gettime(CLOCK_MONOTONIC, &now);
        for (struct connection_state *c = server->connections; c != NULL; c = c->next) {
            if (c->cut || c->phase == answering) continue;
            const double limit = c->phase == awaiting_headers ? (double)server->limits.header_timeout_s
                                                              : (double)server->limits.upload_timeout_s;
            if (seconds_since(&c->since) <= limit) continue;
            c->cut = 1;
            atomic_fetch_add(c->phase == awaiting_headers ? &server->cut_headers : &server->cut_bodies, 1);
            shutdown(c->fd, SHUT_RDWR);
        }
        until = now;
        until.tv_nsec += 250000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&server->wake, &server->lock, &until);
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
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

static void destroy(focr_http_server *server) {
    pthread_cond_destroy(&server->wake);
    pthread_mutex_destroy(&server->lock);
    free(server);
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
    focr_http_limits l = limits != NULL ? *limits : (focr_http_limits){0};
    if (l.max_connections == 0) l.max_connections = 64;
    if (l.idle_timeout_s == 0) l.idle_timeout_s = 10;
    if (l.upload_timeout_s == 0) l.upload_timeout_s = 30;
    if (l.header_timeout_s == 0) l.header_timeout_s = 10;
    if (l.max_body_bytes == 0) l.max_body_bytes = 64ull << 20;
    if (l.max_body_total == 0) l.max_body_total = 256ull << 20;
    if (l.max_body_total < l.max_body_bytes) l.max_body_total = l.max_body_bytes;
    server->limits = l;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&server->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    pthread_mutex_init(&server->lock, NULL);
    server->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_USE_ITC, port, NULL,
        NULL, access_handler, server, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&socket_address,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)l.max_connections, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned int)l.idle_timeout_s, MHD_OPTION_NOTIFY_COMPLETED, completed, server, MHD_OPTION_NOTIFY_CONNECTION,
        connection_notice, server, MHD_OPTION_EXTERNAL_LOGGER,
        quiet_logger, NULL, MHD_OPTION_END);
    if (server->daemon == NULL) {
        if (error != NULL)
            snprintf(error, error_size, "cannot listen on %s:%u (in use, or not an address of this machine)", address,
                     (unsigned)port);
        destroy(server);
        return NULL;
    }
    if (pthread_create(&server->watchdog, NULL, watchdog, server) != 0) {
        if (error != NULL) snprintf(error, error_size, "cannot start the connection watchdog");
        MHD_stop_daemon(server->daemon);
        destroy(server);
        return NULL;
    }
    server->watchdog_running = 1;
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
    // The watchdog first: nothing is shut down while MHD closes the connections.
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_signal(&server->wake);
    pthread_mutex_unlock(&server->lock);
    if (server->watchdog_running) pthread_join(server->watchdog, NULL);
    MHD_stop_daemon(server->daemon);
    destroy(server);
}

void focr_http_statistics(focr_http_server *server, focr_http_stats *stats) {
    stats->body_bytes = atomic_load(&server->body_bytes);
    stats->cut_headers = atomic_load(&server->cut_headers);
    stats->cut_bodies = atomic_load(&server->cut_bodies);
    stats->refused_busy = atomic_load(&server->refused_busy);
}

int32_t focr_http_thread_nice(int32_t nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) == 0 ? 0 : -1;
}
