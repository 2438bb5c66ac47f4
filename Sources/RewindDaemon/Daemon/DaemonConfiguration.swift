import Foundation
import RewindSessionFile
import RewindWire

/// Everything the `rewind` daemon is told at start: where to listen, where to record, and what to refuse.
package struct DaemonConfiguration: Sendable {
    /// The address to bind. Loopback by default; anything else requires a ``token``.
    package var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (see ``Daemon/port``).
    package var port = WireProtocol.defaultPort
    /// Where session files are written (one SQLite file per session).
    package var dataDirectory: URL = SessionStore.defaultDirectory
    /// When set, apps (in `hello`) and control clients (in their first request) must present it.
    package var token: String?
    /// Browser origins allowed to connect. Connections carrying any other `Origin` header are refused.
    package var allowedOrigins: Set<String> = []
    /// The largest message accepted, in bytes; larger ones close the connection with 1009. It also bounds the state
    /// the daemon rebuilds from an app's patches.
    package var maxMessageBytes = DaemonConfiguration.defaultMaxMessageBytes
    /// The default of ``maxMessageBytes`` (`rewind serve --max-message`): 64 MiB. Readers of session files bound the
    /// states they rebuild by it too (``SessionReader/defaultMaxStateBytes``).
    package static let defaultMaxMessageBytes = SessionReader.defaultMaxStateBytes
    /// The deepest JSON nesting accepted in a message.
    package var maxNestingDepth = 512
    /// How many bytes of an app's messages may wait to be recorded — received and not yet handled, or handled and
    /// not yet committed to the session file — before the daemon stops reading the app's socket; reading resumes when
    /// a quarter of that is left. A fast app, or one whose record waits for a stalled or full disk, is thereby slowed
    /// through TCP (its inspector's outbox coalesces states and keeps its actions) instead of the daemon growing its
    /// memory or discarding what it received.
    package var maxBacklogBytesPerApp = 8 << 20
    /// Seconds an app connection may stay silent before the daemon pings it, so that a connection whose far side is
    /// gone (a half-open TCP connection: a sleeping laptop, a network change, a tunnel that lost its other side) is
    /// found and its session ended within seconds, and its app's reconnect continues the session. 0: never.
    package var keepaliveInterval: Double = 5
    /// Seconds a pinged connection has to answer before it is taken for gone and closed (`rewind serve --keepalive`
    /// sets twice the interval).
    package var keepaliveTimeout: Double = 10
    /// Seconds the still-open connection of an app run has to answer a ping when a new connection of the same run
    /// says `hello`: without an answer the old connection is taken for gone and the session continues on the new one;
    /// with one, the new connection is a different peer presenting the same identity and is recorded apart.
    package var takeoverProbeTimeout: Double = 2
    /// Seconds an app has to send a `hello` that passes the token check (and a control client its first
    /// authorized request) after its WebSocket handshake; then it is closed with 1008. 0 means no limit.
    package var helloTimeout: Double = 10
    /// Seconds a message may take from its first byte to its last (while the daemon reads the connection); a peer
    /// that does not finish a message in time is closed with 1008. 0 means no limit.
    package var messageTimeout: Double = 30
    /// With a ``token``: the largest message accepted before the token was checked (the `hello`, which carries
    /// the app's initial state, or a control client's first request); larger ones close the connection with 1009.
    /// Without a token every peer is admitted by its `hello` anyway, and ``maxMessageBytes`` applies.
    package var maxUnauthenticatedMessageBytes = 4 << 20
    /// The most bytes of messages waiting to be sent to one control client (events to a `rewind tail` viewer,
    /// replies); a client that reads so slowly that more would wait is closed with 1013 and its queue released.
    /// Apps, which receive rare but large commands (a `jump` carries a whole state), may have twice
    /// ``maxMessageBytes`` waiting when that is more. A single larger message is sent when nothing else waits.
    package var maxQueuedBytesPerPeer = 16 << 20
    /// Seconds a live app has to answer a command (`jump`, `dispatch`, `replay`, a skip's or a branch's jump)
    /// with its `result`; then the command fails with `command_failed` ("did not answer within …"). A `result`
    /// arriving later is ignored. 0 means no limit.
    package var commandTimeout: Double = 60
    /// The most actions one `recordedActions` answer holds (it also stops after about
    /// ``RecordedActions/pageBytes`` bytes of them); its `next` says where the next page starts.
    package var recordedActionsPage = RecordedActions.pageActions
    /// The most connections served at once; at the limit new connections wait in the kernel's backlog. nil: the
    /// process's descriptor limit less a quarter of it (at least 64 stay free for session files). Meant for small
    /// limits (the WebSocket layer then finds connections by a linear search).
    package var maxConnections: Int?
    /// Keyframe spacing and batching of the session files.
    package var recording = RecordingOptions()
    /// Where one-line notices go (session started/ended, refusals); standard error by default, with control
    /// characters escaped (`TerminalText`): notices name apps, and an app's name is the app's to choose.
    package var log: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("rewind: \(TerminalText.escaped(line))\n".utf8))
    }

    /// The defaults: loopback port 7723, `~/.rewind/sessions`, no token.
    package init() {}

    /// True when ``host`` is a loopback address or `localhost`.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
