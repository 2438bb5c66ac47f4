// stress: a load generator for tests and benchmarks. Dispatches seeded random actions into a store of a chosen
// size with the inspector attached, measures its own dispatch latency, and reports what it sent.
import Foundation
import Rewind
import RewindInspector
import SampleSupport

let options: StressOptions
do {
    options = try StressOptions(Array(CommandLine.arguments.dropFirst()))
} catch let error as StressUsageError {
    if let message = error.message {
        FileHandle.standardError.write(Data("stress: \(message)\nRun 'stress --help' for usage.\n".utf8))
        exit(2)
    }
    print(StressOptions.usage)
    exit(0)
}

let store = Store(
    initialState: StressState.sized(options.stateBytes, layout: options.layout),
    reducer: stressReducer,
    middleware: [Inspector.middleware(name: "stress")]
)

var generator = SplitMix64(seed: options.seed)
var latencies: [UInt64] = []
latencies.reserveCapacity(min(options.count, 10_000_000))
let start = DispatchTime.now().uptimeNanoseconds
let deadline = options.duration.map { start + UInt64($0 * 1e9) }
let interval = options.rate > 0 ? 1e9 / options.rate : 0
var sent = 0

while deadline.map({ DispatchTime.now().uptimeNanoseconds < $0 }) ?? (sent < options.count) {
    let action = randomAction(in: store.state, changeBytes: options.changeBytes, mix: options.mix,
                              using: &generator)
    let before = DispatchTime.now().uptimeNanoseconds
    store.dispatch(action)
    latencies.append(DispatchTime.now().uptimeNanoseconds &- before)
    sent += 1
    if interval > 0 {
        let due = start + UInt64(Double(sent) * interval)
        let now = DispatchTime.now().uptimeNanoseconds
        // Sleeps of at least a millisecond (the actions that fall due meanwhile are dispatched back to back when it
        // ends): a timer per action at thousands per second would cost more than the dispatches measured.
        if due > now { try? await Task.sleep(nanoseconds: max(due - now, 1_000_000)) }
    } else if sent % 4096 == 0 {
        await Task.yield()
    }
}
let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
let handedOver = await Task.detached { Inspector.waitUntilAccountedFor(timeout: options.deliverTimeout) }.value
let counts = Inspector.deliveryCounts()
// Every action sent is accounted for once handed over: with its state, without it (coalesced), or lost — in the
// outbox, or in transit (the daemon's record counts those, and says so in its acknowledgments).
let lost = max(counts.lostInOutbox, counts.lostInRecord)
let delivered = handedOver && lost == 0 && counts.total == UInt64(sent) && Inspector.waitUntilDelivered(timeout: 0)

latencies.sort()
@MainActor func percentile(_ p: Double) -> Double {
    latencies.isEmpty ? 0 : Double(latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]) / 1000
}
/// The process's peak resident memory in KiB: the kernel's high-water mark of this program's memory (`VmHWM`) where
/// it can be read — `ru_maxrss` would include a parent's peak, inherited across `fork` and `exec` — else `ru_maxrss`.
func peakResidentKiB() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kib = Int(line.split(separator: " ").dropFirst().first ?? "") {
        return kib
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #if canImport(Darwin)
    return Int(usage.ru_maxrss) / 1024
    #else
    return Int(usage.ru_maxrss)
    #endif
}
let report = String(
    format: #"{"sent":%d,"seconds":%.3f,"rate":%.0f,"p50Micros":%.3f,"p99Micros":%.3f,"maxMicros":%.3f,"#
        + #""maxRSSKiB":%d,"withState":%llu,"withoutState":%llu,"lost":%llu,"handedOver":%@,"delivered":%@}"#,
    sent, seconds, Double(sent) / max(seconds, 1e-9), percentile(0.5), percentile(0.99), percentile(1.0),
    peakResidentKiB(), counts.sentWithState, counts.sentWithoutState, lost,
    handedOver ? "true" : "false", delivered ? "true" : "false")
FileHandle.standardError.write(Data((report + "\n").utf8))

if options.printState {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if let data = try? encoder.encode(store.state) {
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
if options.stay {
    await Task.detached { while readLine() != nil {} }.value
}
exit(0)
