import RewindWire

/// The inspector's rules of delivery: when to connect, what a `hello` carries and what is sent again after it, how
/// much may be in flight, when a silent daemon is given up, and when everything dispatched is *delivered*. A value
/// with no I/O and no clock of its own: the pipeline thread (``InspectorPipeline``, its driver) gives it every input
/// — a tick, the transport connected or closed, a `welcome`, an `ack`, a frame handed to the transport, a new state
/// sent — and does what it answers.
///
/// ```
///            tick ≥ retryAt                connected                  welcome
///  waiting ─────────────────▶ connecting ───────────▶ greeting ───────────────▶ streaming
///     ▲                            │                     │                          │
///     └──── closed / refused ──────┴── closed, or no ────┴── closed, or no ack ─────┘
///           (backoff)                  welcome in time       in time (abandon)
/// ```
///
/// The rules (docs/PROTOCOL.md §3, docs/ARCHITECTURE.md "Delivery"):
/// - **Nothing in flight is lost to a reset.** Every frame sent is kept in a ``ResendLog`` after a checkpoint the
///   daemon has acknowledged; a (re)connect's `hello` carries the checkpoint and is followed by the logged frames,
///   byte for byte (protocol 2 numbers actions by the run's own numbers).
/// - **A window.** No more is handed to the transport while what was sent beyond the daemon's last `ack` is
///   ``window`` bytes or more: the outbox then coalesces states and keeps actions, and the resend log never has to
///   give up for want of room while the daemon acknowledges.
/// - **A silent daemon is given up.** When the daemon owes an answer (the `welcome`, or an `ack` for what it was
///   sent) and nothing has been heard from it for the answer timeout, the connection is abandoned and a new one
///   made; any `ack`, a repeated one too, is a sign of life.
/// - **Delivered means committed, nothing lost.** See ``verdict(rangeOpen:lostInOutbox:)``.
///
/// Threading: a value, owned by the pipeline thread.
struct DeliveryStateMachine {
    /// Where the connection stands.
    enum Link: Equatable {
        /// No connection; the next attempt is due at `retryAt` (monotonic seconds).
        case waiting(retryAt: Double)
        /// The transport is connecting.
        case connecting
        /// `hello` was sent at `since`; the `welcome` is owed.
        case greeting(since: Double)
        /// Welcomed: the daemon records what is sent.
        case streaming
        /// Stopped for good.
        case stopped
    }

    /// What the driver must do, answered by ``tick(now:)``.
    enum Command: Equatable {
        /// Start connecting the transport.
        case connect
        /// Close the transport's connection and reconnect later: the daemon stopped answering (`reason` says what
        /// it owed, for the log).
        case abandon(reason: String)
    }

    /// What a (re)connect's `hello` carries and what follows it.
    struct HelloPlan: Equatable {
        /// The number of the last action `state` includes (`hello.seq`).
        var seq: UInt64
        /// The state to send (`hello.state`).
        var state: JSONValue
        /// The frames sent again after the `hello` (`hello.resending` is their count), as first sent.
        var resend: [[UInt8]]
    }

    /// The answer to "has everything dispatched so far been delivered?".
    enum Verdict: Equatable {
        /// Every action handed on is committed to the daemon's record, and none was lost.
        case delivered
        /// Not yet: something is on its way, unacknowledged, or waits for the state that closes a coalesced range.
        case pending
        /// Everything handed on is accounted for, but the record counts actions as lost (in the outbox, or in
        /// transit): waiting longer will not deliver them.
        case incomplete
    }

    /// Seconds without an answer the daemon owes before the connection is abandoned (0: never).
    let answerTimeout: Double
    /// Bytes that may be sent beyond the daemon's last acknowledgment.
    let window: Int

    private(set) var link: Link = .waiting(retryAt: 0)
    private var backoff = ReconnectBackoff()
    private var random: SplitMixRandom
    private var answerWatch: AnswerWatch
    private var log: ResendLog
    /// True once a connection was made (its `hello` sent).
    private(set) var everConnected = false
    /// True once a `welcome` came: the daemon opened a session for this run.
    private(set) var everWelcomed = false
    /// True when the daemon refused the app (an `error` closing the connection: a wrong token, a protocol it does
    /// not speak) and no connection was welcomed since.
    private(set) var refusedSinceWelcome = false
    /// Connection attempts that failed or ended since the start.
    private(set) var failedAttempts = 0
    /// Whether the daemon of the current connection acknowledges (`welcome.ack`); nil until it says.
    private(set) var acknowledges: Bool?
    /// The newest action number handed on: sent (alone, in a batch, or in a `dropped` range) or announced lost.
    private(set) var handedThrough: UInt64 = 0
    /// The action number through which the daemon has committed everything (its newest `ack`, any connection).
    private(set) var acknowledgedThrough: UInt64 = 0
    /// How many of the run's actions the daemon's record counts as lost (its newest `ack`).
    private(set) var lostInRecord: UInt64 = 0
    /// Frames sent and not yet acknowledged: the running maximum of the action numbers each covers, and its size.
    private var inFlight: [(through: UInt64, bytes: Int)] = []
    private var inFlightHead = 0
    /// Bytes of ``inFlight`` from ``inFlightHead`` on.
    private(set) var unacknowledgedBytes = 0
    /// The newest number a sent frame covered.
    private var sentThrough: UInt64 = 0

    /// A machine whose first checkpoint is `state` after action `seq` (the state the recorder started from). The
    /// resend log keeps at most `logLimit` bytes; `window` bounds what is sent beyond the last `ack`; `seed` makes
    /// the reconnect delays' jitter repeatable (a simulation's).
    init(seq: UInt64, state: JSONValue, now: Double, answerTimeout: Double, window: Int, logLimit: Int,
         seed: UInt64 = UInt64.random(in: 1...UInt64.max)) {
        self.answerTimeout = answerTimeout
        self.window = max(1, window)
        answerWatch = AnswerWatch(timeout: answerTimeout)
        log = ResendLog(seq: seq, state: state, now: now, byteLimit: logLimit)
        random = SplitMixRandom(seed: seed)
        handedThrough = seq
        acknowledgedThrough = seq
        sentThrough = seq
    }

    // MARK: - The connection

    /// Called on every turn of the driver's loop: connect when an attempt is due, abandon a connection whose daemon
    /// stopped answering.
    mutating func tick(now: Double) -> Command? {
        switch link {
        case .waiting(let retryAt):
            guard now >= retryAt else { return nil }
            link = .connecting
            return .connect
        case .greeting, .streaming:
            let owes: Bool
            if case .greeting = link { owes = true } else { owes = acknowledges == true && acknowledgedThrough < sentThrough }
            guard answerWatch.observe(owesAnswer: owes, now: now) else { return nil }
            let waited = Int(answerWatch.waited(now: now))
            let owed = owes && link != .streaming ? "its welcome" : "an acknowledgment of the events sent"
            disconnected(now: now)
            return .abandon(reason: "the daemon has not sent \(owed) for \(waited) s")
        case .connecting, .stopped:
            return nil
        }
    }

    /// The transport connected: the `hello` to send — the resend log's checkpoint and every frame logged after it, or,
    /// when the log gave up, `baseline` (the last state sent, after action `baselineSeq`) and nothing to send again.
    mutating func connected(now: Double, baselineSeq: UInt64, baseline: JSONValue) -> HelloPlan? {
        guard link == .connecting else { return nil }
        link = .greeting(since: now)
        everConnected = true
        acknowledges = nil
        answerWatch.reset()
        let plan: HelloPlan
        if let checkpoint = log.checkpoint {
            plan = HelloPlan(seq: checkpoint.seq, state: checkpoint.state, resend: log.frames)
        } else {
            plan = HelloPlan(seq: baselineSeq, state: baseline, resend: [])
            log.advance(seq: baselineSeq, state: baseline, now: now)
        }
        // What is sent again is in flight until the daemon acknowledges everything handed on so far.
        inFlight = []
        inFlightHead = 0
        unacknowledgedBytes = 0
        let bytes = plan.resend.reduce(0) { $0 + $1.count }
        if bytes > 0 { track(through: max(sentThrough, plan.seq), bytes: bytes) }
        return plan
    }

    /// The daemon answered `hello`.
    mutating func welcomed(_ welcome: Welcome, now: Double) {
        guard case .greeting = link else { return }
        link = .streaming
        everWelcomed = true
        refusedSinceWelcome = false
        acknowledges = welcome.acknowledges
        backoff.reset()
        answerWatch.heard(now: now)
    }

    /// The daemon acknowledged: everything up to `ack.seq` is committed to its record.
    mutating func acknowledged(_ ack: Ack, now: Double) {
        answerWatch.heard(now: now)
        if let lost = ack.lost { lostInRecord = lost }
        acknowledgedThrough = max(acknowledgedThrough, ack.seq)
        // Frames sent again after a reconnect may be covered by what an earlier connection's daemon acknowledged.
        while inFlightHead < inFlight.count && inFlight[inFlightHead].through <= acknowledgedThrough {
            unacknowledgedBytes -= inFlight[inFlightHead].bytes
            inFlightHead += 1
        }
        if inFlightHead > 64 && inFlightHead * 2 > inFlight.count {
            inFlight.removeFirst(inFlightHead)
            inFlightHead = 0
        }
    }

    /// The daemon refused the app with an `error` that closes the connection (``disconnected(now:)`` follows).
    mutating func refused() {
        refusedSinceWelcome = true
    }

    /// The connection ended (or an attempt failed, or the daemon refused the app): try again after the backoff's
    /// next delay. Frames in flight stay in the resend log.
    mutating func disconnected(now: Double) {
        if case .waiting = link { return }
        guard link != .stopped else { return }
        failedAttempts += 1
        acknowledges = nil
        answerWatch.reset()
        link = .waiting(retryAt: now + backoff.nextDelay(using: &random))
    }

    /// Stops for good.
    mutating func stop() {
        link = .stopped
    }

    // MARK: - Sending

    /// True when frames may be handed to the transport: a `hello` went out and the window is not full.
    var mayHandOver: Bool {
        switch link {
        case .greeting, .streaming: return acknowledges == false || unacknowledgedBytes < window
        default: return false
        }
    }

    /// A frame covering actions up to `through` (with the frames before it) was handed to the transport: it is
    /// logged for a resend and counts against the window until acknowledged.
    mutating func sent(_ frame: [UInt8], through: UInt64) {
        log.log(frame)
        sentThrough = max(sentThrough, through)
        handedThrough = max(handedThrough, through)
        track(through: sentThrough, bytes: frame.count)
    }

    /// A frame covering actions up to `through` was built while no connection was up (the pipeline captures offline,
    /// ``LocalCapture``): it is logged so that a daemon reached later is sent it after the `hello`, as far as the log
    /// reaches, but it counts against no window (no connection carries it).
    mutating func keptOffline(_ frame: [UInt8], through: UInt64) {
        log.log(frame)
        sentThrough = max(sentThrough, through)
        handedThrough = max(handedThrough, through)
    }

    /// Actions up to `through` are handed on without a frame of their own (lost in the outbox after the last one
    /// sent): delivery waits for the daemon to account for them.
    mutating func handed(through: UInt64) {
        handedThrough = max(handedThrough, through)
    }

    /// A state was sent: `state` after action `seq`, with no coalesced range open. The resend log's checkpoint moves
    /// to it once the daemon acknowledged everything up to the current one (by time, with a daemon that does not
    /// acknowledge).
    mutating func stateSent(seq: UInt64, state: JSONValue, now: Double) {
        switch acknowledges {
        case true?: log.advance(seq: seq, state: state, now: now, acked: acknowledgedThrough)
        case false?: log.advance(seq: seq, state: state, now: now)
        case nil: break
        }
    }

    private mutating func track(through: UInt64, bytes: Int) {
        inFlight.append((through, bytes))
        unacknowledgedBytes += bytes
    }

    // MARK: - Delivered?

    /// Whether everything handed on so far is delivered (the driver also asks the outbox whether anything waits there,
    /// and, with a daemon that does not acknowledge, the transport whether it wrote everything):
    /// - with nobody there (the first attempt failed and none succeeded since), or a daemon that refused the app
    ///   before ever welcoming it, delivered: nothing can be recorded;
    /// - while a coalesced range waits for its closing state, pending;
    /// - with a daemon that acknowledges, pending until it acknowledged every action handed on; without one, until
    ///   the connection is welcomed;
    /// - then delivered, unless actions were lost (`lostInOutbox`, or counted lost by the daemon's record):
    ///   incomplete.
    func verdict(rangeOpen: Bool, lostInOutbox: UInt64) -> Verdict {
        if !everConnected && failedAttempts > 0 { return .delivered }
        if !everWelcomed && refusedSinceWelcome { return .delivered }
        if rangeOpen { return .pending }
        let settled: Bool
        switch acknowledges {
        case true?: settled = acknowledgedThrough >= handedThrough
        case false?: settled = link == .streaming
        case nil: settled = acknowledgedThrough >= handedThrough && everConnected
        }
        guard settled else { return .pending }
        return lostInOutbox == 0 && lostInRecord == 0 ? .delivered : .incomplete
    }

    /// True when the app may say `goodbye`: welcomed, nothing waiting for a closing state.
    func maySayGoodbye(rangeOpen: Bool) -> Bool {
        link == .streaming && !rangeOpen
    }

    /// True when the resend log gave up (for the log line a stopping pipeline writes).
    var resendLogGaveUp: Bool { log.gaveUp }
}
