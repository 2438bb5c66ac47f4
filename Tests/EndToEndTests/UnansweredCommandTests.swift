import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Every command the daemon sends an app is answered within its bound — the app's `result`, or `command_failed`
/// once the command timeout passes (PROTOCOL.md §4.2, §6) — and one command waiting for its app holds up no other:
/// not the other sessions' commands, not the listing, not the same session's jump.
@Suite("Commands to an app that never answers", .serialized)
struct UnansweredCommandTests {
    /// The daemon's command timeout in these tests.
    private static let commandTimeout = TestTime.seconds(1.5)
    /// How much later than the timeout an answer may come: the daemon's own work on a loaded machine.
    private static let margin = TestTime.seconds(2)
    /// What "at once" means for a command that waits for nothing.
    private static let atOnce = TestTime.seconds(1)

    /// A raw app that says hello offering jump, dispatch and replay, sends `actions` actions (`counter/set` 1, 2, …),
    /// and then reads what it is sent without ever answering; returns it with its session once the daemon has
    /// recorded the actions.
    private func app(named name: String, actions: Int, in harness: DaemonHarness) throws -> (DaemonPeer, SessionID) {
        let app = try DaemonPeer(port: harness.port, timeout: TestTime.seconds(10))
        let session = try SessionID(validating: try #require(try app.hello(AppFrames.hello(name: name))))
        for seq in 1...actions { try app.send(AppFrames.action(seq: seq)) }
        try #require(harness.waitForSession(events: Int64(actions), app: name) != nil)
        return (app, session)
    }

    private func control(_ harness: DaemonHarness) throws -> DaemonPeer {
        try DaemonPeer(port: harness.port, subprotocol: WireProtocol.controlSubprotocol, timeout: TestTime.seconds(10))
    }

    private func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }

    @Test("replay, replayActions, jump, dispatch and skip sent to an app that never answers each get command_failed once the command timeout passes")
    func everyCommandToAMuteAppIsAnswered() throws {
        let harness = try DaemonHarness { $0.commandTimeout = Self.commandTimeout }
        defer { harness.tearDown() }
        let (app, session) = try app(named: "mute", actions: 3, in: harness)
        let control = try control(harness)
        let commands: [(name: String, args: String, sent: String)] = [
            ("replay", #"{"session":"\#(session)","fromSeq":1,"toSeq":3}"#, "replay"),
            ("replayActions", #"{"target":"\#(session)","state":{"count":0},"actions":[{"set":{"_0":1}}]}"#, "replay"),
            ("jump", #"{"session":"\#(session)","seq":1}"#, "jump"),
            ("dispatch", #"{"session":"\#(session)","action":{"set":{"_0":9}}}"#, "dispatch"),
            ("skip", #"{"session":"\#(session)","seq":2}"#, "replay"),
        ]
        for (number, command) in commands.enumerated() {
            let started = Date()
            try control.request("\(number)", command.name, args: command.args)
            #expect(try app.next()["type"]?.stringValue == command.sent, "\(command.name)")  // never answered
            let failure = try control.expectFailure("\(number)", .commandFailed)
            let message = failure["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("did not answer"), "\(command.name): \(message)")
            #expect(seconds(since: started) < Self.commandTimeout + Self.margin,
                    "\(command.name) was answered only after \(seconds(since: started)) s")
        }
    }

    @Test("a skip's failure names what it waited for: the app's replay recomputing the later actions")
    func aSkipsFailureNamesWhatItWaitedFor() throws {
        let harness = try DaemonHarness { $0.commandTimeout = Self.commandTimeout }
        defer { harness.tearDown() }
        let (app, session) = try app(named: "mute-skip", actions: 3, in: harness)
        let control = try control(harness)
        try control.request("skip", "skip", args: #"{"session":"\#(session)","seq":2}"#)
        let replay = try app.next()
        #expect(replay["type"] == "replay")
        #expect(replay["actions"]?.arrayValue?.count == 1, "event 3's action alone is recomputed: \(replay)")
        let failure = try control.expectFailure("skip", .commandFailed)
        let message = failure["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("cannot skip event 2 of session \(session)"), "\(message)")
        #expect(message.contains("the app did not answer the replay recomputing the 1 action after event 1"),
                "\(message)")
        // The toggle was not recorded: a skip that failed leaves the session's skipped set as it was.
        let live = try #require(harness.daemon.session(session))
        live.flush()
        let reader = try harness.daemon.store.openSession(session)
        #expect(try reader.events(1...reader.eventCount).filter { $0.kind == .skip }.isEmpty)
    }

    @Test("while a skip waits for its app, another session's jump and the listing are answered at once, and the same session's jump within its own bound")
    func aWaitingSkipHoldsUpNothingElse() throws {
        let timeout = TestTime.seconds(3)
        let harness = try DaemonHarness { $0.commandTimeout = timeout }
        defer { harness.tearDown() }
        let (mute, muteSession) = try app(named: "mute", actions: 3, in: harness)
        let (answering, answeringSession) = try app(named: "answering", actions: 1, in: harness)
        let skipping = try control(harness), asking = try control(harness)

        let skipSent = Date()
        try skipping.request("skip", "skip", args: #"{"session":"\#(muteSession)","seq":2}"#)
        #expect(try mute.next()["type"] == "replay")  // the skip now waits for the mute app

        // Another session's app gets its jump at once and its answer goes back at once.
        var started = Date()
        try asking.request("other-jump", "jump", args: #"{"session":"\#(answeringSession)","seq":1}"#)
        let jump = try answering.next()
        #expect(jump["type"] == "jump")
        try answering.send(#"{"type":"result","id":"\#(jump["id"]?.stringValue ?? "")","ok":true}"#)
        try asking.expectSuccess("other-jump")
        #expect(seconds(since: started) < Self.atOnce, "another session's jump waited \(seconds(since: started)) s")

        started = Date()
        try asking.request("list", "sessions")
        let listed = try asking.expectSuccess("list")
        #expect(listed["sessions"]?.arrayValue?.count == 2)
        #expect(listed["sessions"]?.arrayValue?.allSatisfy { $0["commandTimeout"]?.doubleValue == timeout } == true,
                "the listing tells clients how long a live session's app has to answer: \(listed)")
        #expect(seconds(since: started) < Self.atOnce, "the listing waited \(seconds(since: started)) s")

        // The skipping session's own jump reaches its app at once, and is answered by its own timeout.
        let jumpSent = Date()
        try asking.request("same-jump", "jump", args: #"{"session":"\#(muteSession)","seq":1}"#)
        #expect(try mute.next()["type"] == "jump")
        #expect(seconds(since: jumpSent) < Self.atOnce, "the same session's jump waited \(seconds(since: jumpSent)) s")

        try skipping.expectFailure("skip", .commandFailed)
        #expect(seconds(since: skipSent) < timeout + Self.margin)
        try asking.expectFailure("same-jump", .commandFailed)
        #expect(seconds(since: jumpSent) < timeout + Self.margin)
    }

    @Test("a skip queued behind one that waits for its app is answered within the command timeout of its own request")
    func aQueuedSkipIsAnsweredWithinItsOwnBound() throws {
        let harness = try DaemonHarness { $0.commandTimeout = Self.commandTimeout }
        defer { harness.tearDown() }
        let (app, session) = try app(named: "mute", actions: 3, in: harness)
        let first = try control(harness), second = try control(harness)
        try first.request("first", "skip", args: #"{"session":"\#(session)","seq":2}"#)
        #expect(try app.next()["type"] == "replay")
        let secondSent = Date()
        try second.request("second", "skip", args: #"{"session":"\#(session)","seq":3}"#)
        try first.expectFailure("first", .commandFailed)
        let failure = try second.expectFailure("second", .commandFailed)
        #expect(seconds(since: secondSent) < Self.commandTimeout + Self.margin,
                "the queued skip was answered only after \(seconds(since: secondSent)) s")
        #expect(failure["error"]?["message"]?.stringValue?.contains("cannot skip event 3") == true, "\(failure)")
    }

    @Test("skips of one session run one at a time: the second starts once the first is recorded, from the skipped set it recorded")
    func skipsOfOneSessionRunOneAtATime() throws {
        let harness = try DaemonHarness { $0.commandTimeout = TestTime.seconds(10) }
        defer { harness.tearDown() }
        // Reads give up after a second: long enough for a command on its way, short enough to show that none comes.
        let app = try DaemonPeer(port: harness.port, timeout: TestTime.seconds(1))
        let session = try SessionID(validating: try #require(try app.hello(AppFrames.hello(name: "two-skips"))))
        for seq in 1...3 { try app.send(AppFrames.action(seq: seq)) }
        try #require(harness.waitForSession(events: 3, app: "two-skips") != nil)
        let first = try control(harness), second = try control(harness)

        try first.request("first", "skip", args: #"{"session":"\#(session)","seq":2}"#)
        let firstReplay = try app.next()
        #expect(firstReplay["type"] == "replay")
        try second.request("second", "skip", args: #"{"session":"\#(session)","seq":3}"#)
        #expect(throws: RawWebSocketClient.Failure.timedOut, "the second skip reached the app before the first ended") {
            try app.next()
        }
        // The app answers the first: event 3's action recomputed from the state after event 1.
        try app.send(#"{"type":"result","id":"\#(firstReplay["id"]?.stringValue ?? "")","ok":true,"states":[{"count":3}]}"#)
        let firstResult = try first.expectSuccess("first")
        #expect(firstResult["skipped"] == [2])
        #expect(firstResult["branch"] == 1)
        // The second read the set the first recorded, {2}, and adds 3: nothing after event 1 is left to recompute,
        // so its replay is a plain reset to the state after event 1.
        let secondReplay = try app.next()
        #expect(secondReplay["type"] == "replay")
        #expect(secondReplay["actions"] == [])
        #expect(secondReplay["state"] == ["count": 1])
        try app.send(#"{"type":"result","id":"\#(secondReplay["id"]?.stringValue ?? "")","ok":true,"states":[]}"#)
        let secondResult = try second.expectSuccess("second")
        #expect(secondResult["skipped"] == [2, 3])
        #expect(secondResult["branch"] == 2)
    }

    @Test("rewind jump, replay and skip print the daemon's command_failed, not a client timeout, when the app never answers")
    func commandLinePrintsTheDaemonsAnswer() throws {
        let harness = try DaemonHarness { $0.commandTimeout = Self.commandTimeout }
        defer { harness.tearDown() }
        let (app, session) = try app(named: "mute-cli", actions: 3, in: harness)
        let port = "\(harness.port)"
        let runs: [(arguments: [String], sent: String)] = [
            (["jump", session.rawValue, "1", "--port", port], "jump"),
            (["replay", session.rawValue, "--port", port, "--data", harness.dataDirectory.path], "replay"),
            (["skip", session.rawValue, "2", "--port", port], "replay"),
        ]
        for run in runs {
            let started = Date()
            let rewind = try ChildProcess(Executables.path("rewind"), run.arguments)
            #expect(try app.next()["type"]?.stringValue == run.sent, "\(run.arguments[0])")
            // The command line's own start and session lookup come on top of the daemon's answer.
            #expect(rewind.waitForExit(timeout: Self.commandTimeout + Self.margin + TestTime.seconds(5)) == 1,
                    "rewind \(run.arguments[0]) did not end with the daemon's answer: \(rewind.stderrLines)")
            let error = rewind.stderrLines.joined(separator: "\n")
            #expect(error.contains("command_failed"), "rewind \(run.arguments[0]): \(error)")
            #expect(error.contains("did not answer"), "rewind \(run.arguments[0]): \(error)")
            #expect(!error.contains("the daemon at"), "a client timeout instead of the daemon's answer: \(error)")
            #expect(seconds(since: started) < Self.commandTimeout + Self.margin + TestTime.seconds(5))
        }
    }
}
