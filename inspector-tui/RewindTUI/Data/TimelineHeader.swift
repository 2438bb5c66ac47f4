import RewindWire

/// What the header line shows about the daemon. A plain value type.
package struct TimelineHeader: Sendable, Hashable {
    /// The listening address (`ws://127.0.0.1:7723`); nil when viewing saved sessions without a server.
    package var listeningAddress: String?
    /// Number of apps connected right now. Quitting asks for confirmation when it is not zero.
    package var connectedApps: Int
    /// Whether incoming events are being recorded.
    package var isRecording: Bool
    /// Events per second over the last minute, oldest first, one sample per second (the sparkline).
    package var eventsPerSecond: [Double]
    /// Shown instead of the server facts when `listeningAddress` is nil (e.g. "saved session 2026…-todo").
    package var caption: String?

    /// The address an app must be given in `REWIND_URL` to reach this daemon: `listeningAddress` when its port is
    /// not the default (apps find the default without it); nil otherwise.
    package var appURL: String? {
        guard let listeningAddress, !listeningAddress.hasSuffix(":\(WireProtocol.defaultPort)") else { return nil }
        return listeningAddress
    }

    /// Creates a header.
    package init(
        listeningAddress: String? = nil, connectedApps: Int = 0, isRecording: Bool = false,
        eventsPerSecond: [Double] = [], caption: String? = nil
    ) {
        self.listeningAddress = listeningAddress
        self.connectedApps = connectedApps
        self.isRecording = isRecording
        self.eventsPerSecond = eventsPerSecond
        self.caption = caption
    }
}
