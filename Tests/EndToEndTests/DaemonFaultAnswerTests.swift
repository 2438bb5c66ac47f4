import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Faults of apps and of the data directory that must not leave a client or a new app without an answer.
@Suite("Faults: an app that never answers, a data directory removed")
struct DaemonFaultAnswerTests {
    @Test("a jump to an app that never answers gets command_failed once the command timeout passes")
    func unansweredCommandFails() throws {
        let harness = try DaemonHarness { $0.commandTimeout = 0.5 }
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "mute")))
        let control = try DaemonPeer(port: harness.port, subprotocol: WireProtocol.controlSubprotocol,
                                     timeout: TestTime.seconds(5))
        let started = Date()
        try control.request("1", "jump", args: #"{"session":"\#(session)","seq":0}"#)
        #expect(try app.next()["type"] == "jump")  // the app receives it, and never answers
        let failure = try control.expectFailure("1", .commandFailed)
        #expect(failure["error"]?["message"]?.stringValue?.contains("did not answer within 0.5 s") == true,
                "\(failure)")
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(3))
        // A dispatch fails the same way; the app is still connected and recording.
        try control.request("2", "dispatch", args: #"{"session":"\#(session)","action":{"noop":{}}}"#)
        #expect(try app.next()["type"] == "dispatch")
        try control.expectFailure("2", .commandFailed)
        try app.send(AppFrames.action(seq: 1))
        app.expectOpen()
    }

    @Test("a data directory removed while the daemon runs is created again when the next session starts")
    func removedDataDirectoryIsRecreated() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        try FileManager.default.removeItem(at: harness.dataDirectory)
        let app = try DaemonPeer(port: harness.port)
        let session = try #require(try app.hello(AppFrames.hello(name: "after-rm")))
        try app.send(AppFrames.action(seq: 1))
        app.expectOpen()
        let live = try #require(harness.daemon.session(try SessionID(validating: session)))
        #expect(try harness.lastRecordedState(live, until: { $0 == ["count": 1] }) == ["count": 1])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: harness.dataDirectory.path, isDirectory: &isDirectory))
        let mode = try FileManager.default.attributesOfItem(atPath: harness.dataDirectory.path)[.posixPermissions]
        #expect((mode as? Int).map { $0 & 0o777 } == 0o700)
    }
}
