import Rewind
import RewindTesting
import Testing

enum TimerAction: Equatable, Sendable {
    case start
    case stop
    case tick
    case load
    case loaded(Int)
    case search(String)
    case searched(String)
    case fail
    case failed(String)
    case chain
    case step(String)
}

struct TimerState: Equatable, Sendable {
    var ticks = 0
    var loaded: [Int] = []
    var searches: [String] = []
    var steps: [String] = []
    var errors: [String] = []
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

/// A store wired to a test clock and a log, for effect specifications.
@MainActor
func effectStore(
    clock: TestClock, hooks: HookLog = HookLog(), interpreter: Interpreter = .none,
    _ effectFor: @escaping @MainActor (TimerAction) -> Effect<TimerAction>
) -> Store<TimerState, TimerAction> {
    let reducer = Reducer<TimerState, TimerAction> { state, action in
        switch action {
        case .tick: state.ticks += 1
        case .loaded(let value): state.loaded.append(value)
        case .searched(let query): state.searches.append(query)
        case .step(let step): state.steps.append(step)
        case .failed(let message): state.errors.append(message)
        default: break
        }
        return effectFor(action)
    }
    return Store(initialState: TimerState(), reducer: reducer, interpreter: interpreter,
                 configuration: hooks.configuration(clock: clock))
}

@Suite("Effect: descriptions of work, run after the state is committed")
@MainActor
struct EffectTests {
    @Test("none does nothing")
    func none() {
        let effect = Effect<TimerAction>.none
        #expect(effect.isNone)
        #expect(Effect<TimerAction>.merge(.none, .none).isNone)
    }

    @Test("effects start after the state is committed and subscribers are notified")
    func afterCommit() {
        let log = EventLog()
        let reducer = Reducer<Counter, CounterAction> { state, action in
            switch action {
            case .increment:
                state.count += 1
                log.append("reduced")
                return .run { _ in } .merge(with: Effect<CounterAction>.send(.setLabel("effect")))
            case .setLabel(let label):
                log.append("effect sent \(label)")
                state.label = label
                return .none
            default:
                return .none
            }
        }
        let store = Store(initialState: Counter(), reducer: reducer)
        store.subscribe(to: \.count) { log.append("notified \($0)") }
        log.clear()
        store.dispatch(.increment)
        #expect(log.events == ["reduced", "notified 1", "effect sent effect"])
    }

    @Test("run performs async work whose actions come back through dispatch")
    func run() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            guard action == .load else { return .none }
            return .run { send in
                try await clock.sleep(for: .seconds(1))
                send(.loaded(1))
                send(.loaded(2))
            }
        }
        store.dispatch(.load)
        #expect(store.state.loaded.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(store.state.loaded == [1, 2])
    }

    @Test("merge runs effects at the same time")
    func merge() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            guard action == .load else { return .none }
            return .merge(
                Effect.send(.loaded(2), after: .seconds(2)),
                Effect.send(.loaded(1), after: .seconds(1))
            )
        }
        store.dispatch(.load)
        await clock.advance(by: .seconds(2))
        #expect(store.state.loaded == [1, 2])
    }

    @Test("concatenate runs effects one after the other")
    func concatenate() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            guard action == .load else { return .none }
            return .concatenate(
                .send(.loaded(0)),
                Effect.send(.loaded(2), after: .seconds(2)),
                Effect.send(.loaded(1), after: .seconds(1))
            )
        }
        store.dispatch(.load)
        #expect(store.state.loaded == [0])
        await clock.advance(by: .seconds(2))
        #expect(store.state.loaded == [0, 2])
        await clock.advance(by: .seconds(1))
        #expect(store.state.loaded == [0, 2, 1])
    }

    @Test("map transforms every action an effect sends")
    func map() async {
        let clock = TestClock()
        let child: Effect<Int> = .merge(.send(1), .run { send in
            try await clock.sleep(for: .seconds(1))
            send(2)
        })
        let store = effectStore(clock: clock) { action in
            action == .load ? child.map(TimerAction.loaded) : .none
        }
        store.dispatch(.load)
        await clock.advance(by: .seconds(1))
        #expect(store.state.loaded == [1, 2])
    }

    @Test("a cancellable effect stops when its id is cancelled")
    func cancelByID() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            switch action {
            case .start: return Effect.send(.tick).repeating(every: .seconds(1)).cancellable(id: "timer")
            case .stop: return .cancel(id: "timer")
            default: return .none
            }
        }
        store.dispatch(.start)
        await clock.advance(by: .seconds(3))
        #expect(store.state.ticks == 3)
        store.dispatch(.stop)
        await clock.advance(by: .seconds(3))
        #expect(store.state.ticks == 3)
        #expect(clock.pendingSleepCount == 0)
    }

    @Test("cancelInFlight cancels the running effect with the same id before starting the new one")
    func cancelInFlight() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            guard case .search(let query) = action else { return .none }
            return Effect.send(.searched(query), after: .seconds(1)).cancellable(id: "search", cancelInFlight: true)
        }
        store.dispatch(.search("a"))
        await clock.advance(by: .milliseconds(500))
        store.dispatch(.search("ab"))
        await clock.advance(by: .seconds(1))
        #expect(store.state.searches == ["ab"])
    }

    @Test("debounce runs only the last effect of a burst")
    func debounce() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            guard case .search(let query) = action else { return .none }
            return Effect.send(.searched(query)).debounced(id: "search", for: .milliseconds(300))
        }
        for query in ["s", "sw", "swi", "swift"] {
            store.dispatch(.search(query))
            await clock.advance(by: .milliseconds(100))
        }
        await clock.advance(by: .milliseconds(300))
        #expect(store.state.searches == ["swift"])
    }

    @Test("cancelling part of a running effect by id leaves the rest running")
    func cancelNestedPart() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            switch action {
            case .start:
                return .merge(
                    Effect.send(.tick, after: .seconds(1)).cancellable(id: "tick"),
                    Effect.send(.loaded(1), after: .seconds(1))
                )
            case .stop:
                return .cancel(id: "tick")
            default:
                return .none
            }
        }
        store.dispatch(.start)
        store.dispatch(.stop)
        await clock.advance(by: .seconds(1))
        #expect(store.state.ticks == 0)
        #expect(store.state.loaded == [1])
    }

    @Test("actions sent by an effect after it was cancelled are dropped")
    func sendAfterCancel() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            switch action {
            case .load:
                return Effect.run { send in
                    try? await clock.sleep(for: .seconds(1))
                    send(.loaded(1))
                }.cancellable(id: 1)
            case .stop:
                return .cancel(id: 1)
            default:
                return .none
            }
        }
        store.dispatch(.load)
        await clock.advance(by: .milliseconds(10))
        store.dispatch(.stop)
        await clock.advance(by: .seconds(2))
        #expect(store.state.loaded.isEmpty)
    }

    @Test("an error thrown by run goes to its catch handler")
    func runCatch() async {
        let clock = TestClock()
        let store = effectStore(clock: clock) { action in
            guard action == .fail else { return .none }
            return .run { _ in throw Boom() } catch: { error, send in send(.failed("\(error)")) }
        }
        store.dispatch(.fail)
        await clock.advance(by: .zero)
        #expect(store.state.errors == ["boom"])
    }

    @Test("an error thrown by run without a catch handler is reported as a programming error")
    func runUncaught() async {
        let clock = TestClock()
        let hooks = HookLog()
        let store = effectStore(clock: clock, hooks: hooks) { action in
            action == .fail ? .run { _ in throw Boom() } : .none
        }
        store.dispatch(.fail)
        await clock.advance(by: .zero)
        #expect(hooks.programmingErrors.map(\.kind) == [.unhandledEffectError])
        #expect(hooks.programmingErrors.first?.message.contains("boom") == true)
    }

    @Test("a synchronous effect's action is processed after the current one, in order")
    func synchronousChain() {
        let store = effectStore(clock: TestClock()) { action in
            switch action {
            case .chain: return .merge(.send(.step("a")), .send(.step("b")))
            case .step("a"): return .send(.step("a1"))
            default: return .none
            }
        }
        store.dispatch(.chain)
        #expect(store.state.steps == ["a", "b", "a1"])
    }
}
