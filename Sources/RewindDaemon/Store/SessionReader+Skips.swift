import RewindWire

extension SessionReader {
    /// The main line's events skipped at the end of the recording: its `skip` and `unskip` rows (kind `skip`, detail
    /// `event N …`) taken in order. The one place that reads which event a skip row names.
    /// Threading: any thread.
    package func skippedEventIndices() throws(SessionStoreError) -> Set<Int64> {
        var skipped = Set<Int64>()
        for index in try eventIndices(matchingLabel: "^(skip|unskip)$") {
            let event = try event(at: index)
            guard event.kind == .skip, let detail = event.detail, detail.hasPrefix("event ") else { continue }
            guard let target = Int64(detail.dropFirst("event ".count).prefix(while: \.isNumber)) else { continue }
            if event.label == "skip" { skipped.insert(target) } else { skipped.remove(target) }
        }
        return skipped
    }
}
