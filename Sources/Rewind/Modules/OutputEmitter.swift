/// Lets a module's reducer emit ``StoreModule/Output``: `output(.didLogin(username:))` is an effect that, once the
/// state is committed, delivers the output to the module's observers, in the order they started observing.
///
/// A ``ModuleStore`` hands one to the module's reducer factory when it is created; in tests, make one that records
/// outputs: `OutputEmitter { outputs.append($0) }`.
///
/// Threading: `Sendable`; outputs are delivered on the main actor.
public struct OutputEmitter<Action, Output>: Sendable {
    private let deliver: @MainActor (Output) -> Void

    /// An emitter that delivers each output to `deliver`.
    public init(_ deliver: @escaping @MainActor (Output) -> Void) {
        self.deliver = deliver
    }

    /// An emitter that drops every output.
    public static var discarding: OutputEmitter {
        OutputEmitter { _ in }
    }

    /// An effect emitting `output` once the state is committed.
    @MainActor
    public func callAsFunction(_ output: Output) -> Effect<Action> {
        let deliver = self.deliver
        return .sync { _ in deliver(output) }
    }
}
