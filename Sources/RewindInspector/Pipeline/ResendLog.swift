import RewindWire

/// What the pipeline sent since a state the daemon can be brought back to, so that a reconnect loses nothing that
/// was in flight: frames handed to a connection that then resets (written to its socket, or still queued) never
/// reach the daemon, and the inspector cannot tell which did.
///
/// The log holds a *checkpoint* — a state and the number of the last action it includes — and every `action`,
/// `batch`, `dropped` and `snapshot` message sent after it, numbered as the app numbers its actions, with source
/// locations as text (a new connection numbers them afresh). After a reconnect the pipeline sends `hello` with the
/// checkpoint's state and number and how many messages it sends again (`resending`), then those messages; the
/// daemon ignores what it had already recorded (docs/PROTOCOL.md §3.3) and records the rest.
///
/// Two generations are kept so that the checkpoint is always at least ``generationSeconds`` old: the log starts a
/// new generation at the pipeline's current state once the current one is that old (never while a coalesced range
/// is open: its state is not known), and forgets the generation before. At most ``eventLimit`` events and
/// ``snapshotLimit`` snapshots (each holds a whole state) are kept; past that the log gives up until the next
/// generation, and a reconnect starts from the last state sent instead: the daemon then counts what it missed as
/// lost.
///
/// Threading: a value owned by the pipeline thread.
struct ResendLog {
    /// A checkpoint and the messages sent after it.
    private struct Generation {
        var seq: UInt64
        var state: JSONValue
        var started: Double
        var messages: [AppMessage] = []
        var events = 0
        var snapshots = 0
    }

    /// How old a generation gets before the next one starts, in seconds.
    static let generationSeconds = 1.0
    /// The most events the two generations hold together.
    static let eventLimit = 100_000
    /// The most snapshots the two generations hold together.
    static let snapshotLimit = 16

    private var previous: Generation?
    private var current: Generation?

    /// A log whose checkpoint is `state` after action `seq`.
    init(seq: UInt64, state: JSONValue, now: Double) {
        current = Generation(seq: seq, state: state, started: now)
    }

    /// The checkpoint a reconnect's `hello` starts from, or nil when the log gave up (start from the current state).
    var checkpoint: (seq: UInt64, state: JSONValue)? {
        guard let current else { return nil }
        let oldest = previous ?? current
        return (oldest.seq, oldest.state)
    }

    /// Every logged message after ``checkpoint``, in the order sent.
    var messages: [AppMessage] {
        (previous?.messages ?? []) + (current?.messages ?? [])
    }

    /// Logs events just sent (app numbers, source texts).
    mutating func logEvents(_ events: [ActionEvent]) {
        guard current != nil else { return }
        current!.messages.append(events.count == 1 ? .action(events[0]) : .batch(events))
        current!.events += events.count
        if (previous?.events ?? 0) + current!.events > Self.eventLimit {
            if previous != nil {
                previous = nil
            }
            if current!.events > Self.eventLimit { current = nil }
        }
    }

    /// Logs a `dropped` just sent (app numbers).
    mutating func logDropped(_ dropped: Dropped) {
        current?.messages.append(.dropped(dropped))
    }

    /// Logs a `snapshot` just sent (app numbers).
    mutating func logSnapshot(_ snapshot: Snapshot) {
        guard current != nil else { return }
        current!.messages.append(.snapshot(snapshot))
        current!.snapshots += 1
        if (previous?.snapshots ?? 0) + current!.snapshots > Self.snapshotLimit {
            if previous != nil {
                previous = nil
            } else {
                current = nil
            }
        }
    }

    /// Starts a new generation at the pipeline's current state when the current one is old enough, or when the log
    /// had given up. Call only while no coalesced range is open (`state` is then the state after action `seq`).
    mutating func advance(seq: UInt64, state: JSONValue, now: Double) {
        guard let current else {
            self.current = Generation(seq: seq, state: state, started: now)
            return
        }
        guard now - current.started >= Self.generationSeconds else { return }
        previous = current
        self.current = Generation(seq: seq, state: state, started: now)
    }
}
