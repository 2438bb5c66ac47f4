/// The file formats a session can be exported to and imported from (docs/SESSION-FORMAT.md).
/// Threading: a plain value; `Sendable`.
package enum SessionExportFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Rewind's JSON Lines: a header line with the session and its initial state, then one event per line.
    /// Lossless: every branch, every field.
    case jsonl
    /// The Redux DevTools import format (`actionsById`, `computedStates`, …): the original timeline (branch 0)
    /// with the full state after every event, loadable into the Redux DevTools extension.
    case reduxDevTools = "redux-devtools"
}
