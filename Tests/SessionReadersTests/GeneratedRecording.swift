import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWebSocket
import RewindWire

/// A seeded app run fed, message by message, to the daemon's ingest machine (``AppIngest``), its rows written to a
/// real session file — with what the app really had after each row, known independently of the daemon: the app's
/// state follows its own reducer (a counter and a list), and which of its states the record can know follows from
/// what it sent (a `dropped` range, a patch that does not apply, a gap in its numbers, each closed by the snapshot
/// the app sends next; jumps put another state in place; a reconnect's hello brings the app's state, after actions it
/// dispatched while away, which are counted lost).
///
/// Threading: built and read on one thread.
struct GeneratedRecording {
    /// What the app had after a row, as the run knows it.
    enum Truth: Equatable {
        /// The record can hold this state: every reader must give it.
        case known(JSONValue)
        /// The app never sent what the record would need: every reader must say the state is unknown.
        case unknown
    }

    /// The session file's id.
    let id: SessionID
    /// The rows the truth is known of (action rows, snapshots and jumps), by index; other rows (notes, errors, `lost`
    /// and `dropped` rows) are checked only for the readers' agreement.
    let truth: [Int64: Truth]
    /// How many rows the file has.
    let eventCount: Int64
    /// What the run did, for failure messages.
    let script: [String]

    /// Generates a run of about `steps` messages from `seed` and records it into `store`.
    init(seed: UInt64, steps: Int, into store: SessionStore) throws {
        var random = SplitMix(seed: seed)
        var app = AppModel()
        var connection = ConnectionID(rawValue: 1)
        var clock = IngestClock(monotonic: 100, wall: 1_800_000_000)
        let hello = Hello(app: AppIdentity(name: "generated", instance: "seed-\(seed)"), state: app.state,
                          capabilities: ["ack"], seq: 0)
        var ingest = AppIngest(newSessionID: "generated", hello: hello, maxStateBytes: 1 << 20)
        let recording = try store.createSession(appName: "generated", protocolVersion: 2, initialState: app.state,
                                                startedAt: Date(timeIntervalSince1970: clock.wall))
        var truth: [Int64: Truth] = [0: .known(app.state)]
        var script: [String] = []
        var statesAfterActions: [JSONValue] = [app.state]
        var lastIndex: Int64 = 0

        /// Hands `outputs` to the file; returns the rows appended.
        func write(_ outputs: [IngestOutput]) -> [IngestRow] {
            var rows: [IngestRow] = []
            for case .append(let row) in outputs {
                let index = recording.append(row.event, stateAfter: row.stateAfter, forceKeyframe: row.forceKeyframe)
                precondition(index == row.index, "the machine's numbering is the file's")
                lastIndex = index
                rows.append(row)
            }
            return rows
        }
        func receive(_ message: AppMessage) -> [IngestRow] {
            clock.monotonic += 0.001
            clock.wall += 0.001
            return write(ingest.receive(message, bytes: 100, on: connection, at: clock))
        }
        /// Marks the action rows among `rows`: the app's state after each, known or not to the record.
        func mark(_ rows: [IngestRow], actionsKnown: Bool, states: [UInt64: JSONValue]) {
            for row in rows where row.event.kind == .action {
                guard let seq = row.event.appSeq, let state = states[UInt64(seq)] else { continue }
                truth[row.index] = actionsKnown ? .known(state) : .unknown
            }
        }
        /// The app sends its whole state (a resync, the end of a dropped range, a jump's result).
        func snapshot(reason: String) {
            let rows = receive(.snapshot(Snapshot(seq: app.seq, state: app.state, reason: reason)))
            for row in rows where row.event.kind == .snapshot || row.event.kind == .jump {
                truth[row.index] = .known(app.state)
            }
        }

        _ = write(ingest.connect(connection, hello: hello, resumed: false, at: clock))
        for _ in 0..<steps {
            switch random.next() % 20 {
            case 0, 1:  // a dropped range: some of its actions reach the daemon without their states, some are lost
                let count = 2 + random.next() % 4
                let first = app.seq + 1
                var sent: [ActionEvent] = []
                var states: [UInt64: JSONValue] = [:]
                for n in 0..<count {
                    let event = app.dispatch(using: &random)
                    states[event.seq] = app.state
                    if n == count - 1 || random.next() % 3 != 0 {  // the last one always arrives (PROTOCOL §3.3)
                        sent.append(ActionEvent(seq: event.seq, time: clock.wall, action: event.action,
                                                patch: JSONPatch()))
                    }
                }
                let lost = count - UInt64(sent.count)
                script.append("dropped \(first)–\(app.seq) (\(lost) lost)")
                _ = receive(.dropped(Dropped(from: first, to: app.seq, actionsLost: lost)))
                mark(receive(.batch(sent)), actionsKnown: false, states: states)
                snapshot(reason: "coalesced")
            case 2:  // a patch that does not apply: the daemon asks for the state again
                let event = app.dispatch(using: &random)
                var bad = event
                bad.patch = JSONPatch([.remove(path: try JSONPointer("/missing"))])
                script.append("bad patch \(event.seq)")
                mark(receive(.action(bad)), actionsKnown: false, states: [event.seq: app.state])
                snapshot(reason: "resync")
            case 3:  // a gap in the app's numbers (an action it never sent)
                _ = app.dispatch(using: &random)
                let event = app.dispatch(using: &random)
                script.append("gap before \(event.seq)")
                mark(receive(.action(event)), actionsKnown: false, states: [event.seq: app.state])
                snapshot(reason: "resync")
            case 4:  // a jump: the app puts an earlier state in place and says so
                let target = Int(random.next() % UInt64(statesAfterActions.count))
                app.state = statesAfterActions[target]
                script.append("jump to the state after action \(target)")
                snapshot(reason: "jump")
            case 5:  // the connection drops; the app may dispatch while away, then says hello again
                _ = ingest.disconnect(connection, daemonStopping: false)
                let offline = random.next() % 3
                for _ in 0..<offline {
                    _ = app.dispatch(using: &random)
                    statesAfterActions.append(app.state)
                }
                connection = ConnectionID(rawValue: connection.rawValue + 1)
                script.append("reconnect after \(offline) action(s) dispatched offline")
                let again = Hello(app: hello.app, state: app.state, capabilities: ["ack"], seq: app.seq)
                let rows = write(ingest.connect(connection, hello: again, resumed: true, at: clock))
                for row in rows where row.event.kind == .reconnect { truth[row.index] = .known(app.state) }
            default:  // actions with their patches, one by one or in a batch
                let count = 1 + random.next() % 3
                var events: [ActionEvent] = []
                var states: [UInt64: JSONValue] = [:]
                for _ in 0..<count {
                    events.append(app.dispatch(using: &random))
                    states[app.seq] = app.state
                    statesAfterActions.append(app.state)
                }
                script.append("actions \(events.map(\.seq))")
                mark(receive(events.count == 1 ? .action(events[0]) : .batch(events)), actionsKnown: true,
                     states: states)
            }
        }
        recording.finish(endState: .clean)
        self.id = recording.id
        self.truth = truth
        self.eventCount = lastIndex
        self.script = script
    }
}

/// The generated app: a counter and a list, changed by its own reducer; it numbers its actions.
private struct AppModel {
    var state: JSONValue = ["count": 0, "items": []]
    var seq: UInt64 = 0

    /// Runs one random action through the reducer; returns the event the inspector would send (with its patch).
    mutating func dispatch(using random: inout SplitMix) -> ActionEvent {
        let before = state
        guard case .object(var root) = state, case .int(let count)? = root["count"],
              case .array(var items)? = root["items"] else { preconditionFailure("the model's own shape") }
        let type: String
        switch random.next() % 4 {
        case 0:
            type = "add"
            items.append(.int(Int64(random.next() % 100)))
        case 1 where !items.isEmpty:
            type = "remove"
            items.remove(at: Int(random.next() % UInt64(items.count)))
        case 2:
            type = "add_to_count"
            root["count"] = .int(count + Int64(random.next() % 7) - 3)
        default:
            type = "increment"
            root["count"] = .int(count + 1)
        }
        root["items"] = .array(items)
        state = .object(root)
        seq += 1
        return ActionEvent(seq: seq, time: 1_800_000_000 + Double(seq) / 1000,
                           action: ActionPayload(type: type, payload: .null), patch: JSONPatch.diff(from: before, to: state))
    }
}
