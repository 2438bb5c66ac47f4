import Rewind
import RewindTesting
import Testing

@Suite("Store: the single source of truth")
@MainActor
struct StoreTests {
    @Test("a new store holds its initial state")
    func initialState() {
        let store = Store(initialState: Counter(count: 7), reducer: .counter)
        #expect(store.state == Counter(count: 7))
    }

    @Test("dispatch runs the action through the reducer and commits the new state")
    func dispatchCommits() {
        let store = Store(initialState: Counter(), reducer: .counter)
        store.dispatch(.increment)
        store.dispatch(.add(10))
        #expect(store.state.count == 11)
    }

    @Test("the state is committed even when no subscriber is notified")
    func committedWithoutNotification() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var labels: [String] = []
        store.subscribe(to: \.label) { labels.append($0) }
        store.dispatch(.increment)
        #expect(store.state.count == 1)
        #expect(labels == [""])
    }

    @Test("each dispatched action carries the file and line of the dispatch call")
    func sourceLocation() {
        var sources: [Rewind.SourceLocation] = []
        let recorder = Middleware<Counter, CounterAction>.intercept { _, dispatched, next in
            sources.append(dispatched.source)
            next(dispatched)
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [recorder])
        let line: UInt = #line + 1
        store.dispatch(.increment)
        #expect(sources == [Rewind.SourceLocation(file: "RewindTests/StoreTests.swift", line: line)])
        #expect(sources.first?.description == "RewindTests/StoreTests.swift:\(line)")
    }

    @Test("an explicit source can be given, e.g. for an action decoded from the inspector")
    func explicitSource() {
        var sources: [Rewind.SourceLocation] = []
        let recorder = Middleware<Counter, CounterAction>.intercept { _, dispatched, next in
            sources.append(dispatched.source)
            next(dispatched)
        }
        let store = Store(initialState: Counter(), reducer: .counter, middleware: [recorder])
        store.dispatch(.increment, source: Rewind.SourceLocation(file: "inspector", line: 0))
        #expect(sources == [Rewind.SourceLocation(file: "inspector", line: 0)])
    }

    @Test("dispatch can be awaited from outside the main actor")
    func dispatchFromBackground() async {
        let store = Store(initialState: Counter(), reducer: .counter)
        await Task.detached {
            await store.dispatch(.increment)
        }.value
        #expect(store.state.count == 1)
    }

    @Test("releasing the store cancels its running effects")
    func releaseCancelsEffects() async {
        let clock = TestClock()
        let log = EventLog()
        let reducer = Reducer<Counter, CounterAction> { state, action in
            guard action == .increment else { return .none }
            return .run { _ in
                do {
                    try await clock.sleep(for: .seconds(10))
                    log.append("finished")
                } catch {
                    log.append("cancelled")
                }
            }
        }
        weak var weakStore: Store<Counter, CounterAction>?
        do {
            let store = Store(initialState: Counter(), reducer: reducer,
                              configuration: StoreConfiguration(clock: clock))
            weakStore = store
            store.dispatch(.increment)
            await clock.advance(by: .seconds(1))
            #expect(clock.pendingSleepCount == 1)
        }
        #expect(weakStore == nil)
        await clock.advance(by: .zero)
        #expect(log.events == ["cancelled"])
        #expect(clock.pendingSleepCount == 0)
    }
}
