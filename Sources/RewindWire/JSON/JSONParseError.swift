/// Why a JSON document was rejected, and where.
///
/// Threading: a value type; safe to share.
public struct JSONParseError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What kind of problem it is; lets callers map errors to protocol error codes.
    public enum Kind: String, Sendable, Hashable {
        /// The text is not JSON (unexpected character, unterminated string, bad escape, trailing data…).
        case syntax
        /// The bytes are not valid UTF-8.
        case invalidUTF8
        /// Arrays/objects nest deeper than ``JSONLimits/maxDepth``.
        case tooDeep
        /// The document is larger than ``JSONLimits/maxBytes``.
        case tooBig
    }

    /// The byte offset (0-based, in the UTF-8 input) where the problem was found.
    public let offset: Int
    /// What is wrong, in words (e.g. `expected ':' after an object key`).
    public let reason: String
    /// The category of the problem.
    public let kind: Kind

    /// An error at `offset` with a reason and a kind.
    public init(offset: Int, reason: String, kind: Kind = .syntax) {
        self.offset = offset
        self.reason = reason
        self.kind = kind
    }

    /// `"<reason> at byte <offset>"`.
    public var description: String { "\(reason) at byte \(offset)" }
}
