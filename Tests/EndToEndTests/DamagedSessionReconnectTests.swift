import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 29: an app whose session file was damaged (its last event numbered near 2^63) reconnects; the daemon
/// records it in a new session instead of trapping on `last + 1`, and leaves the damaged file as it was.
@Suite("Damaged sessions and reconnecting apps")
struct DamagedSessionReconnectTests {
    /// Renumbers the session's last event `index`, as a hand-edited file would have it.
    private static func renumberLastEvent(of id: SessionID, in store: SessionStore, to index: Int64) throws {
        let database = try SQLiteDatabase(path: store.fileURL(for: id).path, mode: .readWrite)
        defer { database.close() }
        try database.execute("UPDATE events SET idx = \(index) WHERE idx = (SELECT max(idx) FROM events)")
    }

    /// The number of events in the file, read without the session reader.
    private static func eventRows(of id: SessionID, in store: SessionStore) throws -> Int64 {
        let database = try SQLiteDatabase(path: store.fileURL(for: id).path, mode: .readOnly)
        defer { database.close() }
        return try database.scalarInt64("SELECT count(*) FROM events") ?? -1
    }

    @Test("after a daemon restart, an app whose saved session ends at event 2^63 - 1 or - 2 is recorded in a new session",
          arguments: [Int64.max, Int64.max - 1])
    func reconnectAfterRestart(last: Int64) throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let hello = AppFrames.hello(name: "damaged", instance: "damaged-run")
        let before = try DaemonHarness(dataDirectory: data)
        let first = try DaemonPeer(port: before.port)
        let id = try SessionID(validating: try #require(try first.hello(hello)))
        try first.send(AppFrames.action(seq: 1))
        #expect(before.waitForSession(events: 1) != nil)
        before.stop()
        try Self.renumberLastEvent(of: id, in: before.daemon.store, to: last)
        let rows = try Self.eventRows(of: id, in: before.daemon.store)

        let after = try DaemonHarness(dataDirectory: data)
        defer { after.stop() }
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
        #expect(try Self.eventRows(of: id, in: after.daemon.store) == rows, "the damaged file is left as it was")
    }

    @Test("an app whose ended session was damaged meanwhile reconnects into a new session",
          arguments: [Int64.max, Int64.max - 1])
    func reconnectAfterDamage(last: Int64) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let hello = AppFrames.hello(name: "damaged", instance: "damaged-run")
        let first = try DaemonPeer(port: harness.port)
        let id = try SessionID(validating: try #require(try first.hello(hello)))
        try first.send(AppFrames.action(seq: 1))
        let live = try #require(harness.daemon.session(id))
        #expect(ProcessResources.settle { live.committedIndex >= 1 })
        try first.raw.sendClose(code: 1000)
        _ = try? first.raw.readCloseCode()
        #expect(ProcessResources.settle { !live.isLive })
        try Self.renumberLastEvent(of: id, in: harness.daemon.store, to: last)
        let rows = try Self.eventRows(of: id, in: harness.daemon.store)

        let again = try DaemonPeer(port: harness.port)
        try again.send(AppFrames.hello(name: "damaged", instance: "damaged-run", count: 1)
            .replacingOccurrences(of: #"{"type":"hello","#, with: #"{"type":"hello","seq":1,"#))
        let welcome = try again.next()
        #expect(welcome["type"] == "welcome", "\(welcome)")
        #expect(welcome["resumed"] == false)
        let newID = try SessionID(validating: try #require(welcome["session"]?.stringValue, "\(welcome)"))
        #expect(newID != id)
        try again.send(AppFrames.action(seq: 1, count: 2))
        let session = try #require(harness.daemon.session(newID))
        #expect(ProcessResources.settle { session.committedIndex >= 1 })
        #expect(try Self.eventRows(of: id, in: harness.daemon.store) == rows, "the damaged file is left as it was")
    }
}
