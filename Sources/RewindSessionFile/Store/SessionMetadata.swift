import Foundation

/// What is known about one session: who recorded it, when, how it ended, how big it is.
/// Read from the file's `meta` table plus a count of its events; `endState` says `interrupted` for a session
/// left `live` by a recorder that is gone.
/// Threading: a plain value; `Sendable`.
package struct SessionMetadata: Sendable, Hashable, Codable {
    /// The session's id (its file's base name).
    package var id: SessionID
    /// The app's name as it introduced itself.
    package var appName: String
    /// The app instance's identifier, if it sent one.
    package var instance: String?
    /// When recording started.
    package var startedAt: Date
    /// When recording ended; for an interrupted session, the time of its last committed event. nil while live.
    package var endedAt: Date?
    /// The wire protocol version the app spoke.
    package var protocolVersion: Int
    /// The Swift type name of the app's state, if it sent one.
    package var stateType: String?
    /// Live, clean or interrupted.
    package var endState: SessionEndState
    /// How many events the file holds (the highest index; all branches).
    package var eventCount: Int64
    /// The size on disk, including the write-ahead log.
    package var fileBytes: Int64
    /// The schema version the file was written with.
    package var schemaVersion: Int
    /// The time of the last event, if any.
    package var lastEventAt: Date?
    /// For an imported session, the file it came from.
    package var importedFrom: String?

    /// Metadata with every field given.
    package init(
        id: SessionID, appName: String, instance: String?, startedAt: Date, endedAt: Date?, protocolVersion: Int,
        stateType: String?, endState: SessionEndState, eventCount: Int64, fileBytes: Int64,
        schemaVersion: Int = 1, lastEventAt: Date? = nil, importedFrom: String? = nil
    ) {
        self.id = id
        self.appName = appName
        self.instance = instance
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.protocolVersion = protocolVersion
        self.stateType = stateType
        self.endState = endState
        self.eventCount = eventCount
        self.fileBytes = fileBytes
        self.schemaVersion = schemaVersion
        self.lastEventAt = lastEventAt
        self.importedFrom = importedFrom
    }
}
