import RewindSessionFile
import RewindWebSocket
import RewindWire

/// The daemon's rules for recording one app run: which of the app's messages become which rows of its session,
/// what the record knows of the app's state, which actions are counted lost, and what is acknowledged when. A value
/// with no I/O: every input returns the ``IngestOutput``s its driver (``LiveSession``) carries out in order, so the
/// rules are specified by unit tests and exercised by a deterministic simulation of app, network and disk faults.
///
/// The rules (docs/PROTOCOL.md §3, docs/ARCHITECTURE.md "Delivery"):
/// - **One numbering.** The run's actions are numbered 1, 2, … by the app; protocol 2 messages carry those numbers,
///   protocol 1 messages count from the connection's `hello.seq`, and are mapped once, at the edge
///   (``IngestConnection/absolute(_:field:)``). ``accountedThrough`` is the number up to which every action is
///   recorded or counted lost.
/// - **Recorded at most once.** An action numbered at or below ``accountedThrough`` is never recorded again: after a
///   reconnect's `hello` whose `seq` is below it the app sends again what followed (`resending`), and those messages
///   only bring the state rebuilt from the `hello` up to date; outside such a resend, a repeat is refused with
///   `out_of_order` and not recorded.
/// - **Every action accounted for.** Numbers skipped by an action, a `snapshot`, a `goodbye` or a reconnect's `hello`
///   are counted lost in one `dropped` row labelled `lost` (from, to, actionsLost), and the state is unknown after
///   them until a whole state arrives; a gap outside an announced `dropped` range is also answered `out_of_order`
///   and `resync`.
/// - **The state, known or not.** Patches are applied to the record's state; a patch that does not apply (or would
///   pass the state limit) is answered `patch_failed` and `resync`, and the state is unknown until a `snapshot`.
/// - **An ack means committed.** A message is acknowledged (`ack`, for apps that asked) once every row it and the
///   messages before it appended is committed to the file (``committed(through:at:)``); the bytes of such messages
///   stay charged to the connection (``uncommittedBytes``) until then, so the driver stops reading an app whose
///   record is not reaching the disk instead of discarding anything.
/// - **Clean means complete.** The run ends `clean` only when its connection closes after a `goodbye` whose number is
///   ``accountedThrough`` (or when the daemon stops); otherwise `interrupted`.
///
/// Threading: a value; its owner (``LiveSession``, under its lock) gives it inputs one at a time.
package struct AppIngest: Sendable {
    /// The state after a reconnect rebuilt from the `hello`'s older state by the messages sent again.
    private struct Resend: Sendable {
        /// Messages with numbers up to this were accounted for before the reset: they are not recorded again.
        var through: UInt64
        /// The app's state after action ``rebuiltThrough``, rebuilt from the `hello`'s by the messages sent again;
        /// nil once unknown (a coalesced range, a patch that did not apply).
        var rebuilt: JSONValue?
        /// The action ``rebuilt`` is the state after.
        var rebuiltThrough: UInt64
        /// ``rebuilt``'s compact size once measured, kept up to date by each patch applied (so that a long resend
        /// costs each message its patch, not a walk of the whole state).
        var rebuiltSize: Int? = nil
    }

    /// What a state-replacing command sent to the app (`jump`, `replay`) will put in place: the row recording the
    /// app's snapshot for it gets this label and detail.
    private struct ExpectedReplacement: Sendable {
        var token: UInt64
        var reason: String
        var label: String
        var detail: String
        var meaning: RowMeaning
    }

    /// The label of the `error` row that records a message the machine refused because the record already has what
    /// it carries (the peer is told `out_of_order`): unlike an `out_of_order` row, it leaves the state as it was.
    package static let repeatedLabel = "repeated"

    /// The session the run is recorded in (for `welcome`).
    package let sessionID: String
    /// The largest state the record rebuilds from patches (compact JSON bytes): what one `snapshot` may carry.
    package let maxStateBytes: Int

    /// Every action of the run up to this number is recorded or counted lost.
    package private(set) var accountedThrough: UInt64
    /// How many of the run's actions the record counts as lost.
    package private(set) var lostActions: UInt64
    /// The index the next row gets.
    package private(set) var nextIndex: Int64
    /// The highest index the recording has committed.
    package private(set) var committedIndex: Int64
    /// The connection the run is on, nil while it has none.
    private(set) var connection: IngestConnection?

    private var state: JSONValue
    /// Whether ``state`` is the app's state (false while the record does not know it, and while detached).
    private var stateKnown: Bool
    /// Why the record does not know the app's state after its last row, and which row made it so: written into
    /// every row appended meanwhile (``RowMeaning/unknownState``), so that readers read the truth instead of working
    /// it out. Nil while the record knows the state (detached or not).
    private var unknownMark: UnknownStateMark?
    /// `state.compactSize`, kept up to date by the patches; nil until measured.
    private var stateSize: Int?
    /// Actions the app announced lost (`dropped.actionsLost`) that no gap has accounted for yet.
    private var announcedLost: UInt64 = 0
    /// The end of the newest announced `dropped` range: numbers up to it may be skipped without a resync.
    private var droppedThrough: UInt64 = 0
    /// While the app sends again what followed its reconnect's checkpoint.
    private var resend: Resend?
    /// The app's last action number, from its `goodbye` on the current connection.
    private var goodbyeSeq: UInt64?
    private var expectedReplacements: [ExpectedReplacement] = []
    private var nextReplacementToken: UInt64 = 1
    /// True once the run's connection closed and the state was let go (until a reconnect resumes it).
    package private(set) var isDetached = false

    /// The rows that record a new session's start, for an app run first seen with `hello` (its `seq` actions before
    /// the hello, if any, were never received: they are counted lost — unless `startsAtHello`, for a record that
    /// deliberately begins there, such as a capture of an app's last actions). The initial state is the `hello`'s; ``connect(_:hello:resumed:at:)`` binds the connection next.
    package init(newSessionID sessionID: String, hello: Hello, maxStateBytes: Int, startsAtHello: Bool = false) {
        self.sessionID = sessionID
        self.maxStateBytes = maxStateBytes
        accountedThrough = startsAtHello ? hello.seq ?? 0 : 0
        lostActions = 0
        nextIndex = 1
        committedIndex = 0
        state = hello.state
        stateKnown = true
    }

    /// A machine continuing a session from what its file holds (``IngestResumePoint``).
    package init(resumingSessionID sessionID: String, from point: IngestResumePoint, maxStateBytes: Int) {
        self.sessionID = sessionID
        self.maxStateBytes = maxStateBytes
        accountedThrough = point.accountedThrough
        lostActions = point.lostActions
        nextIndex = point.lastIndex + 1
        committedIndex = point.lastIndex
        state = point.state
        stateKnown = point.unknownState == nil
        unknownMark = point.unknownState
    }

    /// The app's current state as the record knows it, nil while unknown or detached.
    package var knownState: JSONValue? {
        // Spelled out: a bare `nil` here would be JSONValue's nil literal (`.null`), not "unknown".
        stateKnown && !isDetached ? state : JSONValue?.none
    }

    /// Bytes of the current connection's handled messages whose rows are not committed yet (the driver stops
    /// reading the app while they, with what it has not handled, pass its bound).
    package var uncommittedBytes: Int {
        connection?.uncommittedBytes ?? 0
    }

    /// True while an acknowledgment is owed to the app (something handled is not acknowledged yet): the driver calls
    /// ``tick(at:)`` about every 50 ms meanwhile.
    package var owesAcknowledgment: Bool {
        guard let connection, connection.acknowledges else { return false }
        return !connection.pending.isEmpty || connection.committedThrough > connection.acknowledgedThrough
    }

    // MARK: - The connection

    /// Binds the run to `connectionID`, whose `hello` passed the checks at the edge (protocol, token), and answers
    /// `welcome`. For a new session (`resumed` false) it counts the actions before the hello lost; for a continued
    /// one it records the reconnect: a `hello` whose `seq` is below ``accountedThrough`` starts a resend (the
    /// record keeps its own state; the messages sent again rebuild the app's from the `hello`'s, which is put in
    /// place if the record had lost track of it), one above it counts the actions in between lost, and otherwise the
    /// `hello`'s state is put in place.
    package mutating func connect(_ connectionID: ConnectionID, hello: Hello, resumed: Bool,
                                  at clock: IngestClock) -> [IngestOutput] {
        var out = IngestOutputs()
        let version = min(hello.protocolVersion, WireProtocol.version)
        // A hello without `seq` (a client that does not count its actions across connections) continues the record:
        // its events are numbered after what the record accounts for.
        let seq = hello.seq ?? accountedThrough
        isDetached = false
        goodbyeSeq = nil
        resend = nil
        droppedThrough = 0
        connection = IngestConnection(
            id: connectionID, protocolVersion: version, base: version >= 2 ? 0 : seq,
            sources: version >= 2 ? SourceTable(texts: hello.sources) : SourceTable(),
            acknowledges: hello.capabilities.contains(WireCapability.ack), acknowledgedThrough: 0,
            committedThrough: 0, resendRemaining: hello.resending ?? 0)
        connection!.lastAckAt = clock.monotonic
        connection!.dispatchedBeforeHello = hello.dispatched ?? 0
        out.append(.send(.welcome(Welcome(session: sessionID, protocolVersion: version, resumed: resumed,
                                          acknowledges: connection!.acknowledges)), to: connectionID))
        if resumed {
            recordReconnect(hello, seq: seq, time: clock.wall, into: &out)
        } else if seq > accountedThrough {
            // The hello's state (the recording's initial state) is the state after them: known.
            recordLost(through: seq, time: clock.wall, stateAfterKnown: true, into: &out)
        }
        handled(bytes: 0, at: clock, into: &out)
        return out.collected
    }

    /// Records a continued run's return with `hello` (see ``connect(_:hello:resumed:at:)``).
    private mutating func recordReconnect(_ hello: Hello, seq: UInt64, time: Double, into out: inout IngestOutputs) {
        var detail = "the app reconnected"
        if seq < accountedThrough {
            // The rebuilt state is needed only where the record lost track of the app's state (``settleResend``);
            // elsewhere the messages sent again are passed over without being applied.
            resend = Resend(through: accountedThrough, rebuilt: stateKnown ? nil : hello.state, rebuiltThrough: seq)
            detail += "; it sends again what followed its action \(seq), and what the daemon had not received "
                + "is recorded after this row"
            // The record goes on from its own state, so the row carries an empty patch (not a full state). Where the
            // record had lost track of the app's state the row is a note, which does not end that range for readers.
            append(NewEvent(appSeq: Int64(seq), time: time, kind: stateKnown ? .reconnect : .note,
                            label: "reconnect", patch: stateKnown ? JSONPatch() : nil, detail: detail), into: &out)
        } else {
            if seq > accountedThrough {
                detail += "; \(seq - accountedThrough) action(s) before it were not received (see the lost row)"
                recordLost(through: seq, time: time, into: &out)
            }
            replaceState(with: hello.state, kind: .reconnect, label: "reconnect", detail: detail,
                         appSeq: Int64(seq), time: time, into: &out)
        }
    }

    /// The run's connection `connectionID` closed: the end state of the session (`clean` when the app said
    /// `goodbye` with its last action accounted for, or when `daemonStopping`; `interrupted` otherwise), or nil when
    /// the run is on another connection by now. The state is let go (a reconnect reads it back from the file).
    package mutating func disconnect(_ connectionID: ConnectionID, daemonStopping: Bool) -> SessionEndState? {
        guard connection?.id == connectionID else { return nil }
        let clean = daemonStopping || (goodbyeSeq != nil && goodbyeSeq == accountedThrough)
        connection = nil
        resend = nil
        isDetached = true
        state = .null
        stateKnown = false
        stateSize = nil
        return clean ? .clean : .interrupted
    }

    // MARK: - The app's messages

    /// Handles one message of `bytes` bytes the app sent on `connectionID` after its `hello`: the rows it records, the
    /// errors and resyncs it earns, and an `ack` when what it covers is already committed. Messages of a connection
    /// the run is no longer on are ignored. A `result` is not the ingest's business (the driver routes it).
    package mutating func receive(_ message: AppMessage, bytes: Int, on connectionID: ConnectionID,
                                  at clock: IngestClock) -> [IngestOutput] {
        var out = IngestOutputs()
        receive(message, bytes: bytes, on: connectionID, at: clock, into: &out)
        return out.collected
    }

    /// Handles `message` as ``receive(_:bytes:on:at:)`` does, handing each output to `carryOut` as soon as it is
    /// made (see ``IngestOutputs``: the rows of a batch then let go of their states before the next patch applies).
    /// `carryOut` must not use the machine.
    package mutating func receive(_ message: AppMessage, bytes: Int, on connectionID: ConnectionID,
                                  at clock: IngestClock, handingOverTo carryOut: (IngestOutput) -> Void) {
        withoutActuallyEscaping(carryOut) { carryOut in
            var out = IngestOutputs(handingOverTo: carryOut)
            receive(message, bytes: bytes, on: connectionID, at: clock, into: &out)
        }
    }

    private mutating func receive(_ message: AppMessage, bytes: Int, on connectionID: ConnectionID,
                                  at clock: IngestClock, into out: inout IngestOutputs) {
        guard let link = connection, link.id == connectionID else { return }
        let resent = resend != nil
        do throws(WireError) {
            switch message {
            case .hello:
                throw WireError(code: .badField, message: "'hello' was already received on this connection",
                                field: "type")
            case .action(let event):
                try record([event], fields: { _ in "action" }, time: clock.wall, into: &out)
            case .batch(let events):
                try record(events, fields: { "batch.events[\($0)]" }, time: clock.wall, into: &out)
            case .snapshot(var snapshot):
                snapshot.seq = try link.absolute(snapshot.seq, field: "snapshot.seq")
                recordSnapshot(snapshot, time: clock.wall, into: &out)
            case .dropped(var dropped):
                dropped.from = try link.absolute(dropped.from, field: "dropped.from")
                dropped.to = try link.absolute(dropped.to, field: "dropped.to")
                recordDropped(dropped, time: clock.wall, into: &out)
            case .goodbye(var goodbye):
                goodbye.seq = try link.absolute(goodbye.seq, field: "goodbye.seq")
                settleResend(time: clock.wall, into: &out)
                recordLost(through: goodbye.seq, time: clock.wall, into: &out)
                goodbyeSeq = goodbye.seq
            case .result:
                return
            }
        } catch {
            refuse(error, on: connectionID, time: clock.wall, into: &out)
        }
        if resent, resend != nil, message.isResendable, var link = connection {
            link.resendRemaining = link.resendRemaining > 0 ? link.resendRemaining - 1 : 0
            connection = link
            if link.resendRemaining == 0 { settleResend(time: clock.wall, into: &out) }
        }
        handled(bytes: bytes, at: clock, into: &out)
    }

    /// Records a protocol problem of the app's (a message that could not be decoded, a bad field): an `error` row
    /// and the `error` message; the connection goes on unless the code says to close it.
    package mutating func refuse(_ error: WireError, on connectionID: ConnectionID, at clock: IngestClock)
        -> [IngestOutput] {
        var out = IngestOutputs()
        refuse(error, on: connectionID, time: clock.wall, into: &out)
        return out.collected
    }

    private mutating func refuse(_ error: WireError, on connectionID: ConnectionID, time: Double,
                                 into out: inout IngestOutputs) {
        if connection?.id == connectionID || connection == nil {
            append(NewEvent(time: time, kind: .error, label: error.code.rawValue, detail: error.message), into: &out)
        }
        out.append(.send(.error(error), to: connectionID))
        if let code = error.code.closeCode {
            out.append(.close(connectionID, code: code, reason: String(error.message.prefix(100))))
        }
    }

    /// Records the events of an `action` or a `batch` (all or nothing for its source numbers).
    private mutating func record(_ events: [ActionEvent], fields: (Int) -> String, time: Double,
                                 into out: inout IngestOutputs) throws(WireError) {
        guard var link = connection else { return }
        var table = link.sources
        var resolved = events
        for index in resolved.indices {
            resolved[index].seq = try link.absolute(resolved[index].seq, field: fields(index) + ".seq")
            if let source = resolved[index].source {
                resolved[index].source = .location(try table.resolve(source, field: fields(index) + ".source"))
            }
        }
        link.sources = table
        connection = link
        var repeated: [UInt64] = []
        for event in resolved {
            if event.seq <= accountedThrough {
                if resend != nil, event.seq <= resend!.through {
                    rebuild(with: event.patch, through: event.seq)
                } else {
                    repeated.append(event.seq)
                }
                continue
            }
            recordAction(event, into: &out)
        }
        if let first = repeated.first, let last = repeated.last {
            let numbers = first == last ? "action \(first) was" : "actions \(first)–\(last) were"
            let problem = WireError(code: .outOfOrder,
                                    message: "expected seq \(link.wire(accountedThrough + 1)), got \(link.wire(first)): "
                                        + "\(numbers) already recorded (the record accounts for every action up to "
                                        + "\(accountedThrough)) and \(first == last ? "is" : "are") not recorded again; "
                                        + "a snapshot was requested to resynchronise")
            append(NewEvent(time: time, kind: .error, label: Self.repeatedLabel, detail: problem.message), into: &out)
            out.append(.send(.error(problem), to: link.id))
            out.append(.send(.resync(Resync(reason: "out_of_order")), to: link.id))
        }
    }

    /// Records one action numbered after ``accountedThrough``.
    private mutating func recordAction(_ event: ActionEvent, into out: inout IngestOutputs) {
        settleResend(time: event.time, into: &out)
        let seq = event.seq
        if seq > accountedThrough &+ 1 {
            var outOfOrderRow: Int64?
            if seq - 1 > droppedThrough, let link = connection {
                outOfOrderRow = nextIndex
                // A gap the app did not announce: those actions were sent and never arrived, or never sent.
                let id = link.id
                let problem = WireError(code: .outOfOrder,
                                        message: "expected seq \(link.wire(accountedThrough + 1)), got \(link.wire(seq)); "
                                            + "a snapshot was requested to resynchronise")
                append(NewEvent(time: event.time, kind: .error, label: problem.code.rawValue, detail: problem.message),
                       into: &out)
                out.append(.send(.error(problem), to: id))
                out.append(.send(.resync(Resync(reason: "out_of_order")), to: id))
            }
            recordLost(through: seq - 1, time: event.time, reason: outOfOrderRow == nil ? .lost : .outOfOrder,
                       cause: outOfOrderRow, into: &out)
        }
        var failure: WireError?
        var patch: JSONPatch? = event.patch.operations.isEmpty ? nil : event.patch
        if let candidate = patch {
            if stateKnown {
                do {
                    var size = stateSize ?? state.compactSize(limit: maxStateBytes)
                    try candidate.apply(to: &state, size: &size, maxSize: maxStateBytes)
                    stateSize = size
                } catch {
                    failure = WireError(code: .patchFailed,
                                        message: "the patch of event \(connection?.wire(seq) ?? seq) (action \(seq)) "
                                            + "does not apply: \(error)")
                    // The action's own state is unknown; the error row recorded right after it says why.
                    loseTrack(.patchFailed, cause: nextIndex + 1)
                    patch = nil
                }
            } else {
                patch = nil
            }
        }
        accountedThrough = seq
        let early = connection?.dispatchedBeforeConnecting(seq: seq) ?? false
        append(NewEvent(appSeq: Int64(seq), time: event.time, kind: .action, label: event.action.type,
                        action: event.action.payload, patch: patch, reducerMicros: event.reducerMicros,
                        detail: event.source?.location, meaning: RowMeaning(beforeConnect: early)), into: &out)
        if let failure, let id = connection?.id {
            append(NewEvent(time: event.time, kind: .error, label: failure.code.rawValue, detail: failure.message),
                   into: &out)
            out.append(.send(.error(failure), to: id))
            out.append(.send(.resync(Resync(reason: failure.code.rawValue)), to: id))
        }
    }

    /// Records a whole state from the app: a `snapshot` (closing a coalesced range, answering a resync, correcting
    /// an encoding), or what a jump or a replay put in place.
    private mutating func recordSnapshot(_ snapshot: Snapshot, time: Double, into out: inout IngestOutputs) {
        if let through = resend?.through, snapshot.seq <= through {
            resend?.rebuilt = snapshot.state
            resend?.rebuiltThrough = snapshot.seq
            resend?.rebuiltSize = nil
            return
        }
        if snapshot.seq < accountedThrough, let id = connection?.id {
            let problem = WireError(code: .outOfOrder,
                                    message: "the snapshot of action \(snapshot.seq) came after action "
                                        + "\(accountedThrough) was recorded; not recorded")
            append(NewEvent(time: time, kind: .error, label: Self.repeatedLabel, detail: problem.message), into: &out)
            out.append(.send(.error(problem), to: id))
            return
        }
        settleResend(time: time, into: &out)
        // The state includes every action up to its number: those that never arrived are lost.
        recordLost(through: snapshot.seq, time: time, into: &out)
        let kind: EventKind
        switch snapshot.reason {
        case "jump": kind = .jump
        case "replay": kind = .replay
        default: kind = .snapshot
        }
        var label = snapshot.reason ?? kind.rawValue
        var detail: String?
        var meaning = RowMeaning()
        if kind != .snapshot, let found = expectedReplacements.firstIndex(where: { $0.reason == snapshot.reason }) {
            label = expectedReplacements[found].label
            detail = expectedReplacements[found].detail
            meaning = expectedReplacements[found].meaning
            expectedReplacements.remove(at: found)
        }
        meaning.stateReason = snapshot.reason
        replaceState(with: snapshot.state, kind: kind, label: label, detail: detail, meaning: meaning,
                     appSeq: Int64(snapshot.seq), time: time, into: &out)
    }

    /// Records that the app's outbox coalesced: actions `from...to` carry no state (and `actionsLost` of them were
    /// not kept at all: their gap counts them when it shows).
    private mutating func recordDropped(_ dropped: Dropped, time: Double, into out: inout IngestOutputs) {
        let first = max(dropped.from, accountedThrough &+ 1), last = dropped.to
        guard first <= last else {
            if resend != nil {
                resend?.rebuilt = nil  // a range sent again: the app's state is unknown until its snapshot
            } else if let id = connection?.id {
                let problem = WireError(code: .outOfOrder,
                                        message: "the dropped range \(dropped.from)–\(dropped.to) covers actions "
                                            + "already recorded (up to \(accountedThrough)); not recorded")
                append(NewEvent(time: time, kind: .error, label: Self.repeatedLabel, detail: problem.message),
                       into: &out)
                out.append(.send(.error(problem), to: id))
            }
            return
        }
        if let through = resend?.through, dropped.from <= through {
            // A range sent again that goes on past where the record ended: its actions follow, and those up to the
            // resend's end are recorded already. The state rebuilt from the checkpoint stops here.
            resend?.rebuilt = nil
        } else {
            settleResend(time: time, into: &out)
        }
        if first == dropped.from { announcedLost &+= dropped.actionsLost }
        droppedThrough = max(droppedThrough, last)
        let wholeRangeLost = first == dropped.from && dropped.actionsLost == last - first + 1
        var detail = "the app's outbox was full: states of actions \(first)–\(last) were not sent; a snapshot follows"
        if dropped.actionsLost > 0 {
            detail += "; \(dropped.actionsLost) of these actions could not be kept at all and are lost"
        }
        // The row itself stands before the range: its state (the one before the range's first action) is known.
        let cause = nextIndex
        append(NewEvent(time: time, kind: .dropped, label: "dropped",
                        action: .object(JSONObject([("from", .int(Int64(first))), ("to", .int(Int64(last)))])),
                        detail: detail), into: &out)
        loseTrack(.dropped, cause: cause)
        // No action of the range follows: every one of them is known lost now.
        if wholeRangeLost { recordLost(through: last, time: time, into: &out) }
    }

    /// Counts the run's actions after ``accountedThrough`` up to `last` as lost — they never reached the record — in
    /// one `dropped` row labelled `lost` (`{"from", "to", "actionsLost"}`); the state is unknown after them (for
    /// `reason`, made so by row `cause`, by default the `lost` row itself) unless `stateAfterKnown`.
    private mutating func recordLost(through last: UInt64, time: Double, reason: UnknownStateReason = .lost,
                                     cause: Int64? = nil, stateAfterKnown: Bool = false,
                                     into out: inout IngestOutputs) {
        guard last > accountedThrough else { return }
        let first = accountedThrough + 1
        let count = last - accountedThrough
        accountedThrough = last
        lostActions &+= count
        if !stateAfterKnown { loseTrack(reason, cause: cause ?? nextIndex) }
        let fromOutbox = min(count, announcedLost)
        announcedLost -= fromOutbox
        let why: String
        if fromOutbox == count {
            why = "the app's outbox was full and could not keep them"
        } else if fromOutbox == 0 {
            why = "they were sent but never received (the connection was reset or closed before they arrived)"
        } else {
            why = "\(fromOutbox) could not be kept by the app's full outbox; the others were sent but never "
                + "received (the connection was reset or closed before they arrived)"
        }
        let numbers = count == 1 ? "action \(first)" : "actions \(first)–\(last)"
        append(NewEvent(time: time, kind: .dropped, label: "lost",
                        action: .object(JSONObject([("from", .int(Int64(first))), ("to", .int(Int64(last))),
                                                    ("actionsLost", .int(Int64(count)))])),
                        detail: "\(count) \(count == 1 ? "action was" : "actions were") lost (\(numbers)): \(why)",
                        meaning: RowMeaning(lost: LostActions(from: Int64(first), to: Int64(last), count: Int64(count)))),
               into: &out)
    }

    /// Applies the patch of action `seq`, sent again after a reconnect, to the state rebuilt from the `hello`.
    private mutating func rebuild(with patch: JSONPatch, through seq: UInt64) {
        guard let through = resend?.rebuiltThrough, seq > through else { return }  // applied already
        guard var rebuilt = resend?.rebuilt, seq == through + 1 else {
            resend?.rebuilt = nil
            return
        }
        resend?.rebuiltThrough = seq
        guard !patch.operations.isEmpty else { return }
        // Taken out of the resend first, so that the patch applies in place instead of copying the state.
        resend?.rebuilt = nil
        var size = resend?.rebuiltSize ?? rebuilt.compactSize(limit: maxStateBytes)
        if (try? patch.apply(to: &rebuilt, size: &size, maxSize: maxStateBytes)) != nil {
            resend?.rebuilt = rebuilt
            resend?.rebuiltSize = size
        } else {
            resend?.rebuiltSize = nil
        }
    }

    /// Ends a resend: where the record had lost track of the app's state and the messages sent again rebuilt it up
    /// to where the record stands, a `reconnect` row puts the rebuilt state in place.
    private mutating func settleResend(time: Double, into out: inout IngestOutputs) {
        guard let ended = resend else { return }
        resend = nil
        if !stateKnown, let rebuilt = ended.rebuilt, ended.rebuiltThrough == accountedThrough {
            replaceState(with: rebuilt, kind: .reconnect, label: "reconnect",
                         detail: "the state the app's messages sent again after its reconnect rebuilt",
                         appSeq: Int64(accountedThrough), time: time, into: &out)
        }
    }

    /// Puts a whole state in place with a row of `kind`: the patch from the previous state when it was known, else
    /// no patch and a keyframe.
    private mutating func replaceState(with new: JSONValue, kind: EventKind, label: String, detail: String?,
                                       meaning: RowMeaning = RowMeaning(), appSeq: Int64?, time: Double,
                                       into out: inout IngestOutputs) {
        let full = !stateKnown
        let patch: JSONPatch? = full ? nil : JSONPatch.diff(from: state, to: new)
        state = new
        stateSize = nil
        stateKnown = true
        unknownMark = nil
        let text = full ? [detail, "full state (the previous one was unknown)"].compactMap { $0 }.joined(separator: "; ")
                        : detail
        append(NewEvent(appSeq: appSeq, time: time, kind: kind, label: label, patch: patch, detail: text,
                        meaning: meaning), forceKeyframe: full, into: &out)
    }

    // MARK: - Rows the daemon adds itself

    /// Records a note on the main line (a command sent, a skip toggled); returns its row.
    package mutating func note(kind: EventKind, label: String, detail: String?, meaning: RowMeaning = RowMeaning(),
                               at clock: IngestClock) -> [IngestOutput] {
        var out = IngestOutputs()
        append(NewEvent(time: clock.wall, kind: kind, label: label, detail: detail, meaning: meaning), into: &out)
        return out.collected
    }

    /// Records a recomputed timeline (a skip's branch): each event with the state after it, on its own branch. The
    /// main line's state does not change.
    package mutating func branch(_ events: [(event: NewEvent, stateAfter: JSONValue)]) -> [IngestOutput] {
        events.map { item in
            defer { nextIndex += 1 }
            return .append(IngestRow(index: nextIndex, event: item.event, stateAfter: item.stateAfter,
                                     forceKeyframe: false))
        }
    }

    /// Says what the next state the app puts in place for `reason` (`jump` or `replay`) stands for: the label and
    /// detail of its row. Returns a token for ``forgetReplacement(_:)``.
    package mutating func expectReplacement(reason: String, label: String, detail: String,
                                            meaning: RowMeaning = RowMeaning()) -> UInt64 {
        let token = nextReplacementToken
        nextReplacementToken += 1
        expectedReplacements.append(ExpectedReplacement(token: token, reason: reason, label: label, detail: detail,
                                                        meaning: meaning))
        if expectedReplacements.count > 64 { expectedReplacements.removeFirst() }
        return token
    }

    /// Forgets an expectation whose command failed (its snapshot will not come).
    package mutating func forgetReplacement(_ token: UInt64) {
        expectedReplacements.removeAll { $0.token == token }
    }

    private mutating func append(_ event: NewEvent, forceKeyframe: Bool = false, into out: inout IngestOutputs) {
        var event = event
        event.meaning.unknownState = unknownMark
        out.append(.append(IngestRow(index: nextIndex, event: event, stateAfter: state, forceKeyframe: forceKeyframe)))
        nextIndex += 1
    }

    /// The record loses track of the app's state for `reason`, row `cause` saying why: the rows from now on are
    /// written with that mark until a whole state arrives. Inside a stretch already open, the stretch goes on as it
    /// began (its first cause).
    private mutating func loseTrack(_ reason: UnknownStateReason, cause: Int64) {
        stateKnown = false
        if unknownMark == nil { unknownMark = UnknownStateMark(reason: reason, cause: cause) }
    }

    // MARK: - Acknowledgments

    /// A message of `bytes` bytes was handled: what it covers is acknowledged once its rows are committed.
    private mutating func handled(bytes: Int, at clock: IngestClock, into out: inout IngestOutputs) {
        guard var link = connection else { return }
        let index = nextIndex - 1
        if var last = link.pending.last, last.index == index {
            last.through = accountedThrough
            last.lost = lostActions
            last.bytes += bytes
            link.pending[link.pending.count - 1] = last
        } else {
            link.pending.append(.init(through: accountedThrough, index: index, lost: lostActions, bytes: bytes))
        }
        connection = link
        acknowledge(at: clock, throttled: true, into: &out)
    }

    /// The recording committed every row up to `index`: the messages those rows came from are acknowledged (and
    /// their bytes no longer charged).
    package mutating func committed(through index: Int64, at clock: IngestClock) -> [IngestOutput] {
        committedIndex = max(committedIndex, index)
        var out = IngestOutputs()
        acknowledge(at: clock, throttled: false, into: &out)
        return out.collected
    }

    /// About every 50 ms while ``owesAcknowledgment``: acknowledges what is committed (an `ack` goes out at most
    /// every 50 ms while messages stream), and repeats the last `ack` every second while handled messages wait for
    /// the disk, so that the app can tell a living daemon whose disk is slow from a dead connection.
    package mutating func tick(at clock: IngestClock) -> [IngestOutput] {
        var out = IngestOutputs()
        acknowledge(at: clock, throttled: true, into: &out)
        if var link = connection, link.acknowledges, !link.pending.isEmpty,
           clock.monotonic - link.lastAckAt >= 1 {
            link.lastAckAt = clock.monotonic
            connection = link
            out.append(.send(.ack(Ack(seq: link.wire(link.acknowledgedThrough), lost: link.acknowledgedLost)),
                             to: link.id))
        }
        return out.collected
    }

    /// Lets go of the handled messages whose rows are committed and, for an app that reads `ack`s, acknowledges
    /// them (at most every 50 ms when `throttled`; ``tick(at:)`` sends what waits).
    private mutating func acknowledge(at clock: IngestClock, throttled: Bool, into out: inout IngestOutputs) {
        guard var link = connection else { return }
        let done = link.pending.prefix { $0.index <= committedIndex }
        if let last = done.last {
            link.pending.removeFirst(done.count)
            link.committedThrough = max(link.committedThrough, last.through)
            link.committedLost = last.lost
        }
        if link.acknowledges, link.committedThrough > link.acknowledgedThrough,
           !throttled || clock.monotonic - link.lastAckAt >= 0.05 {
            link.acknowledgedThrough = link.committedThrough
            link.acknowledgedLost = link.committedLost
            link.lastAckAt = clock.monotonic
            out.append(.send(.ack(Ack(seq: link.wire(link.committedThrough), lost: link.committedLost)), to: link.id))
        }
        connection = link
    }
}

extension AppMessage {
    /// True for the messages an app sends again after a reconnect (counted by `hello.resending`).
    fileprivate var isResendable: Bool {
        switch self {
        case .action, .batch, .dropped, .snapshot: return true
        case .hello, .goodbye, .result: return false
        }
    }
}
