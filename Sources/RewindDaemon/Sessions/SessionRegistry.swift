import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// The daemon's sessions by app identity: which session an app's `hello` belongs to.
///
/// A `hello` from an app run seen before (same name and instance) continues that run's session — while the daemon
/// runs, from memory; after a daemon restart, by reopening the newest session file of that run, found through the
/// ``SavedSessionIndex`` without opening any file. Its previous connection may still look open:
/// - a connection that closed at the server counts as gone even while its last messages are still being handled:
///   the reconnect waits for them (and for the file to be finished) and then continues the session;
/// - a connection still open is **probed** (a WebSocket ping with a short deadline, ``probeTimeout``): a connection
///   whose far side is gone (a half-open TCP connection after a network change, a sleeping laptop, a proxy or tunnel
///   that lost its other side) does not answer, so it is closed and the session continues on the new connection;
/// - one that answers is a genuinely different connection presenting the same identity (a duplicate, or two stores
///   with one name and instance in one process): it is recorded in a session of its own, so the user sees two
///   sessions and neither loses anything or takes over the other's commands.
///
/// Threading: any thread except the server's service thread for ``attach(_:connection:)`` (it may wait for a probe
/// and a previous connection's close, and does file work). The dictionaries are guarded by `lock`, held only for
/// dictionary work, so ``session(_:)`` and ``all`` never wait on a disk.
final class SessionRegistry: @unchecked Sendable {  // mutable state guarded by `lock`; decisions by `attachLocks`
    /// What the registry needs of the server besides the store.
    struct Connections: Sendable {
        /// True while a connection is open at the server (false from the moment its close was seen, before its last
        /// messages are handled).
        let isOpen: @Sendable (ConnectionID) -> Bool
        /// Pings a connection and reports whether its peer answered within the deadline (seconds).
        let probe: @Sendable (ConnectionID, Double, @escaping @Sendable (Bool) -> Void) -> Void
        /// Closes a connection whose peer is gone, without waiting for it to take a close frame.
        let drop: @Sendable (ConnectionID, String) -> Void
        /// Waits up to the deadline (seconds) until a connection is no longer open; true when it is not.
        let waitUntilClosed: @Sendable (ConnectionID, Double) -> Bool
    }

    private let store: SessionStore
    private let hub: DaemonEventHub
    private let log: @Sendable (String) -> Void
    private let connections: Connections
    private let maxStateBytes: Int
    /// How long a probed connection has to answer before it is taken for gone.
    let probeTimeout: Double
    private let saved = SavedSessionIndex()
    /// Serialize the decisions of ``attach(_:connection:)`` and the file work they need (creating or reopening a
    /// file) per app run, so that two hellos of one app run cannot both continue the same session. Striped by the
    /// app's identity: hellos of different apps create their files side by side, and one slow file (a hung disk,
    /// thousands of apps arriving at once) holds up only the hellos that share its stripe.
    private let attachLocks = (0..<64).map { _ in NSLock() }
    private let lock = NSLock()
    private var byIdentity: [AppIdentity: [LiveSession]] = [:]
    private var byID: [SessionID: LiveSession] = [:]

    /// A registry recording into `store`. Starts indexing the saved sessions in the background.
    init(store: SessionStore, hub: DaemonEventHub, connections: Connections, maxStateBytes: Int,
         probeTimeout: Double, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.hub = hub
        self.connections = connections
        self.maxStateBytes = maxStateBytes
        self.probeTimeout = probeTimeout
        self.log = log
        DispatchQueue.global(qos: .userInitiated).async { [saved, store] in saved.build(from: store) }
    }

    /// Binds `connection`, whose `hello` passed the checks at the edge, to the session of its app run: the same
    /// run's session when it can be continued, else a new one. Runs on the connection's queue.
    func attach(_ hello: Hello, connection: AppConnection) throws(WireError) {
        let attachLock = attachLocks[Int(UInt(bitPattern: hello.app.hashValue) % UInt(attachLocks.count))]
        attachLock.lock()
        var candidates = lock.withLock { byIdentity[hello.app] ?? [] }
        // The run's session is held (or being taken over) by a connection that still looks open: is anybody there?
        // Each holder is probed once; one found gone is dropped, and the question is asked again (another connection
        // of the run may have claimed the session meanwhile: an app whose new connection went half-open too).
        var probed: Set<ConnectionID> = []
        while let newest = candidates.last, let holder = newest.holder, holder != connection.id,
              connections.isOpen(holder), !probed.contains(holder) {
            probed.insert(holder)
            attachLock.unlock()
            let gone = takeOverIfSilent(holder, of: newest, for: hello.app, connection: connection.id)
            attachLock.lock()
            candidates = lock.withLock { byIdentity[hello.app] ?? [] }
            if !gone { break }
        }
        if let claimed = candidates.reversed().first(where: { $0.claim(for: connection.id, isOpen: connections.isOpen) }) {
            attachLock.unlock()
            do {
                try claimed.resume(hello, connection: connection, reopen: { () throws(SessionStoreError) in
                    try store.resumeSession(claimed.id)
                }, resumePoint: { [store, maxStateBytes] recording throws(SessionStoreError) in
                    try Self.resumePoint(of: claimed.id, recording: recording, in: store, maxStateBytes: maxStateBytes)
                })
                connection.attached(to: claimed)
                log("session \(claimed.id) resumed: \(hello.app.name) reconnected (connection \(connection.id))")
                return
            } catch {
                // Its file was deleted after it ended (the timeline's `x`, `rewind sessions --delete`): the app run
                // is recorded in a new session. A damaged file (e.g. events numbered up to 2^63) is left as it is,
                // and so is the session (its recording may still be open): the app run is recorded in a new one.
                switch error {
                case .notFound:
                    log("session \(claimed.id) of \(hello.app.name) was deleted: recording it in a new session")
                    attachLock.lock()
                    lock.withLock {
                        byIdentity[hello.app]?.removeAll { $0 === claimed }
                        byID[claimed.id] = nil
                        candidates = byIdentity[hello.app] ?? []
                    }
                case .corrupt:
                    log("session \(claimed.id) of \(hello.app.name) cannot be continued: \(error): recording it in a "
                        + "new session")
                    attachLock.lock()
                    candidates.removeAll { $0 === claimed }
                default:
                    log("cannot continue session \(claimed.id) of \(hello.app.name): \(error)")
                    throw WireError(code: .internal, message: "the daemon cannot record this session: \(error)")
                }
            }
        }
        defer { attachLock.unlock() }
        if !candidates.isEmpty && !connections.isOpen(connection.id) {
            // A connection already closed whose hello comes late, after a newer connection of the app took the
            // session: the newer hello carries the app's state and says how many actions were not received.
            log("ignored the hello of \(hello.app.name) on connection \(connection.id): it has closed, and a newer "
                + "connection of that app holds its session")
            throw WireError(code: .internal, message: "this connection closed; a newer one holds the session")
        }
        if !candidates.isEmpty && !answersPing(connection.id) {
            // A hello that comes late on a connection whose far side is gone (it went half-open while its hello waited,
            // and a newer connection of the run took the session meanwhile): nobody is there to record.
            log("ignored the hello of \(hello.app.name) on connection \(connection.id): it does not answer a ping, and "
                + "another connection of that app run holds its session")
            connections.drop(connection.id, "this connection does not answer a ping; another one holds the session")
            throw WireError(code: .internal, message: "this connection does not answer; another one holds the session")
        }
        do {
            if candidates.isEmpty, let previous = saved.newest(of: hello.app),
               let session = try resumeSaved(previous, hello: hello, connection: connection) {
                connection.attached(to: session)
                return
            }
            let now = Date()
            let recording = try store.createSession(
                appName: hello.app.name, instance: hello.app.instance, protocolVersion: hello.protocolVersion,
                stateType: hello.stateType, initialState: hello.state, startedAt: now)
            let session = LiveSession(id: recording.id, hello: hello, recording: recording, hub: hub, startedAt: now,
                                      maxStateBytes: maxStateBytes, log: log)
            register(session)
            session.connect(connection, hello: hello, resumed: false)
            connection.attached(to: session)
            if let live = candidates.last {
                log("session \(session.id) started: a second connection (\(connection.id)) presents itself as "
                    + "\(hello.app.name) (\(hello.app.instance)), whose session \(live.id) is live on connection "
                    + "\(live.holder.map { "\($0)" } ?? "-"), which answered a ping; it is recorded apart")
            } else {
                log("session \(session.id) started: \(hello.app.name) (\(hello.app.instance))")
            }
        } catch {
            log("cannot record \(hello.app.name): \(error)")
            throw WireError(code: .internal, message: "the daemon cannot record this session: \(error)")
        }
    }

    /// Probes `holder`, the open connection of `session`, for a new connection of the same app run: when its peer
    /// does not answer within ``probeTimeout`` it is dropped (and its close awaited), so that the session can be
    /// continued. When something arrives, the connection is given the same time to close: an app that gave a
    /// connection up sends its close frame before it reconnects, and that frame may arrive after the probe began (the
    /// session is then continued as after any close). A connection that answers and stays open is a different peer:
    /// nothing changes (the new connection is recorded apart).
    /// True when `holder` is gone (closed now).
    private func takeOverIfSilent(_ holder: ConnectionID, of session: LiveSession, for app: AppIdentity,
                                  connection: ConnectionID) -> Bool {
        let answer = ProbeAnswer()
        connections.probe(holder, probeTimeout) { alive in answer.set(alive) }
        if answer.wait(timeout: probeTimeout + 5) {
            let closed = connections.waitUntilClosed(holder, probeTimeout)
            log("connection \(holder) of \(app.name) answered a ping while connection \(connection) of the same app run "
                + "said hello" + (closed ? ", then closed" : ""))
            return closed
        }
        log("connection \(holder) of \(app.name) did not answer a ping within \(Self.seconds(probeTimeout)) while "
            + "connection \(connection) of the same app run said hello: its far side is gone; closing it and "
            + "continuing session \(session.id) on the new connection")
        connections.drop(holder, "another connection of this app run took over; this one did not answer a ping")
        return connections.waitUntilClosed(holder, 10)
    }

    /// True when `connection`'s peer answers a ping within ``probeTimeout``.
    private func answersPing(_ connection: ConnectionID) -> Bool {
        let answer = ProbeAnswer()
        connections.probe(connection, probeTimeout) { alive in answer.set(alive) }
        return answer.wait(timeout: probeTimeout + 5)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Continues the session file `previous` of a daemon that ran before; nil when another process records it or
    /// its file was deleted since the daemon started.
    private func resumeSaved(_ previous: SessionOwner, hello: Hello,
                             connection: AppConnection) throws(SessionStoreError) -> LiveSession? {
        let recording: SessionRecording
        do {
            recording = try store.resumeSession(previous.id)
        } catch .notFound {
            saved.forget(hello.app)
            log("session \(previous.id) of \(hello.app.name) was deleted: starting a new one")
            return nil
        } catch .sessionInUse {
            log("session \(previous.id) of \(hello.app.name) is recorded by another process: starting a new one")
            return nil
        } catch .corrupt(let path, let detail) {
            // A damaged file (e.g. its events numbered up to 2^63) is left as it is, and the app recorded anew.
            saved.forget(hello.app)
            log("session \(previous.id) of \(hello.app.name) cannot be continued: "
                + "\(SessionStoreError.corrupt(path: path, detail: detail)): starting a new one")
            return nil
        }
        let point: IngestResumePoint
        do {
            point = try Self.resumePoint(of: previous.id, recording: recording, in: store, maxStateBytes: maxStateBytes)
        } catch .corrupt(let path, let detail) {
            recording.finish(endState: .interrupted)
            saved.forget(hello.app)
            log("session \(previous.id) of \(hello.app.name) cannot be continued: "
                + "\(SessionStoreError.corrupt(path: path, detail: detail)): starting a new one")
            return nil
        } catch {
            recording.finish(endState: .interrupted)
            throw error
        }
        saved.forget(hello.app)
        let session = LiveSession(
            id: previous.id, identity: hello.app, stateType: hello.stateType ?? previous.stateType,
            resumingFrom: point, recording: recording, hub: hub, startedAt: previous.startedAt,
            maxStateBytes: maxStateBytes, log: log)
        register(session)
        session.connect(connection, hello: hello, resumed: true)
        log("session \(session.id) resumed after a daemon restart: \(hello.app.name)")
        return session
    }

    /// What session `id`'s file committed, for continuing it with `recording` (the file reopened for appending);
    /// its last state is rebuilt up to `maxStateBytes` (the bound of the ingest that continues it).
    static func resumePoint(of id: SessionID, recording: SessionRecording, in store: SessionStore,
                            maxStateBytes: Int) throws(SessionStoreError) -> IngestResumePoint {
        let reader = try store.openSession(id, maxStateBytes: maxStateBytes)
        let last = reader.eventCount
        let unknown = last == 0 ? nil : try reader.unknownState(after: last, branch: 0)
        return IngestResumePoint(
            accountedThrough: UInt64(clamping: max(0, try reader.lastAccountedAction())),
            state: try reader.state(at: last, branch: 0),
            unknownState: unknown.map { UnknownStateMark(reason: $0.why, cause: $0.cause) },
            lostActions: UInt64(clamping: max(0, try reader.actionsLost())), lastIndex: recording.lastIndex)
    }

    /// The session with that id, if the daemon has seen it since it started.
    func session(_ id: SessionID) -> LiveSession? {
        lock.withLock { byID[id] }
    }

    /// Every session the daemon has seen since it started, oldest first.
    var all: [LiveSession] {
        lock.withLock { Array(byID.values) }.sorted { $0.startedAt < $1.startedAt }
    }

    private func register(_ session: LiveSession) {
        lock.withLock {
            byIdentity[session.identity, default: []].append(session)
            byID[session.id] = session
        }
    }
}

/// A probe's answer handed from the server's thread to the waiting hello.
private final class ProbeAnswer: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
    private var alive: Bool?

    func set(_ value: Bool) {
        condition.withLock {
            if alive == nil { alive = value }
            condition.broadcast()
        }
    }

    /// The answer, or false when none came within `timeout` seconds.
    func wait(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while alive == nil {
            if !condition.wait(until: deadline) { break }
        }
        return alive ?? false
    }
}
