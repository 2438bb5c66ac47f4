import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// Skip / un-skip with branches, flipping between branches, and the raw material of a paced replay.
///
/// The set of skipped events of a session lives in its file: every toggle is a `skip` event on the main line
/// (label `skip` or `unskip`, detail starting `event N`), so the set is rebuilt from the file each time and
/// survives the daemon. A toggle that leaves something skipped makes the app recompute, through its own reducers
/// with effects muted, every action after the earliest skipped one minus the skipped ones, starting from the
/// recorded state before the earliest skipped one, segment by segment as `rewind verify` does: where the main line
/// has a `snapshot`, `jump`, `replay` or `reconnect` before later actions, the recomputation restarts from the
/// state that event put in place (the app's later actions ran from it). The states it answers are recorded as a
/// new branch N (max + 1): a first `note` event (`recomputed`) holding that starting state, then one `action` event
/// per replayed action (the original's label and action, the patch from the branch's previous state, detail
/// `recomputes event K`), and one event of the reset's kind for each restart (detail `recomputes event K: the state
/// it put in place`). Targets whose recorded state is unknown (inside a `dropped` range) are refused.
/// The app ends in the recomputed state (its `replay` snapshot is recorded on the main line, as for any replay).
/// Un-skipping the last skipped event puts the app back into the main line's last state (a `jump`).
///
/// Threading: the methods return at once, from any thread. A toggle runs in its session's skip lane
/// (``SkipToggleLanes``: toggles of one session one at a time, of different sessions side by side): its file reading
/// on Dispatch's global queue, then its replays, each sent when the previous one is answered, without a thread
/// waiting for the app (``SkipRecomputation``). Its whole run has one deadline, the command timeout counted from the
/// request (``SkipRun``). Branch flips and recorded actions run on the session's command queue
/// (``SessionCommandQueues``), never behind a toggle.
extension Daemon {
    /// What a skip toggle came back with.
    package typealias SkipCompletion = @Sendable (Result<SkipOutcome, DaemonError>) -> Void

    /// Toggles whether action event `index` (of the main line) of live session `id` is skipped, and has the app
    /// recompute the states after it (see the extension's notes). `completion` runs on any thread once the
    /// recomputed branch is recorded, at once on a refusal, or with `command_failed` naming what the toggle waited
    /// for when the command timeout (counted from this call) passes first. Toggles of one session run one at a
    /// time; nothing else waits for them.
    package func skip(session id: SessionID, index: Int64, completion: @escaping SkipCompletion) {
        let run = SkipRun(session: id, index: index, completion: completion)
        run.armDeadline(after: configuration.commandTimeout, shown: Self.duration(configuration.commandTimeout))
        skipLanes.enqueue(forSessionFile: store.fileURL(for: id).path) { [self] finished in
            guard !run.hasAnswered else { return finished() }
            run.waiting(for: "reading the session file took that long")
            let plan: SkipPlan
            do throws(DaemonError) {
                plan = try planSkip(id, index)
            } catch {
                run.answer(.failure(error))
                return finished()
            }
            carryOut(plan, of: run, finished: finished)
        }
    }

    /// Puts the live app of session `id` into the last state of branch `branch`: for a skip's branch, the state
    /// after its last recomputed action; for 0 (the main line), the state after the main line's last action.
    /// The app reports it as a `jump`, recorded on the main line. Any thread; returns at once (the work runs on the
    /// session's command queue, never behind a skip toggle).
    package func showBranch(session id: SessionID, branch: Int64, completion: @escaping CommandCompletion) {
        onCommandQueue(of: id) { [self] in
            do throws(DaemonError) {
                let (live, connection) = try liveApp(id, needing: WireCapability.jump, for: "show a branch")
                live.flush()
                let reader = try openReader(id)
                let branches = try storeCall { () throws(SessionStoreError) in try reader.branches() }
                guard branches.contains(branch) else {
                    throw DaemonError("session \(id) has no branch \(branch) (it has "
                        + branches.map(String.init).joined(separator: ", ") + ")", code: .badField)
                }
                let state = try lastState(of: branch, in: reader)
                sendJump(to: live, connection, state: state,
                         label: branch == 0 ? "jump to the main line" : "jump to branch \(branch)",
                         detail: branch == 0 ? "jumped to the state after the main line's last action"
                             : "jumped to the last state of branch \(branch)", completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// The main line's actions of events `from...to` of session `id` (saved or live) with their recorded times, one
    /// page at a time (at most ``DaemonConfiguration/recordedActionsPage`` actions and about ``RecordedActions/pageBytes`` bytes of
    /// them; `next` says where the next page starts), and with `withState` the recorded state before `from` (the
    /// first page's): what a client needs to replay at its own pace. Any thread; returns at once (the work runs on the
    /// session's command queue).
    package func recordedActions(session id: SessionID, from: Int64? = nil, to: Int64? = nil, withState: Bool = true,
                                completion: @escaping @Sendable (Result<RecordedActions, DaemonError>) -> Void) {
        onCommandQueue(of: id) { [self] in
            do throws(DaemonError) {
                if let live = registry.session(id) { live.flush() }
                let reader = try openReader(id)
                let first = max(1, from ?? 1), last = min(reader.eventCount, to ?? reader.eventCount)
                guard first <= last else {
                    throw DaemonError("session \(id) has no events \(first)–\(last) to replay", code: .badField)
                }
                // Spelled out: a bare `nil` here would be `JSONValue.null` (it is ExpressibleByNilLiteral).
                let state: JSONValue? = withState
                    ? try knownState(after: first - 1, of: id, in: reader,
                                     for: "replay from event \(first): it starts from the state after")
                    : Optional<JSONValue>.none
                var actions: [RecordedActions.Action] = []
                var bytes = 0
                var after = first - 1
                var next: Int64?
                pages: while after < last {
                    // The rows that exist, a chunk at a time: a gap in the numbering costs nothing.
                    let events = try storeCall { () throws(SessionStoreError) in
                        try reader.events(after: after, through: last, limit: 2048, allBranches: false)
                    }
                    guard let chunkEnd = events.last?.index else { break }
                    for event in events {
                        if actions.count >= max(1, configuration.recordedActionsPage) || bytes >= RecordedActions.pageBytes {
                            next = event.index
                            break pages
                        }
                        guard event.kind == .action, let action = event.action else { continue }
                        actions.append(RecordedActions.Action(index: event.index, time: event.time, label: event.label,
                                                              action: action))
                        bytes += action.compactSize(limit: RecordedActions.pageBytes) + (event.label?.utf8.count ?? 0) + 48
                    }
                    after = chunkEnd
                }
                completion(.success(RecordedActions(state: state, actions: actions,
                                                    stateType: reader.metadata.stateType, next: next)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    // MARK: - Skip: reading the file, then the app's side

    /// Reads what toggling event `index` of session `id` takes (on the toggle's turn, off the service thread):
    /// refusals (not live, not offering `replay` and `jump`, not an action of the main line, an unknown state) are
    /// thrown; otherwise the plan — the jump back to the main line, or the recomputation's segments and replays.
    private func planSkip(_ id: SessionID, _ index: Int64) throws(DaemonError) -> SkipPlan {
        // A skip recomputes through the app's reducer (`replay`); un-skipping the last one puts a state back (`jump`).
        let (live, _) = try liveApp(id, needing: WireCapability.replay, for: "skip")
        try Self.requireCapability(WireCapability.jump, of: live, for: "skip")
        live.flush()
        let reader = try openReader(id)
        let event: RecordedEvent
        do {
            event = try reader.event(at: index)
        } catch {
            throw DaemonError("session \(id) has no event \(index) (it has 1–\(reader.eventCount))", code: .badField)
        }
        guard event.branch == 0, event.kind == .action, event.action != nil else {
            throw DaemonError("event \(index) of session \(id) is not an action of the main line (it is "
                + "\(event.branch == 0 ? "a \(event.kind.rawValue) event" : "on branch \(event.branch)")); "
                + "only actions can be skipped", code: .badField)
        }
        var skipped = try skippedIndices(in: reader)
        let skipping = skipped.insert(index).inserted
        if !skipping { skipped.remove(index) }
        let what = "event \(index) (\(event.label ?? "action"))"

        guard let earliest = skipped.min() else {
            return SkipPlan(what: what, event: index, skipping: false, skipped: [], mainLineState: try lastState(of: 0, in: reader))
        }
        if let unknown = try storeCall({ () throws(SessionStoreError) in try reader.unknownState(after: index) }) {
            throw DaemonError("cannot skip event \(index) of session \(id): \(unknown.explanation(for: index))",
                              code: .badField)
        }
        var plan = SkipPlan(what: what, event: index, skipping: skipping, skipped: skipped.sorted(),
                            mainLineState: nil)
        plan.earliest = earliest
        plan.base = try knownState(after: earliest - 1, of: id, in: reader,
                                   for: "recompute the states after event \(earliest - 1) from")
        plan.segments = try recomputationSegments(from: earliest, skipping: skipped, in: reader)
        plan.branch = (try storeCall { () throws(SessionStoreError) in try reader.branches() }.max() ?? 0) + 1
        plan.replays = replays(for: plan.segments, from: plan.base)
        return plan
    }

    /// The `replay` commands that carry `segments` to the app: each segment from its reset's state (the first from
    /// `base`, unless a reset comes before its first action), in parts whose command stays well under the message
    /// limit (the first part resets, the others continue). One
    /// plain reset to `base` when there is no action at all. Pure; any thread.
    private func replays(for segments: [RecomputationSegment], from base: JSONValue) -> [SkipPlan.Replay] {
        guard !segments.isEmpty else {
            return [SkipPlan.Replay(state: base, reset: true, actions: [], segment: 0, first: 1, ofSegment: 0)]
        }
        var replays: [SkipPlan.Replay] = []
        // The app answers in portions (patches, about 1 MiB each), so the answer is bounded whatever the number of
        // actions: a part is bounded by what the command itself carries, the start state and the actions. One part
        // is the usual case, and one "replay for a skip" row on the main line.
        let budget = max(1, configuration.maxMessageBytes / 4)
        for (number, segment) in segments.enumerated() {
            let start = segment.reset?.state ?? base
            let actions = segment.actions.compactMap(\.action)
            let stateBytes = start.serialized().utf8.count
            var offset = 0
            repeat {
                var bytes = offset == 0 ? stateBytes : 0
                var end = offset
                while end < actions.count {
                    let size = actions[end].serialized().utf8.count
                    if end > offset && bytes + size > budget { break }
                    bytes += size
                    end += 1
                }
                let part = Array(actions[offset..<end])
                replays.append(SkipPlan.Replay(state: offset == 0 ? start : .null, reset: offset == 0, actions: part,
                                               segment: number, first: offset + 1, ofSegment: actions.count))
                offset += part.count
            } while offset < actions.count
        }
        return replays
    }

    /// The app's side of a toggle (on its turn, any thread): the jump back to the main line, or the recomputation;
    /// then the rows, the answer, and the end of the turn (`finished`). Stops at the next step once the toggle's
    /// deadline has answered it.
    private func carryOut(_ plan: SkipPlan, of run: SkipRun, finished: @escaping @Sendable () -> Void) {
        guard !run.hasAnswered else { return finished() }
        let app: (LiveSession, ConnectionID)
        do throws(DaemonError) {
            app = try liveApp(run.session)
        } catch {
            run.answer(.failure(error))
            return finished()
        }
        let (live, connection) = app
        if let state = plan.mainLineState {
            run.waiting(for: "the app did not answer the jump back to the main line's last state")
            let sent = sendJump(to: live, connection, state: state, label: "jump to the main line",
                                detail: "\(plan.what) is no longer skipped: back to the state after the main line's "
                                    + "last action", armingTimeout: false) { result in
                run.untrack()
                DispatchQueue.global(qos: .userInitiated).async {
                    defer { finished() }
                    switch result {
                    case .failure(let error):
                        run.answer(.failure(error))
                    case .success:
                        guard run.beginRecording() else { return }
                        live.recordNote(kind: .skip, label: "unskip",
                                        detail: "\(plan.what) is no longer skipped; the app is back on the main line",
                                        meaning: RowMeaning(skip: SkipMark(event: plan.event, skipped: false)))
                        live.flush()
                        run.answer(.success(SkipOutcome(skipped: [], branch: 0, states: [], finalState: state)))
                    }
                }
            }
            run.track(sent)
            return
        }
        let id = run.session
        let recomputation = SkipRecomputation(plan: plan, run: run, send: { [self] replay, done in
            let through = replay.first + replay.actions.count - 1
            return startReplay(state: replay.state, actions: replay.actions, reset: replay.reset, into: id,
                               note: ("replay for a skip", "recomputed actions \(replay.first)–\(through) of "
                                      + "\(replay.ofSegment) after a skip, effects muted"),
                               armingTimeout: false, completion: done)
        }, finished: { [self] result in
            defer { finished() }
            switch result {
            case .failure(let error):
                run.answer(.failure(error))
            case .success(let computed):
                guard run.beginRecording() else { return }
                run.answer(.success(record(plan, computed: computed, in: live)))
            }
        })
        recomputation.start()
    }

    /// Records a recomputation the app has answered: the toggle on the main line, then the branch (see the
    /// extension's notes); flushes, and returns the outcome. Any thread that may wait for a disk.
    private func record(_ plan: SkipPlan, computed: [[JSONValue]], in live: LiveSession) -> SkipOutcome {
        let list = plan.skipped.map(String.init).joined(separator: ", ")
        let earliest = plan.earliest, branch = plan.branch, base = plan.base
        let toggled = plan.skipping ? "skipped" : "no longer skipped"
        live.recordNote(kind: .skip, label: plan.skipping ? "skip" : "unskip",
                        detail: "\(plan.what) \(toggled); the states after event \(earliest - 1) recomputed on branch "
                            + "\(branch)",
                        meaning: RowMeaning(skip: SkipMark(event: plan.event, skipped: plan.skipping, branch: branch)))
        let now = Date().timeIntervalSince1970
        var records: [(event: NewEvent, stateAfter: JSONValue)] = [(
            NewEvent(time: now, kind: .note, label: "recomputed",
                     detail: "branch \(branch): the main line from the state after event \(earliest - 1), "
                         + "without event\(plan.skipped.count == 1 ? "" : "s") \(list)", branch: branch,
                     meaning: RowMeaning(branchFrom: earliest - 1)),
            base)]
        var previous = base
        var states: [JSONValue] = []
        for (segment, answered) in zip(plan.segments, computed) {
            if let reset = segment.reset {
                records.append((NewEvent(time: now, kind: reset.event.kind, label: reset.event.label,
                                         patch: JSONPatch.diff(from: previous, to: reset.state),
                                         detail: "recomputes event \(reset.event.index): the state it put in place",
                                         branch: branch, meaning: RowMeaning(recomputes: reset.event.index)),
                                reset.state))
                previous = reset.state
            }
            for (original, state) in zip(segment.actions, answered) {
                records.append((NewEvent(time: now, kind: .action, label: original.label, action: original.action,
                                         patch: JSONPatch.diff(from: previous, to: state),
                                         detail: "recomputes event \(original.index)", branch: branch,
                                         meaning: RowMeaning(recomputes: original.index)), state))
                previous = state
            }
            states += answered
        }
        live.recordBranch(records)
        live.flush()
        return SkipOutcome(skipped: plan.skipped, branch: branch, states: states, finalState: previous)
    }

    /// The main line from event `first` on, cut as `rewind verify` cuts it: runs of actions (minus `skipped`), each
    /// after the state a `snapshot`, `jump`, `replay` or `reconnect` put in place, since the app's later actions
    /// ran from that state and not from the one before. A reset with no action after it changes no recomputed
    /// state and is left out (the `replay` snapshots a skip itself records come last, for instance).
    private func recomputationSegments(from first: Int64, skipping skipped: Set<Int64>,
                                       in reader: SessionReader) throws(DaemonError) -> [RecomputationSegment] {
        var segments: [RecomputationSegment] = []
        var pendingReset: RecordedEvent?
        let count = reader.eventCount
        var lower = first
        while lower <= count {
            // A page of the rows that exist: a gap in the numbering costs nothing.
            let events = try storeCall { () throws(SessionStoreError) in
                try reader.events(after: max(lower, 1) - 1, through: count, limit: 4_096, allBranches: false)
            }
            guard let upper = events.last?.index else { break }
            for event in events {
                switch event.kind {
                case .action:
                    guard event.action != nil, !skipped.contains(event.index) else { continue }
                    if let reset = pendingReset {
                        pendingReset = nil
                        let state = try storeCall { () throws(SessionStoreError) in
                            try reader.state(at: reset.index, branch: 0)
                        }
                        segments.append(RecomputationSegment(reset: (reset, state), actions: []))
                    } else if segments.isEmpty {
                        segments.append(RecomputationSegment(reset: nil, actions: []))
                    }
                    segments[segments.count - 1].actions.append(event)
                case .snapshot, .jump, .replay, .reconnect:
                    pendingReset = event
                default:
                    continue
                }
            }
            lower = upper + 1
        }
        return segments
    }

    /// The session's skipped events (``SessionReader/skippedEventIndices()``).
    private func skippedIndices(in reader: SessionReader) throws(DaemonError) -> Set<Int64> {
        try storeCall { () throws(SessionStoreError) in try reader.skippedEventIndices() }
    }

    /// The last state of a branch: after its last event for a skip's branch; after the last action for the main
    /// line (its later `replay`/`jump` events are the branches' states shown in the app), refused when that action's
    /// state was not recorded (the main line ends inside a `dropped` range).
    private func lastState(of branch: Int64, in reader: SessionReader) throws(DaemonError) -> JSONValue {
        let count = reader.eventCount
        if branch != 0 {
            return try storeCall { () throws(SessionStoreError) in try reader.state(at: count, branch: branch) }
        }
        // The rows that exist, from the last backwards: never the numbers of a gap.
        if let action = try storeCall({ () throws(SessionStoreError) in try reader.lastActionOnMainLine(through: count) }) {
            return try knownState(after: action, of: reader.id, in: reader,
                                  for: "put the app back into the main line's last state, that of")
        }
        return try storeCall { () throws(SessionStoreError) in try reader.state(at: 0, branch: 0) }
    }
}
