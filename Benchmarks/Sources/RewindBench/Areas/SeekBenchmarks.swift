import BenchKit
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// The state at a random event of a long session: nearest keyframe plus patches, read from the session file.
enum SeekBenchmarks {
    static func run(_ context: BenchContext, session: RecordedSession) throws -> AreaReport {
        let reader = try session.store.openSession(session.id)
        guard reader.eventCount == Int64(session.events) else {
            throw BenchFailure("the session holds \(reader.eventCount) events, not \(session.events)")
        }
        var generator = SplitMix64(seed: 42)
        let plan = context.pick(
            full: SamplingPlan(minSamples: 1_000, minSeconds: 5, maxSamples: 5_000, maxSeconds: 60),
            quick: SamplingPlan(minSamples: 100, minSeconds: 0.3, maxSeconds: 4))
        context.progress("seek: random events of \(session.events)")
        var cpu: [Double] = []
        _ = try reader.state(at: Int64(session.events / 2))
        let wall = try Sampler.collect(plan) {
            let index = Int64(1 + generator.next() % UInt64(session.events))
            let cpuStart = MonotonicClock.threadCPUNanoseconds()
            let start = MonotonicClock.nanoseconds()
            _ = try reader.state(at: index)
            let elapsed = Double(MonotonicClock.nanoseconds() &- start)
            cpu.append(Double(MonotonicClock.threadCPUNanoseconds() &- cpuStart))
            return elapsed
        }
        let cpuSamples = Samples(cpu)

        // Stepping forward one event at a time (the timeline scrubbing): the reader continues from its last state.
        context.progress("seek: stepping")
        var stepIndex = Int64(session.events / 3)
        _ = try reader.state(at: stepIndex)
        let step = try Sampler.collect(context.pick(full: SamplingPlan(minSamples: 2_000, minSeconds: 1),
                                                    quick: SamplingPlan(minSamples: 200, minSeconds: 0.1))) {
            stepIndex += 1
            let start = MonotonicClock.nanoseconds()
            _ = try reader.state(at: stepIndex)
            return Double(MonotonicClock.nanoseconds() &- start)
        }

        // Baseline: no keyframes — replay every patch from the initial state (read through the public API).
        context.progress("seek: baseline replay from the start")
        let replayCount = 3
        var replays: [Double] = []
        for _ in 0..<replayCount {
            let index = Int64(1 + generator.next() % UInt64(session.events))
            let start = MonotonicClock.nanoseconds()
            var state = try reader.initialState()
            var next: Int64 = 1
            while next <= index {
                let last = min(index, next + 9_999)
                for event in try reader.events(next...last) {
                    try event.patch?.apply(to: &state)
                }
                next = last + 1
            }
            replays.append(Double(MonotonicClock.nanoseconds() &- start))
            let seeked = try reader.state(at: index)
            guard state == seeked else {
                throw BenchFailure("replaying from the start disagrees with the keyframed seek at event \(index)")
            }
        }
        let replay = Samples(replays)

        let events = Quantity.grouped(Double(session.events))
        let rows = [
            ReportRow(
                "seek: state at a random event of a \(events)-event session, p99", .nanoseconds(wall.p99),
                detail: "median \(Quantity.duration(wall.median)), max \(Quantity.duration(wall.maximum)), "
                    + "n = \(Quantity.grouped(Double(wall.count)))",
                target: .atMost(nanoseconds: 20_000_000),
                baseline: "replaying every patch from the start: \(Quantity.duration(replay.median)) "
                    + "(median of \(replayCount))",
                ratio: "\(Quantity.multiple(replay.median / wall.median)) faster (medians)"),
            ReportRow(
                "… CPU time of the seeking thread, p99", .nanoseconds(cpuSamples.p99),
                detail: "median \(Quantity.duration(cpuSamples.median)); wall minus CPU is time spent waiting "
                    + "for a processor or the disk"),
            ReportRow(
                "step to the next event (timeline scrubbing)", .nanoseconds(step.median),
                detail: "p99 \(Quantity.duration(step.p99))"),
            ReportRow(
                "building the session: \(events) events appended and committed",
                .rate(Double(session.events) / session.buildSeconds, unit: "events/s"),
                detail: "\(Quantity.duration(session.buildSeconds * 1e9)) in all"),
        ]
        return AreaReport(
            title: "Seek",
            method: """
                A session file of \(events) events recorded through `SessionStore.createSession` + \
                `SessionRecording.append` with the default options (a keyframe every 1,000 events or 256 KiB of \
                patches): one-field changes (`replace` of one item's `value`) on a \
                \(Quantity.size(Double(session.stateBytes))) state. Then `SessionReader.state(at:)` at uniformly \
                random events (seeded), wall time per call on one reader, after one warm-up seek; the file is in \
                the page cache, as it is right after recording. Baseline: the same state computed without \
                keyframes, by reading every event from the start (`SessionReader.events`, 10,000 at a time) and \
                applying its patch — checked equal to the seek's result.
                """,
            rows: rows)
    }
}
