import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// Commands sent to live apps: the time-travel half of the daemon.
///
/// Threading: the command methods return at once, from any thread. The work of each — reading the session file,
/// flushing the recording, sending — runs on the session's own serial queue (``SessionCommandQueues``: commands of
/// different sessions never wait for each other, those of one session reach its app in order), never on the
/// WebSocket service thread; a skip toggle runs in its session's skip lane instead (``SkipToggleLanes``), so that it
/// holds up no other command. No thread waits for an app's answer: it arrives through ``LiveSession`` on the app
/// connection's queue and runs the completion there. Every command sent to an app is answered within the command
/// timeout (``DaemonConfiguration/commandTimeout``): by the app, or by `command_failed`.
extension Daemon {
    /// What a command to an app came back with.
    package typealias CommandCompletion = @Sendable (Result<CommandResult, DaemonError>) -> Void

    /// A command sent to a live app and not answered yet: what a caller needs to fail it early (a skip whose
    /// deadline passed fails the replay it waited for).
    /// Threading: a plain value; `Sendable`.
    struct SentCommand: Sendable {
        /// The session whose app received the command.
        let live: LiveSession
        /// The command's id (its `result` carries it).
        let id: String
    }

    /// Pushes the state after event `index` of session `id` into the session's app: the state of the event's own
    /// branch (a recomputed row of a skip's branch pushes the recomputed state), rebuilt from the nearest keyframe
    /// and the patches after it. An event whose state the recording does not hold (inside a `dropped` range) is
    /// refused with the reason and the nearest known states. `completion` runs on any thread when the app answers,
    /// or at once on failure. Any thread; returns at once (the work runs on the session's command queue).
    package func jump(session id: SessionID, to index: Int64, completion: @escaping CommandCompletion) {
        onCommandQueue(of: id) { [self] in
            do throws(DaemonError) {
                let (live, connection) = try liveApp(id, needing: WireCapability.jump, for: "jump")
                live.flush()
                let reader = try openReader(id)
                guard (0...reader.eventCount).contains(index) else {
                    throw DaemonError("session \(id) has no event \(index) (it has 0–\(reader.eventCount))",
                                      code: .badField)
                }
                let state = try knownState(after: index, of: id, in: reader, for: "jump to")
                let branch = index == 0 ? 0 : (try? reader.event(at: index).branch) ?? 0
                sendJump(to: live, connection, state: state, label: "jump to #\(index)",
                         detail: index == 0 ? "jumped to the initial state"
                             : "jumped to the state after event \(index)" + (branch != 0 ? " (branch \(branch))" : ""),
                         target: index, completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Sends the live app `jump` with `state`; the row recording the state it puts in place gets `label` (it starts
    /// with "jump", so that a label filter on "jump" finds it) and `detail`, and `target` (the event jumped to) as its ``RowMeaning/jumpTarget``. With `armingTimeout` false the caller
    /// bounds the wait itself (a skip's deadline). Returns the command sent (nil when it could not be sent; the
    /// completion has then run). Any thread; does no file work.
    @discardableResult
    func sendJump(to live: LiveSession, _ connection: ConnectionID, state: JSONValue, label: String, detail: String,
                  target: Int64? = nil, armingTimeout: Bool = true, _ completion: @escaping CommandCompletion)
        -> SentCommand? {
        let token = live.expectReplacement(reason: "jump", label: label, detail: detail,
                                           meaning: RowMeaning(jumpTarget: target))
        return send(to: live, connection, armingTimeout: armingTimeout, { result in
            if case .failure = result { live.forgetReplacement(token) }
            completion(result)
        }) { .jump(Jump(id: $0, state: state)) }
    }

    /// Sends `action` (the JSON encoding of one of the app's actions) to session `id`'s app, which dispatches it.
    /// An action the app cannot decode is refused with the app's reason followed by the actions the session
    /// recorded, one of each label (the shapes the app's action type takes).
    /// Any thread; returns at once (the command goes out from the session's command queue, after those before).
    package func dispatch(session id: SessionID, action: JSONValue, completion: @escaping CommandCompletion) {
        onCommandQueue(of: id) { [self] in
            do throws(DaemonError) {
                let (live, connection) = try liveApp(id, needing: WireCapability.dispatch, for: "dispatch")
                let answer: CommandCompletion = { [self] result in
                    guard case .failure(let error) = result, error.code == .commandFailed,
                          error.description.hasPrefix("cannot decode action") else { return completion(result) }
                    // The answer runs on the app connection's queue, which does no file work.
                    onCommandQueue(of: id) { [self] in
                        completion(.failure(DaemonError(error.description + recordedActionsSentence(of: id),
                                                        code: .commandFailed)))
                    }
                }
                send(to: live, connection, answer) { .dispatch(DispatchCommand(id: $0, action: action)) }
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Replays the actions of events `from...to` of session `source` (saved or live) into the live app of session
    /// `target`: the app is reset to the recorded state before `from`, then runs the actions through its reducers
    /// with effects muted. The result carries the app's state after each action (`states`), or with
    /// `keepingStates` false only their number (`replayed`), so that the daemon holds none of them (`rewind replay`
    /// only reports the number).
    /// Any thread; returns at once: the work runs on the target's command queue (the replay goes to its app after
    /// the commands given it before).
    package func replay(session source: SessionID, from: Int64? = nil, to: Int64? = nil, into target: SessionID,
                       keepingStates: Bool = true, completion: @escaping CommandCompletion) {
        onCommandQueue(of: target) { [self] in
            do throws(DaemonError) {
                if let sourceLive = registry.session(source) { sourceLive.flush() }
                let reader = try openReader(source)
                try Self.requireSameStateType(recorded: reader.metadata.stateType, of: source,
                                              live: registry.session(target)?.stateType, of: target)
                let first = max(1, from ?? 1), last = min(reader.eventCount, to ?? reader.eventCount)
                guard first <= last else {
                    throw DaemonError("session \(source) has no events \(first)–\(last) to replay", code: .badField)
                }
                let state = try knownState(after: first - 1, of: source, in: reader,
                                           for: "replay from event \(first): it starts from the state after")
                let actions = try storeCall { () throws(SessionStoreError) in try reader.events(first...last) }
                    .filter { $0.kind == .action }.compactMap(\.action)
                let range = first == last ? "#\(first)" : "#\(first)–#\(last)"
                let from = source == target ? "" : " of session \(source)"
                startReplay(state: state, actions: actions, keepingStates: keepingStates, into: target,
                            note: ("replay of \(range)", "replayed the \(actions.count) action\(actions.count == 1 ? "" : "s") "
                                   + "of events \(first)–\(last)\(from) from the state after event \(first - 1)"),
                            meaning: RowMeaning(replayed: ReplayedRange(
                                session: source == target ? nil : source.rawValue, from: first, to: last)),
                            completion: completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Throws `command_failed` naming both types when session `source` recorded states of type `recorded` and the
    /// live app of session `target` has states of another type (`live`), so that a replay between different apps
    /// is refused before anything is sent (as `rewind verify` does), not failed by the app's decoder ("missing
    /// field"). Nothing when either type is unknown (an app that does not say it) or the sessions are one.
    package static func requireSameStateType(recorded: String?, of source: SessionID, live: String?,
                                             of target: SessionID) throws(DaemonError) {
        guard source != target, let recorded, let live, recorded != live else { return }
        throw DaemonError("session \(source) recorded states of type \(recorded), but the app of session \(target) "
            + "has states of type \(live): its actions cannot be replayed there; nothing was replayed",
            code: .commandFailed)
    }

    /// Resets the live app of session `target` to `state`, then runs `actions` (each the JSON encoding of one of the
    /// app's actions) through its reducers with effects muted. The result carries the app's state after each
    /// action in `states` (`rewind verify` drives this with the segments of a recording); with `keepingStates`
    /// false it carries only their number, in `replayed`, and the daemon holds none of them.
    /// With `reset` false the app ignores `state` and continues from its current state (a paced replay sends one
    /// action at a time this way).
    /// The app is asked to answer in portions of patches (PROTOCOL.md, `replay`), so that no answer nears the
    /// message limit whatever the state's size; an app that answers with one message of states is read as well.
    /// `note` is the label and detail of the row recording the state the replay puts in place (default: the
    /// number of actions).
    /// The whole answer (every portion) must arrive within the command timeout, or the replay fails with
    /// `command_failed` ("the app did not answer within …"; later portions are ignored).
    /// Any thread; does no file work (it sends at once, on the caller's thread).
    package func replay(state: JSONValue, actions: [JSONValue], reset: Bool = true, keepingStates: Bool = true,
                       into target: SessionID, note: (label: String, detail: String)? = nil,
                       completion: @escaping CommandCompletion) {
        startReplay(state: state, actions: actions, reset: reset, keepingStates: keepingStates, into: target,
                    note: note, completion: completion)
    }

    /// ``replay(state:actions:reset:keepingStates:into:note:completion:)``, returning the command sent (nil when it
    /// could not be sent; the completion has then run). With `armingTimeout` false the caller bounds the wait itself
    /// (a skip's deadline). Any thread; does no file work.
    @discardableResult
    func startReplay(state: JSONValue, actions: [JSONValue], reset: Bool = true, keepingStates: Bool = true,
                     into target: SessionID, note: (label: String, detail: String)? = nil,
                     meaning: RowMeaning = RowMeaning(), armingTimeout: Bool = true,
                     completion: @escaping CommandCompletion) -> SentCommand? {
        let app: (LiveSession, ConnectionID)
        do throws(DaemonError) {
            app = try liveApp(target, needing: WireCapability.replay, for: "replay")
        } catch {
            completion(.failure(error))
            return nil
        }
        let (live, connection) = app
        let count = "\(actions.count) action\(actions.count == 1 ? "" : "s")"
        let token = live.expectReplacement(
            reason: "replay", label: note?.label ?? "replay of \(count)",
            detail: note?.detail ?? "replayed \(count)" + (reset ? " from a state put in place first" : ""),
            meaning: meaning)
        let completion: CommandCompletion = { result in
            if case .failure = result { live.forgetReplacement(token) }
            completion(result)
        }
        let assembler = ReplayAnswerAssembler(expected: actions.count, keepingStates: keepingStates)
        let commandID = live.registerCommand { portion in
            guard let outcome = assembler.take(portion) else { return }
            completion(outcome)
        }
        let command = DaemonMessage.replay(Replay(id: commandID, state: state, actions: actions, reset: reset,
                                                  portions: true))
        guard send(command, to: connection) else {
            live.cancelCommand(commandID)
            completion(.failure(DaemonError("session \(target)'s app is not connected", code: .sessionNotLive)))
            return nil
        }
        if armingTimeout { armCommandTimeout(commandID, of: live) }
        return SentCommand(live: live, id: commandID)
    }

    /// How long a caller waits for a command's completion by default: the daemon answers every command within
    /// ``DaemonConfiguration/commandTimeout`` (a `command_failed` when the app does not answer), plus 15 s for its own
    /// work (reading the session file); a day when commands have no time limit.
    package var commandAnswerBound: Double {
        let timeout = configuration.commandTimeout
        return timeout > 0 && timeout.isFinite ? timeout + 15 : 86_400
    }

    /// Runs a command and waits up to `timeout` seconds (default ``commandAnswerBound``) for its completion (for the
    /// CLI, the timeline and tests).
    package func waitFor(timeout: Double? = nil,
                        _ command: (@escaping CommandCompletion) -> Void) -> Result<CommandResult, DaemonError> {
        waitForOutcome(timeout: timeout, command)
    }

    /// ``waitFor(timeout:_:)`` for commands with a richer outcome (``skip(session:index:completion:)``).
    package func waitForOutcome<Outcome: Sendable>(
        timeout: Double? = nil, _ command: (@escaping @Sendable (Result<Outcome, DaemonError>) -> Void) -> Void
    ) -> Result<Outcome, DaemonError> {
        let bound = timeout ?? commandAnswerBound
        let box = ResultBox<Outcome>()
        command { result in box.set(result) }
        return box.wait(timeout: bound)
            ?? .failure(DaemonError("the daemon did not answer within \(Int(bound)) s", code: .commandFailed))
    }

    /// The live session `id` and its app's connection; with `capability`, refused (`commandFailed`) when the app's
    /// `hello` did not offer that ability: "cannot jump in session S: its app does not offer 'jump' …".
    func liveApp(_ id: SessionID, needing capability: String? = nil,
                 for what: String = "") throws(DaemonError) -> (LiveSession, ConnectionID) {
        guard let live = registry.session(id) else {
            throw DaemonError("session \(id) is not live in this daemon", code: .sessionNotLive)
        }
        guard let connection = live.connectionID else {
            throw DaemonError("session \(id)'s app is not connected", code: .sessionNotLive)
        }
        if let capability { try Self.requireCapability(capability, of: live, for: what) }
        return (live, connection)
    }

    /// Throws `commandFailed` naming the missing ability when `live`'s app did not offer `capability`.
    static func requireCapability(_ capability: String, of live: LiveSession,
                                  for what: String) throws(DaemonError) {
        let offered = live.capabilities
        guard !offered.contains(capability) else { return }
        let has = offered.filter { $0 != WireCapability.batch && $0 != WireCapability.ack }
        throw DaemonError("cannot \(what) in session \(live.id): its app does not offer '\(capability)' (it offers "
            + (has.isEmpty ? "no command: it is watched read-only" : has.map { "'\($0)'" }.joined(separator: ", "))
            + "; see docs/INTEGRATIONS.md)", code: .commandFailed)
    }

    /// The recorded state after event `index` (on its own branch), or a `badField` error explaining that the
    /// recording does not hold it: "cannot <what> event N of session S: the state after event N is unknown: …".
    func knownState(after index: Int64, of id: SessionID, in reader: SessionReader,
                    for what: String) throws(DaemonError) -> JSONValue {
        switch try storeCall({ () throws(SessionStoreError) in try reader.recordedState(after: index) }) {
        case .known(let state):
            return state
        case .unknown(let unknown):
            throw DaemonError("cannot \(what) event \(index) of session \(id): \(unknown.explanation(for: index))",
                              code: .badField)
        }
    }

    func storeCall<T>(_ body: () throws(SessionStoreError) -> T) throws(DaemonError) -> T {
        do {
            return try body()
        } catch {
            throw DaemonError("cannot read the session file: \(error)", code: .unknownSession)
        }
    }

    /// "; the actions this session recorded (one of each): {"add":{"_0":2}}, {"increment":{}}", or "" when it
    /// recorded none (or cannot be read). Each is shown whole up to 120 characters. Runs on the command queue.
    private func recordedActionsSentence(of id: SessionID) -> String {
        registry.session(id)?.flush()
        guard let reader = try? openReader(id), let examples = try? reader.recordedActionExamples(),
              !examples.isEmpty else { return "" }
        let shown = examples.map { action in
            let text = action.serialized()
            return text.count <= 120 ? text : text.prefix(119) + "…"
        }
        return "; the actions this session recorded (one of each): " + shown.joined(separator: ", ")
    }

    func openReader(_ id: SessionID) throws(DaemonError) -> SessionReader {
        do {
            // States pushed to an app (a jump) are bounded as the ones it sends: by the message limit.
            return try store.openSession(id, maxStateBytes: configuration.maxMessageBytes)
        } catch {
            throw DaemonError("cannot read session \(id): \(error)", code: .unknownSession)
        }
    }

    /// Sends the command `message` builds (given its id) to `live`'s app on `connection`; `completion` gets the
    /// app's result, a failure when it cannot be sent or the app disconnects, or `command_failed` when the app
    /// does not answer within ``DaemonConfiguration/commandTimeout`` (unless `armingTimeout` is false: the caller
    /// bounds the wait itself). Returns the command sent (nil when it could not be sent; the completion has then
    /// run). Any thread; does no file work.
    @discardableResult
    func send(to live: LiveSession, _ connection: ConnectionID, armingTimeout: Bool = true,
              _ completion: @escaping CommandCompletion, _ message: (String) -> DaemonMessage) -> SentCommand? {
        let commandID = live.registerCommand { result in
            completion(result.ok ? .success(result)
                                 : .failure(DaemonError(result.error ?? "the app refused the command", code: .commandFailed)))
        }
        if !send(message(commandID), to: connection) {
            live.cancelCommand(commandID)
            completion(.failure(DaemonError("session \(live.id)'s app is not connected", code: .sessionNotLive)))
            return nil
        }
        if armingTimeout { armCommandTimeout(commandID, of: live) }
        return SentCommand(live: live, id: commandID)
    }

    /// Fails command `commandID` of `live` with `command_failed` ("the app did not answer within 60 s") when its
    /// (whole) answer has not arrived once ``DaemonConfiguration/commandTimeout`` has passed; nothing when the
    /// timeout is 0 (no limit). Any thread; the timer runs on Dispatch's global queue.
    func armCommandTimeout(_ commandID: String, of live: LiveSession) {
        let timeout = configuration.commandTimeout
        guard timeout > 0, timeout.isFinite else { return }
        let shown = Self.duration(timeout)
        let log = configuration.log
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak live] in
            guard let live, live.failCommand(commandID, error: "the app did not answer within \(shown)") else { return }
            log("session \(live.id): command \(commandID) got no answer within \(shown)")
        }
    }

    /// `seconds` as the daemon's messages write a limit: "60 s", "1.5 s". Pure; any thread.
    static func duration(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// Runs `work` on session `id`'s command queue (``SessionCommandQueues``), after the work given for that session
    /// before. Any thread; returns at once.
    func onCommandQueue(of id: SessionID, _ work: @escaping @Sendable () -> Void) {
        commandQueues.async(forSessionFile: store.fileURL(for: id).path, work)
    }
}

/// A one-shot hand-over of a command's result between threads.
final class ResultBox<Outcome: Sendable>: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
    private var value: Result<Outcome, DaemonError>?

    func set(_ result: Result<Outcome, DaemonError>) {
        condition.lock()
        if value == nil { value = result }
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: Double) -> Result<Outcome, DaemonError>? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while value == nil {
            if !condition.wait(until: deadline) { break }
        }
        return value
    }
}
