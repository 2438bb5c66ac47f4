import Foundation
import RewindWebSocket
import RewindWire

/// The daemon's side of one app connection (subprotocol `rewind.v1`): the protocol's state machine.
///
/// It expects `hello` first (checking the protocol version and the token), binds the connection to a session (a new
/// one, or the same app's previous one after a reconnect), then checks every event's sequence number and hands
/// events to the ``LiveSession``. Every bad input is answered with an `error` message carrying a stable code; when
/// the protocol cannot go on (see `WireErrorCode.closeCode`) the connection is closed with the matching WebSocket
/// close code. Nothing already accepted is lost: events are recorded before any complaint about what follows.
///
/// Threading: confined to ``queue``, its own serial queue. The server's service thread only hands each complete
/// message (and finally the close) to it, so decoding, applying patches and opening or finishing session files
/// never hold up other connections, and one connection's messages are handled in order.
final class AppConnection: @unchecked Sendable {  // all state confined to `queue`
    /// What the connection needs from the daemon.
    struct Environment {
        let limits: JSONLimits
        let token: String?
        let attach: (Hello, ConnectionID) throws(WireError) -> (LiveSession, resumed: Bool)
        let send: (DaemonMessage) -> Void
        let close: (UInt16, String) -> Void
        let log: (String) -> Void
    }

    let id: ConnectionID
    /// Where every call to this connection runs, in order.
    let queue: DispatchQueue
    private let environment: Environment
    private(set) var session: LiveSession?
    private var connectionBase: UInt64 = 0
    private var expectedSeq: UInt64 = 1
    private var droppedThrough: UInt64 = 0
    private var closing = false

    init(id: ConnectionID, environment: Environment) {
        self.id = id
        self.queue = DispatchQueue(label: "rewind.daemon.app.\(id.rawValue)")
        self.environment = environment
    }

    /// Handles one complete message from the app.
    func receive(_ frame: [UInt8]) {
        guard !closing else { return }
        let message: AppMessage
        do {
            message = try WireCodec.decodeAppMessage(frame, limits: environment.limits)
        } catch {
            reject(error)
            return
        }
        guard let session else {
            guard case .hello(let hello) = message else {
                reject(WireError(code: .helloRequired,
                                 message: "the first message must be 'hello', got '\(message.typeName)'"))
                return
            }
            accept(hello)
            return
        }
        switch message {
        case .hello:
            reject(WireError(code: .badField, message: "'hello' was already received on this connection",
                             field: "type"))
        case .action(let event):
            record(event, in: session)
        case .batch(let events):
            for event in events { record(event, in: session) }
        case .snapshot(let snapshot):
            session.recordSnapshot(snapshot, connectionBase: connectionBase)
            expectedSeq = max(expectedSeq, snapshot.seq &+ 1)
        case .dropped(let dropped):
            droppedThrough = max(droppedThrough, dropped.to)
            session.recordDropped(from: dropped.from, to: dropped.to, connectionBase: connectionBase)
        case .result(let result):
            session.complete(result)
        }
    }

    /// The app went away: its session's pending commands fail and its file is completed.
    func closed() {
        session?.detach(id)
    }

    private func accept(_ hello: Hello) {
        guard hello.protocolVersion <= WireProtocol.version else {
            reject(WireError(code: .unsupportedProtocol,
                             message: "protocol \(hello.protocolVersion) is newer than this daemon's "
                                 + "(\(WireProtocol.version)); upgrade rewind"))
            return
        }
        if let token = environment.token, hello.token != token {
            reject(WireError(code: .unauthorized,
                             message: hello.token == nil ? "this daemon requires a token (REWIND_TOKEN)"
                                                         : "the token does not match"))
            return
        }
        do {
            let (session, resumed) = try environment.attach(hello, id)
            self.session = session
            connectionBase = hello.seq ?? 0
            environment.send(.welcome(Welcome(session: session.id.rawValue, resumed: resumed)))
        } catch {
            reject(error)
        }
    }

    private func record(_ event: ActionEvent, in session: LiveSession) {
        let inOrder = event.seq == expectedSeq || (event.seq > expectedSeq && event.seq <= droppedThrough)
        if !inOrder {
            let problem = WireError(code: .outOfOrder,
                                    message: "expected seq \(expectedSeq), got \(event.seq); "
                                        + "a snapshot was requested to resynchronise")
            session.recordError(problem)
            session.markStateUnknown()
            environment.send(.error(problem))
            environment.send(.resync(Resync(reason: "out_of_order")))
        }
        if let failure = session.recordAction(event, connectionBase: connectionBase) {
            environment.send(.error(failure))
            environment.send(.resync(Resync(reason: failure.code.rawValue)))
        }
        if event.seq >= expectedSeq { expectedSeq = event.seq &+ 1 }
    }

    private func reject(_ error: WireError) {
        session?.recordError(error)
        environment.send(.error(error))
        if let code = error.code.closeCode {
            closing = true
            environment.log("closed connection \(id): \(error.code.rawValue): \(error.message)")
            environment.close(code, String(error.message.prefix(100)))
        }
    }
}
