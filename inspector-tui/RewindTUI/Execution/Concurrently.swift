import Foundation

/// Runs `body` for shares `0..<count` on up to `count` threads at once (`DispatchQueue.concurrentPerform`), for work
/// off the UI thread that a long session makes long (the chart's slices, the stats table's counting): each share
/// reads through a connection of its own, so the machine's cores share the work.
///
/// Returns the shares' values in order; once every share has finished, throws the error of the first share (in
/// order) that failed. Threading: call from a background thread; `body` runs on several threads at once.
func concurrently<Value: Sendable>(_ count: Int, _ body: @Sendable (Int) throws -> Value) throws -> [Value] {
    let results = ShareResults<Value>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { share in
        results.set(share, Result { try body(share) })
    }
    return try results.all.map { try $0.get() }
}

/// How many threads ``concurrently(_:_:)`` work takes at most: the machine's cores, up to four.
let backgroundParallelism = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

/// The results of ``concurrently(_:_:)``'s shares, set by the threads that computed them.
///
/// Threading: any thread; guarded by its lock.
private final class ShareResults<Value: Sendable>: @unchecked Sendable {  // `results` guarded by `lock`
    private let lock = NSLock()
    private var results: [Result<Value, any Error>?]

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    /// Share `index` finished with `result`.
    func set(_ index: Int, _ result: Result<Value, any Error>) {
        lock.withLock { results[index] = result }
    }

    /// Every share's result, in order (a share that never ran: cancelled).
    var all: [Result<Value, any Error>] {
        lock.withLock { results.map { $0 ?? .failure(CancellationError()) } }
    }
}
