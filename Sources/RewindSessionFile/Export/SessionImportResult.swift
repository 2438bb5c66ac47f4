/// What `SessionImporter` made of a file.
/// Threading: a plain value; `Sendable`.
package struct SessionImportResult: Sendable, Hashable {
    /// The new session's id.
    package var id: SessionID
    /// The format the file was in.
    package var format: SessionExportFormat
    /// How many events the new session holds.
    package var eventCount: Int64
    /// What the import changed or left undecoded, one sentence each (lone surrogates read as U+FFFD, Redux
    /// DevTools serialization markers kept as plain data); empty when the file was read as it is.
    package var warnings: [String]

    /// A result.
    package init(id: SessionID, format: SessionExportFormat, eventCount: Int64, warnings: [String] = []) {
        self.id = id
        self.format = format
        self.eventCount = eventCount
        self.warnings = warnings
    }
}
