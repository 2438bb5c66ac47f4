import Foundation
import RewindSessionFile
import RewindTUI
import RewindWire
import Testing

@Suite("Pinned values and plot samples read from a session file")
struct SessionFileValuesTests {
    /// A saved session of 30 events setting `/n` to the event's index, `/tag` only at even events; event 10 is an
    /// app's `dropped` row whose range (11…14, actions without state) ends with the snapshot at 15.
    private func writeSession(in directory: URL) throws -> SessionID {
        let store = try SessionStore(directory: directory)
        let start = Date().timeIntervalSince1970.rounded(.down)
        let recording = try store.createSession(appName: "numbers", protocolVersion: 2, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        let unknown = UnknownStateMark(reason: .dropped, cause: 10)
        var state: JSONValue = ["n": 0]
        for index in 1...30 {
            let time = start + Double(index)
            switch index {
            case 10:
                recording.append(NewEvent(time: time, kind: .dropped, label: "dropped", detail: "outbox full"),
                                 stateAfter: state)
            case 15:
                state = ["n": .int(Int64(index))]
                recording.append(NewEvent(appSeq: Int64(index), time: time, kind: .snapshot, label: "coalesced"),
                                 stateAfter: state, forceKeyframe: true)
            default:
                let inside = index > 10 && index < 15
                let before = state
                state = index % 2 == 0 ? ["n": .int(Int64(index)), "tag": "even"] : ["n": .int(Int64(index))]
                recording.append(NewEvent(appSeq: Int64(index), time: time, label: "set",
                                          action: ["n": .int(Int64(index))],
                                          patch: inside ? nil : JSONPatch.diff(from: before, to: state),
                                          meaning: RowMeaning(unknownState: inside ? unknown : nil)),
                                 stateAfter: state)
            }
        }
        recording.finish(endState: .clean)
        return recording.id
    }

    @Test("values after each asked event, in the order asked: the value, — absent, unknown inside a dropped range")
    func valuesFromTheFile() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-values-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = try writeSession(in: directory)
        let source = SessionTimelineSource(store: try SessionStore(directory: directory), daemon: nil, only: id)
        let pointers = [try JSONPointer("/n"), try JSONPointer("/tag")]
        let values = try source.values(session: id.rawValue, pointers: pointers, after: [20, 3, 0, 12, 15, 4],
                                       progress: TimelineSearchProgress())
        #expect(values == [
            [.value(20), .value("even")],
            [.value(3), .absent],
            [.value(0), .absent],
            [.unknown, .unknown],  // inside the dropped range
            [.value(15), .absent],  // the snapshot
            [.value(4), .value("even")],
        ])
        let cancelled = TimelineSearchProgress()
        cancelled.cancel()
        #expect(throws: TimelineSearchProgress.Cancelled.self) {
            _ = try source.values(session: id.rawValue, pointers: pointers, after: [1, 2], progress: cancelled)
        }
    }

    @Test("the history of a node, limited to the newest changes or whole, matches the session's changes")
    func limitedHistory() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-values-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = try writeSession(in: directory)
        let source = SessionTimelineSource(store: try SessionStore(directory: directory), daemon: nil, only: id)
        let pointer = try JSONPointer("/n")
        let whole = try source.history(session: id.rawValue, pointer: pointer, through: 30, limit: nil)
        #expect(whole.first == 30 && whole.contains(15) && !whole.contains(10), "\(whole)")
        #expect(try source.history(session: id.rawValue, pointer: pointer, through: 30, limit: 3)
                == Array(whole.prefix(3)))
    }
}
