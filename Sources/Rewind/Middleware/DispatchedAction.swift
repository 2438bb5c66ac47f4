/// What travels down the middleware chain: an action together with where it was dispatched.
///
/// A middleware may read it, change ``action`` or ``source`` before calling `next`, or not call `next` at all.
///
/// Threading: a value; `Sendable` when `Action` is.
public struct DispatchedAction<Action> {
    /// The action being dispatched.
    public var action: Action
    /// Where `dispatch` was called (or where an effect sent the action).
    public var source: SourceLocation

    /// Pairs an action with its source.
    @inlinable
    public init(action: Action, source: SourceLocation) {
        self.action = action
        self.source = source
    }

    /// The action's timeline label, derived on demand (see ``ActionLabel``).
    public var label: String { ActionLabel.of(action) }
}

extension DispatchedAction: Sendable where Action: Sendable {}
extension DispatchedAction: Equatable where Action: Equatable {}
