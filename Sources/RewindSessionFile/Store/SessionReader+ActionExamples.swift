import RewindWire

extension SessionReader {
    /// One recorded action for each label the session's actions show (the newest of each), by label, at most
    /// `limit`: the shapes the app's action type takes, as far as the recording shows them (a refused dispatch
    /// names them). Reads the label index (a few seeks per label; files without it are scanned).
    /// Threading: any thread (it uses its own search connection).
    package func recordedActionExamples(limit: Int = 16) throws(SessionStoreError) -> [JSONValue] {
        let last = eventCount
        guard last > 0 else { return [] }
        let search = try makeSearch()
        var examples: [JSONValue] = []
        for label in try search.displayLabels(in: 1...last).sorted() where examples.count < limit {
            guard let index = try search.firstEvent(labelIn: [label], in: 1...last, forward: false) else { continue }
            // An action the app dispatched, or one the inspector had it dispatch (a `dispatch` row).
            if let action = try event(at: index).action { examples.append(action) }
        }
        return examples
    }
}
