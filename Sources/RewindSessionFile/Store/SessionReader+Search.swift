/// Opening a `SessionSearch` on a reader's file.
extension SessionReader {
    /// A search over this session's file with its own read-only connection (so that a long search never waits
    /// for, or holds up, this reader). Threading: any thread.
    package func makeSearch() throws(SessionStoreError) -> SessionSearch {
        try SessionSearch(path: fileURL.path, maxStateBytes: maxStateBytes)
    }
}
