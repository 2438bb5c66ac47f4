import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 31: when the data directory and its files became immutable (`chattr +i`) while recording, the daemon died with
/// SIGBUS inside SQLite (its writes into the `-shm` index's memory map). Now it refuses the session's writes, says so
/// once, and keeps serving; readers open such files without writing beside them.
@Suite("Session files made immutable", .serialized, .enabled(if: ImmutableFiles.available, "chattr +i is not allowed here"))
struct ImmutableDataDirectoryTests {
    @Test("made immutable while recording: the daemon refuses the writes, says so once and keeps serving")
    func immutableWhileRecording() throws {
        let daemon = try DaemonProcess()
        defer { ImmutableFiles.set(false, under: daemon.dataDirectory); daemon.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": daemon.url])
        defer { app.closeInput(); _ = app.waitForExit() }
        app.write("increment\nincrement\n")
        #expect(app.waitForLine { $0 == #"{"count":2}"# } != nil)
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while Date() < deadline, (try? daemon.sessions(app: "counter").first?.eventCount) != 2 { usleep(50_000) }
        try #require(try daemon.sessions(app: "counter").first?.eventCount == 2)

        ImmutableFiles.set(true, under: daemon.dataDirectory)
        app.write("increment\nincrement\nincrement\n")
        #expect(app.waitForLine { $0 == #"{"count":5}"# } != nil)
        let said = daemon.process.waitForLine(timeout: 10, stderr: true) { $0.contains("turned read-only while recording") }
        #expect(said != nil, "the daemon says why it stopped writing: \(daemon.process.stderrLines)")
        usleep(300_000)
        #expect(daemon.process.stderrLines.filter { $0.contains("turned read-only") }.count == 1, "said once")
        #expect(!daemon.process.stderrLines.contains { $0.contains("crashed") || $0.contains("Bus error") },
                "\(daemon.process.stderrLines)")

        // Still serving: the files writable again, a new app's session is recorded.
        ImmutableFiles.set(false, under: daemon.dataDirectory)
        let other = try ChildProcess(Executables.path("counter"), ["--script", try script(["increment", "add 5"])],
                                     environment: ["REWIND_URL": daemon.url])
        #expect(other.waitForExit() == 0)
        let recorded = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while Date() < recorded, (try? daemon.sessions(app: "counter").contains { $0.eventCount == 2 && $0.endState == .clean }) != true {
            usleep(50_000)
        }
        #expect(try daemon.sessions(app: "counter").count == 2, "the daemon recorded the next app")
        #expect(daemon.process.waitForExit(timeout: 0.2) == nil, "the daemon still runs: \(daemon.process.stderrLines)")
    }

    @Test("a closed session file made immutable reads as usual; one with writes left in its log says how to read it")
    func readersOfImmutableFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-immutable-\(UUID())")
        defer { ImmutableFiles.set(false, under: directory); try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let increment = JSONPatch.diff(from: ["count": 0], to: ["count": 1])
        let closed = try store.createSession(appName: "closed", protocolVersion: 2, initialState: ["count": 0],
                                             startedAt: Date())
        closed.append(NewEvent(time: 1, kind: .action, label: "increment", patch: increment), stateAfter: ["count": 1])
        closed.finish(endState: .clean)
        // Still being written: its last commits are in its write-ahead log.
        let open = try store.createSession(appName: "open", protocolVersion: 2, initialState: ["count": 0],
                                           startedAt: Date())
        open.append(NewEvent(time: 1, kind: .action, label: "increment", patch: increment), stateAfter: ["count": 1])
        open.flush()
        ImmutableFiles.set(true, under: directory)

        let readers = try SessionStore(directory: directory, creating: false)
        let state = try readers.openSession(closed.id).recordedState(after: 1)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        #expect(state == .known(["count": 1]), "\(state); files: \(files)")
        #expect {
            _ = try readers.openSession(open.id).recordedState(after: 1)
        } throws: { error in
            "\(error)".contains("made immutable (`chattr +i`) with its latest writes still in its -wal file")
                && "\(error)".contains("`chattr -i` it to read it")
        }
        // Writing again refuses before SQLite is called (which would end this process with SIGBUS).
        open.append(NewEvent(time: 2, kind: .action, label: "increment", patch: increment), stateAfter: ["count": 2])
        open.flush()
        #expect(open.lastError.map { String(describing: $0).contains("turned read-only while recording") } == true,
                "\(String(describing: open.lastError))")
        ImmutableFiles.set(false, under: directory)
    }

    private func script(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-script-\(UUID()).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// `chattr +i` / `-i` on a directory and the files in it (Linux, as root, on a file system that supports it).
enum ImmutableFiles {
    /// True when this process may make a file immutable here (tried on a scratch file).
    static let available: Bool = {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-chattr-\(UUID())")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else { return false }
        defer { _ = chattr("-i", [file.path]); try? FileManager.default.removeItem(at: file) }
        return chattr("+i", [file.path]) == 0
    }()

    /// Makes `directory` and every file in it immutable (`true`) or not.
    static func set(_ immutable: Bool, under directory: URL) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        _ = chattr(immutable ? "+i" : "-i", [directory.path] + files.map { directory.appendingPathComponent($0).path })
    }

    private static func chattr(_ flag: String, _ paths: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag] + paths
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
