import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// The daemon's side of one control client (subprotocol `rewind.control.v1`): the `rewind` CLI's `tail`, `jump`,
/// `dispatch`, `replay` (with `recordedActions` and `replayActions` for a paced one), `skip` and `branch`, or any
/// script.
///
/// Each `request` gets exactly one `response` with the same id; `tail` also streams `event` messages until
/// `untail` or the connection closes. When the daemon has a token, the first request must carry it (otherwise
/// `unauthorized` and close 1008).
///
/// Threading: ``receive(_:)`` and ``closed()`` may be called on the server's service thread: they only hand the
/// work to the connection's own serial queue, where every request is decoded and handled (listing sessions reads
/// their live state, which may wait on a session's lock; a busy or frozen disk never holds up the service thread,
/// and so other connections and new handshakes). Commands for apps are only handed on there: the daemon runs them
/// on their session's queues and never waits for an app on this queue, so a command waiting for its app (a skip's
/// recomputation) holds up none of the connection's later requests. Command completions and tail events may arrive
/// on other threads and only send.
final class ControlConnection: @unchecked Sendable {  // `authorized` and `tail` confined to `queue`
    let id: ConnectionID
    private weak var daemon: Daemon?
    private let limits: JSONLimits
    private let admit: @Sendable () -> Void
    private let close: @Sendable (UInt16, String) -> Void
    private let queue: DispatchQueue
    private var authorized: Bool
    private var tail: DaemonEventHub.Token?

    init(id: ConnectionID, daemon: Daemon, limits: JSONLimits, admit: @escaping @Sendable () -> Void,
         close: @escaping @Sendable (UInt16, String) -> Void) {
        self.id = id
        self.daemon = daemon
        self.limits = limits
        self.admit = admit
        self.close = close
        self.queue = DispatchQueue(label: "rewind.daemon.control.\(id.rawValue)")
        self.authorized = (daemon.configuration.token ?? "").isEmpty
    }

    /// Any thread: queues one request for handling, after those received before.
    func receive(_ frame: [UInt8]) {
        queue.async { [self] in handleFrame(frame) }
    }

    /// Any thread: the client went away; its tail stops once the requests before are handled.
    func closed() {
        queue.async { [self] in stopTail() }
    }

    /// Decodes and handles one request (on `queue`).
    private func handleFrame(_ frame: [UInt8]) {
        guard let daemon else { return }
        let request: ControlRequest
        do {
            request = try WireCodec.decodeControlRequest(frame, limits: limits)
        } catch {
            if let code = error.code.closeCode {
                reply(ControlReply(id: "", error: error))
                close(code, String(error.message.prefix(100)))
            } else {
                reply(ControlReply(id: requestID(in: frame) ?? "", error: error))
                // Before the token was checked, nothing unreadable is tolerated.
                if !authorized { close(1008, "the first request must be readable and carry the token") }
            }
            return
        }
        if !authorized {
            guard let token = daemon.configuration.token, TokenComparison.matches(request.token, token) else {
                let error = WireError(code: .unauthorized, message: request.token == nil
                    ? "this daemon requires a token (--token or REWIND_TOKEN)" : "the token does not match")
                reply(ControlReply(id: request.id, error: error))
                close(1008, error.message)
                return
            }
            authorized = true
        }
        admit()
        handle(request, daemon: daemon)
    }

    /// The `id` of a request that is valid JSON but could not be decoded (a missing or bad argument), so that the
    /// client can match the error to its request; nil when the frame is not an object with a string `id`.
    private func requestID(in frame: [UInt8]) -> String? {
        guard let request = try? JSONValue(parsing: frame, limits: limits) else { return nil }
        return request["id"]?.stringValue
    }

    /// Stops the tail, if any (on `queue`).
    private func stopTail() {
        if let tail, let daemon { daemon.events.removeObserver(tail) }
        tail = nil
    }

    private func handle(_ request: ControlRequest, daemon: Daemon) {
        let id = request.id
        switch request.command {
        case .sessions:
            let commandTimeout = JSONValue.double(daemon.configuration.commandTimeout)
            let infos = daemon.sessions.map { session -> JSONValue in
                let live = session.isLive
                let info = ControlSessionInfo(
                    session: session.id.rawValue, app: session.identity, live: live,
                    startedAt: session.startedAt.timeIntervalSince1970,
                    lastSeq: UInt64(clamping: max(0, session.lastIndex)), stateType: session.stateType,
                    capabilities: live ? session.capabilities : nil).json
                // A live session's `commandTimeout`: the seconds its app has to answer a command (`command_failed`
                // then), so that a client waits for the daemon's answer rather than give up first (0: no limit).
                guard live, case .object(var members) = info else { return info }
                members["commandTimeout"] = commandTimeout
                return .object(members)
            }
            reply(ControlReply(id: id, result: ["sessions": .array(infos),
                                                "dataDirectory": .string(daemon.store.directory.path)]))
        case .tail(let session):
            startTail(session: session, daemon: daemon)
            reply(ControlReply(id: id, result: ["tailing": .string(session ?? "*")]))
        case .untail:
            stopTail()
            reply(ControlReply(id: id, result: ["tailing": .null]))
        case .jump(let session, let seq):
            withSession(session, id) { sessionID in
                daemon.jump(session: sessionID, to: Int64(clamping: seq)) { [self] in answer(id, $0) }
            }
        case .dispatch(let session, let action):
            withSession(session, id) { sessionID in
                daemon.dispatch(session: sessionID, action: action) { [self] in answer(id, $0) }
            }
        case .replay(let session, let target, let fromSeq, let toSeq):
            withSession(session, id) { sessionID in
                withSession(target ?? session, id) { targetID in
                    daemon.replay(session: sessionID, from: fromSeq.map { Int64(clamping: $0) },
                                  to: toSeq.map { Int64(clamping: $0) }, into: targetID,
                                  keepingStates: false) { [self] in answer(id, $0) }
                }
            }
        case .skip(let session, let seq):
            withSession(session, id) { sessionID in
                daemon.skip(session: sessionID, index: Int64(clamping: seq)) { [self] result in
                    switch result {
                    case .success(let outcome):
                        reply(ControlReply(id: id, result: [
                            "ok": true, "skipped": .array(outcome.skipped.map { .int($0) }),
                            "branch": .int(outcome.branch), "states": .int(Int64(outcome.states.count)),
                        ]))
                    case .failure(let error):
                        reply(ControlReply(id: id, error: WireError(code: error.code, message: error.description)))
                    }
                }
            }
        case .branch(let session, let branch):
            withSession(session, id) { sessionID in
                daemon.showBranch(session: sessionID, branch: Int64(clamping: branch)) { [self] result in
                    switch result {
                    case .success:
                        reply(ControlReply(id: id, result: ["ok": true, "branch": .int(Int64(clamping: branch))]))
                    case .failure(let error):
                        reply(ControlReply(id: id, error: WireError(code: error.code, message: error.description)))
                    }
                }
            }
        case .recordedActions(let session, let fromSeq, let toSeq, let withState):
            withSession(session, id) { sessionID in
                daemon.recordedActions(session: sessionID, from: fromSeq.map { Int64(clamping: $0) },
                                       to: toSeq.map { Int64(clamping: $0) }, withState: withState) { [self] result in
                    switch result {
                    case .success(let recorded):
                        reply(ControlReply(id: id, result: recorded.json))
                    case .failure(let error):
                        reply(ControlReply(id: id, error: WireError(code: error.code, message: error.description)))
                    }
                }
            }
        case .replayActions(let target, let state, let actions):
            withSession(target, id, field: "args.target") { targetID in
                daemon.replay(state: state ?? .null, actions: actions, reset: state != nil,
                              into: targetID) { [self] in answer(id, $0) }
            }
        case .other(let name, _):
            reply(ControlReply(id: id, error: WireError(
                code: .unknownType,
                message: "unknown command '\(name)' (known: sessions, tail, untail, jump, dispatch, replay, skip, "
                    + "branch, recordedActions, replayActions)",
                field: "command")))
        }
    }

    private func withSession(_ text: String, _ requestID: String, field: String = "args.session",
                             _ body: (SessionID) -> Void) {
        do {
            body(try SessionID(validating: text))
        } catch {
            reply(ControlReply(id: requestID, error: WireError(code: .unknownSession, message: "\(error)",
                                                               field: field)))
        }
    }

    private func answer(_ requestID: String, _ result: Result<CommandResult, DaemonError>) {
        switch result {
        case .success(let result):
            var body = JSONObject()
            body["ok"] = .bool(true)
            if let states = result.states { body["states"] = .int(Int64(states.count)) }
            else if let replayed = result.replayed { body["states"] = .int(Int64(replayed)) }
            reply(ControlReply(id: requestID, result: .object(body)))
        case .failure(let error):
            reply(ControlReply(id: requestID, error: WireError(code: error.code, message: error.description)))
        }
    }

    private func startTail(session: String?, daemon: Daemon) {
        stopTail()
        let connection = id
        tail = daemon.events.addObserver { [weak daemon] event in
            guard let daemon else { return }
            switch event {
            case .recorded(let sessionID, let recorded):
                guard session == nil || session == sessionID.rawValue else { return }
                daemon.send(.event(ControlEvent(session: sessionID.rawValue,
                                                event: SessionLinesFormat.line(for: recorded, state: nil))),
                            to: connection)
            case .sessionStarted(let sessionID, let app):
                guard session == nil || session == sessionID.rawValue else { return }
                daemon.send(.event(ControlEvent(session: sessionID.rawValue,
                                                event: ["type": "started", "app": .string(app.name)])),
                            to: connection)
            case .sessionEnded(let sessionID):
                guard session == nil || session == sessionID.rawValue else { return }
                daemon.send(.event(.ended(session: sessionID.rawValue)), to: connection)
            }
        }
    }

    private func reply(_ reply: ControlReply) {
        daemon?.send(.response(reply), to: id)
    }
}
