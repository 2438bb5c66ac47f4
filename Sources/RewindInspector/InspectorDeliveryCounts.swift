/// What the inspectors of this process did with the actions their stores dispatched: how many were sent with their
/// state's patch, how many were sent without it (inside a coalesced `dropped` range), and how many the outbox could
/// not keep at all (announced as lost in `dropped`'s `actionsLost`). Read with ``Inspector/deliveryCounts()``.
///
/// These are the app's side of the story: an action counted as sent was handed to the transport; whether it reached
/// the daemon is what ``Inspector/waitUntilDelivered(timeout:)`` and the daemon's record say.
///
/// Threading: a value type; safe to share.
public struct InspectorDeliveryCounts: Sendable, Hashable {
    /// Actions sent with the patch their state made.
    public var sentWithState: UInt64 = 0
    /// Actions sent without a state (inside a coalesced range: their states are unknown in the record).
    public var sentWithoutState: UInt64 = 0
    /// Actions the outbox dropped entirely because its action budget was full; never sent.
    public var lostInOutbox: UInt64 = 0
    /// Actions the daemon's record counts as lost, as its latest acknowledgment says: those the outbox could not
    /// keep, and those sent but never received (a connection reset while they were in flight and the resend log could
    /// not send them again). Not part of ``total``, which counts each action once by what this side did with it.
    public var lostInRecord: UInt64 = 0

    /// All zero.
    public init() {}

    /// Every action accounted for: sent with or without a state, or lost.
    public var total: UInt64 { sentWithState + sentWithoutState + lostInOutbox }

    static func + (lhs: InspectorDeliveryCounts, rhs: InspectorDeliveryCounts) -> InspectorDeliveryCounts {
        var sum = lhs
        sum.sentWithState += rhs.sentWithState
        sum.sentWithoutState += rhs.sentWithoutState
        sum.lostInOutbox += rhs.lostInOutbox
        sum.lostInRecord += rhs.lostInRecord
        return sum
    }
}
