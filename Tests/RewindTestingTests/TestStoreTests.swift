import Rewind
import RewindTesting
import Testing

@Suite("TestStore: exhaustive assertions of what a feature does")
@MainActor
struct TestStoreTests {
    @Test("send passes when the trailing closure describes the change exactly")
    func sendMatches() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.increment) { $0.count = 1 }
        await store.send(.setLabel("a")) { $0.label = "a" }
        await store.finish()
        #expect(log.failures.isEmpty)
        #expect(store.state == Counter(count: 1, label: "a"))
    }

    @Test("send without a closure passes when the state does not change")
    func sendNoChange() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.impure)
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("receive asserts the actions effects send back, with their state changes")
    func receiveSynchronous() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.echo("hi"))
        await store.receive(.setLabel("hi")) { $0.label = "hi" }
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("time-based effects run when the test clock is advanced")
    func timer() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.start)
        await store.clock.advance(by: .seconds(2))
        await store.receive(.tick) { $0.count = 1 }
        await store.receive(.tick) { $0.count = 2 }
        await store.send(.stop)
        await store.clock.advance(by: .seconds(5))
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("effects performed by a fake interpreter are received")
    func interpreter() async {
        let log = FailureLog()
        let store = makeTestStore(log, interpreter: Interpreter().handling(LoadNumbers.self) { _ in [1, 2, 3] })
        await store.send(.load)
        await store.receive(.loaded([1, 2, 3])) { $0.count = 6 }
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("receive can match with a predicate")
    func predicate() async {
        let log = FailureLog()
        let store = makeTestStore(log, interpreter: Interpreter().handling(LoadNumbers.self) { _ in [4] })
        await store.send(.load)
        await store.receive(where: { if case .loaded = $0 { true } else { false } }) { $0.count = 4 }
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("received actions can be skipped on purpose")
    func skip() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.echo("x"))
        #expect(store.receivedActions == [.setLabel("x")])
        await store.skipReceivedActions()
        await store.send(.increment) { $0.count = 1 }
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("non-exhaustive mode checks only what the test asserts")
    func nonExhaustive() async {
        let log = FailureLog()
        let store = makeTestStore(log, exhaustivity: .off)
        await store.send(.echo("x"))
        await store.send(.increment)
        await store.send(.increment) { $0.count = 2 }
        await store.send(.start)
        await store.clock.advance(by: .seconds(3))
        await store.receive(.tick) { $0.count = 3 }
        await store.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("the default reporter records a Swift Testing issue at the assertion's line")
    func defaultReporter() async {
        await withKnownIssue {
            let store = TestStore(initialState: Counter(), reducer: counterReducer)
            await store.send(.increment)
        } matching: { issue in
            issue.sourceLocation?.line == #line - 2
                && issue.comments.first?.rawValue.hasPrefix("The state changed after sending .increment") == true
        }
    }
}
