import Testing
import RewindTUI
import RewindWire
import RewindTestSupport

/// A session's app offers only some abilities (`hello.capabilities`): the timeline offers only the keys those
/// abilities serve, and pressing another says which ability the app did not offer, sending nothing.
@Suite("The timeline follows the abilities the app offers")
struct AppCapabilitiesTests {
    private func source(capabilities: [String]?) throws -> InMemoryTimelineDataSource {
        let source = InMemoryTimelineDataSource(header: TimelineHeader(caption: "session s-app"))
        source.addSession(id: "s-app", appName: "tca", startedAt: 1_700_000_000, status: .live,
                          initialState: ["n": 0], appConnected: true, appCapabilities: capabilities)
        for index in 1...3 {
            try source.append(session: "s-app", time: 1_700_000_000 + Double(index), label: "tick",
                              stateAfter: ["n": .int(Int64(index))])
        }
        return source
    }

    private func footer(_ app: TimelineApp) -> String {
        app.renderFrame(width: 160, height: 30).lines[29]
    }

    @Test("a read-only app: no jump, step, skip, replay or dispatch; each key names the missing ability")
    func readOnlyApp() throws {
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: try source(capabilities: ["batch", "ack"]), actions: actions,
                              initialSession: "s-app", environment: [:], clock: { 0 })
        app.handle(.up)
        let keys = footer(app)
        for hint in ["Enter jump", "< > step", "s skip", "r replay", "d dispatch"] {
            #expect(!keys.contains(hint), "\(hint): \(keys)")
        }
        let expected: [(Key, String, String)] = [
            (.enter, "jump", "jump"), (.character("<"), "step", "jump"), (.character("s"), "skip", "replay"),
            (.character("r"), "replay", "replay"), (.character("d"), "dispatch", "dispatch"),
        ]
        for (key, what, missing) in expected {
            app.handle(key)
            #expect(app.model.status == StatusMessage(
                "cannot \(what): the app of session s-app does not offer '\(missing)' (it is watched read-only; "
                    + "see docs/INTEGRATIONS.md)", isError: true), "\(key)")
            #expect(app.model.dialog == nil)
        }
        #expect(app.waitForCommands(timeout: TestTime.seconds(10)))
        #expect(actions.calls.isEmpty)
    }

    @Test("an app that offers jump and replay but not dispatch: jump and replay offered, dispatch refused by name")
    func jumpWithoutDispatch() throws {
        let actions = RecordingActions()
        let app = TimelineApp(dataSource: try source(capabilities: ["jump", "replay", "batch", "ack"]), actions: actions,
                              initialSession: "s-app", environment: [:], clock: { 0 })
        app.handle(.up)
        let keys = footer(app)
        for hint in ["Enter jump", "< > step", "s skip", "r replay"] {
            #expect(keys.contains(hint), "\(hint): \(keys)")
        }
        #expect(!keys.contains("d dispatch"), "\(keys)")
        app.handle(.character("d"))
        #expect(app.model.status == StatusMessage(
            "cannot dispatch: the app of session s-app does not offer 'dispatch' (it offers only jump, replay; "
                + "see docs/INTEGRATIONS.md)", isError: true))
        #expect(app.model.dialog == nil)
    }
}
