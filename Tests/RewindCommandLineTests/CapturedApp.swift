import Foundation
import RewindWire

/// An app run as its inspector sees it: a counter and a list changed by numbered actions, with the state after each
/// action kept, so that a test can say what the record must hold.
///
/// Threading: a value, used on one thread.
struct CapturedApp {
    /// Who the run is.
    let app: AppIdentity
    /// The app's current state.
    private(set) var state: JSONValue = ["count": 0, "items": []]
    /// The number of its last action.
    private(set) var seq: UInt64 = 0
    /// The state after each action (0: before the first).
    private(set) var states: [UInt64: JSONValue] = [0: ["count": 0, "items": []]]
    /// The time of its last action.
    private(set) var time: Double

    init(name: String = "todo", instance: String = "host:4242:1800000000000", time: Double = 1_800_000_000) {
        app = AppIdentity(name: name, instance: instance)
        self.time = time
    }

    /// Dispatches `count` actions (an `add` of an item, then an `increment`, in turn); returns their events with
    /// their patches (empty patches with `withoutPatches`, as inside a `dropped` range).
    mutating func dispatch(_ count: Int, withoutPatches: Bool = false) -> [ActionEvent] {
        (0..<count).map { _ in
            let before = state
            guard case .object(var root) = state, case .int(let value)? = root["count"],
                  case .array(var items)? = root["items"] else { preconditionFailure("the model's own shape") }
            seq += 1
            time += 0.25
            let type: String
            if seq % 2 == 1 {
                type = "add"
                items.append(.string("item \(seq)"))
            } else {
                type = "increment"
                root["count"] = .int(value + 1)
            }
            root["items"] = .array(items)
            state = .object(root)
            states[seq] = state
            let patch = withoutPatches ? JSONPatch() : JSONPatch.diff(from: before, to: state)
            return ActionEvent(seq: seq, time: time, action: ActionPayload(type: type, payload: .null), patch: patch)
        }
    }

    /// The `hello` a capture starting now begins with.
    var hello: AppMessage {
        .hello(Hello(app: app, state: state, stateType: "TodoState", capabilities: ["jump", "batch"], seq: seq))
    }
}

/// A capture file being written: its header, its `hello`, then app messages, one JSON text per line.
///
/// Threading: a value, used on one thread.
struct CaptureFileText {
    private var lines: [[UInt8]]

    /// A file of `app`'s run starting now, with the header `reason` and `part` (`createdAt`: the app's time).
    init(_ app: CapturedApp, reason: CaptureHeader.Reason = .offline, part: Int? = 1, note: String? = nil) {
        let header = CaptureHeader(app: app.app, reason: reason, note: note, part: reason == .offline ? part : nil,
                                   createdAt: app.time, stateType: "TodoState")
        lines = [header.serializedBytes(), WireCodec.encode(app.hello)]
    }

    /// A file whose lines are these, as given.
    init(rawLines: [String]) {
        lines = rawLines.map { Array($0.utf8) }
    }

    /// Adds a message line.
    mutating func append(_ message: AppMessage) {
        lines.append(WireCodec.encode(message))
    }

    /// Adds a line as given.
    mutating func append(rawLine: String) {
        lines.append(Array(rawLine.utf8))
    }

    /// Adds each event as an `action` line.
    mutating func append(actions events: [ActionEvent]) {
        for event in events { append(.action(event)) }
    }

    /// Writes the file at `path`; with `cuttingLastLine`, the last line is cut in its middle and the file ends there
    /// (what a process killed while writing leaves).
    func write(to path: String, cuttingLastLine: Bool = false) throws {
        var bytes: [UInt8] = []
        for (number, line) in lines.enumerated() {
            if cuttingLastLine && number == lines.count - 1 {
                bytes += line.prefix(line.count / 2)
            } else {
                bytes += line + [UInt8(ascii: "\n")]
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
