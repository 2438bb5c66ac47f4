/// Notices a connection whose daemon has stopped answering: the `welcome` owed after `hello`, or (with a daemon
/// that acknowledges) an `ack` for what it was sent, has not come for ``timeout`` seconds while nothing else showed
/// that the daemon is alive. A TCP connection can stay open with nobody behind it (a half-open connection after a
/// network change, a peer that stopped reading, a proxy that lost its other side): without this, an app would go on
/// queuing into it, believing its actions on their way.
///
/// Any `ack` counts as a sign of life, a repeated one too: a daemon whose disk stalls repeats its last `ack` every
/// second while it holds what it was sent (docs/PROTOCOL.md §3.5), so the app waits for it rather than reconnecting
/// (which would not help). ``DeliveryStateMachine`` tells it what it hears and asks it on every tick.
///
/// Threading: a value owned by its machine.
struct AnswerWatch {
    /// Seconds without an answer after which the connection is taken for dead; 0 or less: never.
    let timeout: Double
    /// Since when an answer has been owed without one coming (seconds), nil while none is.
    private var owedSince: Double?

    init(timeout: Double) {
        self.timeout = timeout
    }

    /// How long the current wait has lasted, seconds (0 when no answer is owed).
    func waited(now: Double) -> Double {
        owedSince.map { now - $0 } ?? 0
    }

    /// The daemon said something (a `welcome`, an `ack`): the wait starts again.
    mutating func heard(now: Double) {
        if owedSince != nil { owedSince = now }
    }

    /// Records whether the daemon owes an answer now; true when it has owed one for longer than ``timeout`` without
    /// being heard.
    mutating func observe(owesAnswer: Bool, now: Double) -> Bool {
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
    }
}
