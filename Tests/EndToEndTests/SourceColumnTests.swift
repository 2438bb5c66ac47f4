import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The source column (an action event's `detail`): the user's code or command that caused the action, never a line
/// inside the library or the samples' runner (issue 22: `Rewind/Effect.swift:128`, `SampleRunner.swift:129`).
@Suite("Source column")
struct SourceColumnTests {
    @Test("a sample's scripted actions are attributed to the script's lines")
    func scriptLines() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let name = "source-\(UUID().uuidString).txt"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try "# a comment\nincrement\n\nadd 4\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let app = try ChildProcess(Executables.path("counter"), ["--script", path],
                                   environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0)
        let session = try #require(harness.waitForSession(events: 2, app: "counter"))
        usleep(150_000)
        let events = try harness.daemon.store.openSession(session.id).events(1...2)
        #expect(events.map(\.detail) == ["\(name):2", "\(name):4"])
    }
}
