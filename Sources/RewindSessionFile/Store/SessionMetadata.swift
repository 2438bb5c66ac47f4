import Foundation

/// What is known about one session: who recorded it, when, how it ended, how big it is.
/// Read from the file's `meta` table plus a count of its events; `endState` says `interrupted` for a session
/// left `live` by a recorder that is gone.
/// Threading: a plain value; `Sendable`.
public struct SessionMetadata: Sendable, Hashable, Codable {
    /// The session's id (its file's base name).
    public var id: SessionID
    /// The app's name as it introduced itself.
    public var appName: String
    /// The app instance's identifier, if it sent one.
    public var instance: String?
    /// When recording started.
    public var startedAt: Date
    /// When recording ended; for an interrupted session, the time of its last committed event. nil while live.
    public var endedAt: Date?
    /// The wire protocol version the app spoke.
    public var protocolVersion: Int
    /// The Swift type name of the app's state, if it sent one.
    public var stateType: String?
    /// Live, clean or interrupted.
    public var endState: SessionEndState
    /// How many events the file holds (the highest index; all branches).
    public var eventCount: Int64
    /// The size on disk, including the write-ahead log.
    public var fileBytes: Int64
    /// The schema version the file was written with.
    public var schemaVersion: Int
    /// The time of the last event, if any.
    public var lastEventAt: Date?
    /// For an imported session, the file it came from.
    public var importedFrom: String?

    /// Metadata with every field given.
    public init(
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
