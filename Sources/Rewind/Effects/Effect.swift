/// A description of work a reducer wants done after its state change is committed: nothing, actions to send,
/// asynchronous work that sends actions, an ``EffectDescription`` for the ``Interpreter`` to perform, or a
/// combination of those (merged, concatenated, delayed, repeated, cancellable by id).
///
/// Effects are values: returning one does nothing by itself. The store starts it after committing the new state and
/// notifying subscribers; the actions it produces come back through `dispatch` (middleware included), queued FIFO
/// behind the action being processed. Releasing the store cancels its running effects.
///
/// ```swift
/// case .refresh:
///     state.isLoading = true
///     return .perform(LoadTodos()) { .loaded($0) }                  // interpreted, result becomes an action
/// case .startTimer:
///     return Effect.send(.tick).repeating(every: .seconds(1)).cancellable(id: "timer", cancelInFlight: true)
/// case .stopTimer:
///     return .cancel(id: "timer")
/// case .search(let query):
///     state.query = query
///     return .perform(Search(query)) { .results($0) }.debounced(id: "search", for: .milliseconds(300))
/// ```
///
/// Threading: created by reducers and run by the store, on the main actor. `run` operations and interpreter handlers
/// execute on the main actor inside the effect's task; await nonisolated async functions for heavy work.
public struct Effect<Action> {
    @usableFromInline
    enum Operation {
        case none
        case send(Action, SourceLocation)
        case sync(@MainActor (Send<Action>) -> Void)
        case run(TaskPriority?, @MainActor (Send<Action>) async throws -> Void)
        case perform(@MainActor (Interpreter, Send<Action>) async -> Bool, typeName: String)
        case merge([Effect<Action>])
        case concatenate([Effect<Action>])
        indirect case cancellable(id: AnyHashable, cancelInFlight: Bool, Effect<Action>)
        case cancel(id: AnyHashable)
        indirect case delay(Duration, Effect<Action>)
        indirect case repeating(Duration, Effect<Action>)
    }

    /// Holds the operation of an effect that does something; `nil` for ``none``, so that returning, checking and
    /// dropping `none` (what most actions do) costs nothing.
    @usableFromInline
    final class Storage {
        @usableFromInline
        let operation: Operation

        @usableFromInline
        init(_ operation: Operation) {
            self.operation = operation
        }
    }

    @usableFromInline
    let storage: Storage?

    @inlinable
    init(_ operation: Operation) {
        if case .none = operation {
            self.storage = nil
        } else {
            self.storage = Storage(operation)
        }
    }

    @inlinable
    init() {
        self.storage = nil
    }

    var operation: Operation {
        storage?.operation ?? .none
    }

    /// No work. What most actions return.
    @inlinable
    public static var none: Effect { Effect() }

    /// True for ``none``. (Merging or concatenating only `none` also gives `none`.)
    @inlinable
    public var isNone: Bool {
        storage == nil
    }

    /// Sends `action` right after the current action: it is queued FIFO (never nested) and goes through the full
    /// dispatch path. A synchronous effect: it needs no task.
    @inlinable
    public static func send(_ action: Action, file: StaticString = #fileID, line: UInt = #line) -> Effect {
        Effect(.send(action, SourceLocation(file: file, line: line)))
    }

    /// Sends `action` after `delay` on the store's clock.
    public static func send(
        _ action: Action, after delay: Duration, file: StaticString = #fileID, line: UInt = #line
    ) -> Effect {
        Effect.send(action, file: file, line: line).delayed(by: delay)
    }

    /// Asynchronous work that may send any number of actions through `send`.
    ///
    /// The operation runs on the main actor in its own task. If it throws, `catch` is called with the error (and may
    /// send actions); without `catch`, a thrown error is reported through
    /// ``StoreConfiguration/onProgrammingError``. Errors thrown because the effect was cancelled are ignored.
    public static func run(
        priority: TaskPriority? = nil,
        _ operation: @escaping @MainActor (Send<Action>) async throws -> Void,
        catch handler: (@MainActor (any Error, Send<Action>) async -> Void)? = nil
    ) -> Effect {
        guard let handler else { return Effect(.run(priority, operation)) }
        return Effect(.run(priority, { send in
            do {
                try await operation(send)
            } catch {
                if Task.isCancelled || error is CancellationError { throw error }
                await handler(error, send)
            }
        }))
    }

    /// Asks the store's ``Interpreter`` to perform `description`, and sends `transform(output)` unless it is nil.
    /// The action's source is the `perform` call (`file`, `line`): the reducer that asked for the work, not the
    /// library.
    @MainActor
    public static func perform<Description: EffectDescription>(
        _ description: Description,
        file: StaticString = #fileID, line: UInt = #line,
        then transform: @escaping @MainActor (Description.Output) -> Action?
    ) -> Effect {
        let source = SourceLocation(file: file, line: line)
        return Effect(.perform({ interpreter, send in
            guard let output = await interpreter.perform(description) else { return false }
            if let action = transform(output) {
                send.send(action, source)
            }
            return true
        }, typeName: String(reflecting: Description.self)))
    }

    /// Asks the store's ``Interpreter`` to perform `description`, ignoring its output ("fire and forget").
    @MainActor
    public static func perform<Description: EffectDescription>(
        _ description: Description, file: StaticString = #fileID, line: UInt = #line
    ) -> Effect {
        perform(description, file: file, line: line, then: { _ in nil })
    }

    /// Runs `effects` at the same time. Synchronous ones run in order, at once.
    @inlinable
    public static func merge(_ effects: Effect...) -> Effect {
        merge(effects)
    }

    /// Runs `effects` at the same time. Synchronous ones run in order, at once.
    @inlinable
    public static func merge(_ effects: [Effect]) -> Effect {
        let work = effects.filter { !$0.isNone }
        if work.isEmpty { return .none }
        if work.count == 1 { return work[0] }
        return Effect(.merge(work))
    }

    /// Runs `effects` one after the other, each starting when the previous one has finished.
    public static func concatenate(_ effects: Effect...) -> Effect {
        concatenate(effects)
    }

    /// Runs `effects` one after the other, each starting when the previous one has finished.
    public static func concatenate(_ effects: [Effect]) -> Effect {
        let work = effects.filter { !$0.isNone }
        if work.isEmpty { return .none }
        if work.count == 1 { return work[0] }
        return Effect(.concatenate(work))
    }

    /// This effect and `other`, at the same time.
    public func merge(with other: Effect) -> Effect {
        .merge(self, other)
    }

    /// This effect, then `other` once this one has finished.
    public func concatenate(with other: Effect) -> Effect {
        .concatenate(self, other)
    }

    /// Cancels the running effects marked with `id` (see ``cancellable(id:cancelInFlight:)``).
    public static func cancel(id: some Hashable & Sendable) -> Effect {
        Effect(.cancel(id: AnyHashable(id)))
    }

    /// This effect, marked with `id` so that ``cancel(id:)`` can stop it while it runs. With `cancelInFlight`,
    /// starting it first cancels the effects already running under the same id (only the latest keeps running).
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Effect {
        if isNone && !cancelInFlight { return self }
        return Effect(.cancellable(id: AnyHashable(id), cancelInFlight: cancelInFlight, self))
    }

    /// This effect, started after `delay` on the store's clock.
    public func delayed(by delay: Duration) -> Effect {
        Effect(.delay(delay, self))
    }

    /// This effect, started after `interval` on the store's clock and again every `interval`, until cancelled.
    /// Make it ``cancellable(id:cancelInFlight:)`` to be able to stop it.
    public func repeating(every interval: Duration) -> Effect {
        Effect(.repeating(interval, self))
    }

    /// This effect delayed by `interval`, replacing any pending one with the same id: only the last of a burst runs.
    public func debounced(id: some Hashable & Sendable, for interval: Duration) -> Effect {
        delayed(by: interval).cancellable(id: id, cancelInFlight: true)
    }

    /// The same work, with every action it sends transformed by `transform` (used to lift a child's effects into
    /// its parent's action type).
    @MainActor
    public func map<NewAction>(_ transform: @escaping @MainActor (Action) -> NewAction) -> Effect<NewAction> {
        switch operation {
        case .none:
            return .none
        case .send(let action, let source):
            return Effect<NewAction>(.sync({ send in send.send(transform(action), source) }))
        case .sync(let body):
            return Effect<NewAction>(.sync({ send in body(send.map(transform)) }))
        case .run(let priority, let operation):
            return Effect<NewAction>(.run(priority, { send in try await operation(send.map(transform)) }))
        case .perform(let perform, let typeName):
            return Effect<NewAction>(.perform({ interpreter, send in
                await perform(interpreter, send.map(transform))
            }, typeName: typeName))
        case .merge(let effects):
            return Effect<NewAction>(.merge(effects.map { $0.map(transform) }))
        case .concatenate(let effects):
            return Effect<NewAction>(.concatenate(effects.map { $0.map(transform) }))
        case .cancellable(let id, let cancelInFlight, let effect):
            return Effect<NewAction>(.cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform)))
        case .cancel(let id):
            return Effect<NewAction>(.cancel(id: id))
        case .delay(let delay, let effect):
            return Effect<NewAction>(.delay(delay, effect.map(transform)))
        case .repeating(let interval, let effect):
            return Effect<NewAction>(.repeating(interval, effect.map(transform)))
        }
    }

    /// True when the effect does all its work synchronously, when started (no task is needed).
    var isSynchronous: Bool {
        switch operation {
        case .none, .send, .sync, .cancel:
            return true
        case .merge(let effects), .concatenate(let effects):
            return effects.allSatisfy(\.isSynchronous)
        case .cancellable(_, _, let effect):
            return effect.isSynchronous
        case .run, .perform, .delay, .repeating:
            return false
        }
    }

    /// An effect that runs `body` synchronously once the state is committed (used for module outputs).
    static func sync(_ body: @escaping @MainActor (Send<Action>) -> Void) -> Effect {
        Effect(.sync(body))
    }
}
