import Foundation
import Testing
import RewindTUI
import RewindWire

/// Issue 31: `?` at 70×20 was cut off and could not scroll; the help now scrolls, and it says where the sessions are
/// and the `REWIND_URL` an app needs when the port is not the default.
@Suite("The ? overlay: scrolls when taller than the screen, says where sessions are")
struct HelpOverlayTests {
    private func app(address: String = "ws://127.0.0.1:7723") -> TimelineApp {
        let source = InMemoryTimelineDataSource(
            header: TimelineHeader(listeningAddress: address, connectedApps: 0, isRecording: true),
            dataDirectory: URL(fileURLWithPath: "/tmp/rewind-data"))
        source.addSession(id: "s", appName: "s", startedAt: Fixtures.start)
        return TimelineApp(dataSource: source, actions: RecordingActions(), environment: [:], clock: { 0 })
    }

    @Test("at 70×20 the help says it scrolls; ↓ brings the last keys into view; another key closes it")
    func scrollsAt70x20() {
        let app = app()
        app.handle(.character("?"))
        let first = app.renderOnce(width: 70, height: 20)
        #expect(first.contains("↑↓ scroll"), "\(first)")
        #expect(!first.contains("quit (asks if apps on)"))
        for _ in 0..<60 { app.handle(.down) }
        #expect(app.model.dialog == .help, "↓ scrolls, it does not close")
        let last = app.renderOnce(width: 70, height: 20)
        #expect(last.contains("quit (asks if apps on)"), "\(last)")
        app.handle(.character("x"))
        #expect(app.model.dialog == nil)
        app.handle(.character("?"))
        #expect(app.model.helpScroll == 0, "it opens at the top again")
    }

    @Test("the help names the sessions' directory, and REWIND_URL when the port is not the default", arguments: [
        (80, 24), (200, 60),
    ])
    func facts(width: Int, height: Int) {
        let other = app(address: "ws://127.0.0.1:7800")
        other.handle(.character("?"))
        let text = other.renderOnce(width: width, height: height)
        #expect(text.contains("Sessions: /tmp/rewind-data"), "\(text)")
        #expect(text.contains("REWIND_URL=ws://127.0.0.1:7800"), "\(text)")
        #expect(text.contains("quit (asks if apps on)"), "every key still shows")
        let usual = app()
        usual.handle(.character("?"))
        #expect(!usual.renderOnce(width: width, height: height).contains("REWIND_URL="))
        #expect(other.renderFrame(width: width, height: height).lines[0].hasPrefix(" rewind REWIND_URL=ws://127.0.0.1:7800 "),
                "the header says what an app needs")
    }
}
