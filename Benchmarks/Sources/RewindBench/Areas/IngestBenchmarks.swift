import BenchKit
import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector
import RewindWire

/// Events per second from apps into session files, and the resident memory while a daemon records a million
/// events. Runs first, so that the memory figure is not inflated by the other areas' allocations.
@MainActor
enum IngestBenchmarks {
    private struct IngestRun {
        var events: Int
        var seconds: Double
        var minWindowRate: Double
        var windowSeconds: Double
        var committed: Int64
        var drops: Int
        var problem: String?
        var producerCPUPerEvent: Double?
        /// CPU time of the whole process (daemon, client, the polling main thread) per event, in nanoseconds.
        var processCPUPerEvent: Double?
        var rate: Double { Double(events) / seconds }
    }

    static func run(_ context: BenchContext) async throws -> AreaReport {
        let events = context.pick(full: 1_000_000, quick: 200_000)
        let runs = context.pick(full: 3, quick: 1)
        let residentBefore = ProcessMemory.residentBytes()
        let memory = ResidentMemorySampler(interval: 0.02)
        memory.start()
        let daemon = try BenchDaemon(name: "ingest")
        defer { daemon.stop() }

        // Raw-client runs alternate with the disk-only baseline, so that load from elsewhere hits both alike.
        var rawRuns: [IngestRun] = []
        var directRuns: [IngestRun] = []
        var residentPeak = 0.0
        for run in 1...runs {
            context.progress("ingest: \(events) events from a raw client (run \(run) of \(runs))")
            rawRuns.append(try rawClientRun(daemon: daemon, app: "bench-ingest-\(run)", events: events,
                                            context: context))
            if run == 1 { residentPeak = memory.stop() }
            context.progress("ingest: \(events) events appended directly, no network (run \(run) of \(runs))")
            directRuns.append(try directAppend(events: events))
        }
        let raw = rawRuns.sorted { $0.rate < $1.rate }[rawRuns.count / 2]
        let direct = directRuns.sorted { $0.rate < $1.rate }[directRuns.count / 2]

        let search = try await inspectorRateSearch(daemon: daemon, context: context)
        // The burst keeps its full size in --quick runs: the figure is the number of actions lost by 1,000,000.
        let bursts = [
            try await BurstBenchmarks.run(size: StateSize("1 kB", bytes: 1_000), actions: 1_000_000, daemon: daemon,
                                          context: context),
            try await BurstBenchmarks.run(size: StateSize("100 kB", bytes: 100_000), actions: 1_000_000,
                                          daemon: daemon, context: context),
        ]

        func detail(_ run: IngestRun) -> String {
            var text = "\(Quantity.grouped(Double(run.events))) events in \(Quantity.duration(run.seconds * 1e9)); "
                + "slowest \(Quantity.duration(run.windowSeconds * 1e9)) window "
                + "\(Quantity.grouped(run.minWindowRate))/s; "
            text += run.drops == 0 ? "no drops" : "**\(run.drops) drop/coalescing event(s)**"
            if let problem = run.problem { text += "; **\(problem)**" }
            if let cpu = run.producerCPUPerEvent {
                text += "; the client's thread used \(Quantity.duration(cpu)) of CPU per event"
            }
            if let cpu = run.processCPUPerEvent {
                text += "; the whole process (daemon and client) used \(Quantity.duration(cpu)) of CPU per event, "
                    + "which bounds 2 processors at \(Quantity.grouped(2e9 / cpu)) events/s"
            }
            return text
        }
        let target = Target(.atLeast, 200_000, "≥ 200,000 events/s, no drops")
        var rows = [
            ReportRow(
                "ingest, app → daemon → disk, small patches (raw client sending `batch` frames)",
                .rate(raw.rate, unit: "events/s"),
                detail: "median of \(runs) run(s): " + rawRuns.map { Quantity.grouped($0.rate) }.joined(separator: ", ")
                    + "/s; " + detail(raw),
                target: target,
                baseline: "appending to a SessionRecording directly (disk only): "
                    + "\(Quantity.grouped(direct.rate)) events/s",
                ratio: "\(Quantity.multiple(raw.rate / direct.rate)) of the disk-only rate (runs alternated)",
                met: rawRuns.allSatisfy { $0.drops == 0 && $0.problem == nil } && raw.rate >= 200_000),
        ]
        let searchDetail = search.steps.map { step in
            "\(Quantity.grouped(step.requested))/s → \(Quantity.grouped(step.achieved))/s sent, "
                + "coalesced \(step.coalesced)×, all committed \(step.lag.map { Quantity.duration($0 * 1e9) } ?? "never") "
                + "after the step" + (step.keptUp ? "" : " **(did not keep up)**")
        }.joined(separator: "; ")
        if let best = search.best {
            rows.append(ReportRow(
                "ingest through the inspector: one app, 1 kB state, highest rate sustained with no drops",
                .rate(best.achieved, unit: "events/s"),
                detail: "steps of \(search.stepSeconds) s",
                target: target,
                baseline: "raw client: \(Quantity.grouped(raw.rate)) events/s",
                ratio: "\(Quantity.multiple(best.achieved / raw.rate)) of the raw client's rate"))
        } else {
            rows.append(ReportRow(
                "ingest through the inspector: one app, 1 kB state, highest rate sustained with no drops",
                .text("below \(Quantity.grouped(search.steps.first?.requested ?? 0)) events/s"), target: target,
                met: false))
        }
        rows += bursts.map(BurstBenchmarks.row)
        rows.append(ReportRow(
            "memory: resident memory while the daemon records \(Quantity.grouped(Double(events))) events",
            .bytes(residentPeak),
            detail: "peak of the whole benchmark process (daemon + client), sampled every 20 ms; "
                + "growth \(Quantity.size(residentPeak - residentBefore))",
            target: Target(.atMost, 150_000_000, "≤ 150 MB"),
            baseline: "the process before the daemon started: \(Quantity.size(residentBefore))",
            ratio: "\(Quantity.multiple(residentPeak / max(1, residentBefore))) the idle process"))
        return AreaReport(
            title: "Ingest and memory",
            method: """
                An in-process daemon (port 0, a fresh data directory on the same ext4 disk, default recording \
                options: commits every 50 ms, keyframe every 1,000 events). **Raw client:** a bare WebSocket \
                client on its own thread sends `hello`, then \(Quantity.grouped(Double(events))) events in \
                512-event `batch` frames as fast as the daemon's socket takes them; each event is a `tick` action \
                with a one-operation patch (`replace /counter`), ≈ 130 B. The figure is events ÷ the time from the \
                first frame to the last event committed to the session file (`LiveSession.committedIndex`, polled \
                every 2 ms), the median of \(runs) run(s); the slowest window is the lowest rate over consecutive \
                windows of that timeline. "No drops": the file holds exactly one `tick` event per event sent and \
                no `dropped` event. Baseline: the same events appended straight to a `SessionRecording` (no \
                network, no parsing) and committed, median of \(runs) run(s). **Through the inspector:** a \
                `Store` with a 1 kB state and `Inspector.middleware` dispatching one-field changes at increasing \
                paced rates for \(search.stepSeconds) s each (the inspector's own thread encodes and diffs every \
                state); a rate is sustained when the outbox did not coalesce, ≥ 95 % of it was sent, and every \
                event was committed within 0.25 s after the step. **Burst (`ingest/burst`):** a `Store` with a 1 kB, \
                then a 100 kB state and `Inspector.middleware` with a 256 MiB memory budget (what a million queued \
                actions need; the default 64 MiB is measured in the Out of process area) dispatches 1,000,000 \
                one-field changes back to back (also in `--quick` runs); once \
                the inspector has delivered everything, the session file is read back: actions recorded with a \
                patch, without one (inside `dropped` ranges), and the actions its `lost` rows count. **Memory:** `VmRSS` of the benchmark process \
                (which hosts the daemon and the raw client) sampled every 20 ms during the first raw-client run.
                """,
            rows: rows,
            notes: ["Inspector rate steps: " + searchDetail + ". Through the inspector, one app's pipeline thread "
                + "encodes and diffs the whole state for every action (see the Encode area for what encoding a "
                + "1 kB state costs), so one app's rate is bounded by that thread, not by the daemon."])
    }

    // MARK: - Raw client

    private final class SenderOutcome: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var error: String?
        private var finished = false
        private var cpuNanoseconds: UInt64 = 0

        func finish(_ error: String?, cpuNanoseconds: UInt64) {
            lock.lock()
            self.error = error
            self.cpuNanoseconds = cpuNanoseconds
            finished = true
            lock.unlock()
        }

        var state: (finished: Bool, error: String?, cpuNanoseconds: UInt64) {
            lock.lock()
            defer { lock.unlock() }
            return (finished, error, cpuNanoseconds)
        }
    }

    private static func rawClientRun(daemon: BenchDaemon, app: String, events: Int,
                                     context: BenchContext) throws -> IngestRun {
        let client = try RawAppClient(port: daemon.port)
        let writer = IngestFrameWriter(app: app)
        try client.sendText(writer.hello())
        let session = try daemon.liveSession(app: app)
        let outcome = SenderOutcome()
        let cpuStart = MonotonicClock.processCPUNanoseconds()
        let start = MonotonicClock.seconds()
        let sender = Thread {
            var frame: [UInt8] = []
            frame.reserveCapacity(80_000)
            var seq = 1
            do {
                while seq <= events {
                    let count = min(512, events - seq + 1)
                    writer.batch(firstSeq: seq, count: count, into: &frame)
                    try client.sendText(frame)
                    seq += count
                }
                outcome.finish(nil, cpuNanoseconds: MonotonicClock.threadCPUNanoseconds())
            } catch {
                outcome.finish("\(error)", cpuNanoseconds: MonotonicClock.threadCPUNanoseconds())
            }
        }
        sender.name = "bench.ingest-sender"
        sender.start()
        let run = try follow(session, expected: Int64(events), start: start, window: context.pick(full: 1, quick: 0.25),
                             producerDone: { outcome.state.finished })
        let cpuUsed = MonotonicClock.processCPUNanoseconds() - cpuStart
        if let error = outcome.state.error { throw BenchFailure("the ingest client failed: \(error)") }
        client.close()
        var result = try verified(run, session: session, daemon: daemon, label: "tick")
        result.producerCPUPerEvent = Double(outcome.state.cpuNanoseconds) / Double(events)
        result.processCPUPerEvent = Double(cpuUsed) / Double(events)
        return result
    }

    /// Polls `session` until `expected` events are committed, or the producer is done and nothing more arrives
    /// for a second; returns the timing (drops not yet counted).
    private static func follow(_ session: LiveSession, expected: Int64, start: Double, window: Double,
                               producerDone: () -> Bool) throws -> IngestRun {
        var timeline: [(time: Double, committed: Int64)] = [(start, 0)]
        var lastChange = start
        var last: Int64 = 0
        var problem: String?
        while true {
            usleep(2_000)
            let now = MonotonicClock.seconds()
            let committed = session.committedIndex
            timeline.append((now, committed))
            if committed != last {
                last = committed
                lastChange = now
            }
            if committed >= expected { break }
            if producerDone() && now - lastChange > 1 {
                problem = "only \(committed) of \(expected) events committed"
                break
            }
            if now - start > 600 { throw BenchFailure("ingest did not finish within 600 s") }
        }
        let end = problem == nil ? timeline.last!.time : lastChange
        // The slowest full window of the committed-events timeline.
        var minRate = Double.infinity
        var windowStart = 0
        for (index, point) in timeline.enumerated() where point.time - timeline[windowStart].time >= window {
            let rate = Double(point.committed - timeline[windowStart].committed) / (point.time - timeline[windowStart].time)
            minRate = min(minRate, rate)
            windowStart = index
        }
        if !minRate.isFinite { minRate = Double(last) / max(end - start, 1e-9) }
        return IngestRun(events: problem == nil ? Int(expected) : Int(last), seconds: end - start, minWindowRate: minRate, windowSeconds: window,
                         committed: last, drops: 0, problem: problem)
    }

    /// Counts what the file says was lost: events other than the expected action label, and `dropped` events.
    private static func verified(_ run: IngestRun, session: LiveSession, daemon: BenchDaemon,
                                 label: String) throws -> IngestRun {
        session.flush()
        let reader = try daemon.daemon.store.openSession(session.id)
        let drops = try reader.eventIndices(matchingLabel: "^(dropped|coalesced)$").count
        let actions = try reader.eventIndices(matchingLabel: "^\(label)$").count
        var run = run
        run.drops = drops
        if actions != run.events && run.problem == nil {
            run.problem = "the file holds \(actions) '\(label)' events of \(run.events)"
        }
        return run
    }

    // MARK: - Direct append (the disk-only baseline)

    private static func directAppend(events: Int) throws -> IngestRun {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-bench-direct-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        var state: JSONValue = ["counter": 0, "name": "ingest"]
        let recording = try store.createSession(appName: "bench-direct", protocolVersion: 1, initialState: state)
        let counter = try JSONPointer("/counter")
        let start = MonotonicClock.seconds()
        for seq in 1...events {
            let patch = JSONPatch([.replace(path: counter, value: .int(Int64(seq)))])
            try patch.apply(to: &state)
            recording.append(
                NewEvent(appSeq: Int64(seq), kind: .action, label: "tick",
                         action: ["tick": ["n": .int(Int64(seq))]], patch: patch),
                stateAfter: state)
        }
        recording.flush()
        let seconds = MonotonicClock.seconds() - start
        let committed = recording.committedIndex
        recording.finish(endState: .clean)
        return IngestRun(events: events, seconds: seconds, minWindowRate: Double(events) / seconds,
                         windowSeconds: seconds, committed: committed, drops: 0,
                         problem: committed == Int64(events) ? nil : "committed \(committed) of \(events)")
    }

    // MARK: - Through the inspector

    private struct IngestStep {
        var requested: Double
        var achieved: Double
        var coalesced: Int
        var lag: Double?
        var keptUp: Bool
    }

    private static func inspectorRateSearch(
        daemon: BenchDaemon, context: BenchContext
    ) async throws -> (steps: [IngestStep], best: IngestStep?, stepSeconds: Double) {
        let app = "bench-ingest-app"
        let size = StateSize("1 kB", bytes: 1_000)
        var store: Store<BenchState, BenchAction>? = Store(
            initialState: size.state, reducer: BenchState.reducer,
            middleware: [Inspector.middleware(name: app, configuration: daemon.inspectorConfiguration,
                                              transport: CountingTransport())])
        defer { store = nil }
        let session = try daemon.liveSession(app: app)
        try InspectorDelivery.wait()
        var touches = TouchSequence(over: size.state)
        let stepSeconds = context.pick(full: 2.0, quick: 0.3)
        let rates: [Double] = [10_000, 20_000, 30_000, 40_000, 60_000, 80_000, 100_000, 130_000, 160_000,
                               200_000, 250_000, 300_000]
        var steps: [IngestStep] = []
        for rate in rates {
            context.progress("ingest: \(Int(rate)) actions/s through the inspector")
            try await InspectorDelivery.settle(timeout: 120)
            session.flush()
            let before = session.committedIndex
            let run = PacedDispatch.run(store!, &touches, rate: rate, seconds: stepSeconds)
            let (sent, elapsed) = (run.sent, run.elapsed)
            let stepEnd = MonotonicClock.seconds()
            // Until every event of the step is committed (or nothing moves for a second once the inspector has
            // delivered everything: actions lost to a full outbox never arrive).
            var lag: Double?
            var lastCommitted = session.committedIndex
            var lastChange = stepEnd
            while true {
                let now = MonotonicClock.seconds()
                let committed = session.committedIndex
                if committed >= before + Int64(sent) {
                    lag = now - stepEnd
                    break
                }
                if committed != lastCommitted {
                    lastCommitted = committed
                    lastChange = now
                }
                if now - lastChange > 1 && Inspector.waitUntilAccountedFor(timeout: 0) { break }
                if now - stepEnd > 120 { throw BenchFailure("the daemon did not commit the step's events in 120 s") }
                try await Task.sleep(nanoseconds: 1_000_000)
            }
            try await InspectorDelivery.settle(timeout: 120)
            session.flush()
            let reader = try daemon.daemon.store.openSession(session.id)
            let coalesced = try reader.eventIndices(
                matchingLabel: "^(dropped|coalesced)$", in: (before + 1)...Int64.max).count
            let achieved = Double(sent) / elapsed
            let keptUp = coalesced == 0 && (lag.map { $0 <= 0.25 } ?? false) && achieved >= 0.95 * rate
            steps.append(IngestStep(requested: rate, achieved: achieved, coalesced: coalesced, lag: lag,
                                    keptUp: keptUp))
            if !keptUp { break }
        }
        return (steps, steps.last(where: \.keptUp), stepSeconds)
    }
}
