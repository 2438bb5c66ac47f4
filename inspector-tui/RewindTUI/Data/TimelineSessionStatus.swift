/// Whether a session is still recording, and if not, how it ended. A plain value type.
package enum TimelineSessionStatus: String, Sendable, Hashable, CaseIterable {
    /// An app is connected and its events are arriving.
    case live
    /// The app disconnected (or the recording was finished) cleanly.
    case ended
    /// The recorder died or the app vanished without a clean end; what was committed is kept.
    case interrupted
}
