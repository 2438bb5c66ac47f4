import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire
import RewindTestSupport

/// Data sources and actions the tests share.
enum Fixtures {
    /// 2026-11-22 15:30:00 UTC.
    static let start: Double = 1_795_361_400

    /// A todo app session with `count` events (add, toggle, rename…), live by default, plus an ended session.
    static func todoSource(count: Int = 30, status: TimelineSessionStatus = .live, connectedApps: Int = 1)
        -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(
            listeningAddress: "ws://127.0.0.1:7723", connectedApps: connectedApps, isRecording: true,
            eventsPerSecond: [0, 1, 2, 4, 8, 16, 8, 4]))
        source.addSession(id: "s-todo", appName: "todo", instance: nil, startedAt: start, status: status,
                          initialState: ["todos": [], "filter": "all", "count": 0])
        var state: JSONValue = ["todos": [], "filter": "all", "count": 0]
        for index in 1...max(1, count) where count > 0 {
            let before = state
            let label: String
            var action: JSONValue
            if index % 3 == 1 {
                label = "todo/add"
                action = ["type": "todo/add", "payload": ["title": .string("item \(index)")]]
                if case .object(var object) = state, case .array(var todos)? = object["todos"] {
                    todos.append(["id": .int(Int64(index)), "title": .string("item \(index)"), "done": false])
                    object["todos"] = .array(todos)
                    object["count"] = .int(Int64(todos.count))
                    state = .object(object)
                }
            } else if index % 3 == 2 {
                label = "todo/toggle"
                action = ["type": "todo/toggle", "payload": ["id": .int(Int64(index - 1))]]
                if case .object(var object) = state, case .array(var todos)? = object["todos"], !todos.isEmpty,
                   case .object(var last) = todos[todos.count - 1] {
                    last["done"] = true
                    todos[todos.count - 1] = .object(last)
                    object["todos"] = .array(todos)
                    state = .object(object)
                }
            } else {
                label = "filter/set"
                action = ["type": "filter/set", "payload": .string(index % 2 == 0 ? "done" : "all")]
                if case .object(var object) = state {
                    object["filter"] = .string(index % 2 == 0 ? "done" : "all")
                    state = .object(object)
                }
            }
            let patch = JSONPatch.diff(from: before, to: state)
            _ = try? source.append(session: "s-todo", time: start + Double(index) * 0.25, label: label, action: action,
                                   patch: patch, reducerMicros: Double(index * 7), appSeq: index, stateAfter: state)
        }
        source.addSession(id: "s-counter", appName: "counter", startedAt: start - 3600, status: .ended,
                          initialState: ["value": 0])
        for index in 1...5 {
            _ = try? source.append(session: "s-counter", time: start - 3600 + Double(index), label: "increment",
                                   action: ["type": "increment"],
                                   patch: JSONPatch([.replace(path: JSONPointer(tokens: ["value"]), value: .int(Int64(index)))]))
        }
        return source
    }
}

/// Records what the app asked for and answers with canned messages. Commands arrive on the app's command
/// thread while the test reads on its own: everything is guarded by `lock`.
final class RecordingActions: TimelineActions, @unchecked Sendable {  // state guarded by `lock`
    private let lock = NSLock()
    private var callsStorage: [String] = []
    private var failureStorage: (any Error)?

    var calls: [String] { lock.withLock { callsStorage } }
    var failure: (any Error)? {
        get { lock.withLock { failureStorage } }
        set { lock.withLock { failureStorage = newValue } }
    }

    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    private func record(_ call: String) throws -> String {
        let failure = lock.withLock { () -> (any Error)? in
            callsStorage.append(call)
            return failureStorage
        }
        if let failure { throw failure }
        return "done: \(call)"
    }

    func jump(session: String, index: Int) throws -> String { try record("jump \(session) \(index)") }
    func skip(session: String, index: Int) throws -> String { try record("skip \(session) \(index)") }
    func replay(session: String, from index: Int) throws -> String { try record("replay \(session) \(index)") }
    func dispatch(session: String, action: JSONValue) throws -> String {
        try record("dispatch \(session) \(action.serialized())")
    }
    func export(session: String) throws -> String { try record("export \(session)") }
    func quit() { lock.withLock { callsStorage.append("quit") } }
}

/// Actions whose jump waits until `release()` (or `quit()`), so that tests can see what the timeline does while
/// a command is still running. Guarded by `lock`; the waiting happens on the app's command thread.
final class BlockingActions: TimelineActions, @unchecked Sendable {  // state guarded by `lock`
    private let lock = NSLock()
    private let gate = DispatchSemaphore(value: 0)
    private let entered = DispatchSemaphore(value: 0)
    private var callsStorage: [String] = []

    var calls: [String] { lock.withLock { callsStorage } }

    /// Lets every waiting jump (and every later one) return.
    func release() {
        for _ in 0..<16 { gate.signal() }
    }

    /// Waits until a jump has started waiting (at most 5 s, stretched by `TestTime.scale`); true when one did.
    func waitUntilJumpStarted() -> Bool {
        entered.wait(timeout: .now() + TestTime.seconds(5)) == .success
    }

    func jump(session: String, index: Int) throws -> String {
        entered.signal()
        let released = gate.wait(timeout: .now() + TestTime.seconds(5)) == .success
        lock.withLock { callsStorage.append("jump \(index)\(released ? "" : " timed out")") }
        return "jumped to \(index)"
    }
    func skip(session: String, index: Int) throws -> String { "" }
    func replay(session: String, from index: Int) throws -> String { "" }
    func dispatch(session: String, action: JSONValue) throws -> String { "" }
    func export(session: String) throws -> String {
        lock.withLock { callsStorage.append("export") }
        return "exported"
    }
    func quit() {
        lock.withLock { callsStorage.append("quit") }
        release()
    }
}

extension RowMeaning {
    /// What the daemon states for a row inside a stretch of unknown state that row `cause` opened.
    static func unknown(_ reason: UnknownStateReason, cause: Int) -> RowMeaning {
        RowMeaning(unknownState: UnknownStateMark(reason: reason, cause: Int64(cause)))
    }
}
