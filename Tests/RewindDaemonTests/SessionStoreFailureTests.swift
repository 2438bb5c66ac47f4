import Foundation
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

@Suite("Session store failures")
struct SessionStoreFailureTests {
    @Test("a file written with a newer schema version is refused with a message saying so")
    func newerSchemaIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(appName: "future", protocolVersion: 1, initialState: [:])
        recording.finish(endState: .clean)
        let path = store.fileURL(for: recording.id).path
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        database.close()

        let expected = SessionStoreError.newerSchema(found: 99, supported: SessionStore.schemaVersion, path: path)
        #expect(throws: expected) { try store.openSession(recording.id) }
        #expect(expected.description.contains("newer Rewind"))
        #expect(expected.description.contains("version 99"))
        var skipped: [SessionStoreError] = []
        #expect(try store.listSessions { _, error in skipped.append(error) }.isEmpty)
        #expect(skipped == [expected])
    }

    @Test("a file that is not a session is refused as corrupt, naming the file")
    func foreignFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let id = try SessionID(validating: "foreign")
        let path = store.fileURL(for: id).path
        let database = try SQLiteDatabase(path: path, mode: .create)
        try database.execute("CREATE TABLE t (x)")
        database.close()
        do {
            _ = try store.openSession(id)
            Issue.record("a foreign SQLite file was opened as a session")
        } catch {
            guard case .corrupt(let errorPath, let detail) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(errorPath == path)
            #expect(detail.contains("not a Rewind session"))
        }
    }

    @Test("a data directory that cannot be created is a clear error naming it and the reason")
    func unwritableDirectory() throws {
        let directory = TemporaryDirectory()
        let blocker = directory.url.appendingPathComponent("a-file")
        #expect(FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8)))
        let wanted = blocker.appendingPathComponent("sessions")
        do {
            _ = try SessionStore(directory: wanted)
            Issue.record("a directory under a regular file was created")
        } catch {
            guard case .unwritable(let path, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == wanted.path)
            #expect(reason.lowercased().contains("not a directory"))
            #expect(error.description.hasPrefix("cannot write \(wanted.path): "))
        }
        #expect(throws: SessionStoreError.unwritable(path: blocker.path, reason: "it exists and is not a directory")) {
            try SessionStore(directory: blocker)
        }
    }

    @Test("a data directory that became unwritable makes createSession fail clearly")
    func directoryRemovedUnderneath() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        try FileManager.default.removeItem(at: directory.url)
        #expect(FileManager.default.createFile(atPath: directory.url.path, contents: Data()))
        do {
            _ = try store.createSession(appName: "x", protocolVersion: 1, initialState: [:])
            Issue.record("a session was created in a missing directory")
        } catch {
            guard case .unwritable(let path, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            // The store first tries to create the missing directory again, and names it: a file is in the way.
            #expect(path == directory.url.path || path.hasPrefix(directory.url.path + "/"))
        }
        try FileManager.default.removeItem(at: directory.url)
    }

    @Test("a full disk is reported, the recording goes on in memory, and what was committed stays readable")
    func diskFull() throws {
        let directory = TemporaryDirectory()
        let options = RecordingOptions(
            keyframeInterval: 100, maxBufferedBytes: 256 * 1024, retryInterval: 60,
            maxFileBytes: 256 * 1024)
        let store = try SessionStore.forTests(directory, options: options)
        var app = SyntheticApp()
        let recording = try store.createSession(appName: "full", protocolVersion: 1, initialState: app.state)
        var random = SeededGenerator(seed: 11)
        let states = recordSynthetic(100, into: recording, app: &app, random: &random)
        recording.flush()
        #expect(recording.lastError == nil)
        #expect(recording.committedIndex == 100)

        // Large actions fill the capped file quickly.
        let big = JSONValue.string(String(repeating: "x", count: 4000))
        for n in 0..<400 {
            recording.append(NewEvent(label: "big", action: ["type": "big", "payload": big], patch: JSONPatch(),
                                      detail: "\(n)"), stateAfter: app.state)
        }
        recording.flush()
        let path = store.fileURL(for: recording.id).path
        #expect(recording.lastError == .diskFull(path: path))
        #expect(recording.lastError?.description.contains("disk is full") == true)
        #expect(recording.committedIndex >= 100)
        #expect(recording.committedIndex < 500)
        #expect(recording.droppedEventCount == 0, "nothing is discarded while the recording runs")
        #expect(recording.lastIndex == 500, "every event is numbered and kept, waiting for the disk")

        let reader = try store.openSession(recording.id)
        #expect(reader.eventCount == recording.committedIndex)
        #expect(try reader.state(at: 100) == states[100])
        #expect(reader.metadata.endState == .live)
        recording.finish(endState: .clean)
        try reader.refresh()
        // The end could not be written either: the session reads as interrupted, its events intact. Only now, at
        // the end, are the events that never reached the file given up (they were never acknowledged to an app).
        #expect(reader.metadata.endState == .interrupted)
        #expect(try reader.state(at: 100) == states[100])
        #expect(recording.droppedEventCount == 500 - reader.eventCount)
    }

    @Test("past its buffer's bound a recording discards nothing: every event waits for the stalled writer and is committed in order")
    func overflowKeepsEverything() throws {
        let directory = TemporaryDirectory()
        let options = RecordingOptions(maxBufferedBytes: 2048)
        let store = try SessionStore.forTests(directory, options: options)
        var app = SyntheticApp()
        let recording = try store.createSession(appName: "burst", protocolVersion: 1, initialState: app.state)
        let commits = CommitLog()
        recording.setCommitHandler { commits.add($0) }
        // Another connection holds the file's write lock: the writer is stuck, as behind a stalled disk.
        let blocker = try SQLiteDatabase(path: store.fileURL(for: recording.id).path, mode: .readWrite)
        try blocker.execute("BEGIN IMMEDIATE")
        var random = SeededGenerator(seed: 5)
        var returned: [Int64] = []
        var states: [JSONValue] = [app.state]
        for _ in 0..<40 {
            let before = app.state
            let step = app.step(using: &random)
            returned.append(recording.append(
                NewEvent(label: step.label, action: step.action, patch: JSONPatch.diff(from: before, to: step.stateAfter)),
                stateAfter: step.stateAfter))
            states.append(step.stateAfter)
        }
        #expect(recording.committedIndex == 0)
        #expect(recording.bufferedBytes > options.maxBufferedBytes, "the events wait in memory past the bound")
        #expect(returned == Array(1...40), "every append is numbered in order, none coalesced")
        try blocker.execute("COMMIT")
        blocker.close()
        recording.flush()
        recording.finish(endState: .clean)
        #expect(recording.lastError == nil)
        #expect(recording.droppedEventCount == 0)
        #expect(commits.last == 40, "the commit handler heard of the last commit")

        let reader = try store.openSession(recording.id)
        #expect(reader.eventCount == 40)
        let events = try reader.events(1...reader.eventCount)
        #expect(events.map(\.index) == Array(1...40))
        #expect(!events.contains { $0.kind == .dropped })
        for index in [1, 17, 40] {
            #expect(try reader.state(at: Int64(index)) == states[index], "the state after event \(index) is exact")
        }
    }
}

/// The indices a recording's commit handler was told, in order.
private final class CommitLog: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var indices: [Int64] = []

    func add(_ index: Int64) { lock.withLock { indices.append(index) } }

    var last: Int64? { lock.withLock { indices.last } }
}
