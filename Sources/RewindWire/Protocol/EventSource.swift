/// Where an action was dispatched, as an event carries it on the wire (member `source`).
///
/// The first time a connection sends a location it sends its text; later events may send the number a
/// ``SourceTable`` gave that text instead, which keeps the location (often 40 bytes, the largest part of a small
/// event) off every event after the first from the same place. See docs/PROTOCOL.md, "Source locations".
///
/// Threading: a value type; safe to share.
public enum EventSource: Sendable, Hashable {
    /// The location's text, as `File.swift:42` (JSON: a string).
    case location(String)
    /// The number the connection's ``SourceTable`` gave a location sent earlier as text (JSON: an integer).
    case reference(Int)

    /// The location's text; nil for a ``reference(_:)`` (resolve it with the connection's ``SourceTable``).
    public var location: String? {
        guard case .location(let text) = self else { return nil }
        return text
    }
}
