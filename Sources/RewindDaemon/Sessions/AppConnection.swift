import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// The daemon's side of one app connection (subprotocol `rewind.v1`): the edge of the protocol and the driver of
/// the connection's reading.
///
/// It expects `hello` first, checks the protocol version and the token, asks the registry which session the app run
/// belongs to (a new one, or the same run's after a reconnect), and from then on hands every decoded message to that
/// ``LiveSession``, whose ``AppIngest`` decides what is recorded and answered. Bad input before the `hello` is
/// answered here with an `error` carrying a stable code, and the connection is closed when the protocol cannot go on
/// (`WireErrorCode.closeCode`).
///
/// **Reading no faster than the record is committed.** The bytes of every message count against
/// `maxBacklogBytes` from the moment the server hands it over until the rows it produced are committed to the
/// session file (``setUncommittedBytes(_:)``, from the session): past the bound the connection stops reading the
/// app's socket, so the app's sends wait in TCP's buffers and its outbox coalesces states (keeping its actions),
/// instead of the daemon growing or discarding anything while the disk stalls or fills. Reading resumes at a quarter
/// of the bound.
///
/// Threading: two stages. The server's service thread only hands each complete message (and finally the close) to
/// ``deliver(_:tracking:)`` / ``deliverClose(tracking:)``. Parsing and decoding, the most expensive step of ingest,
/// run concurrently on a global queue; an ``OrderedHandoff`` then hands the decoded messages, in the order they
/// arrived, to ``queue``, where the rest runs (checked with `dispatchPrecondition`). ``send(_:)``, ``close(code:reason:)``
/// and ``setUncommittedBytes(_:)`` may be called from any thread (the session calls them under its lock).
final class AppConnection: @unchecked Sendable {  // `session` confined to `queue`; `closing` and the charges to `backlogLock`
    /// What the connection needs from the daemon.
    struct Environment {
        let limits: JSONLimits
        let token: String?
        /// Above this many bytes of messages not yet committed the connection stops reading from the app's socket.
        let maxBacklogBytes: Int
        let attach: (Hello, AppConnection) throws(WireError) -> Void
        let send: (DaemonMessage) -> Void
        let close: (UInt16, String) -> Void
        /// Stops (false) or resumes (true) reading from the app's socket. Any thread.
        let setReceiving: (Bool) -> Void
        /// Tells the server the peer passed the token check (its messages may be as large as the limit allows,
        /// and the hello timeout no longer applies). Any thread.
        let admit: () -> Void
        let log: (String) -> Void
    }

    let id: ConnectionID
    /// The second stage: where every decoded message is handled, in order.
    let queue: DispatchQueue
    /// The first stage: decodes messages concurrently and hands them to ``queue`` in arrival order.
    private var handoff: OrderedHandoff<Inbound>!
    private let environment: Environment
    private var session: LiveSession?
    private var closing = false
    /// Bytes of messages received but not yet handled, bytes handled whose rows are not committed (as the session
    /// last said), and whether reading from the app is stopped because of them; guarded by `backlogLock`.
    private let backlogLock = NSLock()
    private var receivedBytes = 0
    private var uncommittedBytes = 0
    private var readingPaused = false
    private var everPaused = false

    init(id: ConnectionID, environment: Environment) {
        self.id = id
        self.queue = DispatchQueue(label: "rewind.daemon.app.\(id.rawValue)")
        self.environment = environment
        // Each value holds its connection, so messages in flight keep it alive (and the handoff holds no cycle).
        self.handoff = OrderedHandoff(work: .global(qos: .userInitiated), target: queue) { inbound in
            switch inbound.event {
            case .message(let decoded): inbound.connection.receive(decoded, bytes: inbound.bytes)
            case .close: inbound.connection.closed()
            }
            inbound.connection.handled(bytes: inbound.bytes)
            inbound.group.leave()
        }
    }

    /// What the first stage hands to the second: a decoded message or the end of the connection, for which
    /// connection, and the group to leave once it has been handled.
    private struct Inbound: Sendable {
        enum Event: Sendable {
            case message(Result<AppMessage, WireError>)
            case close
        }
        let event: Event
        /// The size of the message, counted in the connection's backlog until it has been handled.
        let bytes: Int
        let connection: AppConnection
        let group: DispatchGroup
    }

    /// Any thread (the service thread): queues one complete message from the app through both stages. `group` is
    /// entered now and left once the message has been handled.
    func deliver(_ frame: [UInt8], tracking group: DispatchGroup) {
        group.enter()
        charge { receivedBytes += frame.count }
        let limits = environment.limits
        handoff.submit { [self] in
            let decoded = Result { () throws(WireError) in try WireCodec.decodeAppMessage(frame, limits: limits) }
            return Inbound(event: .message(decoded), bytes: frame.count, connection: self, group: group)
        }
    }

    /// Any thread (the service thread): queues the end of the connection behind every message delivered before.
    func deliverClose(tracking group: DispatchGroup) {
        group.enter()
        handoff.submitComputed(Inbound(event: .close, bytes: 0, connection: self, group: group))
    }

    // MARK: - Reading no faster than the record is committed

    /// Any thread (the session, under its lock): `bytes` of the connection's handled messages wait for their rows to
    /// be committed.
    func setUncommittedBytes(_ bytes: Int) {
        charge { uncommittedBytes = bytes }
    }

    /// A message of `bytes` bytes has been handled (its uncommitted part is now the session's to report).
    private func handled(bytes: Int) {
        guard bytes > 0 else { return }
        charge { receivedBytes -= bytes }
    }

    /// Changes the charges, then stops reading past the bound or resumes at a quarter of it.
    private func charge(_ change: () -> Void) {
        backlogLock.withLock {
            change()
            let charged = receivedBytes + uncommittedBytes
            if !readingPaused && charged > environment.maxBacklogBytes {
                readingPaused = true
                environment.setReceiving(false)  // under the lock, so a resume cannot overtake it
                if !everPaused {
                    everPaused = true
                    environment.log("connection \(id) sends faster than it can be recorded: reading it only as "
                                    + "fast as its events are committed")
                }
            } else if readingPaused && charged <= environment.maxBacklogBytes / 4 {
                readingPaused = false
                environment.setReceiving(true)
            }
        }
    }

    // MARK: - Messages

    /// Handles one complete message from the app, decoded (or not) by the first stage.
    private func receive(_ decoded: Result<AppMessage, WireError>, bytes: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !backlogLock.withLock({ closing }) else { return }
        if let session {
            switch decoded {
            case .success(let message): session.receive(message, bytes: bytes, from: id)
            case .failure(let error): session.refuse(error, from: id)
            }
            return
        }
        switch decoded {
        case .success(.hello(let hello)):
            accept(hello)
        case .success(let message):
            reject(WireError(code: .helloRequired, message: "the first message must be 'hello', got '\(message.typeName)'"))
        case .failure(let error):
            reject(error)
        }
    }

    /// The app went away: its session's pending commands fail and its file is completed.
    private func closed() {
        dispatchPrecondition(condition: .onQueue(queue))
        session?.detach(id)
    }

    private func accept(_ hello: Hello) {
        guard hello.protocolVersion <= WireProtocol.version else {
            reject(WireError(code: .unsupportedProtocol,
                             message: "protocol \(hello.protocolVersion) is newer than this daemon's "
                                 + "(\(WireProtocol.version)); upgrade rewind"))
            return
        }
        if let token = environment.token, !TokenComparison.matches(hello.token, token) {
            reject(WireError(code: .unauthorized,
                             message: hello.token == nil ? "this daemon requires a token (REWIND_TOKEN)"
                                                         : "the token does not match"))
            return
        }
        environment.admit()
        do {
            try environment.attach(hello, self)
        } catch {
            reject(error)
        }
    }

    /// Called by the registry (on ``queue``, inside ``accept(_:)``) once the session the app run belongs to has
    /// bound this connection.
    func attached(to session: LiveSession) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.session = session
    }

    private func reject(_ error: WireError) {
        send(.error(error))
        if let code = error.code.closeCode {
            close(code: code, reason: String(error.message.prefix(100)))
        }
    }

    /// Any thread: sends `message` to the app.
    func send(_ message: DaemonMessage) {
        environment.send(message)
    }

    /// Any thread: closes the connection with `code` after what was sent; nothing more it sends is handled.
    func close(code: UInt16, reason: String) {
        backlogLock.withLock { closing = true }
        environment.log("closed connection \(id) (\(code)): \(reason)")
        environment.close(code, reason)
    }
}
