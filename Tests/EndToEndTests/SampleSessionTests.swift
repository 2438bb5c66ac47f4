import Foundation
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// The `todo` and `login` samples, as processes, run from a script against a real (headless) daemon: the session
/// they leave is the app's own history, ending in the app's own final state; and what the login sample redacts
/// never reaches the daemon's files or exports.
@Suite("Sample sessions end to end", .serialized)
struct SampleSessionTests {
    private func script(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-script-\(UUID()).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `sample` with `arguments` against `harness` until it exits; returns its last printed state and its
    /// session, once the session has recorded `events` events.
    private func run(_ sample: String, _ arguments: [String], events: Int64,
                     in harness: DaemonHarness) throws -> (final: JSONValue, session: LiveSession) {
        let app = try ChildProcess(Executables.path(sample), arguments, environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0, "\(app.stderrLines)")
        let final = try JSONValue(parsing: try #require(app.stdoutLines.last))
        let session = try #require(harness.waitForSession(events: events, app: sample))
        return (final, session)
    }

    /// Every file the daemon wrote (session databases and their journals), as bytes.
    private func filesBytes(under directory: URL) throws -> [(String, Data)] {
        let paths = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        return try paths.compactMap { relative in
            let url = directory.appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return nil }
            return (relative, try Data(contentsOf: url))
        }
    }

    @Test("todo: the session of a scripted run records every action and ends in the app's final state")
    func todoSession() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-todo-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let commands = ["add Buy milk", "add Walk the dog", "add Milk chocolate", "toggle 1", "search milk",
                        "remove 2", "save", "clear-search", "remove 1", "load"]
        let (final, session) = try run("todo", ["--file", file, "--script", try script(commands)], events: 19,
                                       in: harness)

        #expect(session.lastIndex == 19)
        let reader = try harness.daemon.store.openSession(session.id)
        // The search is typed a key at a time and debounced: one applySearch for the four keystrokes.
        #expect(try reader.events(1...19).map(\.label) == [
            "add", "added", "add", "added", "add", "added", "toggle", "search", "search", "search", "search",
            "applySearch", "remove", "save", "saved", "clearSearch", "remove", "load", "loaded",
        ])
        #expect(try harness.lastRecordedState(session) == final)
        #expect(final[try JSONPointer("/status")] == "loaded 2 items")
        #expect(final[try JSONPointer("/visible")] == [1, 2])
        #expect(reader.metadata.stateType == "todo.TodoState")
        let saved = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(saved == final[try JSONPointer("/todos")])
    }

    @Test("login: the session ends in the app's final state, with the password redacted wherever it was")
    func loginSession() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let password = "Tr0ub4dor-zebra-staple"
        let commands = ["username alice", "password wrong", "submit", "password \(password)", "submit", "profile",
                        "back", "logout", "password \(password)x"]
        let (final, session) = try run("login", ["--script", try script(commands)], events: 16, in: harness)

        #expect(session.lastIndex == 16)
        let reader = try harness.daemon.store.openSession(session.id)
        #expect(try reader.events(1...16).map(\.label) == [
            "navigation/setRoot", "login/usernameChanged", "login/passwordChanged", "login/submitTapped",
            "login/loginFailed", "login/passwordChanged", "login/submitTapped", "login/loginSucceeded",
            "home/show", "navigation/setRoot", "home/profileTapped", "navigation/push", "navigation/pop",
            "home/logOutTapped", "navigation/setRoot", "login/passwordChanged",
        ])
        // The app prints its own state, password included; the session has the redacted version of it.
        #expect(final[try JSONPointer("/login/password")] == .string(password + "x"))
        #expect(try harness.lastRecordedState(session) == Redactor(paths: ["**.password"]).redact(final))
        #expect(try reader.state(at: 3)[try JSONPointer("/login/password")] == Redactor.placeholder)
        #expect(try reader.event(at: 6).action?[try JSONPointer("/login/_0/passwordChanged/password")]
            == Redactor.placeholder)
        #expect(try reader.state(at: 16)[try JSONPointer("/navigationState/stack/0/name")] == "LoginModule")

        session.flush()
        let secret = Data(password.utf8)
        let files = try filesBytes(under: harness.dataDirectory)
        #expect(!files.isEmpty)
        for (name, bytes) in files {
            #expect(bytes.range(of: secret) == nil, "the password is in \(name)")
        }
        #expect(files.contains { $0.1.range(of: Data("<redacted>".utf8)) != nil })

        let export = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-login-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: export) }
        try SessionExporter(reader: reader).export(format: .jsonl, to: export)
        let exported = try Data(contentsOf: export)
        #expect(exported.range(of: secret) == nil)
        #expect(exported.range(of: Data("<redacted>".utf8)) != nil)
        #expect(exported.range(of: Data("login/passwordChanged".utf8)) != nil)
    }
}
