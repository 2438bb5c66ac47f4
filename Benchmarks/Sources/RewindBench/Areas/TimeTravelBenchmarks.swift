import BenchKit
import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindWire

/// Time travel: from the daemon's `jump` request to the app's subscribers seeing the recorded state.
@MainActor
enum TimeTravelBenchmarks {
    /// Hands the subscriber's notification to the waiting benchmark loop.
    @MainActor
    private final class JumpWaiter {
        var continuation: CheckedContinuation<UInt64, any Error>?
        /// The number of the jump being waited for (so that a late timeout cannot end a later jump).
        var current = 0

        /// Fails jump `number` if it is still pending after `seconds`.
        func expire(_ number: Int, after seconds: Double) {
            Task { @MainActor in
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                if current == number {
                    failed(BenchFailure("jump \(number) reached no subscriber within \(Int(seconds)) s"))
                }
            }
        }

        func delivered() {
            let now = MonotonicClock.nanoseconds()
            continuation?.resume(returning: now)
            continuation = nil
        }

        func failed(_ error: any Error) {
            continuation?.resume(throwing: error)
            continuation = nil
        }
    }

    static func run(_ context: BenchContext) async throws -> AreaReport {
        let daemon = try BenchDaemon(name: "time-travel")
        defer { daemon.stop() }
        let size = StateSize("100 kB", bytes: 100_000)
        let app = "bench-jump"
        let store = Store(
            initialState: size.state, reducer: BenchState.reducer,
            middleware: [Inspector.middleware(name: app, configuration: daemon.inspectorConfiguration,
                                              transport: CountingTransport())])
        let session = try daemon.liveSession(app: app)
        var touches = TouchSequence(over: size.state)
        for _ in 0..<100 { store.dispatch(touches.next()) }
        try InspectorDelivery.wait()
        _ = try daemon.waitForCommitted(session, atLeast: 100)

        let waiter = JumpWaiter()
        let token = store.subscribe(deduplicate: false) { _ in waiter.delivered() }
        defer { token.cancel() }
        let jumps = context.pick(full: 300, quick: 30)
        context.progress("time travel: \(jumps) jumps with a 100 kB state")
        var samples: [Double] = []
        for number in 0..<(jumps + 5) {
            let target: Int64 = number % 2 == 0 ? 20 : 80
            let id = session.id
            let start = MonotonicClock.nanoseconds()
            let delivered = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UInt64, any Error>) in
                waiter.continuation = continuation
                waiter.current = number
                waiter.expire(number, after: 30)
                daemon.daemon.jump(session: id, to: target) { result in
                    if case .failure(let error) = result {
                        Task { @MainActor in waiter.failed(error) }
                    }
                }
            }
            waiter.current = -1
            if number >= 5 { samples.append(Double(delivered &- start)) }
        }
        let jump = Samples(samples)
        guard store.state != size.state else { throw BenchFailure("the jumps did not change the app's state") }

        // Reference: decoding the same state from JSON text with Foundation (the app-side floor of a jump that
        // ships the state as text).
        let text = try JSONEncoder().encode(size.state)
        let decoder = JSONDecoder()
        let decode = try Sampler.time(context.pick(full: SamplingPlan(minSamples: 100, minSeconds: 1),
                                                   quick: SamplingPlan(minSamples: 10, minSeconds: 0.1))) {
            _ = try decoder.decode(BenchState.self, from: text)
        }
        let rows = [
            ReportRow(
                "jump: request to subscribers, 100 kB state", .nanoseconds(jump.median),
                detail: "p99 \(Quantity.duration(jump.p99)), n = \(jump.count)",
                target: .atMost(nanoseconds: 10_000_000),
                baseline: "JSONDecoder decoding the 100 kB state: \(Quantity.duration(decode.median))",
                ratio: "\(Quantity.multiple(decode.median / jump.median)) (whole round trip vs. a bare decode)"),
            ReportRow(
                "jump, p99", .nanoseconds(jump.p99), target: .atMost(nanoseconds: 10_000_000)),
        ]
        return AreaReport(
            title: "Time travel",
            method: """
                A store with a \(size.longLabel) state and the inspector connected to an in-process daemon; 100 \
                actions recorded. Each sample calls `Daemon.jump(session:to:)` (alternately to events 20 and 80) \
                and ends when the store's subscriber is called with the new state, on the main actor. In between: \
                the daemon flushes the session, opens a reader and computes the state (keyframe + patches), sends \
                `jump` over the WebSocket; the inspector parses it, decodes the state into `BenchState`, replaces \
                the store's state on the main actor, and the subscriber runs. 5 warm-up jumps are not counted. \
                Reference: Foundation's `JSONDecoder` decoding the same state from text, which any text-based \
                jump must at least do in the app.
                """,
            rows: rows)
    }
}
