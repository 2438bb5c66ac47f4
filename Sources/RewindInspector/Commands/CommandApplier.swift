import Foundation
import Rewind
import RewindWire

/// Applies the daemon's commands to the host (see ``RecorderHost``), on the host's executor, and answers each with a
/// `result` message.
///
/// - `jump`: decodes the state, puts the app's own values back at redacted paths, replaces the host's state
///   (subscribers are notified, no reducer runs) and reports it as a `jump` snapshot.
/// - `dispatch`: decodes the action and dispatches it through the host's store.
/// - `replay`: decodes the state and the actions, then runs the actions through the reducer with effects muted,
///   answering with the state after each one, and reports the final state as a `replay` snapshot. With
///   `reset: false` the actions continue from the host's current state (a paced replay, one action at a time).
///   When the daemon asks for `portions`, the answer is the patch of each action, sent while the actions run in
///   `result` messages of about ``Replay/portionBytes`` each (so no answer nears the message limit, whatever the
///   state's size or the number of actions); otherwise it is one `result` with every state, as before.
/// - A command for an ability the host did not offer is answered with `ok: false` naming the ability (the daemon
///   refuses these before sending them; this covers an older or foreign daemon).
/// - Any answer that would still pass the protocol's message limit (64 MiB, PROTOCOL.md §7) is replaced by
///   `ok: false` naming the limit and the sizes, rather than sent and cut off.
/// - `resync`: reports the current state as a `resync` snapshot.
///
/// A command that cannot be decoded is answered with `ok: false` and a message naming the field; the app keeps
/// running. Nothing here throws into app code.
///
/// Threading: every member runs on the host's executor (``RecorderExecutor``), one at a time; the type is
/// `Sendable` only so that the recorder can hand it to that executor.
final class CommandApplier<State: Sendable, Action: Sendable>: @unchecked Sendable {
    private let host: RecorderHost<State, Action>
    private let coding: RecorderCoding<State, Action>
    private let transport: any InspectorTransport
    private let redactor: Redactor

    /// Called with every state a command put in place or the pipeline asked for, and why (`jump`, `replay`,
    /// `resync`, `coalesced`).
    var onStateReplaced: (State, String) -> Void = { _, _ in }

    init(host: RecorderHost<State, Action>, coding: RecorderCoding<State, Action>, transport: any InspectorTransport,
         redactor: Redactor) {
        self.host = host
        self.coding = coding
        self.transport = transport
        self.redactor = redactor
    }

    /// Applies one daemon message; messages that are not commands are ignored.
    func apply(_ message: DaemonMessage) {
        switch message {
        case .jump(let jump):
            answer(jump.id) { () throws(CommandFailure) -> CommandResult in
                guard let replace = host.jump else { throw CommandFailure.notOffered(WireCapability.jump) }
                let state = try decodeState(jump.state)
                replace(state)
                onStateReplaced(state, "jump")
                return CommandResult(id: jump.id, ok: true)
            }
        case .dispatch(let command):
            answer(command.id) { () throws(CommandFailure) -> CommandResult in
                guard let send = host.dispatch, let decodeAction = host.decodeAction else {
                    throw CommandFailure.notOffered(WireCapability.dispatch)
                }
                let action: Action
                do {
                    action = try decodeAction(command.action)
                } catch {
                    throw Self.refusal(of: command.action, error, decode: decodeAction)
                }
                send(action)
                return CommandResult(id: command.id, ok: true)
            }
        case .replay(let replay) where replay.portions:
            replayInPortions(replay)
        case .replay(let replay):
            answer(replay.id) { () throws(CommandFailure) -> CommandResult in
                let (run, initial, actions) = try decodeReplay(replay)
                var states: [JSONValue] = []
                states.reserveCapacity(actions.count)
                let final = run(initial, actions) { _, state in
                    states.append(encodeRedacted(state))
                }
                guard let final else { throw CommandFailure("the store is busy or gone; replay not run") }
                onStateReplaced(final, "replay")
                return CommandResult(id: replay.id, ok: true, states: states)
            }
        case .resync:
            reportCurrentState(reason: "resync")
        case .welcome, .error, .ack:
            break
        }
    }

    /// Reports the store's current state as a snapshot (`reason`: `resync` when the daemon asked, `coalesced` when
    /// the pipeline needs a state to close a coalesced range). Nothing happens once the store is gone.
    func reportCurrentState(reason: String) {
        if let state = host.currentState() { onStateReplaced(state, reason) }
    }

    private func answer(_ id: String, _ body: () throws(CommandFailure) -> CommandResult) {
        let result: CommandResult
        do {
            result = try body()
        } catch {
            result = CommandResult(id: id, ok: false, error: error.message)
        }
        do {
            try send(result, what: "the answer")
        } catch {
            _ = transport.send(WireCodec.encode(AppMessage.result(CommandResult(id: id, ok: false, error: error.message))))
        }
    }

    /// The largest message the daemon accepts by default (PROTOCOL.md §7).
    static var messageLimit: Int { JSONLimits().maxBytes }

    /// Sends `result`, or throws naming the limit when its message would pass it (or the transport refused it).
    private func send(_ result: CommandResult, what: @autoclosure () -> String) throws(CommandFailure) {
        let bytes = WireCodec.encode(AppMessage.result(result))
        guard bytes.count <= Self.messageLimit else {
            throw CommandFailure("\(what()) would be a \(Self.describe(bytes: bytes.count)) message, more than the "
                + "\(Self.describe(bytes: Self.messageLimit)) a message may carry (PROTOCOL.md §7)")
        }
        guard transport.send(bytes) else {
            throw CommandFailure("\(what()) (\(Self.describe(bytes: bytes.count))) could not be queued: the inspector's "
                + "connection is closed or its send queue is full")
        }
    }

    /// `1.5 MiB`, `900 KiB`, `12 bytes`.
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The host's replay, the state a replay starts from and its decoded actions.
    private func decodeReplay(_ replay: Replay) throws(CommandFailure)
        -> ((State, [Action], (Int, State) -> Void) -> State?, State, [Action])
    {
        guard let run = host.replay, let decodeAction = host.decodeAction else {
            throw CommandFailure.notOffered(WireCapability.replay)
        }
        let initial: State
        if replay.reset {
            initial = try decodeState(replay.state)
        } else {
            guard let current = host.currentState() else { throw CommandFailure("the store is gone; replay not run") }
            initial = current
        }
        var actions: [Action] = []
        actions.reserveCapacity(replay.actions.count)
        for (index, json) in replay.actions.enumerated() {
            actions.append(try decode(what: "actions[\(index)]") { () throws -> Action in try decodeAction(json) })
        }
        return (run, initial, actions)
    }

    /// Runs a `replay` that asked for `portions`: the patch of each action, sent in `result` messages of about
    /// ``Replay/portionBytes`` while the actions run (more: true), the last one saying how many were replayed. Only
    /// the last state encoded is held, never every state. A failure after some portions ends the answer with
    /// `ok: false`.
    private func replayInPortions(_ replay: Replay) {
        let id = replay.id
        do throws(CommandFailure) {
            let (run, initial, actions) = try decodeReplay(replay)
            var previous = encodeRedacted(initial)
            var portion = CommandResult(id: id, ok: true, from: previous, patches: [], more: true)
            var portionBytes = 0
            var replayed = 0
            var failure: CommandFailure?
            let final = run(initial, actions) { index, state in
                guard failure == nil else { return }
                let encoded = encodeRedacted(state)
                let patch = JSONPatch.diff(from: previous, to: encoded)
                previous = encoded
                portion.patches?.append(patch)
                portionBytes += patch.json.serializedBytes().count
                replayed += 1
                guard portionBytes >= Replay.portionBytes else { return }
                do throws(CommandFailure) {
                    try send(portion, what: "the portion of the answer ending with actions[\(index)]")
                } catch {
                    failure = error
                }
                portion = CommandResult(id: id, ok: true, patches: [], more: true)
                portionBytes = 0
            }
            if let failure { throw failure }
            guard let final else { throw CommandFailure("the store is busy or gone; replay not run") }
            onStateReplaced(final, "replay")
            portion.more = false
            portion.replayed = replayed
            try send(portion, what: "the last portion of the answer")
        } catch {
            _ = transport.send(WireCodec.encode(AppMessage.result(CommandResult(id: id, ok: false, error: error.message))))
        }
    }

    /// Decodes a state pushed in by the daemon, keeping the app's own values at redacted paths.
    private func decodeState(_ json: JSONValue) throws(CommandFailure) -> State {
        guard let decodeState = host.decodeState else { throw CommandFailure.notOffered(WireCapability.jump) }
        var incoming = json
        if !redactor.isEmpty, let own = host.currentState(), let ownJSON = try? coding.encodeState(own) {
            incoming = redactor.restore(json, from: ownJSON)
        }
        return try decode(what: "state") { () throws -> State in try decodeState(incoming) }
    }

    private func decode<T>(what: String, _ body: () throws -> T) throws(CommandFailure) -> T {
        do {
            return try body()
        } catch let error as DecodingError {
            throw CommandFailure("cannot decode \(what): \(CommandFailure.describe(error))")
        } catch {
            throw CommandFailure("cannot decode \(what): \(error)")
        }
    }

    /// Why `action` was refused with `error`: the decoding error, and the cases the action's words name (see
    /// ``acceptedCases(near:decode:)``); when they name none and the action type is an enum that has no such case,
    /// that the action was not understood and the shape expected (``UnknownActionCase``), rather than the
    /// decoder's "Invalid number of keys found, expected one".
    static func refusal(of action: JSONValue, _ error: any Error,
                        decode: (JSONValue) throws -> Action) -> CommandFailure {
        let described = (error as? DecodingError).map(CommandFailure.describe) ?? "\(error)"
        let cases = acceptedCases(near: action, decode: decode)
        if !cases.isEmpty {
            return CommandFailure("cannot decode action: \(described); an action is an object with one member named "
                + "after its case: did you mean " + cases.joined(separator: " or ") + "?")
        }
        let unknown = UnknownActionCase.message(for: action, error: error, actionType: Action.self)
        return CommandFailure("cannot decode action: \(unknown ?? described)")
    }

    /// The cases of the action type named by the refused action's own words (its member names, its string values,
    /// and their last `/`-separated part: `{"type":"counter/increment"}` names `increment`), each in the shape the
    /// type decodes: `{"increment":{}}`, or `{"add":{"_0":…}}` for a case that needs a value. Found by decoding
    /// `{"name":{}}` for each word (a Swift enum's synthesized `Codable` tells a case it does not have from a case
    /// whose values are missing), so no list of the cases is needed. At most 32 words are tried.
    static func acceptedCases(near action: JSONValue, decode: (JSONValue) throws -> Action) -> [String] {
        var words: [String] = []
        func add(_ text: String) {
            for word in [text, text.split(separator: "/").last.map(String.init) ?? text]
            where !word.isEmpty && !words.contains(word) {
                words.append(word)
            }
        }
        switch action {
        case .object(let object):
            for index in 0..<object.count {
                let (key, value) = object[index]
                add(key)
                if case .string(let text) = value { add(text) }
            }
        case .string(let text):
            add(text)
        default:
            break
        }
        var cases: [String] = []
        for word in words.prefix(32) {
            let probe = JSONValue.object(JSONObject([(word, .object(JSONObject()))]))
            do {
                _ = try decode(probe)
                cases.append(probe.serialized())
            } catch let error as DecodingError {
                guard case .keyNotFound(let key, let context) = error,
                      context.codingPath.first?.stringValue == word else { continue }
                let name = JSONValue.string(word).serialized()
                cases.append("{\(name):{\(JSONValue.string(key.stringValue).serialized()):…}}")
            } catch {
                continue
            }
        }
        return cases
    }

    private func encodeRedacted(_ state: State) -> JSONValue {
        redactor.redact((try? coding.encodeState(state)) ?? .null)
    }
}

/// Why a command could not be applied: the sentence sent back in `result.error`.
struct CommandFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }

    /// The refusal of a command for an ability the host did not offer.
    static func notOffered(_ capability: String) -> CommandFailure {
        CommandFailure("this app does not offer '\(capability)' (its recorder's host did not offer it; "
            + "hello.capabilities lacks it)")
    }

    /// `field 'items[2].title': expected String, found a number`-style text for a decoding error.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            let trimmed = text.hasPrefix(".") ? String(text.dropFirst()) : text
            return trimmed.isEmpty ? "the top level" : "field '\(trimmed)'"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): missing \(type) value"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
