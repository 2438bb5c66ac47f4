import Foundation

/// The inspectors running in this process, so that ``Inspector/waitUntilDelivered(timeout:)`` can wait for all
/// of them. Holds them weakly.
///
/// Threading: any thread; guarded by a lock.
final class InspectorRegistry: @unchecked Sendable {  // `pipelines` guarded by `lock`
    /// Something whose deliveries can be waited for.
    protocol Member: AnyObject {
        var hasDeliveredEverything: Bool { get }
    }

    private struct Weak {
        weak var member: (any Member)?
    }

    static let shared = InspectorRegistry()
    private let lock = NSLock()
    private var members: [Weak] = []

    func add(_ member: any Member) {
        lock.lock()
        members.removeAll { $0.member == nil }
        members.append(Weak(member: member))
        lock.unlock()
    }

    var allDelivered: Bool {
        lock.lock()
        let current = members.compactMap(\.member)
        lock.unlock()
        return current.allSatisfy(\.hasDeliveredEverything)
    }
}

extension InspectorPipeline: InspectorRegistry.Member {}

extension Inspector {
    /// Waits until every inspector in this process has sent everything dispatched so far to a connected daemon,
    /// or until `timeout` seconds pass. Returns true when everything was delivered. For command-line apps that
    /// are about to exit (and for tests); never needed in long-running apps.
    ///
    /// Threading: blocks the calling thread; call it off the main actor (for example from `Task.detached`): when
    /// the outbox coalesced, delivery ends with a snapshot of the store's state read on the main actor.
    @discardableResult
    public static func waitUntilDelivered(timeout: Double = 5) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if InspectorRegistry.shared.allDelivered { return true }
            usleep(2_000)
        }
        return InspectorRegistry.shared.allDelivered
    }
}
