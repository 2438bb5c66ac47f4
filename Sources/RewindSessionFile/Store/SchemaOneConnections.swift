/// The part of ``SchemaOneMeaning`` that needs the rows before a row: whether an action was dispatched before the
/// connection that delivered it. Schema 1 did not record it (schema 2 records what the app's `hello` says,
/// ``RowMeaning/beforeConnect``); its times tell instead, as the timeline of schema 1 read them: a main-line row other
/// than a `reconnect` whose time (the app's clock) is earlier than the start of its connection — the session's
/// start, or the latest `reconnect` row before it.
///
/// Kept up to date incrementally (a session of schema 1 may still be growing when a writer of schema 1 records it).
/// A plain value type; not shared between threads.
package struct SchemaOneConnections {
    private let sessionStart: Double
    private var scannedThrough: Int64 = 0
    /// The main line's `reconnect` rows read so far, in order: each starts a connection.
    private var reconnects: [(index: Int64, time: Double)] = []

    /// The connections of a session that started at `sessionStart` (unix seconds), none read yet.
    package init(sessionStart: Double) {
        self.sessionStart = sessionStart
    }

    /// Reads the `reconnect` rows committed since the last call, through `last`.
    package mutating func update(from file: SessionFileReader, through last: Int64) throws(SessionStoreError) {
        guard last > scannedThrough else { return }
        let statement = try file.database.prepare("""
            SELECT idx, time FROM events WHERE kind = 'reconnect' AND branch = 0 AND idx > ?1 AND idx <= ?2 ORDER BY idx
            """)
        statement.bind(scannedThrough, at: 1)
        statement.bind(last, at: 2)
        while try statement.step() {
            reconnects.append((statement.int64(at: 0), statement.optionalDouble(at: 1) ?? 0))
        }
        scannedThrough = last
    }

    /// When the connection that delivered main-line row `index` started (unix seconds).
    private func connectedAt(before index: Int64) -> Double {
        reconnects.last { $0.index < index }?.time ?? sessionStart
    }

    /// Whether `event` was dispatched before its connection, by the rule above.
    package func dispatchedBeforeConnecting(_ event: RecordedEvent) -> Bool {
        event.branch == 0 && event.kind != .reconnect && event.time < connectedAt(before: event.index)
    }

    /// The stretches of the main line between connections, for an `UPDATE` by ranges: rows after `after` and before
    /// `before` (nil: to the end) whose time is earlier than `start` were dispatched before connecting.
    package var connections: [(after: Int64, before: Int64?, start: Double)] {
        var spans: [(after: Int64, before: Int64?, start: Double)] = []
        var after: Int64 = 0
        var start = sessionStart
        for reconnect in reconnects {
            spans.append((after, reconnect.index, start))
            after = reconnect.index
            start = reconnect.time
        }
        spans.append((after, nil, start))
        return spans
    }
}
