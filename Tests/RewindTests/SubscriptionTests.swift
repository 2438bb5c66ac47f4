import Rewind
import Testing

/// A non-Equatable slice.
struct Box {
    var value: Int
}

@Suite("Subscriptions: to the whole state or a slice, deduplicated, ended by token or owner")
@MainActor
struct SubscriptionTests {
    @Test("the current value is delivered at once")
    func currentValueAtOnce() {
        let store = Store(initialState: Counter(count: 5), reducer: .counter)
        var received: [Int] = []
        store.subscribe(to: \.count) { received.append($0) }
        #expect(received == [5])
    }

    @Test("a whole-state subscriber receives each changed state")
    func wholeState() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var received: [Counter] = []
        store.subscribe { received.append($0) }
        store.dispatch(.increment)
        store.dispatch(.setLabel("x"))
        #expect(received == [Counter(), Counter(count: 1), Counter(count: 1, label: "x")])
    }

    @Test("a slice can be selected by a key path or a closure")
    func selection() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var byKeyPath: [String] = []
        var byClosure: [Bool] = []
        store.subscribe(to: \.label) { byKeyPath.append($0) }
        store.subscribe(to: { $0.count.isMultiple(of: 2) }) { byClosure.append($0) }
        store.dispatch(.setLabel("a"))
        store.dispatch(.increment)
        store.dispatch(.increment)
        #expect(byKeyPath == ["", "a"])
        #expect(byClosure == [true, false, true])
    }

    @Test("an Equatable slice is delivered only when it changes")
    func deduplicated() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var counts: [Int] = []
        store.subscribe(to: \.count) { counts.append($0) }
        store.dispatch(.setLabel("a"))
        store.dispatch(.add(0))
        store.dispatch(.increment)
        #expect(counts == [0, 1])
    }

    @Test("a non-Equatable slice is delivered on every committed state")
    func notEquatable() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var boxes: [Int] = []
        store.subscribe(to: { Box(value: $0.count) }) { boxes.append($0.value) }
        store.dispatch(.setLabel("a"))
        store.dispatch(.setLabel("b"))
        #expect(boxes == [0, 0, 0])
    }

    @Test("deduplication can be turned off for a store")
    func storeOverride() {
        let store = Store(initialState: Counter(), reducer: .counter,
                          configuration: StoreConfiguration(deduplicatesEquatableValues: false))
        var counts: [Int] = []
        var forced: [Int] = []
        store.subscribe(to: \.count) { counts.append($0) }
        store.subscribe(to: \.count, deduplicate: true) { forced.append($0) }
        store.dispatch(.setLabel("a"))
        #expect(counts == [0, 0])
        #expect(forced == [0])
    }

    @Test("deduplication can be turned off for one subscription")
    func subscriptionOverride() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var counts: [Int] = []
        store.subscribe(to: \.count, deduplicate: false) { counts.append($0) }
        store.dispatch(.setLabel("a"))
        #expect(counts == [0, 0])
    }

    @Test("a custom comparison decides what counts as a duplicate")
    func customDuplicates() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var boxes: [Int] = []
        store.subscribe(to: { Box(value: $0.count / 10) }, removeDuplicates: { $0.value == $1.value }) {
            boxes.append($0.value)
        }
        for _ in 0..<25 { store.dispatch(.increment) }
        #expect(boxes == [0, 1, 2])
    }

    @Test("cancelling the token ends the subscription")
    func tokenEnds() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var counts: [Int] = []
        let token = store.subscribe(to: \.count) { counts.append($0) }
        store.dispatch(.increment)
        token.cancel()
        store.dispatch(.increment)
        #expect(counts == [0, 1])
        #expect(token.isCancelled)
        #expect(store.subscriptionCount == 0)
    }

    @Test("deallocating the subscriber ends the subscription")
    func ownerEnds() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var subscriber: Subscriber? = Subscriber()
        let token = store.subscribe(subscriber!, to: \.count) { subscriber, count in subscriber.received.append(count) }
        store.dispatch(.increment)
        #expect(subscriber?.received == [0, 1])
        subscriber = nil
        store.dispatch(.increment)
        #expect(store.subscriptionCount == 0)
        #expect(token.isCancelled)
    }

    @Test("a whole-state subscription can be bound to an owner too")
    func ownerWholeState() {
        let store = Store(initialState: Counter(), reducer: .counter)
        let subscriber = Subscriber()
        store.subscribe(subscriber) { subscriber, state in subscriber.received.append(state.count) }
        store.dispatch(.add(2))
        #expect(subscriber.received == [0, 2])
    }

    @Test("subscribers are notified in subscription order")
    func order() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: .counter)
        for name in ["first", "second", "third"] {
            store.subscribe(to: \.count) { log.append("\(name) \($0)") }
        }
        log.clear()
        store.dispatch(.increment)
        #expect(log.events == ["first 1", "second 1", "third 1"])
    }

    @Test("subscribing from inside a notification delivers the current value once")
    func subscribeInsideNotification() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: .counter)
        var subscribed = false
        store.subscribe(to: \.count) { count in
            log.append("outer \(count)")
            if count == 1 && !subscribed {
                subscribed = true
                store.subscribe(to: \.count) { log.append("inner \($0)") }
            }
        }
        store.dispatch(.increment)
        store.dispatch(.increment)
        #expect(log.events == ["outer 0", "outer 1", "inner 1", "outer 2", "inner 2"])
    }

    @Test("a subscription cancelled during a notification receives nothing more, not even in that round")
    func cancelInsideNotification() {
        let log = EventLog()
        let store = Store(initialState: Counter(), reducer: .counter)
        var second: SubscriptionToken?
        store.subscribe(to: \.count) { count in
            log.append("first \(count)")
            if count == 1 { second?.cancel() }
        }
        second = store.subscribe(to: \.count) { log.append("second \($0)") }
        store.dispatch(.increment)
        store.dispatch(.increment)
        #expect(log.events == ["first 0", "second 0", "first 1", "first 2"])
    }

    @Test("tokens can be kept in a set")
    func tokenSet() {
        let store = Store(initialState: Counter(), reducer: .counter)
        var tokens = Set<SubscriptionToken>()
        store.subscribe { _ in }.store(in: &tokens)
        store.subscribe(to: \.count) { _ in }.store(in: &tokens)
        #expect(tokens.count == 2)
        tokens.forEach { $0.cancel() }
        #expect(store.subscriptionCount == 0)
    }
}
