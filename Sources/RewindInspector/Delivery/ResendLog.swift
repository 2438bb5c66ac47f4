import RewindWire

/// What the inspector sent since a state the daemon can be brought back to, so that a reconnect loses nothing that
/// was in flight: frames handed to a connection that then resets (written to its socket, or still queued) never
/// reach the daemon, and the inspector cannot tell which did.
///
/// The log holds a *checkpoint* — a state and the number of the last action it includes — and every `action`,
/// `batch`, `dropped` and `snapshot` frame sent after it, as sent. Protocol 2 numbers actions by the app run's own
/// numbers and keeps one table of source locations for the run, so after a reconnect the frames travel again exactly
/// as they were first sent: `hello` with the checkpoint's state and number and how many messages follow
/// (`resending`), then those bytes. The daemon ignores what it had already recorded (docs/PROTOCOL.md §3.3).
///
/// Two generations are kept, so that everything after the checkpoint that may not have reached the daemon is in the
/// log: the log starts a new generation at the inspector's current state (never while a coalesced range is open: its
/// state is not known) once the daemon has acknowledged (`ack`) everything up to the current generation's
/// checkpoint — or, with a daemon that sends no acknowledgments, once the current one is ``generationSeconds`` old —
/// and forgets the generation before. At most ``byteLimit`` bytes of frames are kept; past that the log gives up
/// until the next generation, and a reconnect starts from the last state sent instead (the daemon then counts what it
/// missed as lost, and says so in its acknowledgments). ``DeliveryStateMachine`` keeps what it sends beyond the
/// daemon's acknowledgment well under the limit, so with a daemon that acknowledges the log gives up only for a
/// single frame larger than it, or a coalesced range that stays open while the log fills.
///
/// Threading: a value owned by the pipeline thread.
struct ResendLog {
    /// A checkpoint and the frames sent after it.
    private struct Generation {
        var seq: UInt64
        var state: JSONValue
        var started: Double
        var frames: [[UInt8]] = []
        var bytes = 0
    }

    /// How old a generation gets before the next one starts, in seconds (daemons that do not acknowledge).
    static let generationSeconds = 1.0
    /// The most bytes of frames the two generations hold together.
    let byteLimit: Int

    private var previous: Generation?
    private var current: Generation?

    /// A log whose checkpoint is `state` after action `seq`, holding at most `byteLimit` bytes of frames.
    init(seq: UInt64, state: JSONValue, now: Double, byteLimit: Int) {
        self.byteLimit = byteLimit
        current = Generation(seq: seq, state: state, started: now)
    }

    /// The checkpoint a reconnect's `hello` starts from, or nil when the log gave up (start from the last state
    /// sent).
    var checkpoint: (seq: UInt64, state: JSONValue)? {
        guard let current else { return nil }
        let oldest = previous ?? current
        return (oldest.seq, oldest.state)
    }

    /// Every logged frame after ``checkpoint``, in the order sent.
    var frames: [[UInt8]] {
        (previous?.frames ?? []) + (current?.frames ?? [])
    }

    /// Bytes of frames held.
    var bytes: Int {
        (previous?.bytes ?? 0) + (current?.bytes ?? 0)
    }

    /// True when the log gave up (a reconnect then starts from the last state sent).
    var gaveUp: Bool { current == nil }

    /// Logs a frame just sent.
    mutating func log(_ frame: [UInt8]) {
        guard current != nil else { return }
        current!.frames.append(frame)
        current!.bytes += frame.count
        if (previous?.bytes ?? 0) + current!.bytes > byteLimit {
            previous = nil
            if current!.bytes > byteLimit { current = nil }
        }
    }

    /// Starts a new generation at the inspector's current state when the previous one is no longer needed, or when
    /// the log had given up. With `acked` (the number of the last action the daemon confirmed with `ack`), the
    /// previous generation is no longer needed once the daemon has everything up to the current checkpoint: what
    /// follows it is all still in the log. Without acknowledgments (an older daemon), when the current generation is
    /// ``generationSeconds`` old. Call only while no coalesced range is open (`state` is then the state after action
    /// `seq`).
    mutating func advance(seq: UInt64, state: JSONValue, now: Double, acked: UInt64? = nil) {
        guard let current else {
            self.current = Generation(seq: seq, state: state, started: now)
            return
        }
        if let acked {
            guard acked >= current.seq, seq > current.seq else { return }
        } else {
            guard now - current.started >= Self.generationSeconds else { return }
        }
        previous = current
        self.current = Generation(seq: seq, state: state, started: now)
    }
}
