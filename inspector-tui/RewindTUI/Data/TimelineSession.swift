import RewindWire

/// One session as the sessions pane and the timeline see it: a view model the data source maps its own
/// session type onto. A plain value type.
package struct TimelineSession: Sendable, Hashable, Identifiable {
    /// Stable identifier (the store's session id); commands name sessions by it.
    package var id: String
    /// The app's name, as it introduced itself.
    package var appName: String
    /// The app instance (host, pid…), if known.
    package var instance: String?
    /// When recording started, unix seconds. Relative event times count from here.
    package var startedAt: Double
    /// Number of events; the timeline's rows are indices `0...eventCount` (0 is the initial state).
    package var eventCount: Int
    /// Live, ended or interrupted.
    package var status: TimelineSessionStatus
    /// Whether the session's app can be reached from this timeline — connected to the daemon it runs in, or to
    /// the daemon `rewind open` attached to — so that jump, step, skip, replay and dispatch work. False for ended
    /// sessions, and for a session recorded by a daemon this timeline cannot reach (it only reads the file): the
    /// timeline then neither offers nor sends those commands.
    package var appConnected: Bool
    /// What the session's app offered in its `hello` (`jump`, `dispatch`, `replay`, `batch`: see `WireCapability`),
    /// or nil when this timeline cannot tell (it then offers every command and the daemon answers). The timeline
    /// neither offers nor sends a command whose ability is missing, and says which one is.
    package var appCapabilities: [String]?

    /// The id as the sessions pane's question names it: whole up to 40 characters (a generated id,
    /// `20261124-185312-counter-4f9a2c`, usually is: its distinctive part is at the end), else its first 39 and `…`.
    package var shortID: String {
        id.count > 40 ? id.prefix(39) + "…" : id
    }

    /// The app and the number of events, for sentences: `counter, 1,204 events`.
    package var summary: String {
        "\(appName), \(Formatting.grouped(eventCount)) event\(eventCount == 1 ? "" : "s")"
    }

    /// True unless the app's offered abilities are known and lack `capability`.
    package func offers(_ capability: String) -> Bool {
        appCapabilities.map { $0.contains(capability) } ?? true
    }

    /// Creates a session view model; `appConnected` defaults to whether `status` is `.live`.
    package init(
        id: String, appName: String, instance: String? = nil, startedAt: Double, eventCount: Int,
        status: TimelineSessionStatus, appConnected: Bool? = nil, appCapabilities: [String]? = nil
    ) {
        self.id = id
        self.appName = appName
        self.instance = instance
        self.startedAt = startedAt
        self.eventCount = eventCount
        self.status = status
        self.appConnected = appConnected ?? (status == .live)
        self.appCapabilities = appCapabilities
    }
}
