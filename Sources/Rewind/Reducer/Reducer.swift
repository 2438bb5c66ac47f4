/// The only place state changes: `(inout State, Action) -> Effect<Action>`.
///
/// A reducer mutates the state for an action and returns the ``Effect`` to run once the new state is committed
/// (``Effect/none`` when there is nothing to do). It must be pure apart from mutating `state`: no I/O, no
/// dispatching (a dispatch from inside a reducer is reported as a ``ProgrammingError``).
///
/// Reducers compose: ``combine(_:)-(Reducer...)`` runs several in order on the same state and merges their
/// effects; ``lifted(state:extract:embed:)`` lifts a reducer on a slice of state and a child action type into its
/// parent; ``lifted(each:id:extract:embed:)`` lifts a reducer on one element into a collection, by id.
///
/// ```swift
/// extension Reducer where State == Counter, Action == CounterAction {
///     static let counter = Reducer { state, action in
///         switch action {
///         case .increment: state.count += 1
///         case .decrement: state.count -= 1
///         }
///         return .none
///     }
/// }
/// ```
///
/// Threading: `Sendable`; reducers run on the main actor, inside `dispatch`.
public struct Reducer<State, Action>: Sendable {
    /// Applies `action` to `state` and returns the effect to run afterwards.
    public let reduce: @MainActor (inout State, Action) -> Effect<Action>

    /// Creates a reducer from its function.
    public init(_ reduce: @escaping @MainActor (inout State, Action) -> Effect<Action>) {
        self.reduce = reduce
    }

    /// Calls ``reduce``: `reducer(&state, action)`.
    @MainActor
    public func callAsFunction(_ state: inout State, _ action: Action) -> Effect<Action> {
        reduce(&state, action)
    }

    /// A reducer that changes nothing and returns no effect.
    public static var empty: Reducer {
        Reducer { _, _ in .none }
    }
}
