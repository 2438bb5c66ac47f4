import Foundation
import RewindDaemon
import RewindWire
import Testing

/// The session file's stretches of unknown state (`SessionReader.unknownStates`), which `rewind state`, the daemon's
/// commands and the timeline all read: found through the label index and short reads inside open stretches, they
/// must be exactly what reading every row says — on every branch, as the file grows between readings.
@Suite("Unknown states: the stretches a session file does not hold")
struct UnknownStatesTests {
    /// The rule, row by row (docs/SESSION-FORMAT.md): an app's `dropped` row (with a label) starts a stretch at the
    /// next event; `out_of_order` too; `patch_failed` at the action before it; a `snapshot`, `jump`, `replay` or
    /// `reconnect` of the same branch at or after its first event ends it (right at it: nothing was unknown). A
    /// stretch already open stays as it is.
    private func reference(_ events: [RecordedEvent]) -> [UnknownState] {
        var open: [Int64: UnknownState] = [:]
        var closed: [UnknownState] = []
        for event in events {
            let index = event.index, branch = event.branch
            var started: UnknownState?
            switch (event.kind, event.label) {
            case (.dropped, .some):
                started = UnknownState(branch: branch, first: index + 1, last: nil, cause: index, reason: event.detail ?? "")
            case (.error, "out_of_order"):
                started = UnknownState(branch: branch, first: index + 1, last: nil, cause: index, reason: event.detail ?? "")
            case (.error, "patch_failed"):
                started = UnknownState(branch: branch, first: max(1, index - 1), last: nil, cause: index,
                                       reason: event.detail ?? "")
            case (.snapshot, _), (.jump, _), (.replay, _), (.reconnect, _):
                if var stretch = open[branch], index >= stretch.first {
                    open[branch] = nil
                    if index > stretch.first {
                        stretch.last = index - 1
                        closed.append(stretch)
                    }
                }
            default:
                break
            }
            if let started, open[branch] == nil { open[branch] = started }
        }
        return closed + open.values.sorted { $0.branch < $1.branch }
    }

    private func sorted(_ stretches: [UnknownState]) -> [UnknownState] {
        stretches.sorted { ($0.branch, $0.first) < ($1.branch, $1.first) }
    }

    @Test("a seeded mix of rows on three branches: the same stretches as reading every row, reading as it grows",
          arguments: [1, 2, 3, 4, 5])
    func matchesEveryRow(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-us-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "mix", protocolVersion: 1, initialState: ["n": 0])
        let reader = try store.openSession(recording.id)
        var random = SeededGenerator(seed: seed)
        var appSeq: Int64 = 0
        for round in 0..<6 {
            for _ in 0..<400 {
                let branch = Int64(random.next() % 7 < 5 ? 0 : random.next() % 3)
                let roll = random.next() % 100
                let state: JSONValue = ["n": .int(Int64(roll))]
                let event: NewEvent
                switch roll {
                case 0..<4:
                    event = NewEvent(time: 1, kind: .dropped, label: "dropped", detail: "states not sent", branch: branch)
                case 4..<5:
                    event = NewEvent(time: 1, kind: .dropped, detail: "the recorder fell behind", branch: branch)
                case 5..<7:
                    event = NewEvent(time: 1, kind: .error, label: random.next() % 2 == 0 ? "patch_failed" : "out_of_order",
                                     detail: "bad", branch: branch)
                case 7..<8:
                    event = NewEvent(time: 1, kind: .error, label: "bad_message", detail: "other", branch: branch)
                case 8..<12:
                    let kinds: [EventKind] = [.snapshot, .jump, .replay, .reconnect]
                    event = NewEvent(time: 1, kind: kinds[Int(random.next() % 4)], label: "full", branch: branch)
                case 12..<13:
                    // An app's action that happens to be called "dropped": not a cause.
                    appSeq += 1
                    event = NewEvent(appSeq: branch == 0 ? appSeq : nil, time: 1, label: "dropped", action: ["d": 1],
                                     branch: branch)
                default:
                    appSeq += 1
                    event = NewEvent(appSeq: branch == 0 ? appSeq : nil, time: 1, label: "tick", action: ["t": 1],
                                     patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(roll)))]),
                                     branch: branch)
                }
                recording.append(event, stateAfter: state)
            }
            recording.flush()
            try reader.refresh()
            let all = try reader.eventsOnAllBranches(1...reader.eventCount)
            #expect(sorted(try reader.unknownStates()) == sorted(reference(all)), "seed \(seed), round \(round)")
        }
        recording.finish(endState: .clean)
    }
}
