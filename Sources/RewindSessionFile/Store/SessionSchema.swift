/// The SQLite schema of a session file, its version, and the keys of its `meta` table.
/// docs/SESSION-FORMAT.md documents the same thing for people; keep both in step.
/// Threading: constants only.
package enum SessionSchema {
    /// The schema this build writes and the newest it reads. A file with a higher `schema_version` is refused.
    /// Version 2 added what a row means (`unknown`, `unknown_cause`, `meaning`); a file of version 1 is read through
    /// ``SchemaOneMeaning`` and upgraded (``upgradeFromOne``) when a writer opens it.
    package static let version = 2

    /// The extension of session files in the data directory: `<id>.rewind`.
    package static let fileExtension = "rewind"

    /// The extension of the side file holding the recorder's lock: `<id>.lock`.
    package static let lockExtension = "lock"

    /// The greatest event index a session file may hold (2^62; docs/SESSION-FORMAT.md): more events than any
    /// recording makes (146,000 years at a million a second), and far enough from `Int64.max` that the arithmetic on
    /// indices (the next one, a chunk's end) cannot overflow. A file with an index outside 1…this is damaged.
    package static let maxEventIndex: Int64 = 1 << 62

    /// The greatest branch number a session file may hold (2^62, as ``maxEventIndex``). Branches are 0…this.
    package static let maxBranch: Int64 = 1 << 62

    /// `PRAGMA application_id`: "RWND", so that `file(1)`-like tools can tell a session from other SQLite files.
    package static let applicationID: Int32 = 0x5257_4E44

    /// Creates the tables of an empty file (run inside a transaction).
    package static let createTables = """
        CREATE TABLE meta (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE events (
            idx        INTEGER PRIMARY KEY,
            branch     INTEGER NOT NULL DEFAULT 0,
            app_seq    INTEGER,
            time       REAL NOT NULL,
            kind       TEXT NOT NULL,
            label      TEXT,
            action     TEXT,
            patch      TEXT,
            reducer_us REAL,
            detail     TEXT,
            unknown    TEXT,
            unknown_cause INTEGER,
            meaning    TEXT
        );
        CREATE INDEX events_on_branches ON events (branch, idx) WHERE branch <> 0;
        CREATE INDEX events_by_label ON events (coalesce(label, kind));
        CREATE INDEX events_unknown ON events (unknown_cause, idx) WHERE unknown IS NOT NULL;
        CREATE INDEX events_notable ON events (kind, idx) WHERE \(notableCondition);
        CREATE TABLE keyframes (
            branch INTEGER NOT NULL,
            idx    INTEGER NOT NULL,
            state  TEXT NOT NULL,
            PRIMARY KEY (branch, idx)
        );
        """ + pathIndexTables

    /// The rows whose state is unknown, by the row that made it so: each stretch of unknown state is one `cause`.
    package static let unknownIndex = """
        CREATE INDEX IF NOT EXISTS events_unknown ON events (unknown_cause, idx) WHERE unknown IS NOT NULL;

        """

    /// Turns a file of schema 1 into one of schema 2 (run inside a transaction): the columns of what a row means,
    /// empty until ``SchemaOneMeaning`` fills them from the rows' labels and texts.
    package static let upgradeFromOne = """
        ALTER TABLE events ADD COLUMN unknown TEXT;
        ALTER TABLE events ADD COLUMN unknown_cause INTEGER;
        ALTER TABLE events ADD COLUMN meaning TEXT;

        """ + unknownIndex

    /// The path index (docs/SESSION-FORMAT.md, "The path index"): which events changed which locations, written
    /// with the events. Files written before it existed lack these tables; a writer that resumes such a file adds
    /// them (hence `IF NOT EXISTS`) and records from which event on they are complete (`paths_indexed_from`).
    package static let pathIndexTables = """
        CREATE TABLE IF NOT EXISTS index_paths (
            id   INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE
        );
        CREATE TABLE IF NOT EXISTS path_changes (
            path_id INTEGER NOT NULL,
            branch  INTEGER NOT NULL,
            idx     INTEGER NOT NULL,
            PRIMARY KEY (path_id, branch, idx)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS array_reshapes (
            parent_id INTEGER NOT NULL,
            branch    INTEGER NOT NULL,
            first     INTEGER NOT NULL,
            last      INTEGER NOT NULL,
            idx       INTEGER NOT NULL,
            PRIMARY KEY (parent_id, branch, first, last, idx)
        ) WITHOUT ROWID;
        """

    /// The index of the rows of the rarer kinds (errors, `dropped`, jumps, replays, reconnects, skips), by kind then
    /// index: the timeline's annotations and the session map find them with a few seeks instead of a scan. Files
    /// written before it existed lack it; they are read by scanning. Writers do not add it to an existing file.
    package static let notableIndexName = "events_notable"

    /// The condition of ``notableIndexName``'s rows. A query uses the index only when its `WHERE` holds this very
    /// term (SQLite's rule for partial indexes), so queries through it repeat it.
    package static let notableCondition = "kind NOT IN ('action', 'snapshot', 'dispatch', 'note')"

    /// The index of events by the label the timeline shows (`coalesce(label, kind)`), then index: label search and
    /// the `/` filter use it (`SessionSearch`). Files written before it existed lack it; they are read by scanning.
    package static let labelIndexName = "events_by_label"

    /// The keys of the `meta` table (values are text).
    package enum MetaKey: String, CaseIterable {
        /// The schema version the file was written with (an integer).
        case schemaVersion = "schema_version"
        /// The session id (also the file's base name).
        case sessionID = "session_id"
        /// The app's name as it introduced itself.
        case app
        /// The app instance's identifier, if it sent one.
        case instance
        /// Start time, unix seconds (decimal).
        case startedAt = "started_at"
        /// End time, unix seconds; absent while live.
        case endedAt = "ended_at"
        /// The wire protocol version the app spoke.
        case protocolVersion = "protocol_version"
        /// The Swift type name of the app's state, if it sent one.
        case stateType = "state_type"
        /// `live`, `clean` or `interrupted`.
        case endState = "end_state"
        /// What wrote the file: `rewind` plus the schema version.
        case createdBy = "created_by"
        /// For an imported session, the file it was imported from.
        case importedFrom = "imported_from"
        /// The first event the path index covers (1 for files written with it; the next event for a file written
        /// before it and resumed since).
        case pathsIndexedFrom = "paths_indexed_from"
        /// The last event the path index covers: updated in every committed batch, so that events appended by a
        /// writer that does not know the index are scanned instead.
        case pathsIndexedThrough = "paths_indexed_through"
    }
}
