import Foundation
import Testing
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

/// Issue 22, "delete … of saved sessions" from the sessions pane: `x` (or Delete) asks on the status line, `y`
/// deletes, any other key keeps; live sessions, the session a timeline was opened on and timelines that do not own
/// their data directory (`rewind open`, attached viewers) neither offer the key nor accept it, and say why.
@Suite("Deleting saved sessions from the sessions pane")
struct SessionDeletionTests {
    /// One live session and three ended ones (listed live first: s-live, s-a, s-b, s-c).
    private func source(deletes: Bool = true) throws -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(connectedApps: 1, isRecording: true),
                                                deletesSessions: deletes)
        source.addSession(id: "s-live", appName: "live", startedAt: Fixtures.start, status: .live)
        for (offset, name) in ["a", "b", "c"].enumerated() {
            source.addSession(id: "s-\(name)", appName: "app-\(name)", startedAt: Fixtures.start - Double(offset + 1) * 60,
                              status: .ended)
        }
        for index in 1...1_204 { try source.append(session: "s-b", time: Fixtures.start + Double(index), label: "tick") }
        return source
    }

    private func frame(_ app: TimelineApp) -> [String] {
        app.renderFrame(width: 100, height: 30).lines
    }

    private func footer(_ app: TimelineApp) -> String {
        frame(app).last ?? ""
    }

    /// The app with the sessions pane focused and the session at `position` selected.
    private func sessionsPane(_ source: InMemoryTimelineDataSource, at position: Int,
                              initialSession: String? = nil) -> TimelineApp {
        let app = TimelineApp(dataSource: source, actions: NoActions(), initialSession: initialSession,
                              environment: [:], clock: { 0 })
        _ = frame(app)
        app.handle(.backTab)
        app.handle(.home)
        for _ in 0..<position { app.handle(.down) }
        return app
    }

    @Test("x asks on the status line, naming the session; y deletes it, selects its neighbour and says so")
    func confirmAndDelete() throws {
        let source = try source()
        let app = sessionsPane(source, at: 2)
        #expect(app.model.selectedSessionID == "s-b")
        #expect(footer(app).contains("x Del delete"), "\(footer(app))")
        app.handle(.character("x"))
        #expect(app.model.dialog == .confirmDelete(try #require(app.model.selectedSession)))
        let asked = frame(app)
        #expect(asked.contains { $0.hasPrefix(" Delete session s-b (app-b, 1,204 events)? y/n") }, "\(asked)")
        #expect(asked.last?.contains("y delete  any other key keep") == true, "\(asked.last ?? "")")
        app.handle(.character("y"))
        #expect(source.sessions().map(\.id) == ["s-live", "s-a", "s-c"])
        #expect(app.model.sessions.map(\.id) == ["s-live", "s-a", "s-c"], "the list is read again at once")
        #expect(app.model.selectedSessionID == "s-c", "the session listed after it is selected")
        #expect(app.model.focus == .sessions)
        #expect(app.model.status == StatusMessage("deleted session s-b (app-b, 1,204 events)"))
        #expect(frame(app).contains { $0.hasPrefix(" deleted session s-b (app-b, 1,204 events)") })
    }

    @Test("deleting the last session of the list selects the one before it; Delete works as x")
    func deleteTheLast() throws {
        let source = try source()
        let app = sessionsPane(source, at: 3)
        #expect(app.model.selectedSessionID == "s-c")
        app.handle(.delete)
        app.handle(.character("Y"))
        #expect(app.model.sessions.map(\.id) == ["s-live", "s-a", "s-b"])
        #expect(app.model.selectedSessionID == "s-b")
    }

    @Test("any key but y keeps the session (n, Esc, q, Enter) and says so")
    func anyOtherKeyKeeps() throws {
        let source = try source()
        let app = sessionsPane(source, at: 1)
        for key: Key in [.character("n"), .escape, .character("q"), .enter] {
            app.handle(.character("x"))
            #expect(app.model.dialog != nil)
            #expect(!app.handle(key), "\(key) does not quit: it answers the question")
            #expect(app.model.dialog == nil)
            #expect(app.model.status == StatusMessage("kept session s-a (only y deletes)"), "\(key)")
            #expect(source.sessions().count == 4)
            #expect(app.model.selectedSessionID == "s-a")
        }
    }

    @Test("a live session: the footer does not offer x, and x says why instead of asking")
    func liveRefused() throws {
        let source = try source()
        let app = sessionsPane(source, at: 0)
        #expect(app.model.selectedSessionID == "s-live")
        #expect(!footer(app).contains("x Del"), "\(footer(app))")
        app.handle(.character("x"))
        #expect(app.model.dialog == nil)
        let said = try #require(app.model.status)
        #expect(said.isError)
        #expect(said.text == "not deleting session s-live: it is live (its app is connected and being recorded); "
            + "it can be deleted once its app disconnects")
        #expect(source.sessions().count == 4)
    }

    @Test("a timeline that only views (rewind open, an attached viewer) and the session it was opened on: no x, and x says why")
    func viewOnlyRefused() throws {
        let viewer = sessionsPane(try source(deletes: false), at: 1)
        #expect(!footer(viewer).contains("x Del"), "\(footer(viewer))")
        viewer.handle(.character("x"))
        #expect(viewer.model.dialog == nil)
        #expect(viewer.model.status?.text.hasPrefix("not deleting session s-a: this timeline only views it") == true,
                "\(String(describing: viewer.model.status))")
        #expect(viewer.model.status?.text.contains("'rewind sessions --delete s-a'") == true)

        let opened = sessionsPane(try source(), at: 1, initialSession: "s-a")
        #expect(opened.model.selectedSessionID == "s-a")
        #expect(!footer(opened).contains("x Del"), "\(footer(opened))")
        opened.handle(.character("x"))
        #expect(opened.model.dialog == nil)
        #expect(opened.model.status?.isError == true)
        opened.handle(.down)
        #expect(footer(opened).contains("x Del delete"), "another session of the same timeline: \(footer(opened))")
    }

    @Test("x in the timeline and detail panes does nothing (the key belongs to the sessions pane)")
    func onlyInTheSessionsPane() throws {
        let source = try source()
        let app = TimelineApp(dataSource: source, actions: NoActions(), environment: [:], clock: { 0 })
        _ = frame(app)
        for _ in 0..<2 {
            app.handle(.character("x"))
            app.handle(.delete)
            #expect(app.model.dialog == nil && app.model.status == nil)
            app.handle(.tab)
        }
        #expect(source.sessions().count == 4)
    }

    // MARK: - Session files

    private static func finishedSession(_ store: SessionStore, app: String, events: Int) throws -> SessionID {
        let recording = try store.createSession(appName: app, protocolVersion: 1, initialState: ["n": 0])
        let start = Date().timeIntervalSince1970
        for index in 0..<events {
            recording.append(NewEvent(appSeq: Int64(index + 1), time: start + Double(index), label: "tick",
                                      action: ["n": .int(Int64(index))]), stateAfter: ["n": .int(Int64(index))])
        }
        recording.finish(endState: .clean)
        return recording.id
    }

    @Test("session files: y removes the file and the -wal/-shm beside it, the others stay readable; one recorded by another process is refused; one removed meanwhile says it is gone")
    func sessionFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let kept = try Self.finishedSession(store, app: "kept", events: 3)
        let doomed = try Self.finishedSession(store, app: "doomed", events: 5)
        let recording = try store.createSession(appName: "recorded", protocolVersion: 1, initialState: [:])
        defer { recording.finish(endState: .clean) }
        let source = SessionTimelineSource(store: store, daemon: nil, deletesSessions: true)
        let app = TimelineApp(dataSource: source, actions: NoActions(), environment: [:], clock: { 0 })
        _ = frame(app)
        app.handle(.backTab)
        // Listed: the one being recorded (live) first, then the saved ones newest first.
        #expect(app.model.sessions.map(\.id) == [recording.id.rawValue, doomed.rawValue, kept.rawValue])
        #expect(app.model.selectedSessionID == recording.id.rawValue)
        app.handle(.character("x"))
        #expect(app.model.status?.text.contains("it is live (another rewind is recording it)") == true,
                "\(String(describing: app.model.status))")

        app.handle(.down)
        _ = frame(app)  // reads the session: the source holds a connection to its file
        let path = store.fileURL(for: doomed).path
        app.handle(.character("x"))
        #expect(frame(app).contains { $0.hasPrefix(" Delete session \(doomed.rawValue) (doomed, 5 events)? y/n") })
        app.handle(.character("y"))
        #expect(app.model.status == StatusMessage("deleted session \(doomed.rawValue) (doomed, 5 events)"))
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(path + suffix)")
        }
        #expect(app.model.sessions.map(\.id) == [recording.id.rawValue, kept.rawValue])
        #expect(app.model.selectedSessionID == kept.rawValue)
        #expect(try store.openSession(kept).eventCount == 3)
        #expect(frame(app).contains { $0.contains("kept") && $0.contains("3 ev") })

        // Removed by something else between the question and the answer.
        app.handle(.character("x"))
        try store.deleteSession(kept)
        app.handle(.character("y"))
        #expect(app.model.status == StatusMessage(
            "session \(kept.rawValue) is gone already: its file was removed by something else", isError: true))
        #expect(app.model.sessions.map(\.id) == [recording.id.rawValue])
    }

    /// Makes `file` impossible to remove: its directory read-only for a user, the file immutable (`chattr +i`)
    /// for root, whom directory permissions do not stop. Returns how to undo it, or nil when neither works here.
    private static func protect(_ file: URL) -> (() -> Void)? {
        let directory = file.deletingLastPathComponent().path
        if getuid() != 0 {
            guard chmod(directory, 0o500) == 0 else { return nil }
            return { chmod(directory, 0o700) }
        }
        func chattr(_ flag: String) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            process.arguments = [flag, file.path]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"), chattr("+i") else { return nil }
        return { _ = chattr("-i") }
    }

    /// Whether ``protect(_:)`` works on this machine's temporary directory (as root it needs `chattr` and a file
    /// system that supports the immutable flag; tmpfs does not).
    static let canProtectFiles: Bool = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("probe")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: file.path, contents: Data()), let undo = protect(file) else {
            return false
        }
        undo()
        return true
    }()

    @Test("a session file that cannot be removed: the status line says why, the session stays listed and readable",
          .enabled(if: canProtectFiles, "no read-only directory or chattr +i can protect a file here"))
    func fileThatCannotBeRemoved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-tui-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let stuck = try Self.finishedSession(store, app: "stuck", events: 2)
        let undo = try #require(Self.protect(store.fileURL(for: stuck)),
                                "neither a read-only directory nor chattr +i can protect a file here")
        defer { undo() }
        let source = SessionTimelineSource(store: store, daemon: nil, deletesSessions: true)
        let app = TimelineApp(dataSource: source, actions: NoActions(), environment: [:], clock: { 0 })
        _ = frame(app)
        app.handle(.backTab)
        app.handle(.character("x"))
        app.handle(.character("y"))
        let said = try #require(app.model.status)
        #expect(said.isError)
        #expect(said.text.hasPrefix("cannot delete session \(stuck.rawValue): cannot write \(store.fileURL(for: stuck).path): "),
                "\(said.text)")
        #expect(said.text.hasSuffix("Operation not permitted") || said.text.hasSuffix("Permission denied"), "\(said.text)")
        #expect(app.model.sessions.map(\.id) == [stuck.rawValue])
        #expect(try store.openSession(stuck).eventCount == 2)
    }
}
