import Rewind
import Testing

struct ProfileViewState: Equatable {
    var title: String
}

enum ProfileViewAction: Equatable {
    case tappedPlus
    case tappedNothing
}

@Suite("StoreProjection: a store-like view mapping actions up and state down")
@MainActor
struct StoreProjectionTests {
    func makeProjection(of store: Store<Counter, CounterAction>) -> StoreProjection<ProfileViewState, ProfileViewAction> {
        store.projection(
            action: { (action: ProfileViewAction) -> CounterAction? in
                action == .tappedPlus ? .increment : nil
            },
            state: { ProfileViewState(title: "Count: \($0.count)") }
        )
    }

    @Test("its state is the parent's state mapped down")
    func stateDown() {
        let store = Store(initialState: Counter(count: 2), reducer: .counter)
        let projection = makeProjection(of: store)
        #expect(projection.state == ProfileViewState(title: "Count: 2"))
        store.dispatch(.increment)
        #expect(projection.state == ProfileViewState(title: "Count: 3"))
    }

    @Test("its actions are mapped up into the parent; nil drops the action")
    func actionsUp() {
        let store = Store(initialState: Counter(), reducer: .counter)
        let projection = makeProjection(of: store)
        projection.dispatch(.tappedPlus)
        projection.dispatch(.tappedNothing)
        #expect(store.state.count == 1)
    }

    @Test("its subscribers get the mapped state, deduplicated")
    func subscribe() {
        let store = Store(initialState: Counter(), reducer: .counter)
        let projection = makeProjection(of: store)
        var titles: [String] = []
        projection.subscribe(to: \.title) { titles.append($0) }
        store.dispatch(.setLabel("ignored by the view"))
        projection.dispatch(.tappedPlus)
        #expect(titles == ["Count: 0", "Count: 1"])
    }

    @Test("projections of projections work")
    func nested() {
        let store = Store(initialState: Counter(), reducer: .counter)
        let view = makeProjection(of: store)
        let titleLength = view.projection(
            action: { (tap: Bool) -> ProfileViewAction? in tap ? .tappedPlus : nil },
            state: { $0.title.count }
        )
        var lengths: [Int] = []
        titleLength.subscribe { lengths.append($0) }
        for _ in 0..<10 { titleLength.dispatch(true) }
        titleLength.dispatch(false)
        #expect(store.state.count == 10)
        #expect(titleLength.state == "Count: 10".count)
        #expect(lengths == [8, 9])
    }

    @Test("it owns no state and keeps its parent alive")
    func ownsNothing() {
        weak var weakStore: Store<Counter, CounterAction>?
        let projection: StoreProjection<Int, CounterAction>
        do {
            let store = Store(initialState: Counter(), reducer: .counter)
            weakStore = store
            projection = store.projection(action: { $0 }, state: \.count)
        }
        #expect(weakStore != nil)
        projection.dispatch(.add(4))
        #expect(weakStore?.state.count == 4)
        #expect(projection.state == 4)
    }

    @Test("a subscription through a projection can be bound to an owner")
    func ownerThroughProjection() {
        let store = Store(initialState: Counter(), reducer: .counter)
        let projection = store.projection(action: { $0 }, state: \.count)
        var subscriber: Subscriber? = Subscriber()
        projection.subscribe(subscriber!) { subscriber, count in subscriber.received.append(count) }
        store.dispatch(.increment)
        #expect(subscriber?.received == [0, 1])
        subscriber = nil
        store.dispatch(.increment)
        #expect(store.subscriptionCount == 0)
    }
}
