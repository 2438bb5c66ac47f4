import Foundation
import RewindTestSupport
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

/// A daemon restarted over sessions a killed daemon left `live` listens at once and repairs them in the background
/// (`SessionStore.recoverInterruptedInBackground`); meanwhile the store's calls that take a session's lock
/// coordinate with that repair one session at a time, so a reconnecting app's session is resumed, never taken for
/// one another process records.
@Suite("Background recovery of interrupted sessions")
struct InterruptedSessionRecoveryTests {
    /// A fresh directory holding `count` sessions as a `kill -9` of their daemon leaves them: each recorded through
    /// `createSession` (an event committed), its file, write-ahead log and lock file copied while it is live into
    /// the directory (the lock free there, as the kernel frees a dead process's lock), the original then finished.
    /// Returns the directory and the ids, sorted (the order the repair takes them in).
    private func killedDaemonDirectory(sessions count: Int) throws -> (TemporaryDirectory, [SessionID]) {
        let recorder = TemporaryDirectory("rewind-recovery-recorder")
        let killed = TemporaryDirectory("rewind-recovery-killed")
        let store = try SessionStore(directory: recorder.url)
        var ids: [SessionID] = []
        for number in 0..<count {
            let recording = try store.createSession(appName: "recover-\(number)", instance: "run-\(number)",
                                                    protocolVersion: 1, initialState: ["count": 0])
            recording.append(NewEvent(time: 1_700_000_000, kind: .action, label: "set", action: ["set": 1],
                                      patch: try JSONPatch(json: [["op": "replace", "path": "/count", "value": 1]])),
                             stateAfter: ["count": 1])
            recording.flush()
            for suffix in ["rewind", "rewind-wal", "lock"] {
                let name = "\(recording.id).\(suffix)"
                let source = recorder.url.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try FileManager.default.copyItem(at: source, to: killed.url.appendingPathComponent(name))
            }
            recording.finish(endState: .clean)
            ids.append(recording.id)
        }
        let copied = try SessionStore(directory: killed.url).listSessions()
        try #require(copied.count == count && copied.allSatisfy { $0.endState == .interrupted },
                     "the copies read as sessions whose recorder died: \(copied.map(\.endState))")
        return (killed, ids.sorted())
    }

    @Test("Daemon.start returns while the repair is still held up, and logs how many sessions it marked when it ends")
    func startReturnsBeforeTheRepairEnds() throws {
        let (directory, ids) = try killedDaemonDirectory(sessions: 4)
        let gate = Gate()
        let recovery = InterruptedSessionRecovery.forDirectory(directory.url.standardizedFileURL.path)
        recovery.setRepairHook { _ in gate.waitUntilOpen() }
        defer {
            gate.open()
            recovery.setRepairHook(nil)
        }
        let log = Lines()
        var configuration = DaemonConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory.url
        configuration.log = { log.append($0) }
        let daemon = try Daemon(configuration: configuration)
        defer { daemon.stop() }

        let started = Lines()
        DispatchQueue.global().async {
            do {
                started.append("port \(try daemon.start())")
            } catch {
                started.append("failed: \(error)")
            }
        }
        let returned = started.waitForLine(timeout: 5) { _ in true }
        #expect(returned?.hasPrefix("port ") == true, "start() did not return while the repair was held up")
        #expect(!log.lines.contains { $0.contains("interrupted") }, "\(log.lines)")

        gate.open()
        let marked = log.waitForLine(timeout: 10) { $0.contains("session(s) interrupted") }
        #expect(marked == "marked 4 session(s) interrupted (a previous daemon stopped without closing them)")
        let listed = try daemon.store.listSessions()
        #expect(Set(listed.map(\.id)) == Set(ids))
        #expect(listed.allSatisfy { $0.endState == .interrupted })
        for id in ids { #expect(try daemon.store.openSession(id).metadata.endedAt != nil, "\(id) is repaired") }
    }

    @Test("resumeSession of the session being repaired waits for that repair, then resumes it")
    func resumingTheSessionBeingRepairedWaits() throws {
        let (directory, ids) = try killedDaemonDirectory(sessions: 3)
        let store = try SessionStore(directory: directory.url)
        let gate = Gate()
        let reached = Lines()
        store.recovery.setRepairHook { id in
            reached.append(id.rawValue)
            gate.waitUntilOpen()
        }
        defer {
            gate.open()
            store.recovery.setRepairHook(nil)
        }
        let ended = Lines()
        store.recoverInterruptedInBackground { result in
            ended.append((try? result.get().map(\.rawValue).joined(separator: " ")) ?? "failed")
        }
        let first = ids[0]
        #expect(reached.waitForLine(timeout: 5) { _ in true } == first.rawValue)

        let resumed = Lines()
        let recordings = RecordingBox()
        DispatchQueue.global().async {
            do {
                recordings.keep(try store.resumeSession(first))
                resumed.append("resumed")
            } catch {
                resumed.append("failed: \(error)")
            }
        }
        // It waits for the repair of that one session (rather than taking the repair for another process's lock).
        #expect(waitUntil(timeout: 5) { store.recovery.isAwaited(first) }, "resumeSession(\(first)) did not wait")
        #expect(resumed.lines.isEmpty)

        gate.open()
        #expect(resumed.waitForLine(timeout: 10) { _ in true } == "resumed")
        #expect(ended.waitForLine(timeout: 10) { _ in true } == ids.map(\.rawValue).joined(separator: " "))
        let recording = try #require(recordings.recording)
        #expect(recording.id == first)
        #expect(recording.append(NewEvent(time: 1_700_000_001, kind: .note, label: "resumed"), stateAfter: ["count": 1])
                == 2, "the resumed recording numbers on after the committed event")
        recording.finish(endState: .clean)
        #expect(try store.openSession(first).metadata.endState == .clean)
    }

    @Test("resumeSession of a session still queued for repair takes it out of the queue, waiting for no other repair")
    func resumingAQueuedSessionTakesItOutOfTheQueue() throws {
        let (directory, ids) = try killedDaemonDirectory(sessions: 3)
        let store = try SessionStore(directory: directory.url)
        let gate = Gate()
        let reached = Lines()
        store.recovery.setRepairHook { id in
            reached.append(id.rawValue)
            gate.waitUntilOpen()
        }
        defer {
            gate.open()
            store.recovery.setRepairHook(nil)
        }
        let ended = Lines()
        store.recoverInterruptedInBackground { result in
            ended.append((try? result.get().map(\.rawValue).joined(separator: " ")) ?? "failed")
        }
        #expect(reached.waitForLine(timeout: 5) { _ in true } == ids[0].rawValue)
        let last = ids[2]
        #expect(store.recovery.isQueued(last))

        // The repair of the first session is held up; the last one is resumed meanwhile, at once.
        let recording = try store.resumeSession(last)
        #expect(!store.recovery.isQueued(last))
        #expect(try store.listSessions().first { $0.id == last }?.endState == .live)

        gate.open()
        #expect(ended.waitForLine(timeout: 10) { _ in true } == "\(ids[0]) \(ids[1])",
                "the repair leaves the resumed session alone")
        let listed = try store.listSessions()
        #expect(listed.first { $0.id == last }?.endState == .live)
        #expect(listed.filter { $0.id != last }.allSatisfy { $0.endState == .interrupted })
        recording.finish(endState: .clean)
    }

    /// Polls `condition` until it holds or `timeout` seconds (stretched by `TestTime.scale`) pass; true when it held.
    private func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while !condition() {
            if Date() >= deadline { return false }
            usleep(2_000)
        }
        return true
    }
}

/// A gate the repair's hook waits at until the test opens it.
private final class Gate: @unchecked Sendable {  // `isOpen` guarded by `condition`
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }

    func waitUntilOpen() {
        condition.withLock {
            while !isOpen { condition.wait() }
        }
    }
}

/// Lines handed from other threads to the test (log lines, what a hook saw, how a call ended).
private final class Lines: @unchecked Sendable {  // `stored` guarded by `condition`
    private let condition = NSCondition()
    private var stored: [String] = []

    var lines: [String] { condition.withLock { stored } }

    func append(_ line: String) {
        condition.withLock {
            stored.append(line)
            condition.broadcast()
        }
    }

    /// The first line satisfying `predicate`, waiting up to `timeout` seconds (stretched by `TestTime.scale`) for it.
    func waitForLine(timeout: Double, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = stored.first(where: predicate) { return line }
            if !condition.wait(until: deadline) { return stored.first(where: predicate) }
        }
    }
}

/// A recording handed from the thread that resumed it to the test.
private final class RecordingBox: @unchecked Sendable {  // `kept` guarded by `lock`
    private let lock = NSLock()
    private var kept: SessionRecording?

    var recording: SessionRecording? { lock.withLock { kept } }

    func keep(_ recording: SessionRecording) {
        lock.withLock { kept = recording }
    }
}
