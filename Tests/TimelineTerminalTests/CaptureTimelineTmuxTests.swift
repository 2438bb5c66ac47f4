import Foundation
import RewindTestSupport
import RewindWire
import Testing

/// A capture made with no daemon, imported, opens in the timeline like any session (issue 34).
@Suite("An imported capture opens in the timeline (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct CaptureTimelineTmuxTests {
    @Test("the counter's offline capture, imported, shows its actions and states in rewind open")
    func importedCaptureOpens() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-capture-tui-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let script = root.appendingPathComponent("script.txt")
        try ["increment", "add 5", "decrement", "add 10"].joined(separator: "\n")
            .write(to: script, atomically: true, encoding: .utf8)
        let captures = root.appendingPathComponent("captures")
        let app = try ChildProcess(Executables.path("counter"), ["--script", script.path],
                                   environment: ["REWIND_URL": "ws://127.0.0.1:\(FreePort.unused())",
                                                 "REWIND_CAPTURE_DIR": captures.path])
        #expect(app.waitForExit() == 0)
        let data = root.appendingPathComponent("data")
        let imported = RewindRun.inProcess(["import", captures.path, "--data", data.path])
        try #require(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        let listing = RewindRun.inProcess(["sessions", "--data", data.path, "--json"]).stdout
        let id = try #require(try listing.first.map { try JSONValue(parsing: $0) }?["id"]?.stringValue,
                              "the imported session's id: \(listing)")

        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id) --data \(data.path)", width: 160,
                            height: 30)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitForScreen { $0.contains("4 events") && $0.contains("decrement") },
                                  "\(tmux.screen)")
        #expect(screen.contains("counter"))
        #expect(screen.contains("add"))
        tmux.send("G")
        tmux.send("3")
        let state = tmux.waitForScreen { $0.contains("#4 add") && $0.contains("15") }
        #expect(state != nil, "the State tab of the last event shows the app's final count (15): \(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit())
    }
}
