import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// The samples whose stores are not Rewind stores (`reswift-style`, `tca-style`), run as processes and recorded
/// through `Recorder` into a real daemon: recorded, jumped where the host allows, `rewind verify` passing where it
/// offers replay, and clear refusals where it does not.
@Suite("Samples recorded through Recorder", .serialized)
struct RecorderSampleTests {
    private func script(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-script-\(UUID()).txt").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func verify(_ session: SessionID, data: URL, app: String) throws -> ChildProcess {
        let process = try ChildProcess(Executables.path("rewind"),
                                       ["verify", session.rawValue, "--data", data.path, "--", Executables.path(app)])
        process.waitForExit(timeout: 60)
        return process
    }

    @Test("reswift-style: recorded with type-name labels; jump, dispatch and rewind verify work")
    func reswiftStyle() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("reswift-style"),
                                   // `add tea 0` is dropped by the app's own middleware, which comes before
                                   // the recorder (issue 31: the recorder goes last): it is not recorded, and
                                   // verify replays exactly what reached the reducer.
                                   ["--script", try script(["add milk 2", "add tea 0", "add tea 1", "remove 0"]),
                                    "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        let session = try #require(harness.waitForSession(events: 3, app: "reswift-style"))
        #expect(session.capabilities == ["jump", "dispatch", "replay", "batch", "ack"])
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...3)
        #expect(events.map(\.label) == ["AddItem", "AddItem", "RemoveItem"])
        #expect(events[0].action == ["AddItem": ["name": "milk", "quantity": 2]])
        #expect(try reader.state(at: 3) == ["items": [["name": "tea", "quantity": 1]], "total": 1])

        let linesBefore = app.stdoutLines.count
        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 1, completion: $0) }
        #expect(throws: Never.self) { try jumped.get() }
        #expect(app.waitForLine(timeout: 5, after: linesBefore) {
            $0 == #"{"items":[{"name":"milk","quantity":2}],"total":2}"#
        } != nil)
        let dispatched = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["ClearCart": [:]], completion: $0)
        }
        #expect(throws: Never.self) { try dispatched.get() }
        #expect(app.waitForLine(timeout: 5, after: linesBefore) { $0 == #"{"items":[],"total":0}"# } != nil)
        #expect(harness.waitForSession(events: 5)?.lastIndex == 5)
        #expect(try reader.event(at: 4).kind == .jump)
        #expect(try reader.event(at: 5).label == "ClearCart")
        app.closeInput()
        #expect(app.waitForExit() == 0)

        let run = try verify(session.id, data: harness.dataDirectory, app: "reswift-style")
        #expect(run.waitForExit() == 0, "\(run.stderrLines)")
        #expect(run.stdoutLines.last?.hasPrefix("verified ") == true, "\(run.stdoutLines)")
    }

    @Test("tca-style: non-Codable actions recorded with case-path labels; jump works; dispatch and verify are refused")
    func tcaStyle() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("tca-style"),
                                   ["--script", try script(["increment", "step 5", "increment", "fact", "decrement",
                                                            "decrement", "fact"]), "--stay"],
                                   environment: ["REWIND_URL": harness.url])
        let session = try #require(harness.waitForSession(events: 9, app: "tca-style"))
        #expect(session.capabilities == ["jump", "batch", "ack"])
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...9)
        #expect(events.map(\.label) == ["increment", "binding", "increment", "factButtonTapped",
                                        "factResponse/success", "decrement", "decrement", "factButtonTapped",
                                        "factResponse/failure"])
        #expect(events[1].action == ["binding": "(Function)"])
        #expect(events[4].action == ["factResponse": ["success": "6 is a number"]])
        #expect(try reader.state(at: 5) == ["count": 6, "step": 5, "fact": "6 is a number"])

        let linesBefore = app.stdoutLines.count
        let jumped = harness.daemon.waitFor { harness.daemon.jump(session: session.id, to: 5, completion: $0) }
        #expect(throws: Never.self) { try jumped.get() }
        #expect(app.waitForLine(timeout: 5, after: linesBefore) {
            $0 == #"{"count":6,"fact":"6 is a number","step":5}"#
        } != nil)

        let dispatched = harness.daemon.waitFor {
            harness.daemon.dispatch(session: session.id, action: ["increment": [:]], completion: $0)
        }
        guard case .failure(let refusal) = dispatched else {
            Issue.record("dispatch was not refused: \(dispatched)")
            return
        }
        #expect(refusal.description.contains("does not offer 'dispatch' (it offers 'jump'"), "\(refusal)")
        app.closeInput()
        #expect(app.waitForExit() == 0)

        let run = try verify(session.id, data: harness.dataDirectory, app: "tca-style")
        #expect(run.waitForExit() == 1)
        let output = (run.stdoutLines + run.stderrLines).joined(separator: "\n")
        // About the app, up front (issue 31: the refusal named the private daemon's session).
        #expect(output.contains("Error: the app does not offer 'replay' (it offers 'jump'): verify replays the "
                                + "recorded actions"), "\(output)")
        #expect(!output.contains("session"), "names no session of the private daemon: \(output)")
    }
}

/// `Inspector.middleware` is the recorder's first adapter and loses nothing: a Rewind store offers every ability.
@Suite("Inspector middleware on the recorder", .serialized)
struct MiddlewareCapabilityTests {
    @Test("a Rewind store's session advertises jump, dispatch, replay and batch")
    func rewindStoreOffersEverything() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-script-\(UUID()).txt").path
        try "increment".write(toFile: path, atomically: true, encoding: .utf8)
        let app = try ChildProcess(Executables.path("counter"), ["--script", path],
                                   environment: ["REWIND_URL": harness.url])
        #expect(app.waitForExit() == 0)
        let session = try #require(harness.waitForSession(events: 1, app: "counter"))
        #expect(session.capabilities == ["jump", "dispatch", "replay", "batch", "ack"])
    }
}
