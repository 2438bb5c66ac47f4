import Foundation

/// How busy the machine was with *other* processes over an interval: the CPU time all processors spent busy
/// (`/proc/stat`) minus this process's own CPU time (`getrusage`), as a share of the processors' capacity. The
/// benchmarks run on a shared machine; this says how much of it the rest was using meanwhile.
///
/// Threading: a plain value; `Sendable`.
package struct MachineLoad: Sendable, Hashable {
    private let totalTicks: Double
    private let busyTicks: Double
    private let ownSeconds: Double
    private let wallSeconds: Double

    /// The counters now (all zero where `/proc/stat` is missing).
    package static func snapshot() -> MachineLoad {
        let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        let fields = text.split(separator: "\n").first { $0.hasPrefix("cpu ") }?
            .split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        // user nice system idle iowait irq softirq steal guest guest_nice (guests are included in user/nice).
        let total = fields.prefix(8).reduce(0, +)
        let idle = fields.count > 4 ? fields[3] + fields[4] : 0
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        let own = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return MachineLoad(totalTicks: total, busyTicks: total - idle, ownSeconds: own,
                           wallSeconds: MonotonicClock.seconds())
    }

    /// The share (0…1) of all processors' time that other processes kept busy between `earlier` and this
    /// snapshot; NaN when unknown.
    package func othersShare(since earlier: MachineLoad) -> Double {
        let total = totalTicks - earlier.totalTicks
        guard total > 0 else { return .nan }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let own = (ownSeconds - earlier.ownSeconds) * ticksPerSecond
        return min(1, max(0, (busyTicks - earlier.busyTicks - own) / total))
    }

    /// The share (0…1) of all processors' time this process used between `earlier` and this snapshot.
    package func ownShare(since earlier: MachineLoad) -> Double {
        let total = totalTicks - earlier.totalTicks
        guard total > 0 else { return .nan }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        return min(1, max(0, (ownSeconds - earlier.ownSeconds) * ticksPerSecond / total))
    }
}
