import Foundation
import Testing
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// Issue 18, "the record tells the truth", as the timeline shows a session file: branch rows read like any row
/// and carry their own branch's state; states inside a `dropped` range are unknown, never "no change"; times
/// never run backwards.
@Suite("The timeline tells the truth about a session file")
struct RecordedTruthTests {
    /// A counter session recorded the way the daemon records one (times relative to `Fixtures.start`, the
    /// session's start, i.e. its connection):
    ///
    /// | # | branch | what | time | count after |
    /// |---|---|---|---|---|
    /// | 1, 2 | 0 | `add` 1, 2, dispatched before the app connected | −0.5, −0.2 | 1, 3 |
    /// | 3 | 0 | `add` 3 | +0.1 | 6 |
    /// | 4 | 0 | the app's `dropped` row (states of actions 4–5 not sent) | +1.0 | 6 |
    /// | 5, 6 | 0 | `add` 4, 5 without patch: state unknown | +0.9, +0.95 | (6 recorded) |
    /// | 7 | 0 | `coalesced` snapshot | +1.1 | 15 |
    /// | 8 | 0 | `add` 6 | +2 | 21 |
    /// | 9 | 0 | `skip` of event 2 | +3 | 21 |
    /// | 10 | 1 | `recomputed` note (the state after event 1) | +3 | 1 |
    /// | 11–14 | 1 | `add` 3, 4, 5, 6 recomputing events 3, 5, 6, 8 | +3 | 4, 8, 13, 19 |
    /// | 15 | 0 | the app's `replay` snapshot | +3.1 | 19 |
    /// | 16 | 0 | `reconnect` (the daemon's clock) | +10 | 19 |
    /// | 17 | 0 | `add` 7, dispatched while disconnected | +9.5 | 26 |
    /// | 18 | 0 | `add` 8 | +10.2 | 34 |
    static func recordedSession(in directory: URL) throws -> (SessionStore, SessionID) {
        let store = try SessionStore(directory: directory)
        let start = Fixtures.start
        let recording = try store.createSession(appName: "counter", protocolVersion: 1, initialState: ["count": 0],
                                                startedAt: Date(timeIntervalSince1970: start))
        func count(_ value: Int) -> JSONValue { ["count": .int(Int64(value))] }
        func set(_ value: Int) -> JSONPatch {
            JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: .int(Int64(value)))])
        }
        // The daemon's rows say what they mean: rows 5 and 6 have no state (row 4 said why).
        let droppedStates = UnknownStateMark(reason: .dropped, cause: 4)
        func add(_ amount: Int, at time: Double, to value: Int?, branch: Int64 = 0, recomputes: Int? = nil,
                 dispatchedBeforeConnecting: Bool = false) {
            let after = value ?? 6
            recording.append(NewEvent(appSeq: branch == 0 ? Int64(amount) : nil, time: start + time, label: "add",
                                      action: ["add": .int(Int64(amount))], patch: value.map(set),
                                      detail: recomputes.map { "recomputes event \($0)" }, branch: branch,
                                      meaning: RowMeaning(unknownState: value == nil ? droppedStates : nil,
                                                          recomputes: recomputes.map(Int64.init),
                                                          beforeConnect: dispatchedBeforeConnecting)),
                             stateAfter: count(after))
        }
        add(1, at: -0.5, to: 1, dispatchedBeforeConnecting: true)
        add(2, at: -0.2, to: 3, dispatchedBeforeConnecting: true)
        add(3, at: 0.1, to: 6)
        recording.append(NewEvent(time: start + 1, kind: .dropped, label: "dropped",
                                  detail: "the app's outbox was full: states of actions 4–5 were not sent; "
                                      + "a snapshot follows"), stateAfter: count(6))
        add(4, at: 0.9, to: nil)
        add(5, at: 0.95, to: nil)
        recording.append(NewEvent(appSeq: 5, time: start + 1.1, kind: .snapshot, label: "coalesced",
                                  detail: "full state (the previous one was unknown)"),
                         stateAfter: count(15), forceKeyframe: true)
        add(6, at: 2, to: 21)
        recording.append(NewEvent(time: start + 3, kind: .skip, label: "skip",
                                  detail: "event 2 (add) skipped; the states after event 1 recomputed on branch 1",
                                  meaning: RowMeaning(skip: SkipMark(event: 2, skipped: true))),
                         stateAfter: count(21))
        recording.append(NewEvent(time: start + 3, kind: .note, label: "recomputed",
                                  detail: "branch 1: the main line from the state after event 1, without event 2",
                                  branch: 1), stateAfter: count(1))
        for (amount, recomputed, value) in [(3, 3, 4), (4, 5, 8), (5, 6, 13), (6, 8, 19)] {
            add(amount, at: 3, to: value, branch: 1, recomputes: recomputed)
        }
        recording.append(NewEvent(time: start + 3.1, kind: .replay, label: "replay", patch: set(19)),
                         stateAfter: count(19))
        recording.append(NewEvent(time: start + 10, kind: .reconnect, label: "reconnect", detail: "the app reconnected"),
                         stateAfter: count(19))
        add(7, at: 9.5, to: 26, dispatchedBeforeConnecting: true)
        add(8, at: 10.2, to: 34)
        recording.finish(endState: .clean)
        return (store, recording.id)
    }

    /// A timeline over the recorded session, 200×50 (the detail pane on the right), its cursor on event `index` with the detail tab `tab`.
    private func frame(at index: Int, tab: Character = "1", in directory: URL) throws -> ScreenBuffer {
        let (store, id) = try Self.recordedSession(in: directory)
        let app = TimelineApp(dataSource: SessionTimelineSource(store: store, daemon: nil, only: id),
                              actions: NoActions(), initialSession: id.rawValue, environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 200, height: 50)
        _ = app.handle(.character("g"))
        for _ in 0..<index { _ = app.handle(.down) }
        _ = app.handle(.character(tab))
        return app.renderFrame(width: 200, height: 50)
    }

    private func controller(in directory: URL) throws -> TimelineController {
        let (store, id) = try Self.recordedSession(in: directory)
        // As the daemon's timeline sees the session while its app is connected (the refusals below are per row).
        let source = AppConnectedSource(SessionTimelineSource(store: store, daemon: nil, only: id))
        var controller = TimelineController(dataSource: source, initialSession: id.rawValue, clock: { 0 })
        controller.resize(width: 120, height: 40)
        controller.refresh()
        return controller
    }

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rewind-truth-\(UUID().uuidString)")
    }

    /// The timeline pane's part of the row of event `index` (right-aligned in a 4-column index field).
    private func row(_ index: Int, of frame: ScreenBuffer) -> String? {
        let prefix = String(repeating: " ", count: max(0, 4 - String(index).count)) + "\(index) "
        return frame.lines.first { $0.hasPrefix(prefix) }.map { String($0.prefix { $0 != "│" }) }
    }

    // MARK: - Branch rows (issue 18, defect 2)

    @Test("a branch row reads like any other row: time, ↳ #K with the event it recomputes, label, branch, ops")
    func branchRowsRender() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frame = try frame(at: 12, in: directory)
        let line = try #require(row(12, of: frame))
        #expect(line.contains("+3.000s"), "\(line)")
        #expect(line.contains("↳ #5 add  (branch 1)"), "\(line)")
        #expect(String(line.dropLast(SessionMapView.width)).trimmingCharacters(in: .whitespaces).hasSuffix("1"),
                "the ops column shows the patch size: \(line)")
        let note = try #require(row(10, of: frame))
        #expect(note.contains("N ↳ recomputed  branch 1: the main line from"), "\(note)")
        #expect(frame.text.contains("recomputes #5"), "the Action tab names the event recomputed")
    }

    @Test("the source returns every branch's rows, each naming the main-line event it recomputes")
    func branchRowsAreRead() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, id) = try Self.recordedSession(in: directory)
        let source = SessionTimelineSource(store: store, daemon: nil, only: id)
        let rows = try source.events(session: id.rawValue, range: 1...18)
        #expect(rows.map(\.index) == Array(1...18))
        #expect(rows.filter { $0.branch == 1 }.map(\.index) == [10, 11, 12, 13, 14])
        #expect(rows.filter { $0.branch == 1 }.map(\.recomputes) == [nil, 3, 5, 6, 8])
        #expect(rows.filter(\.isSkipped).map(\.index) == [2])
    }

    // MARK: - A branch row's state (issue 18, defect 1, the timeline's part)

    @Test("the State tab of a branch row shows its branch's state, not the main line's at the same index")
    func branchRowState() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frame = try frame(at: 12, tab: "3", in: directory)
        #expect(frame.text.contains("count: 8"), "branch 1 after recomputing event 5 holds 8")
        #expect(!frame.text.contains("count: 21"), "the main line's state at #12 is not shown")
        #expect(frame.text.contains("↳ branch 1: recomputes #5"))
    }

    @Test("the Diff tab of a branch row starts from its branch's previous state; a main row after a branch from the main line's")
    func branchRowDiff() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let branchFrame = try frame(at: 12, tab: "2", in: directory)
        #expect(branchFrame.text.contains("~ count: 4 → 8"), "\(branchFrame.text)")
        let mainFrame = try frame(at: 15, tab: "2", in: directory)
        #expect(mainFrame.text.contains("~ count: 21 → 19"), "the replay's diff starts from the main line")
    }

    // MARK: - Dropped ranges (issue 18, defect 4)

    @Test("rows inside a dropped range are marked state unknown; the dropped row and the snapshot after are not")
    func droppedRangeRows() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frame = try frame(at: 0, in: directory)
        for index in [5, 6] {
            let line = try #require(row(index, of: frame))
            #expect(line.contains("? add  state unknown"), "\(line)")
            #expect(String(line.dropLast(SessionMapView.width)).trimmingCharacters(in: .whitespaces).hasSuffix("?"),
                    "ops unknown: \(line)")
        }
        for index in [3, 4, 7, 8] {
            #expect(row(index, of: frame)?.contains("state unknown") == false, "event \(index)")
        }
        let dropped = try #require(frame.lines.firstIndex { $0.hasPrefix("   4 ") })
        let unknown = try #require(frame.lines.firstIndex { $0.hasPrefix("   5 ") })
        let markerColumn = try #require(Array(frame.lines[unknown]).firstIndex(of: "?"))
        #expect(frame[unknown, markerColumn].style.underline, "the ? marker has the unknown style")
        #expect(frame.lines[dropped].contains("D dropped"))
    }

    /// A raw app's session, being recorded: actions 1 and 2 of a counter (`inc`, `{"count": n}`), at start + 1 and + 2.
    private static func rawCounterSession(in directory: URL) throws -> (SessionStore, SessionRecording) {
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "raw", protocolVersion: 1, initialState: ["count": 0],
                                                startedAt: Date(timeIntervalSince1970: Fixtures.start))
        for value in 1...2 {
            recording.append(NewEvent(appSeq: Int64(value), time: Fixtures.start + Double(value), label: "inc",
                                      action: ["inc": [:]], patch: set(value)), stateAfter: ["count": .int(Int64(value))])
        }
        return (store, recording)
    }

    /// The patch that sets the counter to `value`.
    private static func set(_ value: Int) -> JSONPatch {
        JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: .int(Int64(value)))])
    }

    @Test("an action whose patch did not apply is unknown in the timeline, as rewind state says (issue 29's defect)")
    func patchFailedActionIsUnknown() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, recording) = try Self.rawCounterSession(in: directory)
        let start = Fixtures.start
        // As the daemon records it: action 3 without its patch (it did not apply), then the error row; both say
        // their state is unknown, made so by the error row.
        let patchFailed = RowMeaning(unknownState: UnknownStateMark(reason: .patchFailed, cause: 4))
        recording.append(NewEvent(appSeq: 3, time: start + 3, label: "inc", action: ["inc": [:]], meaning: patchFailed),
                         stateAfter: ["count": 2])
        recording.append(NewEvent(time: start + 3, kind: .error, label: "patch_failed",
                                  detail: "the patch of event 3 (action 3) does not apply", meaning: patchFailed),
                         stateAfter: ["count": 2])
        recording.append(NewEvent(appSeq: 3, time: start + 4, kind: .snapshot, label: "resync"),
                         stateAfter: ["count": 3], forceKeyframe: true)
        recording.append(NewEvent(appSeq: 4, time: start + 5, label: "inc", action: ["inc": [:]], patch: Self.set(4)),
                         stateAfter: ["count": 4])
        recording.finish(endState: .clean)
        let id = recording.id
        #expect(try store.openSession(id).unknownState(after: 3) != nil, "what rewind state and the daemon say")

        let app = TimelineApp(dataSource: SessionTimelineSource(store: store, daemon: nil, only: id),
                              actions: NoActions(), initialSession: id.rawValue, environment: [:], clock: { 0 })
        _ = app.renderFrame(width: 200, height: 50)
        _ = app.handle(.character("g"))
        for _ in 0..<3 { _ = app.handle(.down) }
        _ = app.handle(.character("3"))
        let frame = app.renderFrame(width: 200, height: 50)
        #expect(row(3, of: frame)?.contains("state unknown") == true, "\(row(3, of: frame) ?? "")")
        #expect(frame.text.contains("state unknown: not recorded"), "\(frame.text)")
        #expect(!frame.text.contains("count: 2"), "not the state before, as if it were known")
        #expect(row(2, of: frame)?.contains("state unknown") == false)
        #expect(row(5, of: frame)?.contains("state unknown") == false, "the resync snapshot is known again")
    }

    @Test("after a message out of order the tabs and the refusal to jump say so, not 'inside a dropped range'")
    func outOfOrderStretchNamesItsCause() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, recording) = try Self.rawCounterSession(in: directory)
        let start = Fixtures.start
        // As the daemon records it: the error row, then an action whose state it cannot tell, until the resync.
        let outOfOrder = RowMeaning(unknownState: UnknownStateMark(reason: .outOfOrder, cause: 3))
        recording.append(NewEvent(time: start + 3, kind: .error, label: "out_of_order",
                                  detail: "action 5 came before action 4", meaning: outOfOrder), stateAfter: ["count": 2])
        recording.append(NewEvent(appSeq: 5, time: start + 4, label: "inc", action: ["inc": [:]], meaning: outOfOrder),
                         stateAfter: ["count": 2])
        recording.append(NewEvent(appSeq: 5, time: start + 5, kind: .snapshot, label: "resync"),
                         stateAfter: ["count": 5], forceKeyframe: true)
        recording.finish(endState: .clean)
        let id = recording.id

        for tab: Character in ["1", "2", "3"] {
            let app = TimelineApp(dataSource: SessionTimelineSource(store: store, daemon: nil, only: id),
                                  actions: NoActions(), initialSession: id.rawValue, environment: [:], clock: { 0 })
            _ = app.renderFrame(width: 200, height: 50)
            _ = app.handle(.character("g"))
            for _ in 0..<4 { _ = app.handle(.down) }
            _ = app.handle(.character(tab))
            let text = app.renderFrame(width: 200, height: 50).text
            #expect(text.contains("out of order"), "tab \(tab): \(text)")
            #expect(!text.contains("dropped range"), "tab \(tab): \(text)")
        }
        let source = AppConnectedSource(SessionTimelineSource(store: store, daemon: nil, only: id))
        var controller = TimelineController(dataSource: source, initialSession: id.rawValue, clock: { 0 })
        controller.resize(width: 120, height: 40)
        controller.refresh()
        _ = controller.handle(.character("g"))
        for _ in 0..<4 { _ = controller.handle(.down) }
        #expect(controller.handle(.enter).isEmpty, "no jump into an unknown state")
        let refusal = controller.model.status?.text ?? ""
        #expect(refusal.contains("after a message that came out of order"), "\(refusal)")
        #expect(!refusal.contains("dropped range"), "\(refusal)")
    }

    @Test("inside a dropped range the Diff and State tabs say the state is unknown, not 'no change' or the state before")
    func droppedRangeDetail() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let diff = try frame(at: 5, tab: "2", in: directory)
        #expect(diff.text.contains("state unknown: not recorded"))
        #expect(!diff.text.contains("(no change to the state)"))
        let state = try frame(at: 6, tab: "3", in: directory)
        #expect(state.text.contains("state unknown: not recorded"))
        #expect(!state.text.contains("count: 6"), "the state before the range is not shown as this event's")
        let after = try frame(at: 7, tab: "3", in: directory)
        #expect(after.text.contains("count: 15"), "the snapshot's state is known again")
    }

    @Test("jump, step, skip and replay refuse targets whose state was not recorded, and say why")
    func droppedRangeTargets() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var controller = try controller(in: directory)
        _ = controller.handle(.character("g"))
        for _ in 0..<5 { _ = controller.handle(.down) }
        #expect(controller.model.cursor == 5)
        #expect(controller.handle(.enter).isEmpty, "no jump into an unknown state")
        #expect(controller.model.status?.isError == true)
        #expect(controller.model.status?.text.contains("unknown") == true)
        #expect(controller.handle(.character("s")) == [.skip(session: controller.model.selectedSessionID!, index: 5)],
                "the range's first action can be skipped: the state before it is known")
        #expect(controller.handle(.character(">")).isEmpty, "stepping into the range moves but does not jump")
        #expect(controller.model.cursor == 6)
        #expect(controller.model.status?.text.contains("unknown") == true)
        #expect(controller.handle(.character("s")).isEmpty)
        #expect(controller.model.status?.text.contains("cannot skip event 6") == true)
        #expect(controller.handle(.character("r")).isEmpty)
        #expect(controller.model.status?.text.contains("cannot replay from event 6") == true)
        let id = controller.model.selectedSessionID!
        #expect(controller.handle(.character(">")) == [.jump(session: id, index: 7)], "the snapshot is known")
        #expect(controller.handle(.character("<")) == [], "back into the range: no jump")
        #expect(controller.handle(.character("<")) == [], "#5 is unknown too")
        #expect(controller.handle(.character("<")) == [.jump(session: id, index: 4)], "the dropped row itself is known")
    }

    @Test("skip and replay on a branch row explain that they work on the main line")
    func branchRowTargets() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var controller = try controller(in: directory)
        _ = controller.handle(.character("g"))
        for _ in 0..<12 { _ = controller.handle(.down) }
        #expect(controller.handle(.character("s")).isEmpty)
        #expect(controller.model.status?.text.contains("select #5 to skip the original") == true)
        #expect(controller.handle(.character("r")).isEmpty)
        #expect(controller.model.status?.text.contains("recomputed row of branch 1") == true)
    }

    // MARK: - Times (issue 18, defect 5)

    @Test("events dispatched before the app (re)connected say 'before connect' instead of running backwards")
    func beforeConnect() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frame = try frame(at: 0, in: directory)
        #expect(row(1, of: frame)?.contains("before connect   add") == true, "\(row(1, of: frame) ?? "")")
        #expect(row(2, of: frame)?.contains("before connect") == true)
        #expect(row(3, of: frame)?.contains("+0.100s") == true)
        #expect(row(16, of: frame)?.contains("+10.000s") == true)
        #expect(row(17, of: frame)?.contains("before connect") == true, "queued while the daemon was away")
        #expect(row(18, of: frame)?.contains("+10.200s") == true)
        #expect(!frame.text.contains("-0."), "no negative time")
        #expect(row(4, of: frame)?.contains("+0.900s D dropped") == true,
                "the dropped row is placed where its range began, not when the daemon heard of it")
        let detail = try self.frame(at: 17, in: directory)
        #expect(detail.text.contains("dispatched before the app connected"))
    }

    // MARK: - The in-memory source follows the same rules

    @Test("in memory, a patch applies to the state of its own branch, and rows say what they were recorded as meaning")
    func inMemoryBranches() throws {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: "s", appName: "counter", startedAt: Fixtures.start, initialState: ["count": 0])
        func set(_ value: Int) -> JSONPatch {
            JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: .int(Int64(value)))])
        }
        try source.append(session: "s", time: Fixtures.start - 1, label: "set", patch: set(1),
                          meaning: RowMeaning(beforeConnect: true))
        try source.append(session: "s", time: Fixtures.start + 1, kind: .note, label: "recomputed", branch: 1,
                          stateAfter: ["count": 10, "branch": true])
        try source.append(session: "s", time: Fixtures.start + 1, label: "set", patch: set(11),
                          detail: "recomputes event 1", branch: 1, meaning: RowMeaning(recomputes: 1))
        try source.append(session: "s", time: Fixtures.start + 2, label: "set", patch: set(3))
        #expect(try source.state(session: "s", index: 3) == ["count": 11, "branch": true])
        #expect(try source.stateBefore(session: "s", index: 3) == ["count": 10, "branch": true])
        #expect(try source.state(session: "s", index: 4) == ["count": 3], "the main line's patch applies to the main line")
        #expect(try source.stateBefore(session: "s", index: 4) == ["count": 1])
        #expect(try source.stateBefore(session: "s", index: 2) == nil, "a branch has no state before its first row")
        let rows = try source.events(session: "s", range: 1...4)
        #expect(rows.map(\.recomputes) == [nil, nil, 1, nil])
        #expect(rows.map(\.beforeConnect) == [true, false, false, false])
    }

    @Test("a dropped row given how many actions were lost shows the count")
    func lostActions() throws {
        let source = InMemoryTimelineDataSource()
        source.addSession(id: "s", appName: "stress", startedAt: Fixtures.start, initialState: ["count": 0])
        try source.append(session: "s", time: Fixtures.start + 1, kind: .dropped, label: "dropped",
                          detail: "the app's outbox was full: states of actions 4–9,000 were not sent and 1,234 "
                              + "actions were lost; a snapshot follows",
                          meaning: RowMeaning(lost: LostActions(from: 7_767, to: 9_000, count: 1_234)))
        try source.append(session: "s", time: Fixtures.start + 0.5, label: "add", meaning: .unknown(.dropped, cause: 1))
        let rows = try source.events(session: "s", range: 1...2)
        #expect(rows.map(\.lostActions) == [1_234, nil])
        #expect(rows.map(\.stateUnknown) == [false, true])
        #expect(rows.map(\.time) == [Fixtures.start + 0.5, Fixtures.start + 0.5],
                "the dropped row is placed where its range began")
        let app = TimelineApp(dataSource: source, actions: NoActions(), initialSession: "s", environment: [:],
                              clock: { 0 })
        let frame = app.renderFrame(width: 200, height: 30)
        let line = try #require(frame.lines.first { $0.hasPrefix("   1 ") })
        #expect(line.contains("D dropped  1,234 actions lost  the app's outbox was full"), "\(line)")
    }
}
