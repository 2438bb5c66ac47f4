import Foundation

/// Everything that can go wrong in the session store, the recorder's disk writer, export and import.
///
/// Each case carries what a person needs to act on it (the path, the errno text, the line of a file), and
/// `description` is a complete sentence fit for a command line's error output.
/// Threading: a plain value; `Sendable`.
package enum SessionStoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A session id typed by a user (or read from a file name) is not a valid id.
    case badSessionID(String, reason: String)
    /// No session with this id exists in the data directory.
    case notFound(SessionID)
    /// An id prefix typed by a user matches more than one session.
    case ambiguousSessionID(String, matches: [SessionID])
    /// The session file was written by a newer Rewind with a schema this build cannot read.
    case newerSchema(found: Int, supported: Int, path: String)
    /// The file is not a Rewind session, or its content is damaged.
    case corrupt(path: String, detail: String)
    /// The disk (or the recording's configured size cap) is full; the write was not committed.
    case diskFull(path: String)
    /// A file or directory cannot be created or written; `reason` is the operating system's explanation.
    case unwritable(path: String, reason: String)
    /// A file cannot be read; `reason` is the operating system's explanation.
    case unreadable(path: String, reason: String)
    /// Any other SQLite failure, with SQLite's own code and message.
    case sqlite(path: String, code: Int32, message: String)
    /// The requested event (or a state at it) does not exist on that branch.
    case eventNotFound(index: Int64, branch: Int64)
    /// The session is being recorded by a live process and cannot be changed or deleted.
    case sessionInUse(SessionID)
    /// The recording was already finished; nothing more can be written to it.
    case recordingFinished(SessionID)
    /// A label filter is not a valid regular expression.
    case invalidPattern(String, reason: String)
    /// An import file is malformed; `line` is 1-based (nil when the problem is in the document's structure
    /// rather than on one line, and `reason` then names the place, e.g. `computedStates[3]`).
    case malformedImport(path: String, line: Int?, reason: String)
    /// An import file is neither Rewind JSON Lines nor a Redux DevTools export.
    case unknownImportFormat(path: String, reason: String)

    /// A one-sentence explanation for people, naming the file and what to do where that is known.
    package var description: String {
        switch self {
        case .badSessionID(let text, let reason):
            return "invalid session id \"\(text)\": \(reason) (ids use only letters, digits, '.', '_' and '-')"
        case .notFound(let id):
            return "no session \"\(id)\" in the data directory (see `rewind sessions`)"
        case .ambiguousSessionID(let text, let matches):
            let shown = matches.prefix(5).map(\.rawValue).joined(separator: ", ")
            return "session id \"\(text)\" is ambiguous: it matches \(matches.count) sessions (\(shown)\(matches.count > 5 ? ", …" : ""))"
        case .newerSchema(let found, let supported, let path):
            return "\(path) was written by a newer Rewind (session schema version \(found)); this build reads versions up to \(supported): upgrade Rewind to open it"
        case .corrupt(let path, let detail):
            return "\(path) is not a readable Rewind session: \(detail)"
        case .diskFull(let path):
            return "cannot write \(path): the disk is full (or the session reached its size limit); events are kept in memory up to a bound"
        case .unwritable(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .sqlite(let path, let code, let message):
            return "SQLite error \(code) on \(path): \(message)"
        case .eventNotFound(let index, let branch):
            return branch == 0
                ? "there is no event \(index) in this session"
                : "there is no event \(index) on branch \(branch) of this session"
        case .sessionInUse(let id):
            return "session \"\(id)\" is being recorded by a running daemon"
        case .recordingFinished(let id):
            return "the recording of session \"\(id)\" has already finished"
        case .invalidPattern(let pattern, let reason):
            return "invalid label filter \"\(pattern)\": \(reason)"
        case .malformedImport(let path, let line?, let reason):
            return "\(path), line \(line): \(reason)"
        case .malformedImport(let path, nil, let reason):
            return "\(path): \(reason)"
        case .unknownImportFormat(let path, let reason):
            return "\(path) is neither a Rewind JSON Lines export nor a Redux DevTools export: \(reason)"
        }
    }
}
