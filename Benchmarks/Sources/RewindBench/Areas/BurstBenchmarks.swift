import BenchKit
import Foundation
import Rewind
import RewindDaemon
import RewindSessionFile
import RewindInspector

/// `ingest/burst`: a burst of one-field actions dispatched as fast as the app's thread can, far faster than the
/// daemon records, through the inspector with a memory budget of ``budget`` (what a million queued actions need;
/// the default 64 MiB keeps about 300,000 and counts the rest lost: the Out of process area measures that);
/// counts what the session holds afterwards. Part of the Ingest area (issue 18: states may be coalesced, no action
/// may be lost).
@MainActor
enum BurstBenchmarks {
    /// What one burst left in its session.
    struct Outcome {
        var size: StateSize
        var actions: Int
        var dispatchSeconds: Double
        var recordSeconds: Double
        var recordedWithState = 0
        var recordedWithoutState = 0
        var lost: Int64 = 0
        var droppedRanges = 0
        var residentGrowth: Double
        var counts: InspectorDeliveryCounts
    }

    /// The memory budget the bursts run with (`REWIND_OUTBOX_BYTES`).
    static let budget = 256 << 20

    /// Runs one burst of `actions` actions with a state of `size`.
    static func run(size: StateSize, actions: Int, daemon: BenchDaemon, context: BenchContext) async throws -> Outcome {
        let app = "bench-burst-\(size.label.replacingOccurrences(of: " ", with: ""))"
        context.progress("ingest/burst: \(Quantity.grouped(Double(actions))) actions, \(size.label) state")
        let before = InspectorDeliveryCounts.sum()
        let memory = ResidentMemorySampler(interval: 0.02)
        let residentBefore = ProcessMemory.residentBytes()
        memory.start()
        var configuration = daemon.inspectorConfiguration
        configuration.outboxBudgetBytes = budget
        var store: Store<BenchState, BenchAction>? = Store(
            initialState: size.state, reducer: BenchState.reducer,
            middleware: [Inspector.middleware(name: app, configuration: configuration)])
        let session = try daemon.liveSession(app: app)
        var touches = TouchSequence(over: size.state)
        let start = MonotonicClock.seconds()
        for number in 0..<actions {
            store?.dispatch(touches.next())
            if number % 4_096 == 4_095 { await Task.yield() }
        }
        let dispatched = MonotonicClock.seconds()
        let settled = await Task.detached { Inspector.waitUntilAccountedFor(timeout: 300) }.value
        guard settled else { throw BenchFailure("the burst was not accounted for within 300 s") }
        let counts = InspectorDeliveryCounts.sum().minus(before)
        // Wait until the daemon has accounted for every action (recorded, or counted lost).
        var outcome = Outcome(size: size, actions: actions, dispatchSeconds: dispatched - start, recordSeconds: 0,
                              residentGrowth: 0, counts: counts)
        let deadline = MonotonicClock.seconds() + 300
        while true {
            daemon.daemon.waitUntilIdle()
            session.flush()
            try count(session, daemon: daemon, into: &outcome)
            if outcome.recordedWithState + outcome.recordedWithoutState + Int(outcome.lost) >= actions { break }
            if MonotonicClock.seconds() > deadline { throw BenchFailure("the burst was not recorded within 300 s") }
            usleep(50_000)
        }
        outcome.recordSeconds = MonotonicClock.seconds() - start
        outcome.residentGrowth = memory.stop() - residentBefore
        store = nil
        return outcome
    }

    private static func count(_ session: LiveSession, daemon: BenchDaemon, into outcome: inout Outcome) throws {
        let reader = try daemon.daemon.store.openSession(session.id)
        outcome.recordedWithState = 0
        outcome.recordedWithoutState = 0
        outcome.lost = 0
        outcome.droppedRanges = 0
        var first: Int64 = 1
        while first <= reader.eventCount {
            let last = min(reader.eventCount, first + 49_999)
            for event in try reader.events(first...last) {
                switch event.kind {
                case .action:
                    if event.patch == nil { outcome.recordedWithoutState += 1 } else { outcome.recordedWithState += 1 }
                case .dropped where event.label == "lost":
                    outcome.lost += event.action?["actionsLost"]?.int64Value ?? 0
                case .dropped:
                    outcome.droppedRanges += 1
                default:
                    break
                }
            }
            first = last + 1
        }
    }

    /// The report row of one burst: the figure is the number of actions lost (target: none).
    static func row(_ outcome: Outcome) -> ReportRow {
        let rate = Double(outcome.actions) / max(outcome.dispatchSeconds, 1e-9)
        return ReportRow(
            "ingest/burst: \(Quantity.grouped(Double(outcome.actions))) one-field actions dispatched back to back, "
                + "\(outcome.size.label) state, \(budget >> 20) MiB budget — actions lost",
            .text(Quantity.grouped(Double(outcome.lost))),
            detail: "dispatched at \(Quantity.grouped(rate))/s in \(Quantity.duration(outcome.dispatchSeconds * 1e9)); "
                + "all accounted for in the session file after \(Quantity.duration(outcome.recordSeconds * 1e9)) "
                + "(\(Quantity.grouped(Double(outcome.actions) / outcome.recordSeconds)) actions/s end to end); "
                + "recorded with state \(Quantity.grouped(Double(outcome.recordedWithState))), without state "
                + "(coalesced, in \(outcome.droppedRanges) `dropped` portion(s)) "
                + "\(Quantity.grouped(Double(outcome.recordedWithoutState))); the inspector reports "
                + "\(Quantity.grouped(Double(outcome.counts.lostInOutbox))) lost in its outbox; resident memory of "
                + "the process (app + daemon) grew by at most \(Quantity.size(outcome.residentGrowth))",
            target: Target(.atMost, 0, "no action lost"),
            met: outcome.lost == 0 && outcome.counts.lostInOutbox == 0)
    }
}

extension InspectorDeliveryCounts {
    /// The counts of every inspector in this process.
    static func sum() -> InspectorDeliveryCounts { Inspector.deliveryCounts() }

    /// These counts less `earlier` (inspectors still alive since then).
    func minus(_ earlier: InspectorDeliveryCounts) -> InspectorDeliveryCounts {
        var difference = self
        difference.sentWithState -= min(difference.sentWithState, earlier.sentWithState)
        difference.sentWithoutState -= min(difference.sentWithoutState, earlier.sentWithoutState)
        difference.lostInOutbox -= min(difference.lostInOutbox, earlier.lostInOutbox)
        return difference
    }
}
