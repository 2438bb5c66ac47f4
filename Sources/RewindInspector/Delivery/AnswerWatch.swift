/// Notices a connection whose daemon has stopped answering: the `welcome` owed after `hello`, or (with a daemon
/// that acknowledges) an `ack` for events it was sent, has not come for ``timeout`` seconds while nothing else
/// showed that the daemon is alive. A TCP connection can stay open with nobody behind it (a half-open connection
/// after a network change, a peer that stopped reading, a proxy that lost its other side): without this, an app
/// would go on queuing into it, believing its actions on their way.
///
/// The pipeline calls ``observe(owesAnswer:acknowledged:now:)`` on each turn of its loop while it has said
/// `hello`; when it returns true, the pipeline closes the connection and reconnects, which sends again everything
/// the daemon has not confirmed.
///
/// Threading: the pipeline thread only (a value it owns).
struct AnswerWatch {
    /// Seconds without an answer after which the connection is taken for dead; 0 or less: never.
    let timeout: Double
    /// Since when an answer has been owed (monotonic seconds), nil while none is.
    private var owedSince: Double?
    /// The last acknowledged `seq` seen: a rising one is an answer.
    private var lastAcknowledged: UInt64?

    init(timeout: Double) {
        self.timeout = timeout
    }

    /// How long the current wait has lasted, seconds (0 when no answer is owed).
    func waited(now: Double) -> Double {
        owedSince.map { now - $0 } ?? 0
    }

    /// Records what the loop sees: whether the daemon owes an answer, and how far it acknowledged. True when the
    /// answer has been owed for longer than ``timeout``.
    mutating func observe(owesAnswer: Bool, acknowledged: UInt64?, now: Double) -> Bool {
        if acknowledged != lastAcknowledged {
            lastAcknowledged = acknowledged
            owedSince = nil
        }
        guard owesAnswer, timeout > 0 else {
            owedSince = nil
            return false
        }
        guard let owedSince else {
            self.owedSince = now
            return false
        }
        return now - owedSince > timeout
    }

    /// Forgets the connection (called when it ends).
    mutating func reset() {
        owedSince = nil
        lastAcknowledged = nil
    }
}
