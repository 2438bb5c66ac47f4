import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// A session deleted while the daemon that recorded it still runs (the timeline's sessions pane, `x`, or
/// `rewind sessions --delete`): when its app run connects again, the daemon records it in a new session instead of
/// refusing it for the file it cannot reopen.
@Suite("Deleted sessions and reconnecting apps")
struct DeletedSessionReconnectTests {
    @Test("an app whose ended session was deleted reconnects into a new session, recorded as usual")
    func reconnectAfterDeletion() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let hello = AppFrames.hello(name: "returning", instance: "returning-run")
        let first = try DaemonPeer(port: harness.port)
        let id = try SessionID(validating: try #require(try first.hello(hello)))
        try first.send(AppFrames.action(seq: 1))
        let live = try #require(harness.daemon.session(id))
        #expect(ProcessResources.settle { live.committedIndex >= 1 })
        try first.raw.sendClose(code: 1000)
        _ = try? first.raw.readCloseCode()
        // Deleted once its recording has finished (until then its lock refuses: `sessionInUse`).
        #expect(ProcessResources.settle { !live.isLive && (try? harness.daemon.store.deleteSession(id)) != nil })

        // The app comes back as a reconnecting inspector does: its hello carries its state and its last action's
        // number; the numbers on the new connection start at 1.
        let again = try DaemonPeer(port: harness.port)
        try again.send(AppFrames.hello(name: "returning", instance: "returning-run", count: 1)
            .replacingOccurrences(of: #"{"type":"hello","#, with: #"{"type":"hello","seq":1,"#))
        let welcome = try again.next()
        #expect(welcome["type"] == "welcome", "\(welcome)")
        let newID = try SessionID(validating: try #require(welcome["session"]?.stringValue, "\(welcome)"))
        #expect(newID != id)
        #expect(welcome["resumed"] == false)
        try again.send(AppFrames.action(seq: 1, count: 2))
        let session = try #require(harness.daemon.session(newID))
        #expect(ProcessResources.settle { session.committedIndex >= 1 })
        #expect(try harness.lastRecordedState(session, until: { $0 == ["count": 2] }) == ["count": 2])
        // Its action 1 was recorded in the deleted session only: the new one says so (`lost`), then records on.
        let rows = try harness.daemon.store.openSession(newID).events(1...max(1, session.committedIndex))
        #expect(rows.map(\.kind) == [.dropped, .action], "\(rows.map(\.kind))")
        #expect(try harness.daemon.store.listSessions().map(\.id) == [newID])
    }

    @Test("after a daemon restart, an app whose saved session was deleted meanwhile is recorded in a new session")
    func reconnectAfterRestartAndDeletion() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let hello = AppFrames.hello(name: "restarted", instance: "restarted-run")
        let before = try DaemonHarness(dataDirectory: data)
        let first = try DaemonPeer(port: before.port)
        let id = try SessionID(validating: try #require(try first.hello(hello)))
        try first.send(AppFrames.action(seq: 1))
        #expect(before.waitForSession(events: 1) != nil)
        before.stop()

        let after = try DaemonHarness(dataDirectory: data)
        defer { after.stop() }
        // The restarted daemon indexes the files at its start (another app's hello waits for that); the session
        // is deleted after that, before its app comes back.
        let other = try DaemonPeer(port: after.port)
        _ = try #require(try other.hello(AppFrames.hello(name: "other")))
        #expect(ProcessResources.settle { (try? after.daemon.store.deleteSession(id)) != nil })
        let again = try DaemonPeer(port: after.port)
        try again.send(hello)
        let welcome = try again.next()
        #expect(welcome["type"] == "welcome", "\(welcome)")
        #expect(welcome["resumed"] == false)
        let newID = try SessionID(validating: try #require(welcome["session"]?.stringValue, "\(welcome)"))
        #expect(newID != id)
        try again.send(AppFrames.action(seq: 2))
        let session = try #require(after.daemon.session(newID))
        #expect(ProcessResources.settle { session.committedIndex >= 1 })
    }
}
