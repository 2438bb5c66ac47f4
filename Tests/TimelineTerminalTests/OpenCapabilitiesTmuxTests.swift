import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// `rewind open --port` attached to the daemon recording a live session learns what the session's app offered
/// (the `sessions` listing's `capabilities`), so the timeline neither offers nor sends what the app does not take,
/// and says why — as a timeline inside the daemon does.
@Suite("rewind open knows what the app offers (tmux)", .serialized,
       .enabled(if: Tmux.isAvailable, "tmux is not installed"))
struct OpenCapabilitiesTmuxTests {
    @Test("attached to a read-only app's daemon: no jump, step, skip or dispatch keys; Enter and d name the missing ability")
    func readOnlyAppThroughTheControlConnection() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let hello = #"{"type":"hello","protocol":1,"app":{"name":"watched","instance":"\#(UUID().uuidString)"},"#
            + #""state":{"count":0},"stateType":"CounterState","capabilities":["batch","ack"]}"#
        let session = try #require(try app.hello(hello))
        for seq in 1...3 { try app.send(AppFrames.action(seq: seq)) }
        #expect(harness.waitForSession(events: 3) != nil)

        let tmux = try Tmux(command: "\(Executables.path("rewind")) open \(session) --data "
                            + "\(harness.dataDirectory.path) --port \(harness.port)", width: 220)
        defer { tmux.kill() }
        let screen = try #require(tmux.waitForScreen { $0.contains("3 events") }, "\(tmux.screen)")
        #expect(screen.contains("app commands through ws://127.0.0.1:\(harness.port)"), "attached: \(screen)")
        tmux.send("k")
        let moved = try #require(tmux.waitForScreen { $0.contains("3 events") })
        let footer = String(moved.split(separator: "\n").last ?? "")
        for hint in ["Enter jump", "< > step", "s skip", "r replay", "d dispatch"] {
            #expect(!footer.contains(hint), "\(hint): \(footer)")
        }
        for (key, what, missing) in [("Enter", "jump", "jump"), ("d", "dispatch", "dispatch")] {
            tmux.send(key)
            let said = tmux.waitForScreen {
                $0.contains("cannot \(what): the app of session \(session) does not offer '\(missing)'")
            }
            #expect(said?.contains("it is watched read-only") == true, "\(key): \(tmux.screen)")
        }
        tmux.send("q")
        #expect(tmux.waitForExit(), "rewind open quit")
    }
}
