import Foundation
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
extension Daemon {
    /// What a skip toggle came back with.
    public typealias SkipCompletion = @Sendable (Result<SkipOutcome, DaemonError>) -> Void

    /// Toggles whether action event `index` (of the main line) of live session `id` is skipped, and has the app
    /// recompute the states after it (see the extension's notes). `completion` runs on any thread once the
    /// recomputed branch is recorded (or at once on failure). Toggles of all sessions run one at a time.
    public func skip(session id: SessionID, index: Int64, completion: @escaping SkipCompletion) {
        controlQueue.async { [self] in
            do throws(DaemonError) {
                completion(.success(try toggleSkip(id, index)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Puts the live app of session `id` into the last state of branch `branch`: for a skip's branch, the state
    /// after its last recomputed action; for 0 (the main line), the state after the main line's last action.
    /// The app reports it as a `jump`, recorded on the main line.
    public func showBranch(session id: SessionID, branch: Int64, completion: @escaping CommandCompletion) {
        controlQueue.async { [self] in
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

    /// The recorded state before event `from` (default 1) of session `id` (saved or live) and the main line's
    /// actions `from...to` (default: to the last event), for a client that replays them at its own pace.
    /// `completion` runs on the daemon's control queue.
    public func recordedActions(session id: SessionID, from: Int64? = nil, to: Int64? = nil,
                                completion: @escaping @Sendable (Result<RecordedActions, DaemonError>) -> Void) {
        controlQueue.async { [self] in
            do throws(DaemonError) {
                if let live = registry.session(id) { live.flush() }
                let reader = try openReader(id)
                let first = max(1, from ?? 1), last = min(reader.eventCount, to ?? reader.eventCount)
                guard first <= last else {
                    throw DaemonError("session \(id) has no events \(first)–\(last) to replay", code: .badField)
                }
                let state = try knownState(after: first - 1, of: id, in: reader,
                                           for: "replay from event \(first): it starts from the state after")
                let events = try storeCall { () throws(SessionStoreError) in try reader.events(first...last) }
                let actions = events.compactMap { event -> RecordedActions.Action? in
                    guard event.kind == .action, let action = event.action else { return nil }
                    return RecordedActions.Action(index: event.index, time: event.time, label: event.label,
                                                  action: action)
                }
                completion(.success(RecordedActions(state: state, actions: actions)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    // MARK: - Skip, on the control queue

    private func toggleSkip(_ id: SessionID, _ index: Int64) throws(DaemonError) -> SkipOutcome {
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
            let state = try lastState(of: 0, in: reader)
            _ = try waitForOutcome(timeout: 30) { (done: @escaping CommandCompletion) in
                guard let (_, connection) = try? liveApp(id) else {
                    done(.failure(DaemonError("session \(id)'s app is not connected", code: .sessionNotLive)))
                    return
                }
                sendJump(to: live, connection, state: state, label: "jump to the main line",
                         detail: "\(what) is no longer skipped: back to the state after the main line's last action",
                         done)
            }.get()
            live.recordNote(kind: .skip, label: "unskip",
                            detail: "\(what) is no longer skipped; the app is back on the main line")
            live.flush()
            return SkipOutcome(skipped: [], branch: 0, states: [], finalState: state)
        }

        if let unknown = try storeCall({ () throws(SessionStoreError) in try reader.unknownState(after: index) }) {
            throw DaemonError("cannot skip event \(index) of session \(id): \(unknown.explanation(for: index))",
                              code: .badField)
        }
        let base = try knownState(after: earliest - 1, of: id, in: reader,
                                  for: "recompute the states after event \(earliest - 1) from")
        let segments = try recomputationSegments(from: earliest, skipping: skipped, in: reader)
        let branch = (try storeCall { () throws(SessionStoreError) in try reader.branches() }.max() ?? 0) + 1

        var computed: [[JSONValue]] = []
        var start = base
        for segment in segments {
            if let reset = segment.reset { start = reset.state }
            let states = try recompute(segment.actions.compactMap(\.action), from: start, in: id)
            computed.append(states)
            start = states.last ?? start
        }
        if segments.isEmpty { _ = try recompute([], from: base, in: id) }

        let list = skipped.sorted().map(String.init).joined(separator: ", ")
        live.recordNote(kind: .skip, label: skipping ? "skip" : "unskip",
                        detail: "\(what) \(skipping ? "skipped" : "no longer skipped"); the states after event "
                            + "\(earliest - 1) recomputed on branch \(branch)")
        let now = Date().timeIntervalSince1970
        var records: [(event: NewEvent, stateAfter: JSONValue)] = [(
            NewEvent(time: now, kind: .note, label: "recomputed",
                     detail: "branch \(branch): the main line from the state after event \(earliest - 1), "
                         + "without event\(skipped.count == 1 ? "" : "s") \(list)", branch: branch),
            base)]
        var previous = base
        var states: [JSONValue] = []
        for (segment, answered) in zip(segments, computed) {
            if let reset = segment.reset {
                records.append((NewEvent(time: now, kind: reset.event.kind, label: reset.event.label,
                                         patch: JSONPatch.diff(from: previous, to: reset.state),
                                         detail: "recomputes event \(reset.event.index): the state it put in place",
                                         branch: branch), reset.state))
                previous = reset.state
            }
            for (original, state) in zip(segment.actions, answered) {
                records.append((NewEvent(time: now, kind: .action, label: original.label, action: original.action,
                                         patch: JSONPatch.diff(from: previous, to: state),
                                         detail: "recomputes event \(original.index)", branch: branch), state))
                previous = state
            }
            states += answered
        }
        live.recordBranch(records)
        live.flush()
        return SkipOutcome(skipped: skipped.sorted(), branch: branch, states: states, finalState: previous)
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
            let upper = min(count, lower + 4_095)
            for event in try storeCall({ () throws(SessionStoreError) in try reader.events(lower...upper) }) {
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

    /// Has the app of session `id` run `actions` from `base` (effects muted) and returns the state after each.
    /// Sent in segments small enough for the app's answer, carrying a state per action, to stay well under the
    /// message limit: the first resets to `base`, the others continue from where the previous one ended.
    private func recompute(_ actions: [JSONValue], from base: JSONValue, in id: SessionID) throws(DaemonError)
        -> [JSONValue] {
        let stateBytes = max(64, base.serialized().utf8.count)
        let segment = max(1, min(1_000, configuration.maxMessageBytes / 4 / stateBytes))
        var states: [JSONValue] = []
        states.reserveCapacity(actions.count)
        var start = 0
        repeat {
            let part = Array(actions[start..<min(actions.count, start + segment)])
            let result = try waitForOutcome(timeout: 30) { (done: @escaping CommandCompletion) in
                let through = min(actions.count, start + segment)
                replay(state: start == 0 ? base : .null, actions: part, reset: start == 0, into: id,
                       note: ("replay for a skip", "recomputed actions \(start + 1)–\(through) of \(actions.count) "
                              + "after a skip, effects muted"),
                       completion: done)
            }.get()
            guard let answered = result.states, answered.count == part.count else {
                throw DaemonError("the app answered \(result.states?.count ?? 0) states for \(part.count) actions",
                                  code: .commandFailed)
            }
            states += answered
            start += part.count
        } while start < actions.count
        return states
    }

    /// The session's skipped events: its main line's `skip` events replayed in order.
    private func skippedIndices(in reader: SessionReader) throws(DaemonError) -> Set<Int64> {
        let indices = try storeCall { () throws(SessionStoreError) in
            try reader.eventIndices(matchingLabel: "^(skip|unskip)$")
        }
        var skipped = Set<Int64>()
        for index in indices {
            let event = try storeCall { () throws(SessionStoreError) in try reader.event(at: index) }
            guard event.kind == .skip, let detail = event.detail, detail.hasPrefix("event ") else { continue }
            guard let target = Int64(detail.dropFirst("event ".count).prefix(while: \.isNumber)) else { continue }
            if event.label == "skip" { skipped.insert(target) } else { skipped.remove(target) }
        }
        return skipped
    }

    /// The last state of a branch: after its last event for a skip's branch; after the last action for the main
    /// line (its later `replay`/`jump` events are the branches' states shown in the app), refused when that action's
    /// state was not recorded (the main line ends inside a `dropped` range).
    private func lastState(of branch: Int64, in reader: SessionReader) throws(DaemonError) -> JSONValue {
        let count = reader.eventCount
        if branch != 0 {
            return try storeCall { () throws(SessionStoreError) in try reader.state(at: count, branch: branch) }
        }
        var upper = count
        while upper >= 1 {
            let lower = max(1, upper - 999)
            let events = try storeCall { () throws(SessionStoreError) in try reader.events(lower...upper) }
            if let action = events.last(where: { $0.kind == .action }) {
                return try knownState(after: action.index, of: reader.id, in: reader,
                                      for: "put the app back into the main line's last state, that of")
            }
            upper = lower - 1
        }
        return try storeCall { () throws(SessionStoreError) in try reader.state(at: 0, branch: 0) }
    }
}
