/// What `SessionImporter` made of a file.
/// Threading: a plain value; `Sendable`.
public struct SessionImportResult: Sendable, Hashable {
    /// The new session's id.
    public var id: SessionID
    /// The format the file was in.
    public var format: SessionExportFormat
    /// How many events the new session holds.
    public var eventCount: Int64
    /// What the import changed or left undecoded, one sentence each (lone surrogates read as U+FFFD, Redux
    /// DevTools serialization markers kept as plain data); empty when the file was read as it is.
    public var warnings: [String]

    /// A result.
    public init(id: SessionID, format: SessionExportFormat, eventCount: Int64, warnings: [String] = []) {
        self.id = id
        self.format = format
        self.eventCount = eventCount
        self.warnings = warnings
    }
}
