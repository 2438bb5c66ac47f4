import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// Network drops while an app streams (issue 19, item 3): after every reset, each action the app dispatched is
/// recorded exactly once — the inspector sends again what it sent since its resend log's checkpoint, and the daemon
/// ignores what it had — and whatever could not be is inside a `lost` row: nothing vanishes without a marker. The
/// connection runs through a proxy that resets it (an RST to both peers, as `ss -K` does), with a large state (the
/// inspector coalesces while frames of an open range are in flight) and with a small one.
@Suite("Reconnect loss", .serialized)
@MainActor
struct ReconnectLossTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
        var value: Int
        var payload: String
    }

    struct BigState: Codable, Equatable, Sendable {
        var items: [Item]
        var counter = 0
    }

    enum BigAction: Codable, Equatable, Sendable {
        case touch(index: Int, value: Int)
    }

    static let reducer = Reducer<BigState, BigAction> { state, action in
        switch action {
        case .touch(let index, let value): state.items[index].value = value
        }
        state.counter += 1
        return .none
    }

    static func state(bytes: Int) -> BigState {
        BigState(items: (0..<max(1, bytes / 100)).map {
            Item(id: $0, value: 0, payload: String(repeating: "x", count: 60))
        })
    }

    /// What the session says of the app's actions 1…`count`: those recorded (with how often), and those inside
    /// `lost` rows.
    static func accounting(_ harness: DaemonHarness, _ session: LiveSession, count: Int, timeout: Double = 20)
        throws -> (recorded: [Int64: Int], lost: Set<Int64>, reconnects: Int)
    {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while true {
            harness.daemon.waitUntilIdle()
            session.flush()
            let reader = try harness.daemon.store.openSession(session.id)
            let events = try reader.events(1...reader.eventCount)
            var recorded: [Int64: Int] = [:]
            var lost = Set<Int64>()
            for event in events {
                if event.kind == .action, let seq = event.appSeq { recorded[seq, default: 0] += 1 }
                if event.kind == .dropped, event.label == "lost",
                   let from = event.action?["from"]?.int64Value, let to = event.action?["to"]?.int64Value {
                    lost.formUnion(from...to)
                }
            }
            let reconnects = events.filter { $0.kind == .reconnect }.count
            let accounted = (1...Int64(count)).allSatisfy { recorded[$0] != nil || lost.contains($0) }
            if accounted || Date() >= deadline { return (recorded, lost, reconnects) }
            usleep(20_000)
        }
    }

    /// Streams `count` actions at about `rate` per second through a proxy reset every `resetEvery` seconds, then
    /// checks that the session accounts for every action exactly once.
    private func streamThroughResets(stateBytes: Int, count: Int, rate: Double, resetEvery: Double,
                                     app: String) async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let proxy = try ResettingProxy(targetPort: harness.port)
        defer { proxy.stop() }
        var configuration = InspectorConfiguration()
        configuration.url = proxy.url
        let store = Store(initialState: Self.state(bytes: stateBytes), reducer: Self.reducer,
                          middleware: [Inspector.middleware(name: app, configuration: configuration)])
        #expect(await Task.detached { Inspector.waitUntilDelivered(app: app, timeout: TestTime.seconds(10)) }.value)

        let resetting = ResetSchedule()
        let resetter = Thread {
            while !resetting.isDone {
                usleep(UInt32(resetEvery * 1e6))
                if !resetting.isDone { resetting.count(proxy.reset()) }
            }
        }
        resetter.start()
        let start = Date()
        let items = max(1, stateBytes / 100)
        for number in 1...count {
            store.dispatch(.touch(index: number % items, value: number))
            let due = start.addingTimeInterval(Double(number) / rate)
            let wait = due.timeIntervalSinceNow
            if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
        // A reset that finds the app between connections resets nothing: on a loaded machine the run can end with
        // fewer than two that did. The last ones then hit an idle connection, whose resend must still hold.
        let resetDeadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while resetting.resets < 2 && Date() < resetDeadline { try await Task.sleep(nanoseconds: 50_000_000) }
        resetting.finish()
        #expect(await Task.detached { Inspector.waitUntilDelivered(app: app, timeout: TestTime.seconds(30)) }.value)

        let session = try #require(harness.waitForSession(app: app))
        let (recorded, lost, reconnects) = try Self.accounting(harness, session, count: count)
        #expect(resetting.resets >= 2, "the proxy reset the connection (\(resetting.resets) times)")
        // A reset that closes a connection before the daemon read its `hello` leaves no reconnect mark (the daemon
        // never saw that connection): two resets can show as one reconnect.
        #expect(reconnects >= 1, "the app reconnected after the resets (\(reconnects) times)")
        let missing = (1...Int64(count)).filter { recorded[$0] == nil && !lost.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) actions appear nowhere, first \(missing.prefix(10))")
        let twice = recorded.filter { $0.value > 1 }.keys.sorted()
        #expect(twice.isEmpty, "\(twice.count) actions recorded more than once, first \(twice.prefix(10))")
        #expect(lost.isDisjoint(with: recorded.keys), "no recorded action is also counted lost")
        #expect(Int64(lost.count) == Int64(session.actionsLost), "the lost rows add up to the session's count")
        // The inspector sends again what followed its resend log's checkpoint, so nothing is even lost.
        #expect(lost.isEmpty, "\(lost.count) actions lost, first \(lost.sorted().prefix(10))")
        let count = try JSONPointer("/counter")
        let final = try harness.lastRecordedState(session) { $0[count] == .int(Int64(store.state.counter)) }
        #expect(final[count] == .int(Int64(store.state.counter)), "the recording ends at the app's state")
    }

    @Test("resets while a 200 kB state coalesces: every action is recorded exactly once, none lost")
    func resetsWhileCoalescing() async throws {
        try await streamThroughResets(stateBytes: 200_000, count: 3_000, rate: 1_000, resetEvery: 0.6,
                                      app: "resets-large")
    }

    @Test("resets with a small state: every action is recorded exactly once, none lost")
    func resetsWithSmallState() async throws {
        try await streamThroughResets(stateBytes: 200, count: 3_000, rate: 1_000, resetEvery: 0.6,
                                      app: "resets-small")
    }
}

/// The resetter thread's stop flag and count. Threading: any thread; guarded by a lock.
private final class ResetSchedule: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var done = false
    private var total = 0

    var isDone: Bool { lock.withLock { done } }
    var resets: Int { lock.withLock { total } }
    func finish() { lock.withLock { done = true } }
    func count(_ connections: Int) { lock.withLock { total += connections > 0 ? 1 : 0 } }
}

/// What the daemon does with messages an app sends again after a reconnect, frame by frame (a raw peer).
@Suite("Resent messages")
struct ResentMessagesTests {
    @Test("a coalesced range sent again across the point the record had reached: its actions up to that point are not recorded twice, and no state is made up for them")
    func resentRangeAcrossTheRecordsEnd() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let instance = UUID().uuidString
        // The first connection: actions 1–10 with their patches, then the connection drops.
        let first = try DaemonPeer(port: harness.port)
        try first.hello(AppFrames.hello(name: "straddle", instance: instance))
        try first.send(AppFrames.batch(1...10))
        let session = try #require(harness.waitForSession(events: 10, app: "straddle"))
        first.raw.drop()
        // Until the daemon has seen the connection close, a hello with its identity is a second connection of a
        // connected app, recorded apart (a loaded machine can take that long): the reconnect comes after.
        #expect(ProcessResources.settle(timeout: 10) { !session.isLive })

        // The app comes back from its checkpoint after action 5 and sends again what followed it: actions 6 and 7
        // with their patches, then a coalesced range 8–14 (announced before its actions, which carry no patch), and
        // the snapshot that closes it. On this connection the numbers start after 5.
        let second = try DaemonPeer(port: harness.port)
        try second.hello(#"{"type":"hello","protocol":1,"app":{"name":"straddle","instance":"\#(instance)"},"#
            + #""state":{"count":5},"stateType":"CounterState","capabilities":["jump","dispatch","replay","batch"],"#
            + #""seq":5,"resending":11}"#)
        try second.send(AppFrames.action(seq: 1, count: 6))
        try second.send(AppFrames.action(seq: 2, count: 7))
        try second.send(#"{"type":"dropped","from":3,"to":9,"actionsLost":0}"#)
        for seq in 3...9 { try second.send(AppFrames.action(seq: seq, patch: "[]")) }
        try second.send(AppFrames.snapshot(seq: 9, count: 14))

        let count = try JSONPointer("/count")
        #expect(try harness.lastRecordedState(session) { $0[count] == 14 }[count] == 14)
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...reader.eventCount)
        let numbers = events.filter { $0.kind == .action }.compactMap(\.appSeq)
        #expect(numbers == Array(1...14), "each action once, in order: \(numbers)")
        // Between the record's end (10) and the snapshot the state is unknown: no row claims one.
        for event in events where event.kind == .action && (event.appSeq ?? 0) > 10 && (event.appSeq ?? 0) < 14 {
            let claimed = try? reader.state(at: event.index)
            #expect(try reader.unknownState(after: event.index) != nil,
                    "#\(event.index), app action \(event.appSeq ?? -1), claims \(claimed.map { "\($0)" } ?? "?")")
        }
    }
}
