import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 22 through the real `rewind open` in tmux: click and scroll with the mouse, and open a session a running
/// daemon records. Sessions are written with the store's API (no app, no streaming) in a fresh data directory.
/// (Go-to, search, hiding, state history, compare and big values run on a 1,000,000-event session in
/// `TimelineSearchTmuxTests`.)
@Suite("Finding things in a terminal (tmux)", .serialized, .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct TimelineFindTmuxTests {
    private static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("rewind-find-\(UUID().uuidString)")
    }

    /// An xterm (X10) mouse report, as a terminal sends it: button code, then column and row from 1, each + 32.
    private static func mouseReport(button: Int, row: Int, column: Int) -> String {
        "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column)))
            + String(UnicodeScalar(UInt8(33 + row)))
    }

    @Test("a mouse click selects an event row, the wheel scrolls (raw xterm mouse reports typed into tmux)")
    func mouse() throws {
        let data = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let start = Date().timeIntervalSince1970.rounded(.down)
        let id = try BigSessionFile.build(count: 200, appName: "find", start: start, directory: data).id
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(id.rawValue) --data \(data.path)",
                            width: 90, height: 30)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitForScreen { $0.contains("200 events") && $0.contains("   5 ") })
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(lines.firstIndex { $0.hasPrefix("   5 ") })
        tmux.sendLiteral(Self.mouseReport(button: 0, row: row, column: 12))
        tmux.sendLiteral(Self.mouseReport(button: 3, row: row, column: 12))
        #expect(tmux.waitForScreen { $0.contains("#5 tick") } != nil, "the click selected event 5: \(tmux.screen)")
        tmux.sendLiteral(Self.mouseReport(button: 65, row: row, column: 12))  // wheel down: 3 rows
        #expect(tmux.waitForScreen { $0.contains("#8 tick") } != nil, "the wheel moved 3 rows: \(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }

    @Test("rewind open on a session a running daemon records: rows stream in; not attached, no app keys and never 'no app is connected'; attached (--port), the keys reach the app")
    func openALiveSession() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "viewed")))
        for seq in 1...3 { try app.send(AppFrames.action(seq: seq)) }
        #expect(harness.waitForSession(events: 3) != nil)
        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(session) --data \(harness.dataDirectory.path)")
        defer { tmux.kill() }
        let first = try #require(tmux.waitForScreen { $0.contains("3 events") }, "\(tmux.screen)")
        #expect(first.contains("live"), "the session is shown live: \(first)")
        let footer = String(first.split(separator: "\n").last ?? "")
        #expect(!footer.contains("Enter jump") && !footer.contains("s skip") && !footer.contains("d dispatch"),
                "\(footer)")

        for seq in 4...6 { try app.send(AppFrames.action(seq: seq)) }
        #expect(tmux.waitForScreen { $0.contains("6 events") } != nil, "the new rows stream in: \(tmux.screen)")
        for key in ["Enter", "d", "<"] {
            tmux.send(key)
            let said = tmux.waitForScreen { $0.contains("this timeline only reads session \(session)") }
            #expect(said?.contains("its app is connected to another rewind") == true, "\(key): \(tmux.screen)")
            #expect(said?.contains("no app is connected") == false)
        }
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")

        // Attached to the daemon that records it (--port), the app keys are offered and reach the app.
        let attached = try Tmux(command: "\(Executables.path("rewind")) open \(session) --data "
                                + "\(harness.dataDirectory.path) --port \(harness.port)")
        defer { attached.kill() }
        let screen = try #require(attached.waitForScreen { $0.contains("6 events") }, "\(attached.screen)")
        #expect(screen.contains("app commands through ws://127.0.0.1:\(harness.port)"), "\(screen)")
        #expect(String(screen.split(separator: "\n").last ?? "").contains("Enter jump"), "\(screen)")
        attached.send("k", "Enter")
        var jump: JSONValue?
        for _ in 0..<5 where jump == nil {
            let message = try app.next()
            if message["type"] == "jump" { jump = message }
        }
        let request = try #require(jump, "the app received the jump")
        #expect(request["state"]?["count"] == 5, "the state of event 5: \(request)")
        try app.send(#"{"type":"result","id":"\#(request["id"]?.stringValue ?? "")","ok":true}"#)
        #expect(attached.waitForScreen { $0.contains("jumped the app to event 5") } != nil, "\(attached.screen)")
        attached.send("q")
        #expect(attached.waitForExit(), "rewind open quit")
    }
}
