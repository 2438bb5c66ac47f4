import Foundation
import RewindWire

/// The reading side of one session file over its own read-only connection: schema check, metadata, events,
/// keyframes and patches. Every query runs to completion and is reset at once, so no read transaction (and no
/// old WAL snapshot) is held between calls, except inside `snapshot(_:)`.
/// Threading: not thread-safe; `SessionReader` and `SessionStore` confine each instance to one thread at a time.
package final class SessionFileReader {
    /// Limits for parsing stored JSON: the file's own data, so no size limit (the app's messages were checked).
    package static let storedJSONLimits = JSONLimits(maxDepth: 512, maxBytes: Int.max)

    /// The read-only connection (also used by `SessionSearch`'s queries).
    package let database: SQLiteDatabase
    /// The file's schema version (1 when reading as schema 1 was asked for).
    package let schemaVersion: Int

    /// The file's path, for errors.
    package var path: String { database.path }

    /// The queries this reader runs; each is prepared on first use and kept.
    private enum Query: String {
        case begin = "BEGIN"
        case commit = "COMMIT"
        case meta = "SELECT key, value FROM meta"
        case maxIndex = "SELECT max(idx) FROM events"
        // Through the label index where the file has it (a `lost` row's label is `lost`): a few rows, not every one.
        // Schema 2 reads what the row states (`meaning.lost`); schema 1 the `action` its daemon wrote.
        case actionsLost = """
            SELECT COALESCE(SUM(json_extract(meaning, '$.lost.count')), 0) FROM events
            WHERE coalesce(label, kind) = 'lost' AND kind = 'dropped' AND label = 'lost' AND branch = 0
            """
        case actionsLostSchemaOne = """
            SELECT COALESCE(SUM(json_extract(action, '$.actionsLost')), 0) FROM events
            WHERE coalesce(label, kind) = 'lost' AND kind = 'dropped' AND label = 'lost' AND branch = 0
            """
        case lastAccountedAction = """
            SELECT COALESCE(MAX(CASE WHEN kind = 'dropped' AND label = 'lost' THEN json_extract(meaning, '$.lost.to')
                                     ELSE app_seq END), 0) FROM events WHERE branch = 0
            """
        case lastAccountedActionSchemaOne = """
            SELECT COALESCE(MAX(CASE WHEN kind = 'dropped' AND label = 'lost' THEN json_extract(action, '$.to')
                                     ELSE app_seq END), 0) FROM events WHERE branch = 0
            """
        case lastTime = "SELECT time FROM events ORDER BY idx DESC LIMIT 1"
        case eventsOnMain = """
            SELECT idx, branch, app_seq, time, kind, label, action, patch, reducer_us, detail, unknown, unknown_cause, meaning
            FROM events
            WHERE idx BETWEEN ?1 AND ?2 AND branch = 0 ORDER BY idx
            """
        case eventsOnBranch = """
            SELECT idx, branch, app_seq, time, kind, label, action, patch, reducer_us, detail, unknown, unknown_cause, meaning
            FROM events
            WHERE branch = ?3 AND branch <> 0 AND idx BETWEEN ?1 AND ?2 ORDER BY idx
            """
        case eventsOnAll = """
            SELECT idx, branch, app_seq, time, kind, label, action, patch, reducer_us, detail, unknown, unknown_cause, meaning
            FROM events
            WHERE idx BETWEEN ?1 AND ?2 ORDER BY idx
            """
        case pageOnMain = """
            SELECT idx, branch, app_seq, time, kind, label, action, patch, reducer_us, detail, unknown, unknown_cause, meaning
            FROM events
            WHERE idx > ?1 AND idx <= ?2 AND branch = 0 ORDER BY idx LIMIT ?3
            """
        case pageOnAll = """
            SELECT idx, branch, app_seq, time, kind, label, action, patch, reducer_us, detail, unknown, unknown_cause, meaning
            FROM events
            WHERE idx > ?1 AND idx <= ?2 ORDER BY idx LIMIT ?3
            """
        case lastActionOnMain = """
            SELECT idx FROM events WHERE idx <= ?1 AND branch = 0 AND kind = 'action' ORDER BY idx DESC LIMIT 1
            """
        case keyframe = "SELECT idx, state FROM keyframes WHERE branch = ?1 AND idx <= ?2 ORDER BY idx DESC LIMIT 1"
        case patchesOnMain = """
            SELECT idx, patch FROM events
            WHERE idx > ?1 AND idx <= ?2 AND branch = 0 AND patch IS NOT NULL ORDER BY idx
            """
        case patchesOnBranch = """
            SELECT idx, patch FROM events
            WHERE branch = ?3 AND branch <> 0 AND idx > ?1 AND idx <= ?2 AND patch IS NOT NULL ORDER BY idx
            """
        case labelsOnMain = "SELECT idx, label FROM events WHERE idx BETWEEN ?1 AND ?2 AND branch = 0 ORDER BY idx"
        case labelsOnBranch = """
            SELECT idx, label FROM events WHERE branch = ?3 AND branch <> 0 AND idx BETWEEN ?1 AND ?2 ORDER BY idx
            """
        case branches = "SELECT DISTINCT branch FROM events WHERE branch <> 0 ORDER BY branch"
        case keyframeIndices = "SELECT idx FROM keyframes WHERE idx BETWEEN ?1 AND ?2"
        case keyframeAt = "SELECT state FROM keyframes WHERE branch = ?1 AND idx = ?2"
        case branchOf = "SELECT branch FROM events WHERE idx = ?1"
        // Through the label index (`coalesce(label, kind)`): the rows whose label can make a state unknown.
        case stateBreakCauses = """
            SELECT idx, branch, kind, label, detail FROM events
            WHERE coalesce(label, kind) IN ('dropped', 'initial_unknown', 'patch_failed', 'out_of_order')
              AND idx > ?1 AND idx <= ?2
            ORDER BY idx
            """
        // Schema 2: the rows marked unknown, one group per cause (a stretch), through the `events_unknown` index.
        case unknownRuns = """
            SELECT branch, unknown_cause, min(idx), max(idx), min(unknown) FROM events
            WHERE unknown IS NOT NULL AND idx > ?1 AND idx <= ?2
            GROUP BY unknown_cause, branch ORDER BY min(idx)
            """
        // The same over a long range: every row of `events_unknown` instead of every row of the range (`+idx` keeps
        // SQLite from walking the primary key's range, which it prefers without statistics).
        case unknownRunsThroughIndex = """
            SELECT branch, unknown_cause, min(idx), max(idx), min(unknown) FROM events
            WHERE unknown IS NOT NULL AND +idx > ?1 AND +idx <= ?2
            GROUP BY unknown_cause, branch ORDER BY min(idx)
            """
        case firstRowOnBranch = """
            SELECT idx FROM events WHERE branch = ?3 AND idx > ?1 AND idx <= ?2 ORDER BY idx LIMIT 1
            """
        case detailOf = "SELECT detail FROM events WHERE idx = ?1"
        // Schema 1: the rows whose display text or action tells a fact (``SchemaOneMeaning``).
        case rowsWithFacts = """
            SELECT idx FROM events WHERE branch <> 0
            UNION SELECT idx FROM events WHERE coalesce(label, kind) IN ('skip', 'unskip', 'lost')
            ORDER BY idx
            """
        case firstStateRestore = """
            SELECT idx, kind, label, detail FROM events
            WHERE idx > ?1 AND idx < ?2 AND branch = ?3 AND kind IN ('snapshot', 'jump', 'replay', 'reconnect')
            ORDER BY idx LIMIT 1
            """
    }

    private var statements: [Query: SQLiteStatement] = [:]
    /// The answers of ``hasIndex(named:)``.
    private var indexes: [String: Bool] = [:]

    /// Whether the file has the index `name` (the optional ones: `SessionSchema.labelIndexName`,
    /// `SessionSchema.notableIndexName`); asked once per name and remembered.
    package func hasIndex(named name: String) throws(SessionStoreError) -> Bool {
        if let known = indexes[name] { return known }
        let statement = try database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1")
        defer { statement.reset() }
        statement.bind(name, at: 1)
        let found = try statement.step() && statement.int64(at: 0) > 0
        indexes[name] = found
        return found
    }

    private func prepared(_ query: Query) throws(SessionStoreError) -> SQLiteStatement {
        if let statement = statements[query] { return statement }
        // A file of schema 1 has no columns of what a row means: they read as empty (``SchemaOneMeaning`` works
        // the meaning out instead).
        let text = schemaVersion >= 2 ? query.rawValue
            : query.rawValue.replacingOccurrences(of: "unknown, unknown_cause, meaning", with: "NULL, NULL, NULL")
        let statement = try database.prepare(text)
        statements[query] = statement
        return statement
    }

    /// True when the file had no `-wal` and no `-shm` companion when this reader opened it: the ones SQLite
    /// creates for a read-only connection are then removed again by ``close()``.
    private var removesCompanionsOnClose: Bool
    /// ``close()`` ran.
    private var closed = false

    /// Opens `path` read-only and checks that it is a session this build can read. Anything but a regular file
    /// (a FIFO, a device, a socket, a directory — at the path or as its `-wal`/`-shm` companion) is refused
    /// before SQLite opens it: opening a FIFO would block until someone writes to it.
    /// `readingAsSchemaOne` reads the file as one of schema 1 whatever its version, ignoring what its rows say they
    /// mean: for the migration reader, which works that out (``SchemaOneMeaning``).
    package init(path: String, readingAsSchemaOne: Bool = false) throws(SessionStoreError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        try SessionFileReader.requireRegularFiles(at: path)
        removesCompanionsOnClose = !SessionFileReader.hasCompanionFiles(path)
        let removes = removesCompanionsOnClose
        do throws(SessionStoreError) {
            let database = try SQLiteDatabase(path: path, mode: .readOnly)
            do throws(SessionStoreError) {
                let version = try SessionFileReader.checkSchema(of: database)
                schemaVersion = readingAsSchemaOne ? 1 : version
                try SessionFileReader.checkNumbering(of: database)
            } catch {
                database.close()
                throw error
            }
            self.database = database
        } catch {
            if removes { SessionFileReader.releaseCompanionFiles(of: path) }
            throw error
        }
    }

    deinit {
        close()
    }

    /// Closes the connection. When the file had no `-wal`/`-shm` files before this reader opened it, the ones
    /// its connection left are removed (unless another connection has the file open: a recorder that resumed the
    /// session meanwhile keeps them), so that reading a finished session leaves its directory as it was.
    /// Idempotent.
    package func close() {
        guard !closed else { return }
        closed = true
        statements = [:]
        database.close()
        if removesCompanionsOnClose { SessionFileReader.releaseCompanionFiles(of: path) }
    }

    private static func hasCompanionFiles(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "-wal") || FileManager.default.fileExists(atPath: path + "-shm")
    }

    private static func releaseCompanionFiles(of path: String) {
        guard hasCompanionFiles(path) else { return }
        SQLiteDatabase.releaseCompanionFiles(of: path)
    }

    // MARK: Schema and metadata

    /// The file's schema version; throws `newerSchema` for a version this build cannot read and `corrupt` for
    /// a file that is not a Rewind session.
    package static func checkSchema(of database: SQLiteDatabase) throws(SessionStoreError) -> Int {
        let hasMeta = try database.scalarInt64(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'meta'") ?? 0
        guard hasMeta > 0 else {
            throw .corrupt(path: database.path, detail: "it has no meta table (not a Rewind session file)")
        }
        let statement = try database.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
        guard try statement.step(), let text = statement.string(at: 0) else {
            throw .corrupt(path: database.path, detail: "its meta table has no schema_version")
        }
        guard let version = Int(text), version >= 1 else {
            throw .corrupt(path: database.path, detail: "its schema_version \"\(text)\" is not a version number")
        }
        if version > SessionSchema.version {
            throw .newerSchema(found: version, supported: SessionSchema.version, path: database.path)
        }
        return version
    }

    /// Throws `corrupt` unless every event's index lies in 1…``SessionSchema/maxEventIndex`` and its branch in
    /// 0…``SessionSchema/maxBranch`` (docs/SESSION-FORMAT.md), so that no arithmetic on a number read from the file
    /// can overflow. With `appending` (a writer resuming the file), the last index must also leave room for the next
    /// event. Four index lookups, whatever the file's length.
    package static func checkNumbering(of database: SQLiteDatabase, appending: Bool = false) throws(SessionStoreError) {
        let limit = SessionSchema.maxEventIndex
        for order in ["ASC", "DESC"] {
            let statement = try database.prepare("SELECT idx FROM events ORDER BY idx \(order) LIMIT 1")
            guard try statement.step() else { return }  // no events
            let index = statement.int64(at: 0)
            if !(1...limit).contains(index) {
                throw .corrupt(path: database.path, detail: "its event \(index) is numbered outside 1…\(limit) "
                               + "(the file is damaged)")
            }
            if appending, order == "DESC", index == limit {
                throw .corrupt(path: database.path, detail: "its last event is numbered \(index), the greatest "
                               + "event number a session may hold: no event can follow it")
            }
        }
        for order in ["ASC", "DESC"] {
            let statement = try database.prepare(
                "SELECT idx, branch FROM events WHERE branch <> 0 ORDER BY branch \(order) LIMIT 1")
            guard try statement.step() else { return }
            let branch = statement.int64(at: 1)
            if !(0...SessionSchema.maxBranch).contains(branch) {
                throw .corrupt(path: database.path, detail: "its event \(statement.int64(at: 0)) is on branch "
                               + "\(branch), outside 0…\(SessionSchema.maxBranch) (the file is damaged)")
            }
        }
    }

    /// The `meta` table as a dictionary.
    package func meta() throws(SessionStoreError) -> [String: String] {
        let statement = try prepared(.meta)
        defer { statement.reset() }
        var result: [String: String] = [:]
        while try statement.step() {
            if let key = statement.string(at: 0) { result[key] = statement.string(at: 1) ?? "" }
        }
        return result
    }

    /// The highest event index committed (0 when there is none); throws `corrupt` when it is outside
    /// 1…``SessionSchema/maxEventIndex`` (a row written since the file was opened).
    package func maxIndex() throws(SessionStoreError) -> Int64 {
        let statement = try prepared(.maxIndex)
        defer { statement.reset() }
        guard try statement.step(), let index = statement.optionalInt64(at: 0) else { return 0 }
        guard (1...SessionSchema.maxEventIndex).contains(index) else {
            throw .corrupt(path: path, detail: "its event \(index) is numbered outside 1…\(SessionSchema.maxEventIndex) "
                           + "(the file is damaged)")
        }
        return index
    }

    /// How many of the app's actions the session's `lost` rows count (one scan of the events).
    package func actionsLost() throws(SessionStoreError) -> Int64 {
        let statement = try prepared(schemaVersion < 2 ? .actionsLostSchemaOne : .actionsLost)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.optionalInt64(at: 0) ?? 0
    }

    /// The greatest app action number the main line records or counts as lost.
    package func lastAccountedAction() throws(SessionStoreError) -> Int64 {
        let statement = try prepared(schemaVersion < 2 ? .lastAccountedActionSchemaOne : .lastAccountedAction)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.optionalInt64(at: 0) ?? 0
    }

    /// The time of the last committed event.
    package func lastEventTime() throws(SessionStoreError) -> Double? {
        let statement = try prepared(.lastTime)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.optionalDouble(at: 0)
    }

    /// The branch numbers other than 0 that hold events.
    package func branches() throws(SessionStoreError) -> [Int64] {
        let statement = try prepared(.branches)
        defer { statement.reset() }
        return try statement.firstColumnIntegers()
    }

    /// The session's metadata; `lockPath` tells a live recording from a dead one.
    package func metadata(lockPath: String) throws(SessionStoreError) -> SessionMetadata {
        try snapshot { () throws(SessionStoreError) -> SessionMetadata in
            let values = try meta()
            let idText = values[SessionSchema.MetaKey.sessionID.rawValue]
                ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let id: SessionID
            do {
                id = try SessionID(validating: idText)
            } catch {
                throw .corrupt(path: path, detail: "its session_id \"\(idText)\" is not a valid id")
            }
            guard let started = values[SessionSchema.MetaKey.startedAt.rawValue].flatMap(SessionFileReader.date(from:))
            else {
                throw .corrupt(path: path, detail: "its meta table has no valid started_at")
            }
            let lastTime = try lastEventTime()
            var endState = values[SessionSchema.MetaKey.endState.rawValue].flatMap(SessionEndState.init(rawValue:))
                ?? .interrupted
            var ended = values[SessionSchema.MetaKey.endedAt.rawValue].flatMap(SessionFileReader.date(from:))
            if endState == .live, !SessionLock.isHeld(at: lockPath) {
                endState = .interrupted
                ended = ended ?? lastTime.map { Date(timeIntervalSince1970: $0) } ?? started
            }
            return SessionMetadata(
                id: id,
                appName: values[SessionSchema.MetaKey.app.rawValue] ?? "",
                instance: values[SessionSchema.MetaKey.instance.rawValue],
                startedAt: started,
                endedAt: ended,
                protocolVersion: values[SessionSchema.MetaKey.protocolVersion.rawValue].flatMap { Int($0) } ?? 0,
                stateType: values[SessionSchema.MetaKey.stateType.rawValue],
                endState: endState,
                eventCount: try maxIndex(),
                fileBytes: SessionFileReader.fileBytes(of: path),
                schemaVersion: schemaVersion,
                lastEventAt: lastTime.map { Date(timeIntervalSince1970: $0) },
                importedFrom: values[SessionSchema.MetaKey.importedFrom.rawValue]
            )
        }
    }

    // MARK: Events and states

    /// Runs `body` inside one read transaction, so that all its queries see the same committed snapshot.
    package func snapshot<Result>(_ body: () throws(SessionStoreError) -> Result) throws(SessionStoreError) -> Result {
        let commit = try prepared(.commit)
        try prepared(.begin).run()
        defer { try? commit.run() }
        return try body()
    }

    /// The events with index in `range` on `branch` (nil: on every branch), in index order.
    package func events(_ range: ClosedRange<Int64>, branch: Int64?) throws(SessionStoreError) -> [RecordedEvent] {
        let statement: SQLiteStatement
        switch branch {
        case nil: statement = try prepared(.eventsOnAll)
        case 0: statement = try prepared(.eventsOnMain)
        case let branch?:
            statement = try prepared(.eventsOnBranch)
            statement.bind(branch, at: 3)
        }
        defer { statement.reset() }
        statement.bind(range.lowerBound, at: 1)
        statement.bind(range.upperBound, at: 2)
        return try readEvents(statement)
    }

    /// The first `limit` events after index `after`, up to `through`, on the main line (`allBranches` false) or on
    /// every branch, in index order: a page of the rows that exist, however sparse their numbering.
    package func events(after: Int64, through: Int64, limit: Int, allBranches: Bool) throws(SessionStoreError) -> [RecordedEvent] {
        let statement = try prepared(allBranches ? .pageOnAll : .pageOnMain)
        defer { statement.reset() }
        statement.bind(after, at: 1)
        statement.bind(through, at: 2)
        statement.bind(Int64(limit), at: 3)
        return try readEvents(statement)
    }

    /// The events of a query selecting the columns of `eventsOnAll`, in its order.
    private func readEvents(_ statement: SQLiteStatement) throws(SessionStoreError) -> [RecordedEvent] {
        var result: [RecordedEvent] = []
        while try statement.step() {
            let index = statement.int64(at: 0)
            let kindText = statement.string(at: 4) ?? ""
            guard let kind = EventKind(rawValue: kindText) else {
                throw .corrupt(path: path, detail: "event \(index) has an unknown kind \"\(kindText)\"")
            }
            var patch: JSONPatch?
            if let patchJSON = try json(statement, column: 7, what: "the patch of event \(index)") {
                patch = try makePatch(patchJSON, index: index)
            }
            var event = RecordedEvent(
                index: index,
                appSeq: statement.optionalInt64(at: 2),
                time: statement.optionalDouble(at: 3) ?? 0,
                kind: kind,
                label: statement.string(at: 5),
                action: try json(statement, column: 6, what: "the action of event \(index)"),
                patch: patch,
                reducerMicros: statement.optionalDouble(at: 8),
                detail: statement.string(at: 9),
                branch: statement.int64(at: 1)
            )
            if schemaVersion >= 2 {
                event.meaning = try storedMeaning(statement, index: index)
            } else {
                SchemaOneMeaning.fillFacts(of: &event)
            }
            result.append(event)
        }
        return result
    }

    /// What row `index` means, from its `unknown`, `unknown_cause` and `meaning` columns (10, 11, 12).
    private func storedMeaning(_ statement: SQLiteStatement, index: Int64) throws(SessionStoreError) -> RowMeaning {
        var meaning = RowMeaning()
        if let reasonText = statement.string(at: 10) {
            guard let reason = UnknownStateReason(rawValue: reasonText) else {
                throw .corrupt(path: path, detail: "event \(index) says its state is unknown for an unknown reason "
                    + "\"\(reasonText)\"")
            }
            let cause = statement.optionalInt64(at: 11) ?? index
            try checkCause(cause, of: index)
            meaning.unknownState = UnknownStateMark(reason: reason, cause: cause)
        }
        if let facts = try json(statement, column: 12, what: "the meaning of event \(index)") {
            do throws(RowMeaningProblem) {
                try meaning.readFacts(facts)
            } catch {
                throw .corrupt(path: path, detail: "the meaning of event \(index) is malformed: \(error.text)")
            }
        }
        return meaning
    }

    /// One stretch of rows marked unknown by one cause (schema 2), as far as (`start`, `end`] holds it.
    package struct UnknownRun {
        let branch: Int64
        let cause: Int64
        let first: Int64
        let last: Int64
        let reason: UnknownStateReason
    }

    /// The longest range ``unknownRuns(after:through:)`` reads through the primary key.
    private static let unknownRunsScanLimit: Int64 = 4_096

    /// The stretches of rows marked unknown in (`start`, `end`], in order of their first row (schema 2).
    package func unknownRuns(after start: Int64, through end: Int64) throws(SessionStoreError) -> [UnknownRun] {
        // A range of a few thousand rows (a live session's new rows) is read through the primary key; a longer one
        // (a file opened) through the index, whose rows are the few marked unknown.
        let statement = try prepared(end - start > Self.unknownRunsScanLimit ? .unknownRunsThroughIndex : .unknownRuns)
        defer { statement.reset() }
        statement.bind(start, at: 1)
        statement.bind(end, at: 2)
        var runs: [UnknownRun] = []
        while try statement.step() {
            let first = statement.int64(at: 2)
            guard let reason = statement.string(at: 4).flatMap(UnknownStateReason.init(rawValue:)) else {
                throw .corrupt(path: path, detail: "event \(first) says its state is unknown for an unknown reason "
                    + "\"\(statement.string(at: 4) ?? "")\"")
            }
            let cause = statement.optionalInt64(at: 1) ?? first
            try checkCause(cause, of: first)
            runs.append(UnknownRun(branch: statement.int64(at: 0), cause: cause, first: first,
                                   last: statement.int64(at: 3), reason: reason))
        }
        return runs
    }

    /// Throws `corrupt` unless `cause`, the row said to have made row `index`'s state unknown, is an event number
    /// a session file may hold, 1…2^62 (a damaged file may say anything). It may follow the row: an action whose
    /// patch does not apply is made unknown by the `patch_failed` row recorded after it.
    private func checkCause(_ cause: Int64, of index: Int64) throws(SessionStoreError) {
        guard cause >= 1, cause <= SessionSchema.maxEventIndex else {
            throw .corrupt(path: path, detail: "event \(index) says its state was made unknown by event \(cause), "
                + "outside 1…\(SessionSchema.maxEventIndex)")
        }
    }

    /// The first row of `branch` in (`start`, `end`], if any.
    package func firstRow(after start: Int64, through end: Int64, branch: Int64) throws(SessionStoreError) -> Int64? {
        let statement = try prepared(.firstRowOnBranch)
        defer { statement.reset() }
        statement.bind(start, at: 1)
        statement.bind(end, at: 2)
        statement.bind(branch, at: 3)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    /// The rows of a schema-1 file whose text tells a fact ``SchemaOneMeaning`` reads: branch rows, skip rows,
    /// `lost` rows (through the branch and label indexes).
    package func indicesWithFacts() throws(SessionStoreError) -> [Int64] {
        let statement = try prepared(.rowsWithFacts)
        defer { statement.reset() }
        return try statement.firstColumnIntegers()
    }

    /// Row `index`'s display text, if it has one.
    package func detail(of index: Int64) throws(SessionStoreError) -> String? {
        let statement = try prepared(.detailOf)
        defer { statement.reset() }
        statement.bind(index, at: 1)
        return try statement.step() ? statement.string(at: 0) : nil
    }

    /// The index of the main line's last `action` event at or before `index`, if any: reads the rows from `index`
    /// backwards until it finds one, never the numbers between them.
    package func lastActionOnMainLine(through index: Int64) throws(SessionStoreError) -> Int64? {
        let statement = try prepared(.lastActionOnMain)
        defer { statement.reset() }
        statement.bind(index, at: 1)
        guard try statement.step() else { return nil }
        return statement.int64(at: 0)
    }

    /// The nearest keyframe of `branch` at or before `index`: its index and state.
    package func keyframe(atOrBefore index: Int64, branch: Int64) throws(SessionStoreError) -> (index: Int64, state: JSONValue)? {
        let statement = try prepared(.keyframe)
        defer { statement.reset() }
        statement.bind(branch, at: 1)
        statement.bind(index, at: 2)
        guard try statement.step() else { return nil }
        let keyframeIndex = statement.int64(at: 0)
        guard let state = try json(statement, column: 1, what: "the keyframe at event \(keyframeIndex)") else {
            throw .corrupt(path: path, detail: "the keyframe at event \(keyframeIndex) is empty")
        }
        return (keyframeIndex, state)
    }

    /// The indices in `range` that have a keyframe (an index belongs to one event, hence to one branch).
    package func keyframeIndices(in range: ClosedRange<Int64>) throws(SessionStoreError) -> Set<Int64> {
        let statement = try prepared(.keyframeIndices)
        defer { statement.reset() }
        statement.bind(range.lowerBound, at: 1)
        statement.bind(range.upperBound, at: 2)
        var result = Set<Int64>()
        while try statement.step() { result.insert(statement.int64(at: 0)) }
        return result
    }

    /// The keyframe of `branch` exactly at `index`, if there is one.
    package func keyframe(at index: Int64, branch: Int64) throws(SessionStoreError) -> JSONValue? {
        let statement = try prepared(.keyframeAt)
        defer { statement.reset() }
        statement.bind(branch, at: 1)
        statement.bind(index, at: 2)
        guard try statement.step() else { return nil }
        return try json(statement, column: 0, what: "the keyframe at event \(index)")
    }

    /// The branch of event `index`, or nil when there is no such event.
    package func branch(of index: Int64) throws(SessionStoreError) -> Int64? {
        let statement = try prepared(.branchOf)
        defer { statement.reset() }
        statement.bind(index, at: 1)
        guard try statement.step() else { return nil }
        return statement.int64(at: 0)
    }

    /// One row that can make a branch's state unknown or known again: the raw material of `UnknownStateRanges`.
    package struct StateBreak {
        let index: Int64
        let branch: Int64
        let kind: EventKind
        let label: String?
        let detail: String?
    }

    /// The events in (`start`, `end`] whose label says they can make a state unknown (`dropped`, `patch_failed`,
    /// `out_of_order`; their kinds are checked by the caller), in index order. Through the label index: cheap on a
    /// long session with few of them.
    package func stateBreakCauses(after start: Int64, through end: Int64) throws(SessionStoreError) -> [StateBreak] {
        let statement = try prepared(.stateBreakCauses)
        defer { statement.reset() }
        statement.bind(start, at: 1)
        statement.bind(end, at: 2)
        var found: [StateBreak] = []
        while try statement.step() {
            guard let kind = statement.string(at: 2).flatMap(EventKind.init(rawValue:)) else { continue }
            found.append(StateBreak(index: statement.int64(at: 0), branch: statement.int64(at: 1), kind: kind,
                                    label: statement.string(at: 3), detail: statement.string(at: 4)))
        }
        return found
    }

    /// The first event of `branch` in (`start`, `end`) that carries a full state again (`snapshot`, `jump`,
    /// `replay`, `reconnect`), if any. Reads the rows from `start` on until it finds one.
    package func firstStateRestore(after start: Int64, before end: Int64, branch: Int64) throws(SessionStoreError) -> StateBreak? {
        let statement = try prepared(.firstStateRestore)
        defer { statement.reset() }
        statement.bind(start, at: 1)
        statement.bind(end, at: 2)
        statement.bind(branch, at: 3)
        guard try statement.step(), let kind = statement.string(at: 1).flatMap(EventKind.init(rawValue:)) else {
            return nil
        }
        return StateBreak(index: statement.int64(at: 0), branch: branch, kind: kind, label: statement.string(at: 2),
                          detail: statement.string(at: 3))
    }

    /// Calls `body` with each patch of `branch` for events after `start` up to `end`, in order.
    package func forEachPatch(
        after start: Int64, through end: Int64, branch: Int64,
        _ body: (Int64, JSONPatch) throws(SessionStoreError) -> Void
    ) throws(SessionStoreError) {
        let statement = try prepared(branch == 0 ? .patchesOnMain : .patchesOnBranch)
        defer { statement.reset() }
        statement.bind(start, at: 1)
        statement.bind(end, at: 2)
        if branch != 0 { statement.bind(branch, at: 3) }
        while try statement.step() {
            let index = statement.int64(at: 0)
            guard let patchJSON = try json(statement, column: 1, what: "the patch of event \(index)") else { continue }
            try body(index, try makePatch(patchJSON, index: index))
        }
    }

    /// Calls `body` with the index and the label bytes (nil for none) of each event of `branch` in `range`.
    package func forEachLabel(
        in range: ClosedRange<Int64>, branch: Int64,
        _ body: (Int64, UnsafeBufferPointer<UInt8>?) throws(SessionStoreError) -> Void
    ) throws(SessionStoreError) {
        let statement = try prepared(branch == 0 ? .labelsOnMain : .labelsOnBranch)
        defer { statement.reset() }
        statement.bind(range.lowerBound, at: 1)
        statement.bind(range.upperBound, at: 2)
        if branch != 0 { statement.bind(branch, at: 3) }
        while try statement.step() {
            let index = statement.int64(at: 0)
            let result: Result<Void, SessionStoreError> = statement.withBytes(at: 1) { bytes in
                do throws(SessionStoreError) {
                    try body(index, bytes)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        }
    }

    private func json(_ statement: SQLiteStatement, column: Int32, what: String) throws(SessionStoreError) -> JSONValue? {
        let result: Result<JSONValue?, SessionStoreError> = statement.withBytes(at: column) { bytes in
            guard let bytes else { return .success(nil) }
            do throws(JSONParseError) {
                return .success(try JSONValue(parsing: bytes, limits: SessionFileReader.storedJSONLimits))
            } catch {
                return .failure(.corrupt(path: path, detail: "\(what) is not valid JSON: \(error)"))
            }
        }
        return try result.get()
    }

    private func makePatch(_ json: JSONValue, index: Int64) throws(SessionStoreError) -> JSONPatch {
        do {
            return try JSONPatch(json: json)
        } catch {
            throw .corrupt(path: path, detail: "the patch of event \(index) is not a JSON Patch: \(error)")
        }
    }

    // MARK: Helpers

    /// A date as stored in the meta table: unix seconds in decimal.
    package static func text(of date: Date) -> String {
        String(date.timeIntervalSince1970)
    }

    /// A date read from the meta table.
    package static func date(from text: String) -> Date? {
        Double(text).map { Date(timeIntervalSince1970: $0) }
    }

    /// Throws `unreadable` unless `path` is a regular file (following a symbolic link) and its `-wal` and
    /// `-shm` companions, when they exist, are too.
    package static func requireRegularFiles(at path: String) throws(SessionStoreError) {
        for suffix in ["", "-wal", "-shm"] {
            var info = stat()
            guard stat(path + suffix, &info) == 0 else {
                if suffix.isEmpty { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
                continue
            }
            let type = info.st_mode & S_IFMT
            guard type == S_IFREG else {
                let kind = type == S_IFIFO ? "a FIFO" : type == S_IFDIR ? "a directory"
                    : type == S_IFSOCK ? "a socket" : type == S_IFCHR || type == S_IFBLK ? "a device" : "not a file"
                throw .unreadable(path: path + suffix, reason: "it is \(kind), not a regular file")
            }
        }
    }

    /// The bytes a session takes on disk: the file plus its write-ahead log.
    package static func fileBytes(of path: String) -> Int64 {
        var total: Int64 = 0
        for suffix in ["", "-wal"] {
            var info = stat()
            if stat(path + suffix, &info) == 0 { total += Int64(info.st_size) }
        }
        return total
    }
}
