// What Swift cannot import from libwebsockets 4.1 (macros, OR-combined options, static inline helpers),
// as static inline functions. Only the RewindWebSocket module (Sources/RewindWebSocket) uses this.
#ifndef REWIND_CLIBWEBSOCKETS_SHIM_H
#define REWIND_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <sys/prctl.h>

/// Bytes of headroom libwebsockets needs before every payload handed to lws_write.
static inline size_t rewind_lws_pre(void) { return LWS_PRE; }

/// The library's version number (major * 1000000 + minor * 1000 + patch).
static inline int rewind_lws_version_number(void) { return LWS_LIBRARY_VERSION_NUMBER; }

/// The `port` value of a context that only makes client connections.
static inline int rewind_lws_port_no_listen(void) { return CONTEXT_PORT_NO_LISTEN; }

/// Context options for a Rewind server: lws validates UTF-8 in text frames (a bad frame closes the
/// connection with 1007), creation fails when the port cannot be bound, and IPv6 is off unless asked for.
static inline uint64_t rewind_lws_server_options(int enableIPv6) {
    uint64_t options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (!enableIPv6)
        options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    return options;
}

/// Context options for a client-only context: lws validates UTF-8 in received text frames.
static inline uint64_t rewind_lws_client_options(void) {
    return LWS_SERVER_OPTION_VALIDATE_UTF8;
}

/// Closes a connection from the service loop soon, whatever state it is in (e.g. still connecting).
static inline void rewind_lws_kill_async(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/// Closes a connection from the service loop after `seconds`, whatever it is doing (a backstop for a close
/// frame that a peer which does not read would never receive).
static inline void rewind_lws_kill_after(struct lws *wsi, int seconds) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, seconds);
}

/// Names the calling thread (at most 15 bytes are kept), for `top -H`, debuggers and tests.
static inline void rewind_set_thread_name(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

/// Writes one fragment of a text message. `payload` must have LWS_PRE writable bytes before it.
/// Returns what lws_write returns (negative on failure).
static inline int rewind_lws_write_text_fragment(struct lws *wsi, unsigned char *payload, size_t length,
                                                 int isFirst, int isFinal) {
    int flags = lws_write_ws_flags(LWS_WRITE_TEXT, isFirst, isFinal);
    return lws_write(wsi, payload, length, (enum lws_write_protocol)flags);
}

/// Turns libwebsockets' logging off (it prints notices to stderr otherwise). Process-wide.
static inline void rewind_lws_silence_logging(void) { lws_set_log_level(0, NULL); }

/// Microseconds per millisecond, for lws_sul_schedule.
static inline lws_usec_t rewind_lws_us_per_ms(void) { return LWS_US_PER_MS; }

/// Writes a WebSocket ping (a control frame) with `length` (at most 125) bytes of payload. `payload` must have
/// LWS_PRE writable bytes before it. Returns what lws_write returns (negative on failure).
static inline int rewind_lws_write_ping(struct lws *wsi, unsigned char *payload, size_t length) {
    return lws_write(wsi, payload, length, LWS_WRITE_PING);
}

#if defined(__linux__)
#include <netinet/tcp.h>
#include <stddef.h>

/// The start of Linux's `struct tcp_info` (linux/tcp.h, kernel 4.1 and later) up to `tcpi_bytes_received`, which
/// glibc's own copy of the struct (netinet/tcp.h) lacks. The kernel only ever appends fields to the struct, and
/// reports how many bytes it filled in.
struct rewind_linux_tcp_info_prefix {
    uint8_t bytes[8];         /* state, ca_state, retransmits, probes, backoff, options, wscale, app_limited */
    uint32_t words[24];       /* rto ... total_retrans */
    uint64_t pacing_rate;
    uint64_t max_pacing_rate;
    uint64_t bytes_acked;
    uint64_t bytes_received;  /* payload bytes received on the connection, in order, since it opened */
};
#endif

/// Stores in `*bytes` how many payload bytes the kernel has received on TCP socket `fd` since the connection opened
/// (read by the application or not: bytes waiting in the kernel's receive buffer count). Returns 0, or -1 when the
/// system cannot tell (not Linux, a kernel older than 4.1, not a TCP socket).
static inline int rewind_tcp_bytes_received(int fd, uint64_t *bytes) {
#if defined(__linux__)
    struct rewind_linux_tcp_info_prefix info;
    socklen_t length = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0)
        return -1;
    if (length < offsetof(struct rewind_linux_tcp_info_prefix, bytes_received) + sizeof info.bytes_received)
        return -1;
    *bytes = info.bytes_received;
    return 0;
#else
    (void)fd;
    (void)bytes;
    return -1;
#endif
}

#endif
