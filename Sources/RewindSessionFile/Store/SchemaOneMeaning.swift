/// The migration reader of session files of schema 1, which recorded what a row means only as its kind, its label and
/// its display text: the one place that works it out from them (``RowMeaning``), so that every other reader reads a
/// schema-1 file as it reads a schema-2 one. Its stretches of unknown state are ``UnknownStateRanges``'s; the facts
/// below come from the texts the daemon of schema 1 wrote:
/// - a branch row's detail begins `recomputes event N`;
/// - a `skip` row (label `skip` or `unskip`) has the detail `event N …` (`… recomputed on branch B`);
/// - a branch's first row (a `recomputed` note) has the detail `branch B: the main line from the state after event K…`;
/// - a `dropped` row labelled `lost` has the action `{"from", "to", "actionsLost"}`;
/// - an action was dispatched before its connection when its time is earlier than the connection's start
///   (``SchemaOneConnections``).
///
/// Threading: pure functions; safe from any thread.
package enum SchemaOneMeaning {
    /// Fills `event.meaning`'s facts (not its state mark: that takes the file's stretches, see `SessionReader`).
    package static func fillFacts(of event: inout RecordedEvent) {
        if event.branch != 0, let detail = event.detail, let range = detail.range(of: "recomputes event ") {
            event.meaning.recomputes = Int64(detail[range.upperBound...].prefix(while: \.isNumber))
        }
        if event.kind == .skip, event.label == "skip" || event.label == "unskip", let detail = event.detail,
           detail.hasPrefix("event "),
           let target = Int64(detail.dropFirst("event ".count).prefix(while: \.isNumber)) {
            let branch = detail.range(of: "recomputed on branch ")
                .flatMap { Int64(detail[$0.upperBound...].prefix(while: \.isNumber)) }
            event.meaning.skip = SkipMark(event: target, skipped: event.label == "skip", branch: branch)
        }
        if event.branch != 0, event.kind == .note, event.label == "recomputed", let detail = event.detail,
           let range = detail.range(of: "from the state after event ") {
            event.meaning.branchFrom = Int64(detail[range.upperBound...].prefix(while: \.isNumber))
        }
        if event.kind == .dropped, event.label == "lost", let range = event.action?.objectValue,
           let from = range["from"]?.int64Value, let to = range["to"]?.int64Value {
            event.meaning.lost = LostActions(from: from, to: to,
                                             count: range["actionsLost"]?.int64Value ?? max(0, to - from + 1))
        }
    }
}

extension SchemaOneMeaning {
    /// Turns the schema-1 file open on `database` (for writing) into a schema-2 one: adds the columns of what a row
    /// means and fills them with what this migration reader works out, in one transaction, so that whatever is
    /// appended next is written (and read) as schema 2. Done when a writer opens such a file (`SessionFileWriter`).
    package static func upgrade(_ database: SQLiteDatabase) throws(SessionStoreError) {
        try fill(database, addingColumns: true)
    }

    /// Works out what the rows of the schema-2 file at `path` mean by the rules of schema 1 and writes it: for an
    /// import of an export that does not say (JSON Lines version 1), once its rows are written.
    package static func derive(inFileAt path: String) throws(SessionStoreError) {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        defer { database.close() }
        try fill(database, addingColumns: false)
    }

    private static func fill(_ database: SQLiteDatabase, addingColumns: Bool) throws(SessionStoreError) {
        // Worked out over a read-only connection of its own, as any reader would, before anything is written.
        let reader = try SessionFileReader(path: database.path, readingAsSchemaOne: true)
        var ranges = UnknownStateRanges()
        var facts: [(index: Int64, text: String)] = []
        var connections = SchemaOneConnections(sessionStart: 0)
        do throws(SessionStoreError) {
            let started = try reader.meta()[SessionSchema.MetaKey.startedAt.rawValue].flatMap(SessionFileReader.date(from:))
            connections = SchemaOneConnections(sessionStart: started?.timeIntervalSince1970 ?? 0)
            try ranges.update(from: reader)
            try connections.update(from: reader, through: reader.maxIndex())
            for index in try reader.indicesWithFacts() {
                guard let event = try reader.events(index...index, branch: nil).first,
                      let text = event.meaning.storedFacts?.serialized() else { continue }
                facts.append((index, text))
            }
            reader.close()
        } catch {
            reader.close()
            throw error
        }
        try database.execute("BEGIN IMMEDIATE")
        do throws(SessionStoreError) {
            if addingColumns { try database.execute(SessionSchema.upgradeFromOne) }
            let mark = try database.prepare(
                "UPDATE events SET unknown = ?1, unknown_cause = ?2 WHERE branch = ?3 AND idx BETWEEN ?4 AND ?5")
            for stretch in ranges.all {
                mark.bind(stretch.why.rawValue, at: 1)
                mark.bind(stretch.cause, at: 2)
                mark.bind(stretch.branch, at: 3)
                mark.bind(max(1, stretch.first), at: 4)
                mark.bind(stretch.last ?? SessionSchema.maxEventIndex, at: 5)
                try mark.run()
            }
            let setFacts = try database.prepare("UPDATE events SET meaning = ?1 WHERE idx = ?2")
            for fact in facts {
                setFacts.bind(fact.text, at: 1)
                setFacts.bind(fact.index, at: 2)
                try setFacts.run()
            }
            let early = try database.prepare("""
                UPDATE events SET meaning = json_set(coalesce(meaning, '{}'), '$.beforeConnect', json('true'))
                WHERE branch = 0 AND kind != 'reconnect' AND idx > ?1 AND idx < ?2 AND time < ?3
                """)
            for span in connections.connections {
                early.bind(span.after, at: 1)
                early.bind(span.before ?? SessionSchema.maxEventIndex, at: 2)
                early.bind(span.start, at: 3)
                try early.run()
            }
            try database.execute("""
                INSERT OR REPLACE INTO meta (key, value) VALUES ('\(SessionSchema.MetaKey.schemaVersion.rawValue)', '2')
                """)
            try database.execute("PRAGMA user_version = 2")
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
