import Foundation
import Testing
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

@Suite("Session files as a timeline source")
struct SessionTimelineSourceTests {
    /// A saved counter session: five `add` actions, then skip toggles as the daemon records them (event 2 skipped,
    /// a recomputed branch, event 4 skipped, event 2 un-skipped).
    private func savedSession(in directory: URL) throws -> (SessionStore, SessionID) {
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "counter", protocolVersion: 1, initialState: ["count": 0])
        let start = Date().timeIntervalSince1970
        for value in 1...5 {
            recording.append(NewEvent(appSeq: Int64(value), time: start + Double(value), label: "add",
                                      action: ["type": "add"],
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: .int(Int64(value)))])),
                             stateAfter: ["count": .int(Int64(value))])
        }
        recording.append(NewEvent(time: start + 10, kind: .skip, label: "skip",
                                  detail: "event 2 (add) skipped; the states after event 1 recomputed on branch 1",
                                  meaning: RowMeaning(skip: SkipMark(event: 2, skipped: true))),
                         stateAfter: ["count": 5])
        recording.append(NewEvent(time: start + 10, kind: .action, label: "add", action: ["type": "add"],
                                  detail: "recomputes event 3", branch: 1, meaning: RowMeaning(recomputes: 3)),
                         stateAfter: ["count": 2])
        recording.append(NewEvent(time: start + 11, kind: .skip, label: "skip",
                                  detail: "event 4 (add) skipped; the states after event 1 recomputed on branch 2",
                                  meaning: RowMeaning(skip: SkipMark(event: 4, skipped: true))),
                         stateAfter: ["count": 5])
        recording.append(NewEvent(time: start + 12, kind: .skip, label: "unskip",
                                  detail: "event 2 (add) no longer skipped; the states after event 3 recomputed on branch 3",
                                  meaning: RowMeaning(skip: SkipMark(event: 2, skipped: false))),
                         stateAfter: ["count": 5])
        recording.append(NewEvent(time: start + 13, kind: .note, label: "skip", detail: "event 5 is only a note"),
                         stateAfter: ["count": 5])
        recording.finish(endState: .clean)
        return (store, recording.id)
    }

    @Test("actions skipped by the recorded skip toggles are marked; un-skipped ones and other rows are not")
    func skippedRows() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, id) = try savedSession(in: directory)
        let source = SessionTimelineSource(store: store, daemon: nil, only: id)
        let session = try #require(source.sessions().first)
        #expect(session.eventCount == 10)
        let rows = try source.events(session: id.rawValue, range: 1...10)
        #expect(rows.filter(\.isSkipped).map(\.index) == [4])
        #expect(rows.first { $0.index == 6 }?.kind == .skip)
        #expect(rows.filter { $0.branch != 0 }.map(\.index) == [7], "the recomputed row is read too")
        #expect(rows.first { $0.index == 7 }?.recomputes == 3)
        #expect(try source.event(session: id.rawValue, index: 4).isSkipped)
        #expect(try !source.event(session: id.rawValue, index: 2).isSkipped)
        #expect(try !source.event(session: id.rawValue, index: 5).isSkipped)
    }

    @Test("a skipped row of a session file renders with the ~ marker, dimmed")
    func skippedRowRenders() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, id) = try savedSession(in: directory)
        let source = SessionTimelineSource(store: store, daemon: nil, only: id)
        let app = TimelineApp(dataSource: source, actions: NoActions(), initialSession: id.rawValue,
                              environment: [:], clock: { 0 })
        let frame = app.renderFrame(width: 100, height: 30)
        let row = try #require(frame.lines.firstIndex { $0.hasPrefix("   4 ") })
        #expect(frame.lines[row].contains("~ add"))
        #expect(frame[row, 20].style.dim)
        let plain = try #require(frame.lines.firstIndex { $0.hasPrefix("   2 ") })
        #expect(!frame.lines[plain].contains("~"))
    }
}
