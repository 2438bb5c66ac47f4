/// Identifies one WebSocket connection accepted by a `WebSocketServer`: numbered from 1 in the order
/// connections are accepted, never reused during the server's life.
///
/// Threading: a plain value, usable from any thread.
package struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The connection's number.
    package let rawValue: UInt64

    /// Wraps a connection number (for tests and for code that stored one).
    package init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// `#` followed by the number, e.g. `#12`.
    package var description: String { "#\(rawValue)" }

    /// Orders connections by acceptance.
    package static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }
}
