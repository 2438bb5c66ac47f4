/// What `SessionImporter` made of a file.
/// Threading: a plain value; `Sendable`.
public struct SessionImportResult: Sendable, Hashable {
    /// The new session's id.
    public var id: SessionID
    /// The format the file was in.
    public var format: SessionExportFormat
    /// How many events the new session holds.
    public var eventCount: Int64

    /// A result.
    public init(id: SessionID, format: SessionExportFormat, eventCount: Int64) {
        self.id = id
        self.format = format
        self.eventCount = eventCount
    }
}
