import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// Who a session belongs to when several connections present the same app identity, against a real daemon: a
/// session whose app is connected is never taken over, a reconnect right after a close always continues the
/// session, and a finished run releases its state.
@Suite("Sessions: no takeover, instant reconnects, finished runs freed")
struct SessionTakeoverTests {
    @Test("a second connection with a live app's identity gets its own session; the real app loses nothing")
    func duplicateIdentityGetsItsOwnSession() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let hello = AppFrames.hello(name: "twin", instance: "same-run")
        // The real app answers pings while idle, as every WebSocket library does: the daemon's probe finds it alive.
        let real = try DaemonPeer(port: harness.port, answersPings: true)
        let realSession = try #require(try real.hello(hello))
        try real.send(AppFrames.action(seq: 1))

        let impostor = try DaemonPeer(port: harness.port)
        try impostor.send(hello)
        let welcome = try impostor.next()
        #expect(welcome["type"] == "welcome")
        #expect(welcome["resumed"] == false, "\(welcome)")
        let impostorSession = try #require(welcome["session"]?.stringValue)
        #expect(impostorSession != realSession)

        // A jump to the real app's session reaches the real app, not the impostor.
        let id = try SessionID(validating: realSession)
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(10))
        let box = CommandOutcome()
        harness.daemon.jump(session: id, to: 0) { box.set($0) }
        let jump = try real.next()
        #expect(jump["type"] == "jump", "\(jump)")
        try real.send(#"{"type":"result","id":"\#(jump["id"]?.stringValue ?? "")","ok":true}"#)
        #expect(box.wait()?.isSuccess == true)

        // The impostor leaves; the real app's later events are all recorded.
        try impostor.raw.sendClose(code: 1000)
        _ = try? impostor.raw.readCloseCode()
        for seq in 2...20 { try real.send(AppFrames.action(seq: seq)) }
        real.expectOpen()
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(10))
        let live = try #require(harness.daemon.session(id))
        #expect(live.isLive)
        live.flush()
        let events = try harness.daemon.store.openSession(id).events(1...live.committedIndex)
        #expect(events.filter { $0.kind == .action }.compactMap(\.appSeq) == (1...20).map { Int64($0) })
        #expect(try harness.lastRecordedState(live) == ["count": 20])
        #expect(harness.daemon.sessions.filter { $0.identity.instance == "same-run" }.count == 2)
    }

    @Test("200 reconnects right after a close are all accepted and continue the same session")
    func instantReconnectsContinue() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let hello = AppFrames.hello(name: "blinker", instance: "blinker-run")
        var session: String?
        var refused: [String] = []
        for round in 0..<200 {
            let peer = try DaemonPeer(port: harness.port)
            try peer.send(hello)
            let answer = try peer.next()
            if answer["type"] != "welcome" {
                refused.append("round \(round): \(answer)")
            } else if let id = answer["session"]?.stringValue {
                if session == nil { session = id }
                if id != session { refused.append("round \(round): new session \(id)") }
                if round > 0 && answer["resumed"] != true { refused.append("round \(round): not resumed") }
            }
            try peer.send(AppFrames.action(seq: 1, count: round))
            try peer.raw.sendClose(code: 1000)
            peer.raw.drop()
        }
        #expect(refused.isEmpty, "\(refused.prefix(5))")
        #expect(harness.daemon.sessions.count == 1)
        harness.daemon.waitUntilIdle(timeout: TestTime.seconds(10))
        let live = try #require(harness.daemon.sessions.first)
        _ = ProcessResources.settle { !live.isLive }
        live.flush()
        let events = try harness.daemon.store.openSession(live.id).events(1...live.committedIndex)
        #expect(events.filter { $0.kind == .action }.count == 200)
        #expect(events.filter { $0.kind == .reconnect }.count == 199)
    }

    @Test("a finished run releases its state: a disconnected session keeps no state in memory")
    func finishedRunReleasesState() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let peer = try DaemonPeer(port: harness.port)
        let id = try SessionID(validating: try #require(try peer.hello(AppFrames.hello(name: "brief"))))
        try peer.send(AppFrames.action(seq: 1))
        let live = try #require(harness.daemon.session(id))
        #expect(ProcessResources.settle { live.currentState == ["count": 1] })
        try peer.raw.sendClose(code: 1000)
        _ = try? peer.raw.readCloseCode()
        #expect(ProcessResources.settle { !live.isLive && live.currentState == JSONValue?.none })
    }
}
