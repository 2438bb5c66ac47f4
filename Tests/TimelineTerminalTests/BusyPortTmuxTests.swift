import Foundation
import RewindTestSupport
import RewindWire
import Testing

/// Issue 22, "a busy port says that another rewind is probably running there (and `rewind` offers to attach to it
/// as a viewer)", through the real `rewind` in tmux (a terminal): on a port another rewind holds, `rewind` says so,
/// asks "Attach to it as a viewer?", and on yes shows that rewind's live session attached to it, as
/// `rewind open SESSION --port N` does; on no it exits with status 1. (Without a terminal it never asks:
/// `CommandLineConsistencyTests.busyPortWithoutATerminalNeverAsks`.)
@Suite("A busy port offers to attach as a viewer (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct BusyPortTmuxTests {
    /// `rewind --port PORT --data DATA` in tmux, followed by its exit status on screen (`exit status N`).
    private static func rewind(port: Int, data: URL) throws -> Tmux {
        try Tmux(command: "sh -c '\(Executables.path("rewind")) --port \(port) --data \(data.path); "
                 + "echo exit status $?; sleep 30'", width: 160)
    }

    @Test("yes (Enter) shows the other rewind's live session attached to it; its keys reach the app")
    func attachOnYes() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "elsewhere")))
        for seq in 1...3 { try app.send(AppFrames.action(seq: seq)) }
        #expect(harness.waitForSession(events: 3) != nil)

        let tmux = try Self.rewind(port: harness.port, data: harness.dataDirectory)
        defer { tmux.kill() }
        let asked = try #require(tmux.waitForScreen { $0.contains("[Y/n]") }, "\(tmux.screen)")
        #expect(asked.contains("another rewind is probably running there"), "\(asked)")
        #expect(asked.contains("Attach to it as a viewer (session \(session), app elsewhere)? [Y/n]"), "\(asked)")
        tmux.send("Enter")
        let attached = try #require(tmux.waitForScreen { $0.contains("3 events") }, "\(tmux.screen)")
        #expect(attached.contains("session \(session) · app commands through ws://127.0.0.1:\(harness.port)"),
                "the attached timeline of `rewind open --port`: \(attached)")
        #expect(String(attached.split(separator: "\n").last ?? "").contains("Enter jump"), "\(attached)")

        try app.send(AppFrames.action(seq: 4))
        #expect(tmux.waitForScreen { $0.contains("4 events") } != nil, "rows stream in: \(tmux.screen)")
        tmux.send("k", "Enter")
        var jump: JSONValue?
        for _ in 0..<5 where jump == nil {
            let message = try app.next()
            if message["type"] == "jump" { jump = message }
        }
        let request = try #require(jump, "the app received the jump through the other rewind")
        try app.send(#"{"type":"result","id":"\#(request["id"]?.stringValue ?? "")","ok":true}"#)
        #expect(tmux.waitForScreen { $0.contains("jumped the app to event 3") } != nil, "\(tmux.screen)")
        tmux.send("q")
        #expect(tmux.waitForScreen { $0.contains("exit status 0") } != nil, "\(tmux.screen)")
        #expect(harness.daemon.sessions.first?.isLive == true, "the other rewind still records")
    }

    @Test("no exits with status 1 and starts nothing")
    func declineOnNo() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        _ = try #require(try app.hello(AppFrames.hello(name: "elsewhere")))
        #expect(harness.waitForSession() != nil)

        let tmux = try Self.rewind(port: harness.port, data: harness.dataDirectory)
        defer { tmux.kill() }
        #expect(tmux.waitForScreen { $0.contains("[Y/n]") } != nil, "\(tmux.screen)")
        tmux.send("n", "Enter")
        let ended = try #require(tmux.waitForScreen { $0.contains("exit status") }, "\(tmux.screen)")
        #expect(ended.contains("exit status 1"), "\(ended)")
        #expect(!ended.contains("app commands through"), "no timeline was shown: \(ended)")
    }
}
