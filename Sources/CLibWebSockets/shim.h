// What Swift cannot import from libwebsockets 4.1 (macros, OR-combined options), as static inline
// functions. Only the Swift wrappers in RewindInspector/Transport and RewindDaemon/Server use this.
#ifndef REWIND_CLIBWEBSOCKETS_SHIM_H
#define REWIND_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// Bytes of headroom libwebsockets needs before every payload handed to lws_write.
static inline size_t rewind_lws_pre(void) { return LWS_PRE; }

/// The library's version number (major * 1000000 + minor * 1000 + patch).
static inline int rewind_lws_version_number(void) { return LWS_LIBRARY_VERSION_NUMBER; }

#endif
