import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// "Dispatched before the app connected" (the timeline's mark) is a fact of order, stated by the app: its `hello`
/// says the number of the last action it had dispatched (`dispatched`), and the daemon writes the fact into each
/// action's row (`RowMeaning.beforeConnect`). An app whose `hello` does not say gets no such mark: clocks never
/// decide.
@Suite("Before connect: from the order the app states, not from clocks")
struct BeforeConnectTests {
    /// An `action` of the counter app dispatched at `time` (unix seconds).
    private func action(seq: Int, time: Double) -> String {
        #"{"type":"action","seq":\#(seq),"time":\#(time),"action":{"type":"counter/set"},"#
            + #""patch":[{"op":"replace","path":"/count","value":\#(seq)}]}"#
    }

    @Test("actions numbered up to the hello's 'dispatched' are before connect, whatever their clocks say; later ones are not")
    func fromOrder() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let hello = AppFrames.hello(protocolVersion: 2).dropLast() + #","seq":0,"dispatched":2}"#
        let session = try app.hello(String(hello))
        let now = Date().timeIntervalSince1970
        // Actions 1 and 2 were queued before the hello, on a clock running ahead; action 3 came after it, on a clock
        // running behind (it reads as older than the connection).
        try app.send(action(seq: 1, time: now + 100))
        try app.send(action(seq: 2, time: now + 100))
        try app.send(action(seq: 3, time: now - 100))
        app.expectOpen()
        let events = try recordedEvents(harness, session, atLeast: 3)
        #expect(events.map(\.appSeq) == [1, 2, 3])
        #expect(events.map(\.meaning.beforeConnect) == [true, true, false])
    }

    @Test("an app whose hello does not say, sending actions right after it on a clock running behind: none is before connect (issue 29: clocks said they were)",
          arguments: [1, 2])
    func notFromClocksWhenTheAppDoesNotSay(protocolVersion: Int) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let app = try DaemonPeer(port: harness.port)
        let session = try app.hello(AppFrames.hello(protocolVersion: protocolVersion))
        let now = Date().timeIntervalSince1970
        for seq in 1...3 { try app.send(action(seq: seq, time: now - 100)) }
        app.expectOpen()
        let events = try recordedEvents(harness, session, atLeast: 3)
        #expect(events.map(\.appSeq) == [1, 2, 3])
        #expect(events.map(\.meaning.beforeConnect) == [false, false, false])
    }

    @Test("the inspector says it: actions dispatched while no daemon listened are before connect, later ones are not")
    @MainActor
    func theInspectorSaysIt() async throws {
        let port = FreePort.next()
        let app = "before-connect-\(UUID().uuidString.prefix(8))"
        var configuration = InspectorConfiguration()
        configuration.url = "ws://127.0.0.1:\(port)"
        let store = Store(initialState: 0, reducer: Reducer<Int, Int> { state, amount in
            state += amount
            return .none
        }, middleware: [Inspector.middleware(name: app, configuration: configuration)])
        store.dispatch(1)
        store.dispatch(2)
        let harness = try DaemonHarness(port: port)
        defer { harness.tearDown() }
        #expect(await Task.detached { Inspector.waitUntilDelivered(app: app, timeout: TestTime.seconds(15)) }.value)
        store.dispatch(3)
        #expect(await Task.detached { Inspector.waitUntilDelivered(app: app, timeout: TestTime.seconds(10)) }.value)
        let session = try #require(harness.waitForSession(events: 3, app: app))
        session.flush()
        let reader = try harness.daemon.store.openSession(session.id)
        let actions = try reader.events(1...reader.eventCount).filter { $0.kind == .action }
        #expect(actions.map(\.appSeq) == [1, 2, 3])
        #expect(actions.map(\.meaning.beforeConnect) == [true, true, false])
    }
}
