import RewindWire

/// The last actions an app dispatched, kept in memory so that a capture can be written when the app asks for one
/// (``Inspector/captureNow(reason:timeout:)``): the frames built for them (already encoded and redacted) and a state
/// they start from.
///
/// Frames are kept in *generations*, each starting at a state the pipeline knew whole (never inside a coalesced
/// range). A new generation starts once the current one covers ``keep`` actions, and the oldest is forgotten once the
/// generations after it cover ``keep`` on their own — so at most about twice ``keep`` actions' frames and a few states
/// are held (the states share their unchanged parts with the pipeline's own). Should the frames pass ``byteLimit``
/// anyway (large actions), the oldest generations go first (a generation also ends at a quarter of the limit); a
/// range that stays open past the limit leaves nothing until the next state known whole.
///
/// ``capture()`` cuts what is kept to exactly the last ``keep`` actions: it follows the patches from the oldest
/// generation's state to the state after the cut, and starts the capture there. Where that state is not known, the
/// capture holds a few more actions: when the cut falls inside a coalesced range it starts just before the range; when
/// a patch does not apply, at the generation's state.
///
/// Threading: a value owned by the pipeline thread.
struct RecentActions {
    private struct Generation {
        var seq: UInt64
        var state: JSONValue
        var frames: [[UInt8]] = []
        var bytes = 0
    }

    /// What a capture holds: the state it starts from, after action `seq`, and the messages after it.
    struct Window {
        var seq: UInt64
        var state: JSONValue
        var messages: [[UInt8]]
        /// The newest action number the messages cover.
        var through: UInt64
    }

    /// How many of the latest actions a capture holds.
    let keep: UInt64
    /// The most bytes of frames kept.
    let byteLimit: Int
    private var generations: [Generation] = []
    /// Bytes of frames held.
    private(set) var bytes = 0
    /// The newest action number a recorded frame covered.
    private(set) var latest: UInt64

    /// Keeps the last `keep` actions, starting from `state` after action `seq`, in at most `byteLimit` bytes of frames.
    init(keep: Int, byteLimit: Int, seq: UInt64, state: JSONValue) {
        self.keep = UInt64(max(1, keep))
        self.byteLimit = max(1, byteLimit)
        latest = seq
        generations = [Generation(seq: seq, state: state)]
    }

    /// A frame was built (sent to the daemon or not): it covers actions up to `through`.
    mutating func record(_ frame: [UInt8], through: UInt64) {
        latest = max(latest, through)
        guard !generations.isEmpty else { return }
        generations[generations.count - 1].frames.append(frame)
        generations[generations.count - 1].bytes += frame.count
        bytes += frame.count
        while bytes > byteLimit, !generations.isEmpty {
            bytes -= generations.removeFirst().bytes
        }
    }

    /// The pipeline knows the state after action `seq` whole (no coalesced range open): a generation may start here.
    mutating func checkpoint(seq: UInt64, state: JSONValue) {
        guard let current = generations.last else {
            generations = [Generation(seq: seq, state: state)]
            return
        }
        // A generation also ends at a quarter of the byte limit, so that the limit drops old generations, not all.
        if seq > current.seq, seq - current.seq >= keep || current.bytes >= byteLimit / 4 || current.frames.isEmpty {
            if current.frames.isEmpty {
                generations[generations.count - 1] = Generation(seq: seq, state: state)
            } else {
                generations.append(Generation(seq: seq, state: state))
            }
        }
        while generations.count > 1, latest >= generations[1].seq, latest - generations[1].seq >= keep {
            bytes -= generations.removeFirst().bytes
        }
    }

    /// The capture of the last ``keep`` actions (fewer when fewer were dispatched; nil when nothing is kept: the
    /// frames outgrew ``byteLimit`` since the last known state).
    func capture() -> Window? {
        guard let first = generations.first else { return nil }
        let frames = generations.flatMap(\.frames)
        let cut = latest > first.seq + keep ? latest - keep : first.seq
        if cut > first.seq, let window = Self.window(from: first, through: latest, cut: cut, frames: frames) {
            return window
        }
        return Window(seq: first.seq, state: first.state, messages: frames, through: latest)
    }

    /// Follows the frames from `start` to the state after `cut`; the messages after it (a batch that straddles the cut
    /// keeps only its later events). Nil when the state after `cut` is not known.
    private static func window(from start: Generation, through latest: UInt64, cut: UInt64,
                               frames: [[UInt8]]) -> Window? {
        var state: JSONValue? = start.state
        var cut = cut
        var messages: [[UInt8]] = []
        for frame in frames {
            guard let message = try? WireCodec.decodeAppMessage(frame) else { return nil }
            switch message {
            case .action(let event):
                if event.seq <= cut {
                    state = try? state.map { try event.patch.apply(to: $0) }
                } else {
                    messages.append(frame)
                }
            case .batch(let events):
                var later: [ActionEvent] = []
                for event in events {
                    if event.seq <= cut {
                        state = try? state.map { try event.patch.apply(to: $0) }
                    } else {
                        later.append(event)
                    }
                }
                if later.count == events.count {
                    messages.append(frame)
                } else if !later.isEmpty {
                    messages.append(WireCodec.encode(AppMessage.batch(later)))
                }
            case .dropped(let dropped):
                if dropped.from <= cut && dropped.to > cut {
                    // The cut falls inside a coalesced range, where the state is unknown: start before the range, from
                    // the state after the action before it (everything before it is applied).
                    guard state != nil, dropped.from > start.seq + 1 else { return nil }
                    cut = dropped.from - 1
                    messages.append(frame)
                } else if dropped.from <= cut {
                    // A coalesced range before the cut: its states are unknown until the snapshot that closes it (before
                    // the cut too).
                    state = nil
                } else {
                    messages.append(frame)
                }
            case .snapshot(let snapshot):
                if snapshot.seq <= cut {
                    state = snapshot.state
                } else {
                    messages.append(frame)
                }
            case .hello, .result, .goodbye:
                continue
            }
        }
        guard let state else { return nil }
        return Window(seq: cut, state: state, messages: messages, through: latest)
    }
}
