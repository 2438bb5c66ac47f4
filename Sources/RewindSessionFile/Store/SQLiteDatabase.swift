import CSQLite
import Foundation

/// One SQLite connection: the only code in Rewind (with `SQLiteStatement`) that calls SQLite's C API.
///
/// Opens or creates a database file, runs SQL, prepares statements and turns SQLite's result codes into
/// `SessionStoreError`s that name the file (`SQLITE_FULL` → `diskFull`, `SQLITE_NOTADB` → `corrupt`, …).
/// Threading: not thread-safe. A connection and its statements are confined to one thread at a time; the owner
/// (a recording's writer thread, a reader's lock) guarantees it. Opened with `SQLITE_OPEN_NOMUTEX` accordingly.
package final class SQLiteDatabase {
    /// How to open the file.
    package enum OpenMode {
        /// Create the file if missing, open for reading and writing.
        case create
        /// Open an existing file for reading and writing.
        case readWrite
        /// Open an existing file read-only (WAL readers still share the `-shm` index with the writer).
        case readOnly
    }

    /// The database file's path, used in every error.
    package let path: String
    private var handle: OpaquePointer?

    /// Opens `path`. Sets a busy timeout (a reader can meet a writer's WAL recovery) and extended result codes.
    package init(path: String, mode: OpenMode, busyTimeoutMilliseconds: Int32 = 5000) throws(SessionStoreError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        // A file made immutable (`chattr +i`) cannot have its `-shm` index written: SQLite's writes into that memory
        // map would end the process with SIGBUS, so a reader opens such a file as immutable (no index, no locks).
        var name = path
        if mode == .readOnly && Self.isImmutable(path) {
            // Opened so, SQLite reads the file alone: what its write-ahead log holds would be missed.
            var log = stat()
            if stat(path + "-wal", &log) == 0 && log.st_size > 0 {
                throw .unreadable(path: path, reason: "it was made immutable (`chattr +i`) with its latest writes still "
                    + "in its -wal file, which SQLite cannot read without writing beside it: `chattr -i` it to read it")
            }
            flags |= SQLITE_OPEN_URI
            name = "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + "?immutable=1"
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteDatabase.error(code: rc, handle: db, path: path, reading: mode == .readOnly)
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        close()
    }

    /// Closes the connection. Statements still alive keep SQLite's object until they are released
    /// (`sqlite3_close_v2`); callers release theirs first so that the file is closed at once. Idempotent.
    ///
    /// A connection to a file that turned immutable while open is left open instead (its memory kept): closing
    /// checkpoints the write-ahead log through the `-shm` index, whose memory map can no longer be written (SIGBUS).
    package func close() {
        if let handle {
            if !Self.isImmutable(path) { sqlite3_close_v2(handle) }
            self.handle = nil
        }
    }

    /// True when `path` or its `-wal` or `-shm` companion exists and refuses writing even to its owner (`EPERM`): an
    /// immutable or append-only file (`chattr +i`, `+a`). One `access` call per file.
    package static func isImmutable(_ path: String) -> Bool {
        for file in [path, path + "-wal", path + "-shm"] where access(file, W_OK) != 0 && errno == EPERM {
            return true
        }
        return false
    }

    /// Removes the `-wal` and `-shm` files a read-only connection leaves beside a write-ahead-logged file it has
    /// closed (such a connection may not delete them): opens `path` read-write without creating it, reads its schema
    /// and closes, so that SQLite — when this is the last connection to the file and only then — checkpoints the
    /// (empty) log and deletes both files, as a writer's last close does. A file someone else has open keeps them;
    /// nothing is reported when the file cannot be opened for writing. Content and modification time are unchanged.
    package static func releaseCompanionFiles(of path: String) {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db
        else { return }
        sqlite3_busy_timeout(db, 1000)
        sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
    }

    /// Runs one or more SQL statements that return no rows we need.
    package func execute(_ sql: String) throws(SessionStoreError) {
        let db = try open()
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if let message { sqlite3_free(message) }
        if rc != SQLITE_OK { throw error(code: rc) }
    }

    /// Compiles `sql` into a reusable statement.
    package func prepare(_ sql: String) throws(SessionStoreError) -> SQLiteStatement {
        let db = try open()
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(code: rc)
        }
        return SQLiteStatement(statement: statement, database: self)
    }

    /// Runs a query returning one integer (e.g. `PRAGMA user_version`); nil when it returns no row or NULL.
    package func scalarInt64(_ sql: String) throws(SessionStoreError) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.optionalInt64(at: 0)
    }

    /// Caps the file at `pages` pages; writes beyond fail with `SQLITE_FULL` (reported as `diskFull`).
    package func setMaximumPageCount(_ pages: Int64) throws(SessionStoreError) {
        _ = try scalarInt64("PRAGMA max_page_count = \(pages)")
    }

    /// The error for a failed call on this connection, with SQLite's message and the OS error where it helps.
    package func error(code: Int32) -> SessionStoreError {
        SQLiteDatabase.error(code: code, handle: handle, path: path, reading: false)
    }

    private func open() throws(SessionStoreError) -> OpaquePointer {
        guard let handle else { throw .sqlite(path: path, code: SQLITE_MISUSE, message: "the database is closed") }
        return handle
    }

    private static func error(code: Int32, handle: OpaquePointer?, path: String, reading: Bool) -> SessionStoreError {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let systemErrno = handle.map { sqlite3_system_errno($0) } ?? 0
        let reason = systemErrno != 0 ? "\(message) (\(String(cString: strerror(systemErrno))))" : message
        switch code & 0xFF {
        case SQLITE_FULL:
            return .diskFull(path: path)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .corrupt(path: path, detail: message)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_AUTH:
            if systemErrno == ENOSPC || systemErrno == EDQUOT { return .diskFull(path: path) }
            return reading ? .unreadable(path: path, reason: reason) : .unwritable(path: path, reason: reason)
        default:
            return .sqlite(path: path, code: code, message: message)
        }
    }
}
