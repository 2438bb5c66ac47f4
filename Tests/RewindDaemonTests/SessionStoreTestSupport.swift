import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A fresh directory under the system's temporary directory, deleted when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    // Immutable after init; removal happens once in deinit.
    let url: URL

    init(_ name: String = "rewind-store-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A deterministic random number generator (SplitMix64), so that a failing random session can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One step of a synthetic app: the action it dispatched and the state after it.
struct SyntheticStep {
    var label: String
    var action: JSONValue
    var stateAfter: JSONValue
}

/// A todo-list-like app whose actions change its state at random: adds, toggles, renames, removals, counters.
struct SyntheticApp {
    var state: JSONValue = ["todos": [], "counter": 0, "filter": "all", "user": ["name": "ada", "visits": 0]]
    private var nextID: Int64 = 1

    mutating func step(using random: inout SeededGenerator) -> SyntheticStep {
        guard case .object(var root) = state, case .array(var todos)? = root["todos"] else {
            preconditionFailure("the synthetic state always has a todos array")
        }
        let label: String
        var payload: JSONValue = nil
        switch random.next() % 6 {
        case 0, 1:
            let id = nextID
            nextID += 1
            let item: JSONValue = ["id": .int(id), "title": .string("task \(id)"), "done": false]
            todos.append(item)
            label = "todo/add"
            payload = item
        case 2 where !todos.isEmpty:
            let at = Int(random.next() % UInt64(todos.count))
            if case .object(var item) = todos[at] {
                item.updateValue(.bool(!(item["done"]?.boolValue ?? false)), forKey: "done")
                todos[at] = .object(item)
            }
            label = "todo/toggle"
            payload = .int(Int64(at))
        case 3 where !todos.isEmpty:
            let at = Int(random.next() % UInt64(todos.count))
            todos.remove(at: at)
            label = "todo/remove"
            payload = .int(Int64(at))
        case 4:
            let filters: [JSONValue] = ["all", "active", "done"]
            root.updateValue(filters[Int(random.next() % 3)], forKey: "filter")
            label = "filter/set"
        default:
            let counter = root["counter"]?.int64Value ?? 0
            root.updateValue(.int(counter + 1), forKey: "counter")
            label = "counter/increment"
        }
        root.updateValue(.array(todos), forKey: "todos")
        state = .object(root)
        return SyntheticStep(label: label, action: ["type": .string(label), "payload": payload], stateAfter: state)
    }
}

extension SessionStore {
    /// A store in `directory` with options suited to tests (small keyframe interval, quick commits).
    static func forTests(_ directory: TemporaryDirectory, options: RecordingOptions = RecordingOptions(keyframeInterval: 16))
        throws -> SessionStore {
        try SessionStore(directory: directory.url, options: options)
    }
}

/// Records `count` synthetic actions into `recording`; returns the state after each event (index 0 = initial).
@discardableResult
func recordSynthetic(
    _ count: Int, into recording: SessionRecording, app: inout SyntheticApp, random: inout SeededGenerator,
    startTime: Double = 1_800_000_000
) -> [JSONValue] {
    var states = [app.state]
    for n in 0..<count {
        let before = app.state
        let step = app.step(using: &random)
        let event = NewEvent(
            appSeq: Int64(n + 1), time: startTime + Double(n) / 1000, kind: .action, label: step.label,
            action: step.action, patch: JSONPatch.diff(from: before, to: step.stateAfter),
            reducerMicros: Double(n % 50) / 4)
        recording.append(event, stateAfter: step.stateAfter)
        states.append(step.stateAfter)
    }
    return states
}
