import RewindSessionFile

/// What the timeline reads of the daemon that records live sessions in the same process (`rewind` runs one): how many
/// events it recorded, how many apps are connected, and each live session's status. The timeline depends on session
/// files and the wire format only; the `rewind` command gives it its daemon through this protocol.
///
/// Threading: any thread.
package protocol LiveRecording: AnyObject, Sendable {
    /// Events recorded so far over every session; grows with each one.
    var totalRecorded: UInt64 { get }
    /// How many apps are connected now.
    var connectedAppCount: Int { get }
    /// The status of session `id` if the daemon has seen it since it started, else nil.
    func liveStatus(of id: SessionID) -> LiveSessionStatus?
    /// Commits what session `id` has buffered, so that a reader sees every event recorded so far (before an export).
    func flush(_ id: SessionID)
}

/// A session as the daemon recording it sees it right now.
/// Threading: a plain value; `Sendable`.
package struct LiveSessionStatus: Sendable, Hashable {
    /// True while its app is connected.
    package var isLive: Bool
    /// The last event committed to its file.
    package var committedIndex: Int64
    /// What its app offered (`hello.capabilities`).
    package var capabilities: [String]

    /// A status with every field given.
    package init(isLive: Bool, committedIndex: Int64, capabilities: [String]) {
        self.isLive = isLive
        self.committedIndex = committedIndex
        self.capabilities = capabilities
    }
}
