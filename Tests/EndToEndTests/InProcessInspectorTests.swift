import Foundation
import Rewind
import RewindDaemon
import RewindInspector
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

    private func delivered() async -> Bool {
        await Task.detached { Inspector.waitUntilDelivered(timeout: 10) }.value
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
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let secret = "hunter2-\(UUID().uuidString)"
        let store = Store(
            initialState: AppState(), reducer: Self.reducer,
            middleware: [Inspector.middleware(name: "redaction", redacting: ["**.password", "setPassword"],
                                              configuration: configuration)])
        store.dispatch(.setPassword(secret))
        store.dispatch(.increment)
        #expect(await delivered())
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
        #expect(await delivered())
        #expect(store.state.count == 2)
        let result = await jump(harness.daemon, session.id, to: 2)
        #expect(throws: Never.self) { try result.get() }
        #expect(store.state.count == 1, "the app took the recorded state")
        #expect(store.state.account.password == secret, "the app kept its own value at the redacted path")
    }

    @Test("several apps at once each get their own session")
    func concurrentSessions() async throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        var configuration = InspectorConfiguration()
        configuration.url = harness.url
        let stores = (0..<4).map { number in
            Store(initialState: AppState(), reducer: Self.reducer,
                  middleware: [Inspector.middleware(name: "app\(number)", configuration: configuration)])
        }
        for round in 0..<250 {
            for (number, store) in stores.enumerated() where round % (number + 1) == 0 { store.dispatch(.increment) }
        }
        #expect(await delivered())
        for (number, store) in stores.enumerated() {
            let session = try #require(harness.waitForSession(events: Int64(store.state.count), app: "app\(number)"))
            #expect(session.lastIndex == Int64(store.state.count))
            #expect(try harness.lastRecordedState(session)[try JSONPointer("/count")] == .int(Int64(store.state.count)))
        }
        #expect(Set(harness.daemon.sessions.map(\.id)).count == 4)
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
