import Rewind
import Testing

@Suite("Re-entrancy: queued FIFO, never nested")
@MainActor
struct ReentrancyTests {
    @Test("an action dispatched by a subscriber is processed after the current notification round")
    func subscriberDispatch() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: .counter)
        store.subscribe(to: \.count) { count in
            log.append("A \(count)")
            if count == 1 { store.dispatch(.increment) }
        }
        store.subscribe(to: \.count) { log.append("B \($0)") }
        log.clear()
        store.dispatch(.increment)
        #expect(log.events == ["A 1", "B 1", "A 2", "B 2"])
    }

    @Test("actions dispatched while processing are handled first in, first out")
    func fifo() {
        let log = EventLog()
        let reducer = Reducer<Counter, CounterAction> { state, action in
            log.append("\(action)")
            return Reducer.counter(&state, action)
        }
        let store = Store(initialState: Counter(), reducer: reducer)
        store.subscribe(to: \.count) { count in
            if count == 1 {
                store.dispatch(.setLabel("first"))
                store.dispatch(.setLabel("second"))
                store.dispatch(.add(10))
            }
        }
        log.clear()
        store.dispatch(.increment)
        #expect(log.events == ["increment", "setLabel(\"first\")", "setLabel(\"second\")", "add(10)"])
        #expect(store.state == Counter(count: 11, label: "second"))
    }

    @Test("dispatch returns only when everything it queued has been processed")
    func drainBeforeReturn() {
        let store = Store(initialState: Counter(), reducer: .counter)
        store.subscribe(to: \.count) { count in
            if (1..<5).contains(count) { store.dispatch(.increment) }
        }
        store.dispatch(.increment)
        #expect(store.state.count == 5)
    }

    @Test("100,000 chained synchronous actions do not overflow the stack")
    func longChain() {
        let reducer = Reducer<Counter, CounterAction> { state, action in
            state.count += 1
            return state.count < 100_000 ? .send(.increment) : .none
        }
        let store = Store(initialState: Counter(), reducer: reducer,
                          configuration: StoreConfiguration(runawayThreshold: 1_000_000))
        var notifications = 0
        store.subscribe(to: \.count) { _ in notifications += 1 }
        store.dispatch(.increment)
        #expect(store.state.count == 100_000)
        #expect(notifications == 100_001)
    }

    @Test("a runaway loop is reported through the hook and stopped")
    func runaway() {
        let hooks = HookLog()
        let store = Store(initialState: Counter(), reducer: .counter,
                          configuration: hooks.configuration(runawayThreshold: 50))
        final class Switch { var isOn = false }
        let armed = Switch()
        store.subscribe(to: \.count) { _ in
            if armed.isOn { store.dispatch(.increment) }
        }
        armed.isOn = true
        store.dispatch(.increment)
        #expect(hooks.runawayLoops == [RunawayLoop(threshold: 50, processedCount: 50, droppedCount: 1,
                                                   nextAction: "increment")])
        #expect(store.state.count == 50)
        store.dispatch(.setLabel("alive"))
        #expect(store.state.label == "alive")
    }

    @Test("dispatch from inside a reducer is reported as a programming error, and the action runs afterwards")
    func dispatchFromReducer() {
        let hooks = HookLog()
        final class StoreReference { var store: Store<Counter, CounterAction>? }
        let reference = StoreReference()
        let impure = Reducer<Counter, CounterAction> { state, action in
            if action == .increment { reference.store?.dispatch(.setLabel("from reducer")) }
            return Reducer.counter(&state, action)
        }
        let store = Store(initialState: Counter(), reducer: impure, configuration: hooks.configuration())
        reference.store = store
        store.dispatch(.increment)
        #expect(hooks.programmingErrors.map(\.kind) == [.dispatchFromReducer])
        #expect(hooks.programmingErrors.first?.source?.file == "RewindTests/ReentrancyTests.swift")
        #expect(store.state == Counter(count: 1, label: "from reducer"))
    }

    @Test("notifications never interleave, even when a subscriber dispatches in the middle of a round")
    func noInterleaving() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: .counter)
        for name in ["A", "B", "C"] {
            store.subscribe(to: \.count) { count in
                log.append("\(name) begin \(count)")
                if name == "B" && count == 1 { store.dispatch(.increment) }
                log.append("\(name) end \(count)")
            }
        }
        log.clear()
        store.dispatch(.increment)
        #expect(log.events == [
            "A begin 1", "A end 1", "B begin 1", "B end 1", "C begin 1", "C end 1",
            "A begin 2", "A end 2", "B begin 2", "B end 2", "C begin 2", "C end 2",
        ])
    }
}
