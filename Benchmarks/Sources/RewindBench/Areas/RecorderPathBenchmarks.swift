import BenchKit
import Foundation
import Rewind
import RewindInspector

/// The store-neutral recorder against the middleware, in the same run: the app thread's added cost of a hand-written
/// store that calls `Recorder.record` after each action, and of `Inspector.middleware` on a `Rewind.Store`, both
/// connected to one live daemon, paced and back-to-back, with a 1 kB state.
@MainActor
enum RecorderPathBenchmarks {
    /// A store written by hand, as an app without Rewind's store has one: the state, a pure reducer, and (when
    /// recorded) a ``Recorder`` told every action with the state after it.
    final class HandWrittenStore {
        private(set) var state: BenchState
        var recorder: Recorder<BenchState, BenchAction>?

        init(_ state: BenchState) { self.state = state }

        func send(_ action: BenchAction) {
            state.apply(action)
            recorder?.record(action, state: state)
        }
    }

    /// How long the app thread idles before each paced dispatch, after the inspectors delivered the previous one
    /// (as in the app-thread area).
    private static let pacedIdleMicros: UInt32 = 2_000

    static func run(_ context: BenchContext) async throws -> AreaReport {
        let daemon = try BenchDaemon(name: "recorder-path")
        defer { daemon.stop() }
        let size = StateSize("1 kB", bytes: 1_000)

        // Recorded: a hand-written store through `Recorder`, and a Rewind store through `Inspector.middleware`.
        let recorded = HandWrittenStore(size.state)
        recorded.recorder = Recorder(
            name: "bench-recorder", initialState: recorded.state,
            host: RecorderHost(executor: .mainActor) { MainActor.assumeIsolated { recorded.state } },
            configuration: daemon.inspectorConfiguration, transport: CountingTransport())
        var middlewareStore: Store<BenchState, BenchAction>? = Store(
            initialState: size.state, reducer: BenchState.reducer,
            middleware: [Inspector.middleware(name: "bench-middleware", configuration: daemon.inspectorConfiguration,
                                              transport: CountingTransport())])
        _ = try daemon.liveSession(app: "bench-recorder")
        _ = try daemon.liveSession(app: "bench-middleware")
        try InspectorDelivery.wait()
        // Their bare twins.
        let bareHandWritten = HandWrittenStore(size.state)
        let bareStore = Store(initialState: size.state, reducer: BenchState.reducer)
        var touches = (0..<4).map { _ in TouchSequence(over: size.state) }

        // Paced: the four arms interleaved at random, each dispatch after everything was delivered and an idle.
        context.progress("recorder path: paced, 1 kB")
        let plan = context.pick(full: SamplingPlan(minSamples: 3_000, minSeconds: 2, maxSeconds: 30),
                                quick: SamplingPlan(minSamples: 200, minSeconds: 0.1, maxSeconds: 2))
        var paced: [[Double]] = [[], [], [], []]
        var coin = SplitMix64(seed: 0xEC0DE)
        let start = MonotonicClock.seconds()
        while true {
            let done = paced.map(\.count).min() ?? 0
            let elapsed = MonotonicClock.seconds() - start
            if done >= plan.minSamples && elapsed >= plan.minSeconds { break }
            if done >= 3 && elapsed >= plan.maxSeconds { break }
            let arm = Int(coin.next() % 4)
            usleep(pacedIdleMicros)
            let action = touches[arm].next()
            let before = MonotonicClock.nanoseconds()
            switch arm {
            case 0: recorded.send(action)
            case 1: bareHandWritten.send(action)
            case 2: middlewareStore!.dispatch(action)
            default: bareStore.dispatch(action)
            }
            let nanos = Double(MonotonicClock.nanoseconds() &- before)
            try InspectorDelivery.wait()
            paced[arm].append(nanos)
        }

        // Back-to-back: each arm alone, as fast as the thread dispatches.
        context.progress("recorder path: back-to-back, 1 kB")
        let burstPlan = context.pick(
            full: SamplingPlan(minSamples: 200_000, minSeconds: 1.5, maxSamples: 2_000_000, maxSeconds: 15),
            quick: SamplingPlan(minSamples: 20_000, minSeconds: 0.1, maxSamples: 200_000, maxSeconds: 2))
        var burst: [Samples] = []
        for arm in 0..<4 {
            burst.append(Sampler.collect(burstPlan) {
                let action = touches[arm].next()
                let before = MonotonicClock.nanoseconds()
                switch arm {
                case 0: recorded.send(action)
                case 1: bareHandWritten.send(action)
                case 2: middlewareStore!.dispatch(action)
                default: bareStore.dispatch(action)
                }
                return Double(MonotonicClock.nanoseconds() &- before)
            })
            try await InspectorDelivery.settle(timeout: 300)
        }
        recorded.recorder = nil
        middlewareStore = nil
        return report(paced: paced.map(Samples.init), burst: burst, size: size)
    }

    private static func report(paced: [Samples], burst: [Samples], size: StateSize) -> AreaReport {
        func d(_ value: Double) -> String { Quantity.duration(value) }
        var rows: [ReportRow] = []
        for (mode, samples) in [("paced", paced), ("back-to-back", burst)] {
            let recorderAdded = samples[0].median - samples[1].median
            let middlewareAdded = samples[2].median - samples[3].median
            rows.append(ReportRow(
                "recorder path (hand-written store + Recorder.record), added cost, \(mode), \(size.label)",
                .nanoseconds(recorderAdded),
                detail: "recorded \(d(samples[0].median)) (p99 \(d(samples[0].p99)), n = "
                    + "\(Quantity.grouped(Double(samples[0].count))))",
                baseline: "bare hand-written store: \(d(samples[1].median)) (p99 \(d(samples[1].p99)))"))
            rows.append(ReportRow(
                "Inspector.middleware on Rewind.Store, added cost, \(mode), \(size.label)",
                .nanoseconds(middlewareAdded),
                detail: "attached \(d(samples[2].median)) (p99 \(d(samples[2].p99)), n = "
                    + "\(Quantity.grouped(Double(samples[2].count))))",
                baseline: "bare Rewind store: \(d(samples[3].median)) (p99 \(d(samples[3].p99)))"))
            // The criterion: the recorder path costs no more than the middleware (same run).
            let difference = recorderAdded - middlewareAdded
            let tolerance = max(100, 0.25 * abs(middlewareAdded))
            rows.append(ReportRow(
                "recorder path vs middleware, added cost, \(mode), \(size.label)", .nanoseconds(difference),
                detail: "recorder \(d(recorderAdded)) − middleware \(d(middlewareAdded))",
                target: Target(.atMost, tolerance, "≤ 25 % (or 0.1 µs) above the middleware's"),
                met: difference <= tolerance))
        }
        return AreaReport(
            title: "Recorder path",
            method: """
                Two recorded stores connected to one live in-process daemon, with a \(size.label) `BenchState` and \
                one-field changes: a hand-written store (a class holding the state, a pure reducer) that calls \
                `Recorder.record(action, state:)` after each action, and a `Rewind.Store` with \
                `Inspector.middleware`; each beside its bare twin (no recorder, no middleware). *Paced*: the four \
                stores interleaved at random, each dispatch \(Int(pacedIdleMicros / 1_000)) ms after both \
                inspectors delivered everything (equally cold caches). *Back-to-back*: each store alone, as fast \
                as the thread dispatches. Added cost = median recorded − median of its bare twin.
                """,
            rows: rows)
    }
}
