import Foundation
import Rewind
import RewindTesting

struct Counter: Equatable, Sendable {
    var count = 0
    var label = ""
}

enum CounterAction: Equatable, Sendable {
    case increment
    case setLabel(String)
    case echo(String)
    case start
    case stop
    case tick
    case load
    case loaded([Int])
    case impure
}

struct LoadNumbers: EffectDescription {
    typealias Output = [Int]
}

/// A counter with effects: echoes, a timer on the store's clock, and a load through the interpreter.
let counterReducer = Reducer<Counter, CounterAction> { state, action in
    switch action {
    case .increment:
        state.count += 1
        return .none
    case .setLabel(let label):
        state.label = label
        return .none
    case .echo(let label):
        return .send(.setLabel(label))
    case .start:
        return Effect.send(.tick).repeating(every: .seconds(1)).cancellable(id: "timer")
    case .stop:
        return .cancel(id: "timer")
    case .tick:
        state.count += 1
        return .none
    case .load:
        return .perform(LoadNumbers()) { .loaded($0) }
    case .loaded(let numbers):
        state.count = numbers.reduce(0, +)
        return .none
    case .impure:
        return .none
    }
}

/// Captures the failures a test store reports, instead of recording them as issues.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var captured: [TestStoreFailure] = []

    /// Guarded by `lock`: the reporter may be called from the test store's deinit on any thread.
    var failures: [TestStoreFailure] {
        lock.lock()
        defer { lock.unlock() }
        return captured
    }

    var messages: [String] { failures.map(\.message) }
    var kinds: [TestStoreFailure.Kind] { failures.map(\.kind) }

    var reporter: @Sendable (TestStoreFailure) -> Void {
        { [self] failure in
            lock.lock()
            captured.append(failure)
            lock.unlock()
        }
    }
}

@MainActor
func makeTestStore(
    _ log: FailureLog,
    initialState: Counter = Counter(),
    interpreter: Interpreter = .none,
    exhaustivity: Exhaustivity = .on
) -> TestStore<Counter, CounterAction> {
    let store = TestStore(initialState: initialState, reducer: counterReducer, interpreter: interpreter,
                          exhaustivity: exhaustivity, reportIssue: log.reporter)
    store.timeout = .milliseconds(50)
    return store
}
