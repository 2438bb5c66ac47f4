import CSQLite

/// A prepared SQL statement of a `SQLiteDatabase`: bind parameters (1-based), step through rows, read columns
/// (0-based), reset to run again.
/// Threading: confined like its database (one thread at a time); it keeps its database object alive.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    package init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    // MARK: Binding

    /// Binds an integer, or NULL.
    package func bind(_ value: Int64?, at index: Int32) {
        if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    /// Binds a floating-point number, or NULL.
    package func bind(_ value: Double?, at index: Int32) {
        if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
    }

    /// Binds UTF-8 text (SQLite copies it), or NULL.
    package func bind(_ value: String?, at index: Int32) {
        guard var value else {
            sqlite3_bind_null(statement, index)
            return
        }
        value.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                    _ = sqlite3_bind_text(statement, index, chars, Int32(bytes.count), rewind_sqlite_transient())
                }
            } else {
                _ = sqlite3_bind_text(statement, index, "", 0, rewind_sqlite_transient())
            }
        }
    }

    /// Binds UTF-8 text (or NULL) *without copying it* for the duration of `body`, which must run the statement
    /// (and reset it) before returning: SQLite reads the bytes in place.
    package func withText<Result, Failure: Error>(
        _ value: String?, at index: Int32, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard var value else {
            sqlite3_bind_null(statement, index)
            return try body()
        }
        let outcome: Swift.Result<Result, Failure> = value.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                    _ = sqlite3_bind_text(statement, index, chars, Int32(bytes.count), nil)
                }
            } else {
                _ = sqlite3_bind_text(statement, index, "", 0, rewind_sqlite_transient())
            }
            do throws(Failure) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    // MARK: Running

    /// Runs the statement one step: true when a row is ready to read, false when it is done.
    package func step() throws(SessionStoreError) -> Bool {
        let rc = sqlite3_step(statement)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code: rc)
            sqlite3_reset(statement)
            throw error
        }
    }

    /// Steps until done (for INSERT/UPDATE), then resets the statement for its next use.
    package func run() throws(SessionStoreError) {
        defer { reset() }
        while try step() {}
    }

    /// Steps through every row left and returns each row's first column as an integer (0 for NULL), in order; the
    /// caller resets the statement.
    package func firstColumnIntegers() throws(SessionStoreError) -> [Int64] {
        var values: [Int64] = []
        while try step() { values.append(int64(at: 0)) }
        return values
    }

    /// Makes the statement ready to run again and clears its bindings.
    package func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    // MARK: Reading the current row

    /// True when the column holds NULL.
    package func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    /// The column as an integer (0 for NULL).
    package func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    /// The column as an integer, nil for NULL.
    package func optionalInt64(at column: Int32) -> Int64? {
        isNull(at: column) ? nil : sqlite3_column_int64(statement, column)
    }

    /// The column as a floating-point number, nil for NULL.
    package func optionalDouble(at column: Int32) -> Double? {
        isNull(at: column) ? nil : sqlite3_column_double(statement, column)
    }

    /// The column as text, nil for NULL.
    package func string(at column: Int32) -> String? {
        withBytes(at: column) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Lends the column's text bytes (nil for NULL) without copying; valid only inside `body`.
    package func withBytes<Result>(at column: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        guard !isNull(at: column) else { return try body(nil) }
        let pointer = sqlite3_column_text(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let pointer else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: pointer, count: count))
    }
}
