import Dispatch

/// Where a ``Recorder`` applies the daemon's commands (`jump`, `dispatch`, `replay`, `resync`) and reads the host's
/// current state: the serial context the host's store lives on.
///
/// The recorder receives commands on the transport's thread and hands each one, as a closure, to ``run``; the
/// closure calls the host's `currentState`, `jump`, `dispatch` and `replay` closures (see ``RecorderHost``) and
/// queues the resulting snapshot. The executor must therefore be the same serial context from which the host calls
/// ``Recorder/record(_:state:source:reducerNanos:)``, and must run closures one at a time, in the order given.
///
/// Threading: the value is immutable and `Sendable`; ``run`` is called from the recorder's transport thread.
public struct RecorderExecutor: Sendable {
    /// Runs one command closure on the host's serial context, later (never inline on the caller's thread unless
    /// that thread already is the host's context and the host accepts reentrancy).
    public let run: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// An executor that runs each closure with `run`.
    public init(_ run: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.run = run
    }

    /// The main actor (the default): for stores used from the main thread, as UI stores are. The app's main
    /// thread must be serving the main actor (an `async` `main`, `dispatchMain()`, or a run loop).
    public static let mainActor = RecorderExecutor { work in
        Task { @MainActor in work() }
    }

    /// A serial dispatch queue: for stores confined to that queue.
    public static func queue(_ queue: DispatchQueue) -> RecorderExecutor {
        RecorderExecutor { work in queue.async(execute: work) }
    }
}
