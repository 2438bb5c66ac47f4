import Foundation

/// The inspectors running in this process, so that ``Inspector/waitUntilDelivered(timeout:)`` can wait for all
/// of them, ``Inspector/deliveryCounts()`` can add up what they did, and a normal process exit can flush them. Holds
/// them weakly.
///
/// On the first inspector it installs an `atexit` handler: when the process exits normally (`exit`, or returning
/// from `main`), it waits up to the longest ``InspectorConfiguration/exitFlushSeconds`` of the running inspectors
/// for everything to be delivered, then stops each one, which says `goodbye` to the daemon when everything was
/// delivered (the session then ends `clean`; otherwise `interrupted`). A coalesced range still open at that point
/// cannot be closed: its closing state is read on the main actor, which no longer runs during `exit`.
///
/// Threading: any thread; guarded by a lock.
final class InspectorRegistry: @unchecked Sendable {  // `members` guarded by `lock`
    /// Something whose deliveries can be waited for.
    protocol Member: AnyObject {
        /// Whether everything handed on is committed (`delivered`), accounted for with losses (`incomplete`), or not
        /// yet (`pending`).
        var deliveryVerdict: DeliveryStateMachine.Verdict { get }
        /// The app name it records under (`hello.app.name`).
        var appName: String { get }
        var deliveryCounts: InspectorDeliveryCounts { get }
        /// How long a normal process exit waits for this member's deliveries, seconds.
        var exitFlushSeconds: Double { get }
        /// How many times its thread has gone round its loop (each end of a wait is one).
        var loopIterations: UInt64 { get }
        /// How many times a push woke its parked thread (once per idle period at most).
        var parkedWakeUps: UInt64 { get }
        /// True once it was told to stop: it delivers nothing more, so nobody waits for it (it said on stderr what
        /// it could not deliver).
        var isStopping: Bool { get }
        func stop()
        /// Writes the recent actions it kept to a capture file (see ``InspectorPipeline/captureRecent(note:timeout:)``).
        func captureRecent(note: String, timeout: Double) -> Result<URL, CaptureWriteError>?
    }

    private struct Weak {
        weak var member: (any Member)?
    }

    static let shared = InspectorRegistry()
    private let lock = NSLock()
    private var members: [Weak] = []
    private var exitHookInstalled = false

    func add(_ member: any Member) {
        lock.lock()
        members.removeAll { $0.member == nil }
        members.append(Weak(member: member))
        let install = !exitHookInstalled
        exitHookInstalled = true
        lock.unlock()
        if install { atexit(inspectorRegistryExitHook) }
    }

    private var current: [any Member] {
        lock.lock()
        defer { lock.unlock() }
        return members.compactMap(\.member)
    }

    /// The running inspectors (those recording under `name`, when given).
    private func members(app name: String?) -> [any Member] {
        name.map { name in current.filter { $0.appName == name } } ?? current
    }

    /// Waits up to `timeout` seconds until no running inspector (recording under `name`, when given) has anything
    /// more on its way — everything it handed on is committed or counted lost, or it is stopping — and returns what
    /// that one look saw: true when each of them delivered everything with nothing lost (or is stopping; vacuously
    /// true when there is none), false when one lost actions; nil when time ran out first.
    ///
    /// The answer comes from the same reading of each verdict that found them settled: reading them again could see
    /// a later one (a pipeline whose first connection failed is settled, vacuously delivered, until a retry
    /// connects and it is pending again).
    func waitUntilSettled(app name: String? = nil, timeout: Double) -> Bool? {
        Self.waitUntilSettled(timeout: timeout) { members(app: name) }
    }

    /// ``waitUntilSettled(app:timeout:)`` over the inspectors `members` returns (asked again at each look).
    static func waitUntilSettled(timeout: Double, _ members: () -> [any Member]) -> Bool? {
        let deadline = monotonicSeconds() + timeout
        while true {
            let verdicts = members().map { $0.isStopping ? .delivered : $0.deliveryVerdict }
            if !verdicts.contains(.pending) { return verdicts.allSatisfy { $0 == .delivered } }
            if monotonicSeconds() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Has every running inspector (recording under `name`, when given) write its recent actions to a capture file;
    /// returns the files written, in the inspectors' order, and says on standard error why any other could not.
    func captureNow(reason: String, app name: String? = nil, timeout: Double) -> [URL] {
        let deadline = monotonicSeconds() + timeout
        var written: [URL] = []
        for member in members(app: name) where !member.isStopping {
            switch member.captureRecent(note: reason, timeout: max(0, deadline - monotonicSeconds())) {
            case .success(let url)?:
                written.append(url)
            case .failure(let error)?:
                FileHandle.standardError.write(Data("rewind inspector: '\(member.appName)': \(error)\n".utf8))
            case nil:
                FileHandle.standardError.write(Data(
                    "rewind inspector: '\(member.appName)': no capture written within \(timeout) s\n".utf8))
            }
        }
        return written
    }

    var counts: InspectorDeliveryCounts {
        current.reduce(InspectorDeliveryCounts()) { $0 + $1.deliveryCounts }
    }

    /// The loop iterations of every inspector thread alive, summed.
    var loopIterations: UInt64 {
        current.reduce(0) { $0 &+ $1.loopIterations }
    }

    /// The wake-ups of parked inspector threads by the app's pushes, summed over every inspector alive.
    var parkedWakeUps: UInt64 {
        current.reduce(0) { $0 &+ $1.parkedWakeUps }
    }

    /// Waits (bounded) for delivery, then stops every inspector. Called once, by the `atexit` handler.
    func flushAtExit() {
        let running = current
        guard !running.isEmpty else { return }
        let timeout = running.map(\.exitFlushSeconds).max() ?? 0
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline && !running.allSatisfy(\.isSettled) {
            usleep(2_000)
        }
        for member in running { member.stop() }
    }
}

extension InspectorRegistry.Member {
    /// Nothing more to wait for: everything committed or counted lost, or stopping (it delivers nothing more).
    var isSettled: Bool { isStopping || deliveryVerdict != .pending }
}

/// The `atexit` handler (a C function pointer: it captures nothing).
private func inspectorRegistryExitHook() {
    InspectorRegistry.shared.flushAtExit()
}

extension InspectorPipeline: InspectorRegistry.Member {
    var exitFlushSeconds: Double { configuration.exitFlushSeconds }
    var appName: String { identity.name }
}

extension Inspector {
    /// How many times the inspector threads of this process have woken up so far (each end of a wait for the app's
    /// entries, by an entry, a wake-up or a time-out, counts once): for measuring the wake-ups of an idle app
    /// (`rewind-bench`, tests). Threading: any thread.
    @_spi(Benchmarks)
    public static func pipelineWakeUps() -> UInt64 {
        InspectorRegistry.shared.loopIterations
    }

    /// How many times a dispatch has woken a parked inspector thread so far, over every inspector of this process:
    /// the first dispatch after a quarter of a second of quiet makes one system call to wake it (see
    /// `PollSchedule.parkAfter`), and `rewind-bench` tells those dispatches apart. Threading: any thread.
    @_spi(Benchmarks)
    public static func parkedPipelineWakeUps() -> UInt64 {
        InspectorRegistry.shared.parkedWakeUps
    }

    /// Waits until every inspector in this process has delivered everything dispatched so far — the daemon
    /// acknowledged having committed it to its file — or until nothing more is on its way, or `timeout` seconds pass.
    /// Returns true only when everything was delivered and no action was lost (in the outbox, or in transit and
    /// counted lost by the daemon's record): it returns false at once when everything is accounted for but some actions
    /// were lost (waiting would not bring them back; see ``waitUntilAccountedFor(timeout:)`` and
    /// ``deliveryCounts()``). An inspector whose store or recorder was let go is stopping and delivers nothing more (it
    /// says on standard error what it could not deliver): it is not waited for. For command-line apps that are about
    /// to exit (and for tests); never needed in long-running apps.
    ///
    /// Threading: blocks the calling thread; call it off the main actor (for example from `Task.detached`): when
    /// the outbox coalesced, delivery ends with a snapshot of the store's state read on the main actor.
    @discardableResult
    public static func waitUntilDelivered(timeout: Double = 5) -> Bool {
        InspectorRegistry.shared.waitUntilSettled(timeout: timeout) == true
    }

    /// Waits until every inspector in this process has nothing more on its way: everything dispatched so far is
    /// committed to the daemon's record or counted lost there (or the inspector is stopping), or until `timeout`
    /// seconds pass. True when nothing is on its way any more, whether or not actions were lost (see
    /// ``deliveryCounts()`` for how many; ``waitUntilDelivered(timeout:)`` is true only when none was).
    ///
    /// Threading: blocks the calling thread; call it off the main actor, as ``waitUntilDelivered(timeout:)``.
    @discardableResult
    public static func waitUntilAccountedFor(timeout: Double = 5) -> Bool {
        InspectorRegistry.shared.waitUntilSettled(timeout: timeout) != nil
    }

    /// ``waitUntilAccountedFor(timeout:)`` for the inspectors recording under the app name `name` only.
    ///
    /// Threading: blocks the calling thread; call it off the main actor.
    @discardableResult
    public static func waitUntilAccountedFor(app name: String, timeout: Double = 5) -> Bool {
        InspectorRegistry.shared.waitUntilSettled(app: name, timeout: timeout) != nil
    }

    /// Waits like ``waitUntilDelivered(timeout:)``, but only for the inspectors recording under the app name `name`
    /// (the `name:` given to ``Inspector/middleware(name:redacting:configuration:)`` or to a ``Recorder``): an app with several
    /// stores, or a test process running many apps at once, waits for the one it is about to stop without depending
    /// on the others' daemons. Returns true when every such inspector delivered everything (and when there is none).
    ///
    /// Threading: blocks the calling thread; call it off the main actor, as ``waitUntilDelivered(timeout:)``.
    @discardableResult
    public static func waitUntilDelivered(app name: String, timeout: Double = 5) -> Bool {
        InspectorRegistry.shared.waitUntilSettled(app: name, timeout: timeout) == true
    }

    /// What the inspectors of this process did with the actions dispatched so far: sent with their state, sent
    /// without it (coalesced), or lost in the outbox. Any thread.
    public static func deliveryCounts() -> InspectorDeliveryCounts {
        InspectorRegistry.shared.counts
    }
}
