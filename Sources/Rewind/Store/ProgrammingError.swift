/// A misuse of the library detected at run time, reported through ``StoreConfiguration/onProgrammingError``
/// instead of crashing, so that it can be logged in production and asserted in tests.
///
/// Threading: an immutable value; `Sendable`.
public struct ProgrammingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A reducer called `dispatch`. Reducers must be pure; return ``Effect/send(_:file:line:)`` instead. The
        /// action is still processed, queued behind the current one.
        case dispatchFromReducer
        /// An ``Effect/perform(_:then:)`` description has no handler in the store's ``Interpreter``.
        case unhandledEffect
        /// An ``Effect/run(priority:_:catch:)`` operation threw and has no `catch` handler.
        case unhandledEffectError
        /// ``MiddlewareContext/replay(from:actions:each:)`` was called while the store was processing an action.
        case replayWhileProcessing
    }

    /// What went wrong.
    public let kind: Kind
    /// A sentence explaining the error and how to fix it.
    public let message: String
    /// Where the offending call was made, when known.
    public let source: SourceLocation?

    /// Creates a report.
    public init(kind: Kind, message: String, source: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.source = source
    }

    /// The message, prefixed with the source when known.
    public var description: String {
        if let source {
            return "\(source): \(message)"
        }
        return message
    }
}
