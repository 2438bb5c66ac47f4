import Rewind
import Testing

@Suite("Middleware: a Redux-style chain around dispatch")
@MainActor
struct MiddlewareTests {
    /// A middleware that logs before and after passing the action on.
    func tracing(_ name: String, into log: EventLog) -> Middleware<Counter, CounterAction> {
        Middleware { _ in
            { next in
                { dispatched in
                    log.append("\(name) > \(dispatched.label)")
                    next(dispatched)
                    log.append("\(name) <")
                }
            }
        }
    }

    @Test("the first registered middleware is the outermost")
    func order() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: .counter,
                          middleware: [tracing("A", into: log), tracing("B", into: log)])
        store.dispatch(.increment)
        #expect(log.events == ["A > increment", "B > increment", "B <", "A <"])
    }

    @Test("make is called once per middleware, in order, when the store is created")
    func makeOnce() {
        let log = EventLog()
        func counting(_ name: String) -> Middleware<Counter, CounterAction> {
            Middleware { _ in
                log.append("make \(name)")
                return { next in next }
            }
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [counting("A"), counting("B")])
        #expect(log.events == ["make A", "make B"])
        store.dispatch(.increment)
        store.dispatch(.increment)
        #expect(log.events == ["make A", "make B"])
        #expect(store.state.count == 2)
    }

    @Test("a middleware reads the state before and after the rest of the chain")
    func readsState() {
        var seen: [Int?] = []
        let reader = Middleware<Counter, CounterAction>.intercept { context, dispatched, next in
            seen.append(context.state?.count)
            next(dispatched)
            seen.append(context.state?.count)
        }
        let store = Store(initialState: Counter(count: 1), reducer: .counter, middleware: [reader])
        store.dispatch(.increment)
        #expect(seen == [1, 2])
    }

    @Test("a middleware swallows an action by not calling next")
    func swallow() {
        let noDecrement = Middleware<Counter, CounterAction>.intercept { _, dispatched, next in
            if dispatched.action != .decrement { next(dispatched) }
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [noDecrement])
        store.dispatch(.decrement)
        store.dispatch(.increment)
        #expect(store.state.count == 1)
    }

    @Test("a middleware transforms an action before passing it on")
    func transform() {
        let doubler = Middleware<Counter, CounterAction>.intercept { _, dispatched, next in
            var changed = dispatched
            if case .add(let amount) = dispatched.action { changed.action = .add(amount * 2) }
            next(changed)
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [doubler])
        store.dispatch(.add(5))
        #expect(store.state.count == 10)
    }

    @Test("an action dispatched by a middleware goes through the full chain, after the current one")
    func dispatchNew() {
        let log = EventLog()
        let echo = Middleware<Counter, CounterAction>.intercept { context, dispatched, next in
            if dispatched.action == .increment { context.dispatch(.setLabel("echo")) }
            next(dispatched)
        }
        let store = Store(initialState: Counter(), reducer: .counter,
                          middleware: [tracing("outer", into: log), echo, tracing("inner", into: log)])
        store.dispatch(.increment)
        #expect(log.events == [
            "outer > increment", "inner > increment", "inner <", "outer <",
            "outer > setLabel", "inner > setLabel", "inner <", "outer <",
        ])
        #expect(store.state == Counter(count: 1, label: "echo"))
    }

    @Test("the context holds the store weakly and goes quiet once it is gone")
    func contextWeak() {
        var captured: MiddlewareContext<Counter, CounterAction>?
        let capture = Middleware<Counter, CounterAction> { context in
            captured = context
            return { next in next }
        }
        do {
            let store = Store(initialState: Counter(count: 3), reducer: .counter, middleware: [capture])
            #expect(captured?.state?.count == 3)
            store.dispatch(.increment)
        }
        #expect(captured != nil)
        #expect(captured?.state == nil)
        captured?.dispatch(.increment)
        #expect(captured?.replay(from: Counter(), actions: [.increment], each: { _, _ in }) == nil)
    }

    @Test("replaceState jumps to a state without reducers or middleware, and notifies subscribers")
    func replaceState() {
        let log = EventLog()
        var context: MiddlewareContext<Counter, CounterAction>?
        let capture = Middleware<Counter, CounterAction> { made in
            context = made
            return { next in { log.append("middleware"); next($0) } }
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [capture])
        store.subscribe(to: \.count) { log.append("count \($0)") }
        context?.replaceState(Counter(count: 42))
        #expect(store.state.count == 42)
        #expect(log.events == ["count 0", "count 42"])
    }

    @Test("replaceState requested while an action is processed is applied after it")
    func replaceStateQueued() {
        let jumpOnIncrement = Middleware<Counter, CounterAction>.intercept { context, dispatched, next in
            if dispatched.action == .increment { context.replaceState(Counter(count: 100)) }
            next(dispatched)
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [jumpOnIncrement])
        store.dispatch(.increment)
        #expect(store.state.count == 100)
    }

    @Test("replay runs actions through the reducer only, with effects muted, reporting each state")
    func replay() {
        let log = EventLog()
        var context: MiddlewareContext<Counter, CounterAction>?
        let capture = Middleware<Counter, CounterAction> { made in
            context = made
            return { next in { log.append("middleware"); next($0) } }
        }
        let reducer = Reducer<Counter, CounterAction> { state, action in
            _ = Reducer.counter(&state, action)
            return action == .increment ? .send(.setLabel("effect ran")) : .none
        }
        let store = Store(initialState: Counter(count: 9), reducer: reducer, middleware: [capture])
        store.subscribe(to: \.count) { log.append("count \($0)") }
        var states: [Int] = []
        let final = context?.replay(from: Counter(), actions: [.increment, .add(5), .decrement]) { index, state in
            states.append(index * 100 + state.count)
        }
        #expect(states == [1, 106, 205])
        #expect(final == Counter(count: 5))
        #expect(store.state == Counter(count: 5))
        #expect(log.events == ["count 9", "count 5"])
    }

    @Test("replay requested while an action is processed is refused and reported")
    func replayWhileProcessing() {
        let hooks = HookLog()
        var result: Counter?? = .none
        let replayer = Middleware<Counter, CounterAction>.intercept { context, dispatched, next in
            result = .some(context.replay(from: Counter(), actions: [], each: { _, _ in }))
            next(dispatched)
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [replayer],
                          configuration: hooks.configuration())
        store.dispatch(.increment)
        #expect(result == .some(nil))
        #expect(hooks.programmingErrors.map(\.kind) == [.replayWhileProcessing])
        #expect(store.state.count == 1)
    }

    @Test("a middleware may call next later, outside of dispatch")
    func deferredNext() {
        var held: [() -> Void] = []
        let deferring = Middleware<Counter, CounterAction> { _ in
            { next in
                { dispatched in held.append { next(dispatched) } }
            }
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [deferring])
        store.dispatch(.increment)
        #expect(store.state.count == 0)
        held.forEach { $0() }
        #expect(store.state.count == 1)
    }
}
