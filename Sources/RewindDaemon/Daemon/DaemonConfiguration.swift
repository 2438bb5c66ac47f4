import Foundation
import RewindWire

/// Everything the `rewind` daemon is told at start: where to listen, where to record, and what to refuse.
public struct DaemonConfiguration: Sendable {
    /// The address to bind. Loopback by default; anything else requires a ``token``.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (see ``Daemon/port``).
    public var port = WireProtocol.defaultPort
    /// Where session files are written (one SQLite file per session).
    public var dataDirectory: URL = SessionStore.defaultDirectory
    /// When set, apps (in `hello`) and control clients (in their first request) must present it.
    public var token: String?
    /// Browser origins allowed to connect. Connections carrying any other `Origin` header are refused.
    public var allowedOrigins: Set<String> = []
    /// The largest message accepted, in bytes; larger ones close the connection with 1009.
    public var maxMessageBytes = 64 << 20
    /// The deepest JSON nesting accepted in a message.
    public var maxNestingDepth = 512
    /// How many bytes of an app's messages may wait to be recorded (the outstanding events of its session) before
    /// the daemon stops reading the app's socket; reading resumes when a quarter of that is left. A fast app is
    /// thereby slowed through TCP (its inspector's outbox coalesces) instead of growing the daemon's memory.
    public var maxBacklogBytesPerApp = 8 << 20
    /// Keyframe spacing and batching of the session files.
    public var recording = RecordingOptions()
    /// Where one-line notices go (session started/ended, refusals); standard error by default, with control
    /// characters escaped (`TerminalText`): notices name apps, and an app's name is the app's to choose.
    public var log: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("rewind: \(TerminalText.escaped(line))\n".utf8))
    }

    /// The defaults: loopback port 7723, `~/.rewind/sessions`, no token.
    public init() {}

    /// True when ``host`` is a loopback address or `localhost`.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
