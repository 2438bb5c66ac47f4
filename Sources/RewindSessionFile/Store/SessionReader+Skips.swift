import RewindWire

extension SessionReader {
    /// The main line's events skipped at the end of the recording: its `skip` rows (``RowMeaning/skip``), taken in
    /// order.
    /// Threading: any thread.
    package func skippedEventIndices() throws(SessionStoreError) -> Set<Int64> {
        var skipped = Set<Int64>()
        for index in try eventIndices(matchingLabel: "^(skip|unskip)$") {
            guard let mark = try event(at: index).meaning.skip else { continue }
            if mark.skipped { skipped.insert(mark.event) } else { skipped.remove(mark.event) }
        }
        return skipped
    }
}
