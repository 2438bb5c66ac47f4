import Foundation
import RewindTestSupport
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

/// Issue 19: files a user is handed (imports) or finds in the data directory never crash, hang or exhaust memory.
@Suite("Hostile files: imports and the data directory")
struct HostileFilesTests {
    private func importFile(_ content: String, into store: SessionStore, directory: TemporaryDirectory,
                            maxLineBytes: Int = 256 << 20) throws -> SessionStoreError? {
        let file = directory.url.appendingPathComponent("\(UUID().uuidString).jsonl")
        try content.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try SessionImporter(store: store, maxLineBytes: maxLineBytes).importSession(from: file)
            return nil
        } catch {
            return error
        }
    }

    private static func header(startedAt: String) -> String {
        #"{"format":"rewind-session","version":1,"session":{"app":"t","startedAt":\#(startedAt)},"initialState":{"n":0}}"#
    }

    /// Import files with a time out of range, and the field the refusal names.
    static let outOfRangeTimes: [(String, String)] = {
        let early = header(startedAt: "1") + "\n"
        var cases: [(String, String)] = []
        cases.append((header(startedAt: "1e300"), "startedAt"))
        cases.append((header(startedAt: "-1"), "startedAt"))
        cases.append((header(startedAt: "-1e10"), "startedAt"))
        cases.append((early + #"{"index":1,"time":1e300,"kind":"action"}"#, "time"))
        cases.append((early + #"{"index":1,"time":-3,"kind":"action"}"#, "time"))
        cases.append((early + #"{"index":1,"time":2,"kind":"action","reducerMicros":1e300}"#, "reducerMicros"))
        cases.append((#"{"format":"rewind-session","version":1,"session":{"app":"t","startedAt":1,"endedAt":1e19},"#
                      + #""initialState":{}}"#, "endedAt"))
        return cases
    }()

    @Test("an import whose times are outside 1970…9999 is refused naming the field", arguments: outOfRangeTimes)
    func timesOutOfRange(content: String, field: String) throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let error = try importFile(content, into: store, directory: directory)
        guard case .malformedImport(_, _, let reason)? = error else {
            Issue.record("not refused as malformed: \(String(describing: error))")
            return
        }
        #expect(reason.contains("\"\(field)\" must be"), "\(reason)")
        #expect(try store.listSessions().isEmpty)
    }

    @Test("Redux DevTools timestamps outside the range are refused too")
    func reduxTimestamps() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let document = #"{"actionsById":{"0":{"action":{"type":"@@INIT"},"timestamp":0},"#
            + #""1":{"type":"PERFORM_ACTION","action":{"type":"x"},"timestamp":1e300}},"#
            + #""computedStates":[{"state":1},{"state":2}],"stagedActionIds":[0,1]}"#
        let file = directory.url.appendingPathComponent("redux.json")
        try document.write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: SessionStoreError.self) { try SessionImporter(store: store).importSession(from: file) }
        #expect(try store.listSessions().isEmpty)
    }

    @Test("a session stored with absurd times (by an older version) lists and exports in both formats")
    func storedAbsurdTimes() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(appName: "old", protocolVersion: 1, initialState: ["n": 0],
                                                startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        for (n, time) in [1e19, 1e300, -1e300, 5].enumerated() {
            recording.append(NewEvent(appSeq: Int64(n + 1), time: time, kind: .action, label: "set",
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: .int(Int64(n + 1)))]),
                                      reducerMicros: time),
                             stateAfter: ["n": .int(Int64(n + 1))])
        }
        recording.finish(endState: .clean, endedAt: Date(timeIntervalSince1970: 1e300))
        let sessions = try store.listSessions()
        #expect(sessions.map(\.id) == [recording.id])
        let reader = try store.openSession(recording.id)
        for format in [SessionExportFormat.jsonl, .reduxDevTools] {
            let file = directory.url.appendingPathComponent("out-\(format.rawValue)")
            try SessionExporter(reader: reader).export(format: format, to: file)
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("\"set\""))
        }
        #expect(ReduxDevToolsFormat.milliseconds(1e300) == Int64.max)
        #expect(ReduxDevToolsFormat.milliseconds(-1e300) == Int64.min)
        #expect(ReduxDevToolsFormat.milliseconds(.nan) == 0)
    }

    @Test("a session id made for a start time outside 1970…9999 is still valid: the time is clamped",
          arguments: [(-1.0, "19700101-000000-x-"), (-1e300, "19700101-000000-x-"), (Double.nan, "19700101-000000-x-"),
                      (1e300, "99991231-235959-x-"), (1e19, "99991231-235959-x-")])
    func idForAbsurdStart(time: Double, prefix: String) throws {
        let id = SessionID.generate(appName: "x", date: Date(timeIntervalSince1970: time))
        #expect(id.rawValue.hasPrefix(prefix), "\(id)")
        #expect(try SessionID(validating: id.rawValue) == id)
    }

    @Test("exporting a session stored with a copy bomb (by an older version) fails at the state limit, naming the event")
    func exportStoredCopyBomb() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(appName: "bombed", protocolVersion: 1,
                                                initialState: ["filler": .string(String(repeating: "x", count: 1000))])
        let copies = (0..<40).map { JSONPatchOperation.copy(from: JSONPointer(tokens: []), path: JSONPointer(tokens: ["c\($0)"])) }
        recording.append(NewEvent(time: 2, kind: .action, label: "bomb", patch: JSONPatch(copies)), stateAfter: ["small": true])
        recording.finish(endState: .clean)
        let reader = try store.openSession(recording.id)
        for format in [SessionExportFormat.jsonl, .reduxDevTools] {
            let file = directory.url.appendingPathComponent("out-\(format.rawValue)")
            do {
                try SessionExporter(reader: reader, maxStateBytes: 1 << 20).export(format: format, to: file)
                Issue.record("\(format): the bomb was exported")
            } catch {
                guard case .corrupt(_, let detail) = error else {
                    Issue.record("\(format): unexpected error \(error)")
                    continue
                }
                #expect(detail.contains("event 1") && detail.contains("grow past the limit of 1048576 bytes"), "\(detail)")
            }
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test("importing a device such as /dev/zero is refused at once")
    func importDevice() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let started = Date()
        do {
            _ = try SessionImporter(store: store).importSession(from: URL(fileURLWithPath: "/dev/zero"))
            Issue.record("/dev/zero was imported")
        } catch {
            guard case .unreadable(_, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reason.contains("a device"), "\(reason)")
        }
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(2))
    }

    @Test("a line longer than the import limit fails without reading further, for a first line and a later one")
    func lineTooLong() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let long = String(repeating: "7", count: 3 << 20)
        for (content, line) in [(long, 1), (Self.header(startedAt: "1") + "\n" + long + "\n", 2),
                                ("{\n" + long, 2)] {
            let error = try importFile(content, into: store, directory: directory, maxLineBytes: 1 << 20)
            guard case .malformedImport(_, let errorLine, let reason)? = error else {
                Issue.record("not refused: \(String(describing: error))")
                continue
            }
            #expect(reason.contains("longer than 1048576 bytes"), "\(reason)")
            if line == 2 && content.hasPrefix("{\"format") { #expect(errorLine == 2) }
        }
        #expect(try store.listSessions().isEmpty)
    }

    @Test("an import line of more values than its budget (one per 16 bytes of the line limit) is refused")
    func importTooManyValues() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let arrays = Array(repeating: "[]", count: 70_000).joined(separator: ",")
        let content = Self.header(startedAt: "1") + "\n" + #"{"index":1,"time":2,"kind":"snapshot","state":[\#(arrays)]}"#
        let error = try importFile(content, into: store, directory: directory, maxLineBytes: 1 << 20)
        guard case .malformedImport(_, let line, let reason)? = error else {
            Issue.record("not refused: \(String(describing: error))")
            return
        }
        #expect(line == 2)
        #expect(reason.contains("more than 65536 values"), "\(reason)")
        #expect(try store.listSessions().isEmpty)
    }

    @Test("an import whose patch copies the state into itself is refused at the state limit")
    func importCopyBomb() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let copies = (0..<50).map { #"{"op":"copy","from":"","path":"/c\#($0)"}"# }.joined(separator: ",")
        let content = Self.header(startedAt: "1") + "\n" + #"{"index":1,"time":2,"kind":"action","patch":[\#(copies)]}"#
        let file = directory.url.appendingPathComponent("bomb.jsonl")
        try content.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try SessionImporter(store: store, maxStateBytes: 1 << 20).importSession(from: file)
            Issue.record("the bomb was imported")
        } catch {
            guard case .malformedImport(_, let line, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(line == 2)
            #expect(reason.contains("grow past the limit of 1048576 bytes"), "\(reason)")
        }
        #expect(try store.listSessions().isEmpty)
    }

    @Test("a FIFO or a directory named like a session, or a FIFO as its -wal or lock file, does not block listing and recovery")
    func nonRegularFilesInTheDataDirectory() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(appName: "real", protocolVersion: 1, initialState: ["n": 0])
        recording.finish(endState: .clean)
        let fifo = directory.url.appendingPathComponent("20260101-000000-fifo-abcdef.rewind").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("20260101-000000-dir-abcdef.rewind"), withIntermediateDirectories: true)
        // A FIFO as the -wal companion of a real-looking session.
        let walTarget = try store.createSession(appName: "walfifo", protocolVersion: 1, initialState: ["n": 0])
        walTarget.finish(endState: .clean)
        let wal = store.fileURL(for: walTarget.id).path + "-wal"
        unlink(wal)
        #expect(mkfifo(wal, 0o600) == 0)

        // A session left live whose lock file was replaced by a FIFO (its recorder still holds the old one).
        let live = try store.createSession(appName: "livefifo", protocolVersion: 1, initialState: ["n": 0])
        let lockPath = directory.url.appendingPathComponent("\(live.id).lock").path
        #expect(unlink(lockPath) == 0)
        #expect(mkfifo(lockPath, 0o600) == 0)
        defer { live.finish(endState: .clean) }

        // If reading blocks on a FIFO, a writer opened after a while unblocks it, and the test fails instead of hanging.
        let finished = Atomic(false)
        let watchdog = Thread {
            let deadline = Date(timeIntervalSinceNow: TestTime.seconds(5))
            while Date() < deadline { if finished.value { return }; usleep(20_000) }
            while !finished.value {
                for path in [fifo, wal, lockPath] {
                    let fd = open(path, O_WRONLY | O_NONBLOCK)
                    if fd >= 0 { close(fd) }
                }
                usleep(20_000)
            }
        }
        watchdog.start()
        let started = Date()
        var skipped: [String] = []
        let sessions = try store.listSessions { url, _ in skipped.append(url.lastPathComponent) }
        _ = try store.recoverInterrupted()
        finished.value = true
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(4), "listing blocked on a FIFO")
        #expect(Set(sessions.map(\.id)) == [recording.id, live.id])
        #expect(Set(skipped) == ["20260101-000000-fifo-abcdef.rewind", "20260101-000000-dir-abcdef.rewind",
                                 "\(walTarget.id).rewind"])
    }
}

/// A flag shared with a watchdog thread.
private final class Atomic<Value: Sendable>: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
