import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 22, "delete … of saved sessions" from the timeline, through the real `rewind` in tmux: on a data directory
/// holding two saved sessions, `x` in the sessions pane asks on the status line, `y` deletes the selected
/// session's files and the other session stays. (Refusals, cancelling and the footer's offer in every context:
/// `SessionDeletionTests`.)
@Suite("Deleting a saved session in the timeline (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct SessionDeletionTmuxTests {
    /// A saved session of `app` with `events` events, started `minutesAgo` minutes ago.
    private static func savedSession(_ store: SessionStore, app: String, events: Int, minutesAgo: Double) throws
        -> SessionID {
        let start = Date().addingTimeInterval(-minutesAgo * 60)
        let recording = try store.createSession(appName: app, protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: start)
        for index in 1...events {
            let value = JSONValue.int(Int64(index))
            recording.append(NewEvent(appSeq: Int64(index), time: start.timeIntervalSince1970 + Double(index),
                                      label: "tick", action: ["n": value]), stateAfter: ["n": value])
        }
        recording.finish(endState: .clean)
        return recording.id
    }

    @Test("x on a saved session asks 'Delete session … (app, N events)? y/n'; y removes its files, the other stays")
    func deleteWithConfirmation() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-delete-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try SessionStore(directory: data)
        let older = try Self.savedSession(store, app: "older", events: 3, minutesAgo: 10)
        let newer = try Self.savedSession(store, app: "newer", events: 5, minutesAgo: 5)
        let port = FreePort.next()
        let tmux = try Tmux(command: "\(Executables.path("rewind")) --port \(port) --data \(data.path)")
        defer { tmux.kill() }
        try #require(tmux.waitForScreen { $0.contains("ws://127.0.0.1:\(port)") && $0.contains("Sessions 2") } != nil,
                     "\(tmux.screen)")

        tmux.send("BTab")  // the sessions pane; the newest session is selected
        let pane = try #require(tmux.waitForScreen { Self.footer($0).contains("x Del delete") }, "\(tmux.screen)")
        #expect(pane.contains("\(newer.rawValue) 5 events"), "the newer session is shown: \(pane)")
        tmux.send("x")
        let asked = try #require(tmux.waitForScreen {
            $0.contains("Delete session \(newer.rawValue) (newer, 5 events)? y/n")
        }, "\(tmux.screen)")
        #expect(Self.footer(asked).contains("y delete  any other key keep"), "\(asked)")
        tmux.send("y")
        let deleted = try #require(tmux.waitForScreen {
            $0.contains("deleted session \(newer.rawValue) (newer, 5 events)")
        }, "\(tmux.screen)")
        #expect(deleted.contains("Sessions 1"), "\(deleted)")
        #expect(deleted.contains("\(older.rawValue) 3 events"), "the other session is selected: \(deleted)")
        #expect(!deleted.contains("○ newer"), "no longer listed: \(deleted)")

        let newerPath = store.fileURL(for: newer).path
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: newerPath + suffix), "\(newerPath + suffix)")
        }
        #expect(FileManager.default.fileExists(atPath: store.fileURL(for: older).path))
        #expect(try store.listSessions().map(\.id) == [older])
        #expect(try store.openSession(older).eventCount == 3)

        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind quit")
    }

    private static func footer(_ screen: String) -> String {
        String(screen.split(separator: "\n").last ?? "")
    }
}
