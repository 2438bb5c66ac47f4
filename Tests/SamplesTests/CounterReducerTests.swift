@testable import counter
import Rewind
import RewindTesting
import Testing

@Suite("counter sample: the reducer")
@MainActor
struct CounterReducerTests {
    @Test("increment, decrement, add and reset change the count, with no effects")
    func actions() async {
        let store = TestStore(initialState: CounterState(), reducer: counterReducer)
        await store.send(.increment) { $0.count = 1 }
        await store.send(.add(5)) { $0.count = 6 }
        await store.send(.decrement) { $0.count = 5 }
        await store.send(.reset) { $0.count = 0 }
        await store.finish()
    }

    @Test("typed commands become actions, and bad ones are refused with a sentence")
    func commands() throws {
        #expect(try parseCounterCommand("+") == .increment)
        #expect(try parseCounterCommand("add -3") == .add(-3))
        #expect(throws: (any Error).self) { try parseCounterCommand("add many") }
        #expect(throws: (any Error).self) { try parseCounterCommand("jump") }
    }
}
