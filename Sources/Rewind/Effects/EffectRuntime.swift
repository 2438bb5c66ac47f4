/// Runs a store's effects: synchronous parts at once, asynchronous parts in tasks that the store tracks, cancels by
/// id, and cancels all when it is released.
///
/// Threading: main actor. Its tasks are main-actor tasks; `registry` is the only part touched off the main actor
/// (by the store's `deinit`).
@MainActor
@usableFromInline
final class EffectRuntime<Action> {
    let interpreter: Interpreter
    let clock: any EffectClock
    @usableFromInline
    let registry = EffectTaskRegistry()

    /// Sends an action produced by an effect into the store.
    @usableFromInline
    var dispatch: @MainActor (Action, SourceLocation) -> Void = { _, _ in }
    /// Reports a programming error (unhandled description or error).
    @usableFromInline
    var report: @MainActor (ProgrammingError) -> Void = { _ in }
    /// Called whenever an effect task starts or finishes (used by test tooling).
    var onActivity: (@MainActor () -> Void)?

    private var nextToken: UInt64 = 0
    private var origins: [UInt64: DispatchedAction<Action>] = [:]
    private var cancellables: [AnyHashable: [UInt64: Task<Void, Never>]] = [:]

    @usableFromInline
    init(interpreter: Interpreter, clock: any EffectClock) {
        self.interpreter = interpreter
        self.clock = clock
    }

    /// The actions whose effects are still running, oldest first.
    var runningOrigins: [DispatchedAction<Action>] {
        origins.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Starts `effect`, returned by the reducer for `origin`, once the state is committed.
    @usableFromInline
    func start(_ effect: Effect<Action>, origin: DispatchedAction<Action>) {
        switch effect.operation {
        case .none:
            return
        case .send(let action, let source):
            dispatch(action, source)
        case .sync(let body):
            body(Send(forwarding: dispatch))
        case .cancel(let id):
            cancel(id: id)
        case .merge(let effects):
            for effect in effects {
                start(effect, origin: origin)
            }
        case .concatenate(let effects):
            let firstAsync = effects.firstIndex { !$0.isSynchronous } ?? effects.endIndex
            for effect in effects[..<firstAsync] {
                start(effect, origin: origin)
            }
            if firstAsync < effects.endIndex {
                spawn(.concatenate(Array(effects[firstAsync...])), origin: origin, id: nil, priority: nil)
            }
        case .cancellable(let id, let cancelInFlight, let inner):
            if cancelInFlight {
                cancel(id: id)
            }
            if inner.isSynchronous {
                start(inner, origin: origin)
            } else {
                spawn(inner, origin: origin, id: id, priority: nil)
            }
        case .run(let priority, _):
            spawn(effect, origin: origin, id: nil, priority: priority)
        case .perform, .delay, .repeating:
            spawn(effect, origin: origin, id: nil, priority: nil)
        }
    }

    private func spawn(_ effect: Effect<Action>, origin: DispatchedAction<Action>, id: AnyHashable?,
                       priority: TaskPriority?) {
        let token = makeToken()
        let task = Task(priority: priority) { @MainActor in
            await self.run(effect)
            self.finish(token, id: id)
        }
        registry.insert(task, for: token)
        origins[token] = origin
        if let id {
            cancellables[id, default: [:]][token] = task
        }
        onActivity?()
    }

    private func finish(_ token: UInt64, id: AnyHashable?) {
        registry.remove(token)
        origins[token] = nil
        if let id {
            forget(token, id: id)
        }
        onActivity?()
    }

    private func forget(_ token: UInt64, id: AnyHashable) {
        cancellables[id]?[token] = nil
        if cancellables[id]?.isEmpty == true {
            cancellables[id] = nil
        }
    }

    private func cancel(id: AnyHashable) {
        guard let tasks = cancellables.removeValue(forKey: id) else { return }
        for task in tasks.values {
            task.cancel()
        }
    }

    private func makeToken() -> UInt64 {
        nextToken &+= 1
        return nextToken
    }

    /// A `Send` for code running inside an effect task: drops actions once the task is cancelled.
    private var taskSend: Send<Action> {
        let dispatch = self.dispatch
        return Send(forwarding: { action, source in
            guard !Task.isCancelled else { return }
            dispatch(action, source)
        })
    }

    /// Performs `effect` inside the current effect task, returning when all its work is done.
    private func run(_ effect: Effect<Action>) async {
        guard !Task.isCancelled else { return }
        switch effect.operation {
        case .none:
            return
        case .send(let action, let source):
            taskSend.send(action, source)
        case .sync(let body):
            body(taskSend)
        case .cancel(let id):
            cancel(id: id)
        case .run(_, let operation):
            do {
                try await operation(taskSend)
            } catch {
                if Task.isCancelled || error is CancellationError { return }
                report(ProgrammingError(
                    kind: .unhandledEffectError,
                    message: "An effect threw \(error) and has no `catch` handler. Handle errors with "
                        + "`Effect.run(_:catch:)`, or inside the operation."
                ))
            }
        case .perform(let perform, let typeName):
            let handled = await perform(interpreter, taskSend)
            if !handled && !Task.isCancelled {
                report(ProgrammingError(
                    kind: .unhandledEffect,
                    message: "No interpreter handles the effect description \(typeName). Register a handler with "
                        + "`Interpreter.handling(\(typeName).self) { ... }` and pass the interpreter to the store."
                ))
            }
        case .merge(let effects):
            let children = effects.map { effect in Task { @MainActor in await self.run(effect) } }
            await withTaskCancellationHandler {
                for child in children {
                    await child.value
                }
            } onCancel: {
                for child in children {
                    child.cancel()
                }
            }
        case .concatenate(let effects):
            for effect in effects {
                guard !Task.isCancelled else { return }
                await run(effect)
            }
        case .cancellable(let id, let cancelInFlight, let inner):
            if cancelInFlight {
                cancel(id: id)
            }
            await runCancellable(inner, id: id)
        case .delay(let delay, let inner):
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            await run(inner)
        case .repeating(let interval, let inner):
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                await run(inner)
            }
        }
    }

    /// Runs `inner` in a child task registered under `id`, so that cancelling the id stops only this part.
    private func runCancellable(_ inner: Effect<Action>, id: AnyHashable) async {
        let token = makeToken()
        let child = Task { @MainActor in await self.run(inner) }
        cancellables[id, default: [:]][token] = child
        await withTaskCancellationHandler {
            await child.value
        } onCancel: {
            child.cancel()
        }
        forget(token, id: id)
    }
}
