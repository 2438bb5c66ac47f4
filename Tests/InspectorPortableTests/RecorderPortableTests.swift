import Dispatch
import Foundation
@testable import RewindInspector
import Testing

/// The store-neutral recorder in the configuration an Apple app builds (no libwebsockets: `make portable-check`),
/// over the URLSession transport, with no daemon. What needs a daemon is in EndToEndTests' RecorderEndToEndTests.
@Suite("Recorder without libwebsockets")
struct RecorderPortableTests {
    struct AppState: Codable, Sendable, Equatable { var count = 0 }
    enum AppAction: Codable, Sendable { case add(Int) }

    @Test("the hello capabilities are what the host offers, in protocol order")
    func capabilitiesFollowTheHost() {
        var host = RecorderHost<AppState, AppAction>(executor: .queue(DispatchQueue(label: "host"))) { AppState() }
        #expect(host.capabilities == ["batch", "ack"])
        host.offerDispatch { _ in }
        host.offerJump { _ in }
        #expect(host.capabilities == ["jump", "dispatch", "batch", "ack"])
        host.offerReplay(reducing: { _, _ in }, replace: { _ in })
        #expect(host.capabilities == ["jump", "dispatch", "replay", "batch", "ack"])
    }

    @Test("with no daemon reachable over URLSession, recording stays cheap and the recorder is released cleanly")
    func recordsWithoutADaemon() throws {
        let queue = DispatchQueue(label: "portable-store")
        var state = AppState()
        var host = RecorderHost<AppState, AppAction>(executor: .queue(queue)) { state }
        host.offerJump { state = $0 }
        var configuration = InspectorConfiguration()
        configuration.url = "ws://127.0.0.1:\(try URLSessionTransportTests.refusedPort())"
        var recorder: Recorder<AppState, AppAction>? = Recorder(
            name: "portable", initialState: state, host: host, configuration: configuration,
            transport: URLSessionTransport(connectTimeoutSeconds: 1))
        let started = Date()
        queue.sync {
            for n in 1...10_000 {
                state.count += n
                recorder?.record(.add(n), state: state)
            }
        }
        #expect(Date().timeIntervalSince(started) < 2 * TransportEvents.timeScale, "10,000 records were not O(1)")
        #expect(recorder?.capabilities == ["jump", "batch", "ack"])
        recorder = nil
        #expect(state.count == 50_005_000)
    }
}
