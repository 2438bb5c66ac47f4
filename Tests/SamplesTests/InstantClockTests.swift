import Rewind
import SampleSupport
import Testing
@testable import todo

/// The clock of scripted runs, shared by the samples with time-based effects.
@Suite("samples: the instant clock of scripted runs")
@MainActor
struct InstantClockTests {
    final class Log {
        var events: [String] = []
    }

    @Test("a wait ends at once, without the effect ever suspending: it is done when the spawned task first runs")
    func instant() async {
        let log = Log()
        let clock = InstantClock()
        Task { @MainActor in
            try await clock.sleep(for: .seconds(3600))
            log.events.append("woke")
        }
        #expect(log.events.isEmpty)
        await Task.yield()
        #expect(log.events == ["woke"])
    }

    @Test("a cancelled effect's wait throws CancellationError")
    func cancelled() async {
        let log = Log()
        let task = Task { @MainActor in
            do {
                try await InstantClock().sleep(for: .seconds(1))
                log.events.append("woke")
            } catch {
                log.events.append(error is CancellationError ? "cancelled" : "\(error)")
            }
        }
        task.cancel()
        await task.value
        #expect(log.events == ["cancelled"])
    }

    @Test("a debounced effect on it applies before the next command, and a burst still collapses to its last")
    func debounceInScripts() async throws {
        let store = Store(initialState: TodoState(todos: [Todo(id: 1, title: "Buy milk")], visible: [1]),
                          reducer: todoReducer, configuration: StoreConfiguration(clock: InstantClock()))
        var applied: [String?] = []
        store.subscribe(to: \.filter) { applied.append($0) }
        if let action = try TodoCommands(store: store).parse("search milk") { store.dispatch(action) }
        await Task.yield()
        #expect(applied == [nil, "milk"])
    }
}
