import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Issue 19: values and patches from a hostile peer are refused at the edge with a clear error, the daemon
/// stays up, and the other apps' sessions are not touched.
@Suite("Daemon: hostile values and patches")
struct HostileInputTests {
    private func harness(maxMessageBytes: Int = 1 << 20) throws -> DaemonHarness {
        try DaemonHarness { $0.maxMessageBytes = maxMessageBytes }
    }

    /// An `action` with these members instead of the usual `time`.
    private func action(seq: Int, time: String, extra: String = "") -> String {
        #"{"type":"action","seq":\#(seq),"time":\#(time),"action":{"type":"counter/set"},"#
            + #""patch":[{"op":"replace","path":"/count","value":\#(seq)}]\#(extra)}"#
    }

    @Test("an action time outside 1970…9999 gets bad_field naming action.time; the daemon and the other sessions go on",
          arguments: ["1e19", "1e300", "-1", "-1e300", "253402300800", "18446744073709551616"])
    func timeOutOfRange(time: String) throws {
        let harness = try harness()
        defer { harness.tearDown() }
        let bystander = try DaemonPeer(port: harness.port)
        let bystanderSession = try bystander.hello()
        try bystander.send(AppFrames.action(seq: 1))

        let app = try DaemonPeer(port: harness.port)
        let session = try app.hello()
        try app.send(action(seq: 1, time: time))
        let message = try app.expectError(.badField, field: "action.time")
        #expect(message.contains("from 0 to 253402300799"), "\(message)")
        app.expectOpen()
        try app.send(AppFrames.action(seq: 1))
        try app.send(action(seq: 2, time: "1.5", extra: #","reducerMicros":1e300"#))
        try app.expectError(.badField, field: "action.reducerMicros")
        app.expectOpen()

        try bystander.send(AppFrames.action(seq: 2))
        bystander.expectOpen()
        let events = try recordedEvents(harness, session, atLeast: 3)
        #expect(events.map(\.kind) == [.error, .action, .error])
        #expect(events.allSatisfy { WireRanges.time.contains($0.time) })
        #expect(try recordedFinalState(harness, session) == ["count": 1])
        let others = try recordedEvents(harness, bystanderSession, atLeast: 2)
        #expect(others.map(\.appSeq) == [1, 2])
        #expect(try recordedFinalState(harness, bystanderSession) == ["count": 2])
    }

    @Test("a patch that copies the state into itself again and again is refused at the state limit; the session goes on")
    func copyBomb() throws {
        let harness = try harness(maxMessageBytes: 1 << 20)
        defer { harness.tearDown() }
        let bystander = try DaemonPeer(port: harness.port)
        let bystanderSession = try bystander.hello()

        let app = try DaemonPeer(port: harness.port)
        let filler = String(repeating: "x", count: 1000)
        let session = try app.hello(#"{"type":"hello","protocol":1,"app":{"name":"bomb","instance":"1"},"#
                                    + #""state":{"count":0,"filler":"\#(filler)"}}"#)
        // 40 doublings of a 1 kB state: about 10^15 bytes if applied; the frame is under 2 kB.
        let copies = (0..<40).map { #"{"op":"copy","from":"","path":"/c\#($0)"}"# }.joined(separator: ",")
        let frame = #"{"type":"action","seq":1,"time":1700000000.5,"action":{"type":"bomb"},"patch":[\#(copies)]}"#
        #expect(frame.utf8.count < 2048)
        let started = Date()
        try app.send(frame)
        let message = try app.expectError(.patchFailed)
        #expect(message.contains("the document would grow past the limit of 1048576 bytes"), "\(message)")
        try app.expectResync(reason: "patch_failed")
        #expect(Date().timeIntervalSince(started) < TestTime.seconds(5))

        // The session goes on: a snapshot makes the state known again and later patches apply.
        try app.send(#"{"type":"snapshot","seq":1,"state":{"count":1},"reason":"resync"}"#)
        try app.send(AppFrames.action(seq: 2))
        app.expectOpen()
        try bystander.send(AppFrames.action(seq: 1))
        bystander.expectOpen()

        let events = try recordedEvents(harness, session, atLeast: 4)
        #expect(events.map(\.kind) == [.action, .error, .snapshot, .action])
        #expect(events[0].patch == nil)  // the refused patch is not recorded
        #expect(try recordedFinalState(harness, session) == ["count": 2])
        #expect(try recordedFinalState(harness, bystanderSession) == ["count": 1])
        let file = harness.dataDirectory.appendingPathComponent("\(try #require(session)).rewind")
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        #expect(size < 1 << 20, "the session file holds \(size) bytes")
    }

    @Test("patches that grow the state a little at a time are refused once it passes the limit, not before")
    func gradualGrowth() throws {
        let harness = try harness(maxMessageBytes: 64 << 10)
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try app.hello(#"{"type":"hello","protocol":1,"app":{"name":"grow","instance":"1"},"#
                                    + #""state":{"items":[]}}"#)
        let item = String(repeating: "y", count: 1000)
        // 60 items of about 1 kB stay under 64 KiB; the copies that follow double it past the limit.
        for seq in 1...60 {
            try app.send(AppFrames.action(seq: seq, patch: #"[{"op":"add","path":"/items/-","value":"\#(item)"}]"#))
        }
        app.expectOpen()
        try app.send(AppFrames.action(seq: 61, patch: #"[{"op":"copy","from":"/items","path":"/again"}]"#))
        let message = try app.expectError(.patchFailed)
        #expect(message.contains("limit of 65536 bytes"), "\(message)")
        let events = try recordedEvents(harness, session, atLeast: 62)
        #expect(events.prefix(60).allSatisfy { $0.kind == .action && $0.patch != nil })
        #expect(events[60].patch == nil)
        #expect(events[61].kind == .error)
    }

    @Test("a message of more values than its budget (empty arrays: 32 bytes each once parsed) gets too_big and 1009; others go on")
    func tooManyValues() throws {
        let harness = try harness(maxMessageBytes: 1 << 20)  // at most 65,536 values per message
        defer { harness.tearDown() }
        let bystander = try DaemonPeer(port: harness.port)
        let bystanderSession = try bystander.hello()
        let app = try DaemonPeer(port: harness.port)
        let arrays = Array(repeating: "[]", count: 300_000).joined(separator: ",")
        try app.send(#"{"type":"hello","protocol":1,"app":{"name":"arrays","instance":"1"},"state":[\#(arrays)]}"#)
        let message = try app.expectError(.tooBig)
        #expect(message.contains("more than 65536 values"), "\(message)")
        app.expectClose(1009)
        #expect(harness.daemon.sessions.count == 1)
        try bystander.send(AppFrames.action(seq: 1))
        bystander.expectOpen()
        #expect(try recordedFinalState(harness, bystanderSession) == ["count": 1])
    }
}
