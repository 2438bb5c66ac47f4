import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindTestSupport
import RewindWire
import Testing

/// A store with the inspector attached, in this process, streaming to a real daemon in this process.
@Suite("Inspector in process", .serialized)
@MainActor
struct InProcessInspectorTests {
    struct Account: Codable, Equatable, Sendable {
        var user: String
        var password: String
    }

    struct AppState: Codable, Equatable, Sendable {
        var account = Account(user: "ada", password: "")
        var count = 0
    }

    enum AppAction: Codable, Equatable, Sendable {
        case setPassword(String)
        case increment
    }

    static let reducer = Reducer<AppState, AppAction> { state, action in
        switch action {
        case .setPassword(let password): state.account.password = password
        case .increment: state.count += 1
        }
        return .none
    }

    /// An inspector configuration pointing at `harness`'s daemon.
    private static func configuration(for harness: DaemonHarness) -> InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        return configuration
    }

    /// Waits for the inspectors of `app` only: other suites run their own apps (and stop their daemons) in this
    /// process at the same time.
    private func delivered(_ app: String) async -> Bool {
        await Task.detached { Inspector.waitUntilDelivered(app: app, timeout: TestTime.seconds(10)) }.value
    }

    private func jump(_ daemon: Daemon, _ session: SessionID, to index: Int64) async -> Result<CommandResult, DaemonError> {
        await withCheckedContinuation { continuation in
            daemon.jump(session: session, to: index) { continuation.resume(returning: $0) }
        }
    }

    @Test("redacted paths never reach the daemon or the session file, and a jump keeps the app's own secret")
    func redaction() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let configuration = Self.configuration(for: harness)
        let secret = "hunter2-\(UUID().uuidString)"
        let store = Store(
            initialState: AppState(), reducer: Self.reducer,
            middleware: [Inspector.middleware(name: "redaction", redacting: ["**.password", "setPassword"],
                                              configuration: configuration)])
        store.dispatch(.setPassword(secret))
        store.dispatch(.increment)
        #expect(await delivered("redaction"))
        let session = try #require(harness.waitForSession(events: 2, app: "redaction"))

        let file = try Data(contentsOf: harness.daemon.store.fileURL(for: session.id))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: harness.daemon.store.fileURL(for: session.id).path + "-wal")))
            ?? Data()
        #expect(file.range(of: Data(secret.utf8)) == nil, "the secret is not in the session file")
        #expect(wal.range(of: Data(secret.utf8)) == nil, "the secret is not in the write-ahead log")
        let reader = try harness.daemon.store.openSession(session.id)
        #expect(try reader.state(at: 2)[try JSONPointer("/account/password")] == "<redacted>")
        #expect(try reader.event(at: 1).action == ["setPassword": "<redacted>"])

        store.dispatch(.increment)
        #expect(await delivered("redaction"))
        #expect(store.state.count == 2)
        let result = await jump(harness.daemon, session.id, to: 2)
        #expect(throws: Never.self) { try result.get() }
        #expect(store.state.count == 1, "the app took the recorded state")
        #expect(store.state.account.password == secret, "the app kept its own value at the redacted path")
    }

    @Test("each action carries the wall-clock time of its dispatch, in dispatch order")
    func actionTimes() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let configuration = Self.configuration(for: harness)
        let store = Store(initialState: AppState(), reducer: Self.reducer,
                          middleware: [Inspector.middleware(name: "times", configuration: configuration)])
        let before = Date().timeIntervalSince1970
        store.dispatch(.increment)
        usleep(20_000)
        let between = Date().timeIntervalSince1970
        store.dispatch(.increment)
        let after = Date().timeIntervalSince1970
        #expect(await delivered("times"))
        let session = try #require(harness.waitForSession(events: 2, app: "times"))
        let reader = try harness.daemon.store.openSession(session.id)
        let first = try reader.event(at: 1).time, second = try reader.event(at: 2).time
        // The app's thread reads only the monotonic clock; the pipeline turns it into wall-clock time.
        #expect(first >= before - 0.005 && first <= between + 0.005,
                "first at \(first), dispatched in [\(before), \(between)]")
        #expect(second >= between - 0.005 && second <= after + 0.005,
                "second at \(second), dispatched in [\(between), \(after)]")
        #expect(second - first >= 0.019, "the 20 ms between the dispatches shows: \(second - first) s")
    }

    @Test("several apps at once each get their own session")
    func concurrentSessions() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let configuration = Self.configuration(for: harness)
        let stores = (0..<4).map { number in
            Store(initialState: AppState(), reducer: Self.reducer,
                  middleware: [Inspector.middleware(name: "app\(number)", configuration: configuration)])
        }
        for round in 0..<250 {
            for (number, store) in stores.enumerated() where round % (number + 1) == 0 { store.dispatch(.increment) }
        }
        for number in 0..<4 { #expect(await delivered("app\(number)")) }
        for (number, store) in stores.enumerated() {
            let session = try #require(harness.waitForSession(events: Int64(store.state.count), app: "app\(number)"))
            #expect(session.lastIndex == Int64(store.state.count))
            #expect(try harness.lastRecordedState(session)[try JSONPointer("/count")] == .int(Int64(store.state.count)))
        }
        #expect(Set(harness.daemon.sessions.map(\.id)).count == 4)
    }

    @Test("an app that outruns a small outbox: each coalesced range is marked dropped and closed by a snapshot, and the recording ends at the app's state")
    func outrunOutbox() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = Self.configuration(for: harness)
        // Room for about 7,600 states (a quarter of what delivery leaves) and 26,000 actions: 30,000 actions
        // dispatched faster than the pipeline takes them lose their states, not themselves.
        configuration.outboxBudgetBytes = 5 << 20
        let store = Store(initialState: AppState(), reducer: Self.reducer,
                          middleware: [Inspector.middleware(name: "outrun", configuration: configuration)])
        #expect(await delivered("outrun"))
        for _ in 0..<30_000 { store.dispatch(.increment) }  // faster than the pipeline, without yielding
        #expect(await delivered("outrun"))
        let session = try #require(harness.waitForSession(app: "outrun"))
        let count = try JSONPointer("/count")
        #expect(try harness.lastRecordedState(session) { $0[count] == 30_000 }[count] == 30_000)

        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...reader.eventCount)
        let lastDropped = try #require(events.lastIndex { $0.kind == .dropped }, "the outbox coalesced")
        #expect(events[lastDropped...].contains { $0.kind == .snapshot && $0.label == "coalesced" })
        let numbers = events.filter { $0.kind == .action }.compactMap(\.appSeq)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "actions in order, none twice")
    }

    @Test("an outbox that holds nothing: the lost range is announced, and the closing snapshot waits for the main actor")
    func closingSnapshotComesFromTheMainActor() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = Self.configuration(for: harness)
        configuration.outboxBudgetBytes = 1
        let store = Store(initialState: AppState(), reducer: Self.reducer,
                          middleware: [Inspector.middleware(name: "nothing-fits", configuration: configuration)])
        #expect(await delivered("nothing-fits"))
        // Connected and welcomed before the burst: "delivered" is also said, vacuously, when a first attempt failed
        // and none succeeded yet (a loaded machine), and then the burst would be accounted for at once.
        _ = try #require(harness.waitForSession(app: "nothing-fits"))
        for _ in 0..<100 { store.dispatch(.increment) }
        // The main actor is busy here, so the state that closes the range cannot be read yet.
        #expect(!Inspector.waitUntilAccountedFor(app: "nothing-fits", timeout: TestTime.seconds(0.3)))
        #expect(await Task.detached {
            Inspector.waitUntilAccountedFor(app: "nothing-fits", timeout: TestTime.seconds(10))
        }.value)
        #expect(Inspector.deliveryCounts().lostInRecord >= 100, "the daemon's acknowledgments say they were lost")

        let session = try #require(harness.waitForSession(app: "nothing-fits"))
        let count = try JSONPointer("/count")
        #expect(try harness.lastRecordedState(session) { $0[count] == 100 }[count] == 100)
        let reader = try harness.daemon.store.openSession(session.id)
        let events = try reader.events(1...reader.eventCount)
        #expect(!events.contains { $0.kind == .action }, "no action fitted in the budget")
        // The pipeline may look at the outbox while the loop runs (it polls on its own), so the range can be
        // announced in portions; together they must say exactly 1–100, in order.
        let details = events.filter { $0.kind == .dropped && $0.label == "dropped" }.compactMap(\.detail)
        let announced = details.compactMap(Self.droppedRange)
        #expect(!announced.isEmpty && announced.count == details.count, "\(details)")
        #expect(announced.first?.lowerBound == 1 && announced.last?.upperBound == 100, "\(details)")
        #expect(zip(announced, announced.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound }, "\(details)")
        #expect(events.last?.kind == .snapshot && events.last?.label == "coalesced")
        // Every one of those actions is counted as lost, by rows the timeline, the export and the listing read.
        let lost = events.filter { $0.kind == .dropped && $0.label == "lost" }
            .reduce(Int64(0)) { $0 + ($1.action?["actionsLost"]?.int64Value ?? 0) }
        #expect(lost == 100)
        #expect(session.actionsLost == 100)
    }

    /// The range of app actions a recorded `dropped` event announces ("… states of actions 1–5 were not sent …").
    private static func droppedRange(_ detail: String) -> ClosedRange<Int>? {
        guard let start = detail.range(of: "actions ")?.upperBound else { return nil }
        let bounds = detail[start...].prefix { $0 != " " }.split(separator: "–").compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }

    @Test("with REWIND_DISABLED=1 the middleware passes actions straight through and starts nothing")
    func disabled() throws {
        let configuration = InspectorConfiguration.fromEnvironment(["REWIND_DISABLED": "1"])
        #expect(configuration.disabled)
        let store = Store(initialState: AppState(), reducer: Self.reducer,
                          middleware: [Inspector.middleware(name: "off", configuration: configuration)])
        store.dispatch(.increment)
        #expect(store.state.count == 1)
    }
}
