import Testing

/// One failed ``TestStore`` assertion: what kind of failure, its message, and the test line it points at.
///
/// ``TestStore`` hands failures to its `reportIssue` function, which by default records them with Swift Testing's
/// `Issue.record`; tests of the test store capture them instead.
///
/// Threading: an immutable value; `Sendable`.
public struct TestStoreFailure: Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Equatable {
        /// `send` without a trailing closure, but the state changed.
        case unexpectedStateChange
        /// The state after an action differs from the one the trailing closure described.
        case stateMismatch
        /// A trailing closure was given, but neither it nor the action changed the state.
        case expectedStateChangeMissing
        /// The trailing closure threw.
        case assertionThrew
        /// Actions received from effects were not asserted (before a `send`, or by the end of the test).
        case unexpectedReceivedActions
        /// The next received action is not the expected one.
        case receivedActionMismatch
        /// `receive` found no action.
        case missingReceivedAction
        /// Effects were still running at the end of the test.
        case effectsStillRunning
        /// The store reported a programming error (e.g. an unhandled effect description).
        case programmingError
        /// The store stopped a runaway loop of synchronously chained actions.
        case runawayLoop
    }

    /// What went wrong.
    public let kind: Kind
    /// The explanation, with a state or action diff where there is one.
    public let message: String
    /// The test line that made the failing assertion.
    public let sourceLocation: SourceLocation

    /// Creates a failure.
    public init(kind: Kind, message: String, sourceLocation: SourceLocation) {
        self.kind = kind
        self.message = message
        self.sourceLocation = sourceLocation
    }

    /// The message.
    public var description: String { message }

    /// Records `failure` as a Swift Testing issue at its source location (the default reporter of ``TestStore``).
    public static func recordIssue(_ failure: TestStoreFailure) {
        Issue.record(Comment(rawValue: failure.message), sourceLocation: failure.sourceLocation)
    }
}
