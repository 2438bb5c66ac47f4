import RewindSessionFile
import RewindWebSocket
import RewindWire

/// What ``AppIngest`` keeps of the connection an app run is on: its protocol version (and, for protocol 1, the
/// number its events count from), the source locations it numbered, and what it was acknowledged.
///
/// Threading: a plain value, owned by the ``AppIngest`` that holds it.
struct IngestConnection: Sendable {
    /// A message's rows not yet committed: acknowledged once the recording has committed `index`.
    struct Pending: Sendable {
        /// The action number the run is accounted for through once the rows are committed.
        var through: UInt64
        /// The index of the last row the message (or a message before it) appended.
        var index: Int64
        /// How many of the run's actions the record counted lost by then.
        var lost: UInt64
        /// The bytes of the messages behind it (charged to the connection until committed).
        var bytes: Int
    }

    /// The connection.
    let id: ConnectionID
    /// The protocol the app speaks on it (1 or 2).
    let protocolVersion: Int
    /// Protocol 1: the app's action number the connection's `seq` counts from (`hello.seq`); 0 in protocol 2, whose
    /// numbers are the run's own.
    let base: UInt64
    /// The source locations numbered on the connection (protocol 2: starting with `hello.sources`).
    var sources: SourceTable
    /// True when the app reads `ack`s (its `hello` named the capability).
    let acknowledges: Bool
    /// The action number the last `ack` sent covered (the run's number).
    var acknowledgedThrough: UInt64
    /// The run's lost actions the last `ack` sent reported.
    var acknowledgedLost: UInt64 = 0
    /// The action number through which the handled messages' rows are committed (acknowledged or about to be).
    var committedThrough: UInt64
    /// The run's lost actions as of ``committedThrough``.
    var committedLost: UInt64 = 0
    /// When the last `ack` went out (the machine's clock, seconds).
    var lastAckAt: Double = -.infinity
    /// Messages handled whose rows are not committed yet, oldest first.
    var pending: [Pending] = []
    /// How many more of the app's messages are sent again after its reconnect (`hello.resending`).
    var resendRemaining: UInt64
    /// Where "dispatched before the connection was made" ends, as an absolute action number — a fact of order the app
    /// states, never one of clocks: the `hello`'s `dispatched` (the last action the app had dispatched when it said
    /// `hello`); 0 for an app that does not say (no action is marked).
    var dispatchedBeforeHello: UInt64 = 0

    /// Whether action `seq` (absolute) was dispatched before this connection was made.
    func dispatchedBeforeConnecting(seq: UInt64) -> Bool {
        seq <= dispatchedBeforeHello
    }

    /// The run's action number of a number the app sent on this connection; `bad_field` naming `field` when it would
    /// pass ``WireRanges/actionNumber`` (a protocol 1 connection adds its `hello.seq`).
    func absolute(_ seq: UInt64, field: String) throws(WireError) -> UInt64 {
        let (sum, overflow) = base.addingReportingOverflow(seq)
        guard !overflow, WireRanges.actionNumber.contains(sum) else {
            throw WireError(code: .badField,
                            message: "\(field): action \(seq) after the hello's \(base) passes the largest action "
                                + "number, \(WireRanges.actionNumber.upperBound)",
                            field: field)
        }
        return sum
    }

    /// The number an `ack` through the run's action `absolute` carries on this connection.
    func wire(_ absolute: UInt64) -> UInt64 {
        absolute > base ? absolute - base : 0
    }

    /// Bytes of handled messages whose rows are not committed yet.
    var uncommittedBytes: Int {
        pending.reduce(0) { $0 + $1.bytes }
    }
}
