import Foundation

/// The writing side of one session file: creates it (schema, metadata, the initial keyframe), commits batches
/// of events with their keyframes in single transactions, and updates metadata.
/// Threading: confined to one thread at a time — the creating thread, then the recording's writer thread, or
/// the store while it repairs an interrupted session under that session's lock.
package final class SessionFileWriter {
    private let database: SQLiteDatabase
    private var statements: Statements?
    /// The ids of the path index's pointers (`index_paths`) written so far; emptied when a transaction is rolled
    /// back (its ids are gone) or when it grows past `maxCachedPathIDs`.
    private var pathIDs: [String: Int64] = [:]
    private static let maxCachedPathIDs = 65_536

    /// The prepared statements, released at `close()` so that the file is closed at once.
    private struct Statements {
        let begin: SQLiteStatement
        let commit: SQLiteStatement
        let insertEvent: SQLiteStatement
        let insertKeyframe: SQLiteStatement
        let upsertMeta: SQLiteStatement
        let deleteMeta: SQLiteStatement
        let insertPath: SQLiteStatement
        let selectPath: SQLiteStatement
        let insertPathChange: SQLiteStatement
        let insertReshape: SQLiteStatement
    }

    /// The file's path, for errors.
    package var path: String { database.path }

    /// Creates a new session file at `path` (which must not exist) holding `metadata` and the initial state as
    /// keyframe 0 of branch 0, in WAL mode with `synchronous=NORMAL`.
    package static func create(
        path: String, metadata: [(SessionSchema.MetaKey, String)], initialState: String, maxFileBytes: Int64?
    ) throws(SessionStoreError) -> SessionFileWriter {
        if FileManager.default.fileExists(atPath: path) {
            throw .unwritable(path: path, reason: "a file with this name already exists")
        }
        let database = try SQLiteDatabase(path: path, mode: .create)
        do {
            _ = try database.scalarInt64("PRAGMA journal_mode = WAL")
            try database.execute("PRAGMA synchronous = NORMAL")
            try database.execute("PRAGMA application_id = \(SessionSchema.applicationID)")
            if let maxFileBytes {
                let pageSize = try database.scalarInt64("PRAGMA page_size") ?? 4096
                try database.setMaximumPageCount(max(8, maxFileBytes / pageSize))
            }
            try database.execute("BEGIN")
            try database.execute(SessionSchema.createTables)
            try database.execute("PRAGMA user_version = \(SessionSchema.version)")
            let writer = try SessionFileWriter(database: database)
            for (key, value) in metadata { try writer.setMeta(key, value) }
            try writer.setMeta(.schemaVersion, String(SessionSchema.version))
            try writer.setMeta(.createdBy, "rewind (session schema \(SessionSchema.version))")
            try writer.setMeta(.pathsIndexedFrom, "1")
            let insertKeyframe = try writer.prepared().insertKeyframe
            insertKeyframe.bind(Int64(0), at: 1)
            insertKeyframe.bind(Int64(0), at: 2)
            insertKeyframe.bind(initialState, at: 3)
            try insertKeyframe.run()
            try database.execute("COMMIT")
            return writer
        } catch {
            database.close()
            SessionFileWriter.removeFiles(of: path)
            throw error
        }
    }

    /// Opens an existing session file for writing (to mark it interrupted, or, `appending`, to resume recording it).
    /// Checks its schema version and its events' numbering first (`SessionFileReader.checkNumbering`): a damaged
    /// file is refused (`corrupt`) before anything is written to it.
    package static func openExisting(path: String, maxFileBytes: Int64? = nil, appending: Bool = false)
        throws(SessionStoreError) -> SessionFileWriter {
        guard FileManager.default.fileExists(atPath: path) else { throw .unwritable(path: path, reason: "no such file") }
        try SessionFileReader.requireRegularFiles(at: path)  // a FIFO would block the open
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let version = try SessionFileReader.checkSchema(of: database)
        try SessionFileReader.checkNumbering(of: database, appending: appending)
        if version < 2 { try SchemaOneMeaning.upgrade(database) }
        try database.execute("PRAGMA synchronous = NORMAL")
        if let maxFileBytes {
            let pageSize = try database.scalarInt64("PRAGMA page_size") ?? 4096
            try database.setMaximumPageCount(max(8, maxFileBytes / pageSize))
        }
        try addPathIndex(to: database)
        return try SessionFileWriter(database: database)
    }

    /// Gives a file written before the path index existed its tables, complete from the next event on.
    private static func addPathIndex(to database: SQLiteDatabase) throws(SessionStoreError) {
        let key = SessionSchema.MetaKey.pathsIndexedFrom.rawValue
        let hasIndex = try database.scalarInt64("SELECT count(*) FROM meta WHERE key = '\(key)'") ?? 0
        guard hasIndex == 0 else { return }
        try database.execute("BEGIN IMMEDIATE")
        do {
            try database.execute(SessionSchema.pathIndexTables)
            let next = (try database.scalarInt64("SELECT max(idx) FROM events") ?? 0) + 1
            try database.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('\(key)', '\(next)')")
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The highest event index in the file (0 when there is none).
    package func maxIndex() throws(SessionStoreError) -> Int64 {
        _ = try prepared()
        return try database.scalarInt64("SELECT max(idx) FROM events") ?? 0
    }

    /// Marks the session live again (resuming): `end_state` back to `live`, no end time.
    package func markLive() throws(SessionStoreError) {
        let statements = try prepared()
        try statements.begin.run()
        do {
            try setMeta(.endState, SessionEndState.live.rawValue)
            try setMeta(.endedAt, nil)
            try statements.commit.run()
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// A descriptor of the file of its own (SQLite's is out of reach): its link count says whether the file still
    /// has a name anywhere. Moved with its directory, it does, and recording goes on into it; deleted, it does not.
    private var watch: Int32 = -1

    /// Refuses to write into a file that was deleted while open (`rm -rf` of the data directory): what it would
    /// write is gone when it closes; and to touch one that turned immutable (`chattr +i`) at all. As an error, it is
    /// logged once and the events stay buffered and unacknowledged (an app keeps them for a daemon that can record
    /// them) instead of being thrown away silently.
    private func checkFileIsStillThere() throws(SessionStoreError) {
        if SQLiteDatabase.isImmutable(path) {
            // Writing would reach the `-shm` index's memory map, which the kernel no longer lets anyone write: SQLite
            // would end the process with SIGBUS. Refused before SQLite is called, as a deleted file is.
            throw .unwritable(path: path, reason: "the file turned read-only while recording (immutable or "
                + "append-only: `lsattr`, `chattr -i`); its events are kept unacknowledged, not written")
        }
        guard watch >= 0 else { return }
        var status = stat()
        guard fstat(watch, &status) == 0, status.st_nlink == 0 else { return }
        throw .unwritable(path: path, reason: "the file was deleted while recording (was the data directory "
            + "removed?); its events are kept unacknowledged, not written into a deleted file")
    }

    private init(database: SQLiteDatabase) throws(SessionStoreError) {
        self.database = database
        watch = open(database.path, O_RDONLY | O_CLOEXEC)
        statements = Statements(
            begin: try database.prepare("BEGIN IMMEDIATE"),
            commit: try database.prepare("COMMIT"),
            insertEvent: try database.prepare("""
                INSERT INTO events (idx, branch, app_seq, time, kind, label, action, patch, reducer_us, detail,
                                    unknown, unknown_cause, meaning)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """),
            insertKeyframe: try database.prepare(
                "INSERT OR REPLACE INTO keyframes (branch, idx, state) VALUES (?, ?, ?)"),
            upsertMeta: try database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"),
            deleteMeta: try database.prepare("DELETE FROM meta WHERE key = ?"),
            insertPath: try database.prepare("INSERT OR IGNORE INTO index_paths (path) VALUES (?)"),
            selectPath: try database.prepare("SELECT id FROM index_paths WHERE path = ?"),
            insertPathChange: try database.prepare(
                "INSERT OR IGNORE INTO path_changes (path_id, branch, idx) VALUES (?, ?, ?)"),
            insertReshape: try database.prepare(
                "INSERT OR IGNORE INTO array_reshapes (parent_id, branch, first, last, idx) VALUES (?, ?, ?, ?, ?)")
        )
    }

    /// The prepared statements, once the file is known to be there and writable: every use of the connection goes
    /// through here, since even a read writes the `-shm` index (its read marks), which SQLite cannot survive on an
    /// immutable file.
    private func prepared() throws(SessionStoreError) -> Statements {
        guard let statements else { throw .sqlite(path: path, code: 21, message: "the session file is closed") }
        try checkFileIsStillThere()
        return statements
    }

    /// Commits `batch` (events in index order, each with its keyframe if it has one) in one transaction.
    /// On failure nothing of the batch is committed, and the error says why (`diskFull`, `unwritable`, …).
    package func write(_ batch: [PendingEvent]) throws(SessionStoreError) {
        let statements = try prepared()
        let insertEvent = statements.insertEvent
        let insertKeyframe = statements.insertKeyframe
        try statements.begin.run()
        do {
            for event in batch {
                insertEvent.bind(event.index, at: 1)
                insertEvent.bind(event.branch, at: 2)
                insertEvent.bind(event.appSeq, at: 3)
                insertEvent.bind(event.time, at: 4)
                insertEvent.bind(event.reducerMicros, at: 9)
                insertEvent.bind(event.unknown, at: 11)
                insertEvent.bind(event.unknownCause, at: 12)
                insertEvent.bind(event.meaning, at: 13)
                // The text is bound in place (no copy): the statement runs inside these closures.
                try insertEvent.withText(event.kind.rawValue, at: 5) { () throws(SessionStoreError) in
                    try insertEvent.withText(event.label, at: 6) { () throws(SessionStoreError) in
                        try insertEvent.withText(event.action, at: 7) { () throws(SessionStoreError) in
                            try insertEvent.withText(event.patch, at: 8) { () throws(SessionStoreError) in
                                try insertEvent.withText(event.detail, at: 10) { () throws(SessionStoreError) in
                                    try insertEvent.run()
                                }
                            }
                        }
                    }
                }
                if let touches = event.touches { try writeTouches(touches, of: event, statements) }
                if let keyframe = event.keyframe {
                    insertKeyframe.bind(event.branch, at: 1)
                    insertKeyframe.bind(event.index, at: 2)
                    try insertKeyframe.withText(keyframe, at: 3) { () throws(SessionStoreError) in
                        try insertKeyframe.run()
                    }
                }
            }
            if let last = batch.last { try setMeta(.pathsIndexedThrough, String(last.index)) }
            try statements.commit.run()
        } catch {
            try? database.execute("ROLLBACK")
            pathIDs.removeAll()
            throw error
        }
    }

    /// Adds one event's rows to the path index.
    private func writeTouches(_ touches: PatchTouches, of event: PendingEvent, _ statements: Statements)
        throws(SessionStoreError) {
        let insertChange = statements.insertPathChange
        for path in touches.paths {
            insertChange.bind(try pathID(path, statements), at: 1)
            insertChange.bind(event.branch, at: 2)
            insertChange.bind(event.index, at: 3)
            try insertChange.run()
        }
        let insertReshape = statements.insertReshape
        for reshape in touches.reshapes {
            insertReshape.bind(try pathID(reshape.parent, statements), at: 1)
            insertReshape.bind(event.branch, at: 2)
            insertReshape.bind(reshape.first, at: 3)
            insertReshape.bind(reshape.last, at: 4)
            insertReshape.bind(event.index, at: 5)
            try insertReshape.run()
        }
    }

    /// The id of `path` in `index_paths`, added when new (inside the batch's transaction).
    private func pathID(_ path: String, _ statements: Statements) throws(SessionStoreError) -> Int64 {
        if let id = pathIDs[path] { return id }
        statements.insertPath.bind(path, at: 1)
        try statements.insertPath.run()
        let select = statements.selectPath
        select.bind(path, at: 1)
        defer { select.reset() }
        guard try select.step() else {
            throw .sqlite(path: self.path, code: 1, message: "the path index lost the pointer \(path)")
        }
        let id = select.int64(at: 0)
        if pathIDs.count >= Self.maxCachedPathIDs { pathIDs.removeAll(keepingCapacity: true) }
        pathIDs[path] = id
        return id
    }

    /// Sets (or, with nil, removes) one metadata value, outside or inside a transaction.
    package func setMeta(_ key: SessionSchema.MetaKey, _ value: String?) throws(SessionStoreError) {
        let statements = try prepared()
        let upsertMeta = statements.upsertMeta
        let deleteMeta = statements.deleteMeta
        if let value {
            upsertMeta.bind(key.rawValue, at: 1)
            upsertMeta.bind(value, at: 2)
            try upsertMeta.run()
        } else {
            deleteMeta.bind(key.rawValue, at: 1)
            try deleteMeta.run()
        }
    }

    /// Writes how and when the session ended, in one transaction.
    package func markEnded(_ endState: SessionEndState, at date: Date) throws(SessionStoreError) {
        let statements = try prepared()
        try statements.begin.run()
        do {
            try setMeta(.endState, endState.rawValue)
            try setMeta(.endedAt, SessionFileReader.text(of: date))
            try statements.commit.run()
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// The time of the last committed event, if any (for an interrupted session's end time).
    package func lastEventTime() throws(SessionStoreError) -> Double? {
        _ = try prepared()
        let statement = try database.prepare("SELECT time FROM events ORDER BY idx DESC LIMIT 1")
        guard try statement.step() else { return nil }
        return statement.optionalDouble(at: 0)
    }

    /// Closes the file; with WAL, the last connection to close checkpoints the log into the file.
    deinit {
        if watch >= 0 { Foundation.close(watch) }
    }

    package func close() {
        statements = nil
        database.close()
        if watch >= 0 { Foundation.close(watch) }
        watch = -1
    }

    /// Deletes a session file and its WAL and shared-memory companions (not the lock file).
    package static func removeFiles(of path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
