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

#endif
