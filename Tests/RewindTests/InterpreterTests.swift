import Rewind
import RewindTesting
import Testing

struct LoadNumbers: EffectDescription {
    typealias Output = [Int]
    let count: Int
}

struct SaveNumbers: EffectDescription {
    let numbers: [Int]
}

/// A dependency injected once, at launch.
@MainActor
final class NumberDatabase {
    var saved: [[Int]] = []
    let clock: TestClock

    init(clock: TestClock) {
        self.clock = clock
    }

    func load(_ count: Int) async -> [Int] {
        try? await clock.sleep(for: .seconds(1))
        return Array(1...count)
    }
}

extension Interpreter {
    /// The curried form: dependencies in, interpreter out.
    static func live(database: NumberDatabase) -> Interpreter {
        Interpreter()
            .handling(LoadNumbers.self) { load in await database.load(load.count) }
            .handling(SaveNumbers.self) { save in database.saved.append(save.numbers) }
    }
}

enum NumbersAction: Equatable, Sendable {
    case load(Int)
    case loaded([Int])
    case save
}

@MainActor
func numbersReducer() -> Reducer<[Int], NumbersAction> {
    Reducer { numbers, action in
        switch action {
        case .load(let count): return .perform(LoadNumbers(count: count)) { .loaded($0) }
        case .loaded(let loaded): numbers = loaded
        case .save: return .perform(SaveNumbers(numbers: numbers))
        }
        return .none
    }
}

@Suite("Interpreter: performs effect descriptions with dependencies injected at launch")
@MainActor
struct InterpreterTests {
    @Test("a performed description's output comes back as an action")
    func performOutput() async {
        let clock = TestClock()
        let store = Store(initialState: [], reducer: numbersReducer(),
                          interpreter: .live(database: NumberDatabase(clock: clock)),
                          configuration: StoreConfiguration(clock: clock))
        store.dispatch(.load(3))
        #expect(store.state.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(store.state == [1, 2, 3])
    }

    @Test("the action a performed description sends is attributed to the reducer's perform call, not the library")
    func performSource() async {
        let clock = TestClock()
        var sources: [String] = []
        let recorder = Middleware<[Int], NumbersAction>.intercept { _, dispatched, next in
            sources.append(dispatched.source.description)
            next(dispatched)
        }
        let store = Store(initialState: [], reducer: numbersReducer(),
                          interpreter: .live(database: NumberDatabase(clock: clock)), middleware: [recorder],
                          configuration: StoreConfiguration(clock: clock))
        let line = #line + 1
        store.dispatch(.load(2))
        await clock.advance(by: .seconds(1))
        #expect(store.state == [1, 2])
        // The second is `.loaded`, sent by the effect: numbersReducer's `.perform(LoadNumbers…)` line (was
        // Rewind/Effect.swift:128).
        #expect(sources == ["RewindTests/InterpreterTests.swift:\(line)", "RewindTests/InterpreterTests.swift:\(Self.performLine)"])
    }

    /// The line of `.perform(LoadNumbers(count:))` in `numbersReducer`.
    static let performLine = 49

    @Test("a fire-and-forget description is performed and sends nothing")
    func fireAndForget() async {
        let clock = TestClock()
        let database = NumberDatabase(clock: clock)
        let store = Store(initialState: [4, 5], reducer: numbersReducer(), interpreter: .live(database: database))
        store.dispatch(.save)
        await clock.advance(by: .zero)
        #expect(database.saved == [[4, 5]])
    }

    @Test("a description no interpreter handles is reported as a programming error")
    func unhandled() async {
        let clock = TestClock()
        let hooks = HookLog()
        let store = Store(initialState: [], reducer: numbersReducer(), interpreter: .none,
                          configuration: hooks.configuration(clock: clock))
        store.dispatch(.load(1))
        await clock.advance(by: .zero)
        #expect(hooks.programmingErrors.map(\.kind) == [.unhandledEffect])
        #expect(hooks.programmingErrors.first?.message.contains("LoadNumbers") == true)
    }

    @Test("combined interpreters handle every type; the last handler for a type wins")
    func combine() async {
        let first = Interpreter().handling(LoadNumbers.self) { _ in [1] }
        let second = Interpreter().handling(LoadNumbers.self) { _ in [2] }
        let saves = Interpreter().handling(SaveNumbers.self) { _ in }
        let combined = Interpreter.combine(first, saves, second)
        #expect(combined.handles(LoadNumbers.self))
        #expect(combined.handles(SaveNumbers.self))
        #expect(!first.handles(SaveNumbers.self))
        let clock = TestClock()
        let store = Store(initialState: [], reducer: numbersReducer(), interpreter: combined)
        store.dispatch(.load(1))
        await clock.advance(by: .zero)
        #expect(store.state == [2])
    }

    @Test("a description lifted into a parent sends parent actions")
    func liftedPerform() async {
        enum Parent: Equatable { case numbers(NumbersAction) }
        let clock = TestClock()
        let parent: Reducer<[Int], Parent> = numbersReducer().lifted(
            state: \.self,
            extract: { if case .numbers(let action) = $0 { action } else { nil } },
            embed: Parent.numbers
        )
        let store = Store(initialState: [], reducer: parent,
                          interpreter: Interpreter().handling(LoadNumbers.self) { Array(repeating: 7, count: $0.count) })
        store.dispatch(.numbers(.load(2)))
        await clock.advance(by: .zero)
        #expect(store.state == [7, 7])
    }
}
