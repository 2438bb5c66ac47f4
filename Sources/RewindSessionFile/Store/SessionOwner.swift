import Foundation

/// Who recorded a session and when it started: the part of its metadata that tells which app run it belongs to
/// (``SessionStore/sessionOwners()``), without counting its events.
/// Threading: a plain value; `Sendable`.
package struct SessionOwner: Sendable, Hashable {
    /// The session's id.
    package var id: SessionID
    /// The app's name as it introduced itself.
    package var appName: String
    /// The app instance's identifier, if it sent one.
    package var instance: String?
    /// When recording started.
    package var startedAt: Date
    /// The Swift type name of the app's state, if it sent one.
    package var stateType: String?
}
