/// How strictly a ``TestStore`` checks a test.
///
/// Threading: a value; `Sendable`.
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change must be described, every received action asserted, and every effect finished by the end
    /// of the test.
    case on
    /// Only what the test asserts is checked: the closures of `send` and `receive` must hold on the actual state;
    /// other changes, unasserted received actions and still-running effects are allowed.
    case off
}
