/// Why a JSON Pointer's text could not be parsed.
///
/// Threading: a value type; safe to share.
public struct JSONPointerError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The text that was rejected.
    public let pointer: String
    /// The byte offset in `pointer` of the problem.
    public let offset: Int
    /// What is wrong.
    public let reason: String

    /// An error for `pointer` at `offset`.
    public init(pointer: String, offset: Int, reason: String) {
        self.pointer = pointer
        self.offset = offset
        self.reason = reason
    }

    /// `invalid JSON Pointer "<text>": <reason> (at byte <offset>)`.
    public var description: String { "invalid JSON Pointer \"\(pointer)\": \(reason) (at byte \(offset))" }
}
