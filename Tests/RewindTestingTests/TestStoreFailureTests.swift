import Rewind
import RewindTesting
import Testing

@Suite("TestStore failures: each names what went wrong and shows a diff")
@MainActor
struct TestStoreFailureTests {
    @Test("an unexpected state change shows the diff from the unchanged state")
    func unexpectedChange() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.send(.increment)
        }
        #expect(log.kinds == [.unexpectedStateChange])
        #expect(log.messages == ["""
            The state changed after sending .increment, but no change was expected (- expected, + actual):
              Counter(
            -   count: 0
            +   count: 1
                label: ""
              )
            """])
    }

    @Test("a mismatch shows the diff between the expected and the actual state")
    func mismatch() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.send(.increment) { $0.count = 2 }
        }
        #expect(log.kinds == [.stateMismatch])
        #expect(log.messages == ["""
            The state after sending .increment does not match the expectation (- expected, + actual):
              Counter(
            -   count: 2
            +   count: 1
                label: ""
              )
            """])
    }

    @Test("a described change that did not happen is reported as no change")
    func noChange() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.send(.impure) { _ in }
        }
        #expect(log.kinds == [.expectedStateChangeMissing])
        #expect(log.messages == [
            "Expected the state to change after sending .impure, but it did not, and the trailing closure made no "
                + "change either. Omit the trailing closure when no change is expected.",
        ])
    }

    @Test("received actions left unasserted before a send are reported")
    func unassertedBeforeSend() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.send(.echo("x"))
            await store.send(.increment) { $0.count = 1 }
        }
        #expect(log.kinds == [.unexpectedReceivedActions])
        #expect(log.messages == [
            "1 received action was not asserted before sending .increment: .setLabel(\"x\"). "
                + "Assert it with receive(_:), or set exhaustivity to .off.",
        ])
    }

    @Test("received actions left unasserted at the end are reported")
    func unassertedAtEnd() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.echo("x"))
        await store.send(.echo("y"), assert: nil)
        await store.finish()
        #expect(log.kinds == [.unexpectedReceivedActions, .unexpectedReceivedActions])
        #expect(log.messages.last ==
            "1 received action was not asserted by the end of the test: .setLabel(\"y\"). "
                + "Assert it with receive(_:), or set exhaustivity to .off.")
    }

    @Test("an unexpected received action shows the diff from the expected one")
    func receivedMismatch() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.send(.echo("x"))
            await store.receive(.setLabel("y")) { $0.label = "y" }
        }
        #expect(log.kinds == [.receivedActionMismatch])
        #expect(log.messages == ["""
            Received an action that does not match the expected one (- expected, + received):
            - .setLabel("y")
            + .setLabel("x")
            """])
    }

    @Test("a missing received action says that no effect is running")
    func missingNoEffects() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.receive(.increment)
        }
        #expect(log.kinds == [.missingReceivedAction])
        #expect(log.messages == ["Expected to receive .increment, but no action was received and no effect is running."])
    }

    @Test("a missing received action names the effects still running")
    func missingWhileRunning() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.start)
        await store.receive(.tick, timeout: .milliseconds(20))
        await store.send(.stop)
        await store.finish()
        #expect(log.kinds == [.missingReceivedAction])
        #expect(log.messages == [
            "Expected to receive .tick, but no action was received within 0.02 seconds; 1 effect is still running, "
                + "started by .start.",
        ])
    }

    @Test("effects still running at the end are reported by finish")
    func runningAtFinish() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.start)
        await store.finish(timeout: .milliseconds(20))
        #expect(log.kinds == [.effectsStillRunning])
        #expect(log.messages == [
            "1 effect is still running at the end of the test, started by .start. Cancel it or let it finish "
                + "(advance the clock, send the action that stops it) before the test ends.",
        ])
    }

    @Test("effects still running are reported when the test store is released")
    func runningAtRelease() async {
        let log = FailureLog()
        do {
            let store = makeTestStore(log)
            await store.send(.start)
            await store.send(.load)
        }
        #expect(log.kinds == [.programmingError, .effectsStillRunning])
        #expect(log.messages.last ==
            "1 effect is still running at the end of the test, started by .start. Cancel it or let it finish "
                + "(advance the clock, send the action that stops it) before the test ends.")
    }

    @Test("programming errors of the store fail the test")
    func programmingError() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.load)
        await store.finish()
        #expect(log.kinds == [.programmingError])
        #expect(log.messages.first?.hasPrefix("No interpreter handles the effect description") == true)
    }

    @Test("a throwing trailing closure is reported")
    func assertionThrew() async {
        struct Invalid: Error {}
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.increment) { _ in throw Invalid() }
        await store.finish()
        #expect(log.kinds == [.assertionThrew])
        #expect(log.messages == ["The trailing closure threw after sending .increment: Invalid()"])
    }

    @Test("in non-exhaustive mode, a closure that does not hold on the actual state still fails")
    func nonExhaustiveMismatch() async {
        let log = FailureLog()
        let store = makeTestStore(log, exhaustivity: .off)
        await store.send(.increment) { $0.count = 5 }
        await store.finish()
        #expect(log.kinds == [.stateMismatch])
    }

    @Test("each failure points at the assertion that made it")
    func sourceLocation() async {
        let log = FailureLog()
        let store = makeTestStore(log)
        await store.send(.increment); let line = #line
        await store.finish()
        #expect(log.failures.first?.sourceLocation.line == line)
        #expect(log.failures.first?.sourceLocation.fileID == "RewindTestingTests/TestStoreFailureTests.swift")
    }

    @Test("a large state's diff shows the change with a little context and folds the rest")
    func largeDiff() async {
        struct Big: Equatable { var items = Array(0..<40) }
        let log = FailureLog()
        do {
            let store = TestStore(
                initialState: Big(),
                reducer: Reducer<Big, Int> { state, index in
                    state.items[index] = -1
                    return .none
                },
                reportIssue: log.reporter
            )
            await store.send(20) { $0.items[20] = -2 }
        }
        #expect(log.messages == ["""
            The state after sending 20 does not match the expectation (- expected, + actual):
              Big(
                items: [
                  … (17 unchanged lines)
                  [17]: 17
                  [18]: 18
                  [19]: 19
            -     [20]: -2
            +     [20]: -1
                  [21]: 21
                  [22]: 22
                  [23]: 23
                  … (16 unchanged lines)
                ]
              )
            """])
    }
}
