/// The source locations a connection has numbered, kept alike by the sender and the receiver of its events.
///
/// The rule both ends follow (docs/PROTOCOL.md, "Source locations"): every distinct location text of at most
/// ``maxTextBytes`` UTF-8 bytes gets the next number (0, 1, 2, …) the first time an event carries it as text, until
/// ``capacity`` locations are numbered; a later event may carry that number instead of the text. In protocol 1 both
/// ends start an empty table for every connection (a reconnect starts over). In protocol 2 the sender keeps one table
/// for the whole app run and sends its ``texts`` in every `hello` (`hello.sources`); the receiver starts the
/// connection's table with them (``init(texts:)``), so that events sent again after a reconnect keep their numbers.
///
/// The sender calls ``encode(_:)`` for each event's location; the receiver calls ``resolve(_:field:)`` for each
/// event, in the order the events were sent.
///
/// Threading: a value used by one thread (each connection's own).
public struct SourceTable: Sendable {
    /// How many locations one connection may number.
    public static let capacity = 4_096
    /// The longest location text (UTF-8 bytes) that gets a number; longer ones always travel as text.
    public static let maxTextBytes = 512

    private var numbers: [String: Int] = [:]

    /// An empty table, for a new connection.
    public init() {}

    /// A table whose first numbers are `texts` (protocol 2's `hello.sources`): `texts[n]` is number `n`. Texts
    /// beyond ``capacity``, longer than ``maxTextBytes`` or repeated are left out (a `hello` with them is refused
    /// before this).
    public init(texts: [String]) {
        for text in texts where numbers[text] == nil { register(text) }
    }

    /// How many locations are numbered.
    public var count: Int { texts.count }

    /// The numbered texts, in number order (what protocol 2's `hello.sources` carries).
    public private(set) var texts: [String] = []

    /// Sender: what to send for `location` — its number if it has one, else its text (numbering it, so that the
    /// next event from the same place can send the number).
    public mutating func encode(_ location: String) -> EventSource {
        if let number = numbers[location] { return .reference(number) }
        register(location)
        return .location(location)
    }

    /// Receiver: the text of a received `source` (numbering a new text as the sender did). Throws `bad_field`
    /// naming `field` for a number no location was given on this connection.
    public mutating func resolve(_ source: EventSource, field: String) throws(WireError) -> String {
        switch source {
        case .location(let text):
            if numbers[text] == nil { register(text) }
            return text
        case .reference(let number):
            guard number >= 0 && number < texts.count else {
                throw WireError(code: .badField,
                                message: "\(field): no source location was numbered \(number) on this connection "
                                    + "(\(texts.count) numbered so far)",
                                field: field)
            }
            return texts[number]
        }
    }

    private mutating func register(_ text: String) {
        guard texts.count < Self.capacity, text.utf8.count <= Self.maxTextBytes else { return }
        numbers[text] = texts.count
        texts.append(text)
    }
}
