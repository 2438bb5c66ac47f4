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
/// Threading: two stages. The server's service thread only hands each complete message (and finally the close) to
/// ``deliver(_:tracking:)`` / ``deliverClose(tracking:)``. Parsing and decoding, the most expensive step of ingest,
/// run concurrently on a global queue (one message's parse does not depend on another's); an ``OrderedHandoff``
/// then hands the decoded messages, in the order they arrived, to ``queue``, where everything else runs (the state
/// machine, applying patches, appending to the recording, opening or finishing session files). Under a stream of
/// events both processors share the work, and nothing ever holds up other connections. All mutable state is
/// confined to ``queue``.
final class AppConnection: @unchecked Sendable {  // all mutable state confined to `queue`
    /// What the connection needs from the daemon.
    struct Environment {
        let limits: JSONLimits
        let token: String?
        /// Above this many bytes of unhandled messages the connection stops reading from the app's socket, so a
        /// fast app waits in TCP's buffers instead of growing the daemon's memory (the bound on a session's
        /// outstanding events); reading resumes when the backlog is down to a quarter of it.
        let maxBacklogBytes: Int
        let attach: (Hello, ConnectionID) throws(WireError) -> (LiveSession, resumed: Bool)
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
    /// The second stage: where the connection's state lives and every decoded message is handled, in order.
    let queue: DispatchQueue
    /// The first stage: decodes messages concurrently and hands them to ``queue`` in arrival order.
    private var handoff: OrderedHandoff<Inbound>!
    private let environment: Environment
    private(set) var session: LiveSession?
    private var connectionBase: UInt64 = 0
    private var expectedSeq: UInt64 = 1
    private var droppedThrough: UInt64 = 0
    /// How many of the next messages the app sends again after a reconnect (`hello.resending`).
    private var resendRemaining: UInt64 = 0
    /// The highest `seq` of this connection handled so far (recorded, or accounted for), and the last `ack` sent.
    private var handledThrough: UInt64 = 0
    private var lastAckNanos: UInt64 = 0
    private var ackedThrough: UInt64 = 0
    /// Handled `seq`s not acknowledged yet, each with the session's last event index when it was handled: it is
    /// acknowledged once the recording has committed that index to the file (so a killed daemon never acknowledged
    /// what it had not written).
    private var unacknowledged: [(seq: UInt64, index: Int64)] = []
    /// Fires while ``unacknowledged`` is not empty, so the last events of a burst are acknowledged too.
    private var ackTimer: DispatchSourceTimer?
    /// True when the app's `hello` named the `ack` capability (it reads acknowledgments).
    private var wantsAcks = false
    private var closing = false
    /// Bytes of messages received but not yet handled, and whether reading from the app is stopped because of
    /// them; guarded by `backlogLock` (updated by the service thread and by ``queue``).
    private let backlogLock = NSLock()
    private var backlogBytes = 0
    private var readingPaused = false
    private var everPaused = false
    /// The source locations the app numbered on this connection.
    private var sources = SourceTable()

    init(id: ConnectionID, environment: Environment) {
        self.id = id
        self.queue = DispatchQueue(label: "rewind.daemon.app.\(id.rawValue)")
        self.environment = environment
        // Each value holds its connection, so messages in flight keep it alive (and the handoff holds no cycle).
        self.handoff = OrderedHandoff(work: .global(qos: .userInitiated), target: queue) { inbound in
            switch inbound.event {
            case .message(let decoded): inbound.connection.receive(decoded)
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
        backlogLock.withLock {
            backlogBytes += frame.count
            if !readingPaused && backlogBytes > environment.maxBacklogBytes {
                readingPaused = true
                environment.setReceiving(false)  // under the lock, so a resume cannot overtake it
                if !everPaused {
                    everPaused = true
                    environment.log("connection \(id) sends faster than it can be recorded: reading it only as "
                                    + "fast as it is recorded")
                }
            }
        }
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

    /// A message of `bytes` bytes has been handled: resumes reading once the backlog is small again.
    private func handled(bytes: Int) {
        guard bytes > 0 else { return }
        backlogLock.withLock {
            backlogBytes -= bytes
            if readingPaused && backlogBytes <= environment.maxBacklogBytes / 4 {
                readingPaused = false
                environment.setReceiving(true)
            }
        }
    }

    /// Handles one complete message from the app, decoded (or not) by the first stage.
    private func receive(_ decoded: Result<AppMessage, WireError>) {
        guard !closing else { return }
        let message: AppMessage
        switch decoded {
        case .success(let decodedMessage):
            message = decodedMessage
        case .failure(let error):
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
            guard let resolved = resolveSources([event], field: { _ in "action.source" }) else { return }
            record(resolved[0], in: session)
            acknowledge(through: event.seq)
        case .batch(let events):
            guard let resolved = resolveSources(events, field: { "batch.events[\($0)].source" }) else { return }
            for event in resolved { record(event, in: session) }
            acknowledge(through: events.last?.seq ?? 0)
        case .snapshot(let snapshot):
            session.recordSnapshot(snapshot, connectionBase: connectionBase)
            expectedSeq = max(expectedSeq, snapshot.seq &+ 1)
            acknowledge(through: snapshot.seq)
        case .dropped(let dropped):
            droppedThrough = max(droppedThrough, dropped.to)
            session.recordDropped(dropped, connectionBase: connectionBase)
            acknowledge(through: dropped.to)
        case .goodbye(let goodbye):
            session.recordGoodbye(goodbye, connectionBase: connectionBase)
        case .result(let result):
            session.complete(result)
        }
        if resendRemaining > 0 {
            resendRemaining -= 1
            if resendRemaining == 0 { session.endResend() }
        }
    }

    /// Tells the app how far its messages on this connection are recorded (`ack`, docs/PROTOCOL.md §3.5): `seq` is
    /// handled now and acknowledged once the events it added to the session are committed to the file, at most
    /// every 50 ms (a timer acknowledges the end of a burst). Connection queue only.
    private func acknowledge(through seq: UInt64) {
        guard wantsAcks, let session, seq > handledThrough else { return }
        handledThrough = seq
        let index = session.lastIndex
        if let last = unacknowledged.last, last.index == index {
            unacknowledged[unacknowledged.count - 1].seq = seq
        } else {
            unacknowledged.append((seq, index))
        }
        sendDueAck()
    }

    /// Sends an `ack` through the highest handled `seq` whose events are committed, unless one went out less than
    /// 50 ms ago; keeps the timer running while something waits. Connection queue only.
    private func sendDueAck() {
        guard !closing, let session, !unacknowledged.isEmpty else {
            stopAckTimer()
            return
        }
        let now = DispatchTime.now().uptimeNanoseconds
        if now &- lastAckNanos >= 50_000_000 {
            let committed = session.committedIndex
            let done = unacknowledged.prefix { $0.index <= committed }.count
            let through = done > 0 ? unacknowledged[done - 1].seq : nil
            unacknowledged.removeFirst(done)
            if let through, through > ackedThrough {
                ackedThrough = through
                lastAckNanos = now
                environment.send(.ack(Ack(seq: through)))
            }
        }
        if unacknowledged.isEmpty {
            stopAckTimer()
        } else if ackTimer == nil {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
            timer.setEventHandler { [weak self] in self?.sendDueAck() }
            timer.resume()
            ackTimer = timer
        }
    }

    private func stopAckTimer() {
        ackTimer?.cancel()
        ackTimer = nil
    }

    /// The app went away: its session's pending commands fail and its file is completed.
    private func closed() {
        stopAckTimer()
        session?.detach(id)
    }

    private func accept(_ hello: Hello) {
        wantsAcks = hello.capabilities.contains(WireCapability.ack)
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
            let (session, resumed) = try environment.attach(hello, id)
            self.session = session
            connectionBase = hello.seq ?? 0
            resendRemaining = hello.resending ?? 0
            environment.send(.welcome(Welcome(session: session.id.rawValue, resumed: resumed,
                                              acknowledges: wantsAcks)))
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
        if let failure = session.recordAction(event, connectionBase: connectionBase,
                                                 maxStateBytes: environment.limits.maxBytes) {
            environment.send(.error(failure))
            environment.send(.resync(Resync(reason: failure.code.rawValue)))
        }
        if event.seq >= expectedSeq { expectedSeq = event.seq &+ 1 }
    }

    /// The events with every `source` number replaced by its text, numbering new texts (all or nothing: a message
    /// with an unknown number is rejected and numbers nothing).
    private func resolveSources(_ events: [ActionEvent], field: (Int) -> String) -> [ActionEvent]? {
        var table = sources
        var resolved = events
        for index in resolved.indices {
            guard let source = resolved[index].source else { continue }
            do {
                resolved[index].source = .location(try table.resolve(source, field: field(index)))
            } catch {
                reject(error)
                return nil
            }
        }
        sources = table
        return resolved
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
