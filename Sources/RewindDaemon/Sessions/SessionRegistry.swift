import Foundation
import RewindWebSocket
import RewindWire

/// The daemon's sessions by app identity: which session an app's `hello` belongs to.
///
/// A `hello` from an app run seen before (same name and instance) continues that run's session — while the daemon
/// runs, from memory; after a daemon restart, by reopening the newest session file of that run, found through the
/// ``SavedSessionIndex`` without opening any file — but only when no open connection holds it: a session whose
/// app is connected is never taken over. A second connection presenting the identity of a connected app (a
/// duplicate, or two stores with one name in one process) gets a session of its own, so the user sees two
/// sessions and neither loses anything. A connection that closed at the server counts as gone even while its last
/// messages are still being handled: the reconnect waits for them (and for the file to be finished) and then
/// continues the session, so an instant reconnect is never refused.
///
/// Threading: any thread except the server's service thread for ``attach(_:connection:)`` (it may wait for a
/// previous connection's close and does file work). The dictionaries are guarded by `lock`, held only for
/// dictionary work, so ``session(_:)`` and ``all`` never wait on a disk.
final class SessionRegistry: @unchecked Sendable {  // mutable state guarded by `lock`; decisions by `attachLocks`
    private let store: SessionStore
    private let hub: DaemonEventHub
    private let log: @Sendable (String) -> Void
    private let isOpen: @Sendable (ConnectionID) -> Bool
    private let saved = SavedSessionIndex()
    /// Serialize the decisions of ``attach(_:connection:)`` and the file work they need (creating or reopening a
    /// file) per app run, so that two hellos of one app run cannot both continue the same session. Striped by the
    /// app's identity: hellos of different apps create their files side by side, and one slow file (a hung disk,
    /// thousands of apps arriving at once) holds up only the hellos that share its stripe.
    private let attachLocks = (0..<64).map { _ in NSLock() }
    private let lock = NSLock()
    private var byIdentity: [AppIdentity: [LiveSession]] = [:]
    private var byID: [SessionID: LiveSession] = [:]

    /// A registry recording into `store`. `isOpen` tells whether a connection is still open at the server (false
    /// from the moment its close was seen, before its last messages are handled). Starts indexing the saved
    /// sessions in the background.
    init(store: SessionStore, hub: DaemonEventHub, isOpen: @escaping @Sendable (ConnectionID) -> Bool,
         log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.hub = hub
        self.isOpen = isOpen
        self.log = log
        DispatchQueue.global(qos: .userInitiated).async { [saved, store] in saved.build(from: store) }
    }

    /// The session for the app that sent `hello` on `connection`, and whether it continues an earlier one.
    func attach(_ hello: Hello, connection: ConnectionID) throws(WireError) -> (LiveSession, resumed: Bool) {
        let attachLock = attachLocks[Int(UInt(bitPattern: hello.app.hashValue) % UInt(attachLocks.count))]
        attachLock.lock()
        var candidates = lock.withLock { byIdentity[hello.app] ?? [] }
        if let claimed = candidates.reversed().first(where: { $0.claim(for: connection, isOpen: isOpen) }) {
            attachLock.unlock()
            do {
                try claimed.resume(hello, connection: connection, reopen: { () throws(SessionStoreError) in
                    try store.resumeSession(claimed.id)
                }, reload: { () throws(SessionStoreError) in
                    try Self.lastMainLineState(of: claimed.id, in: store)
                })
                claimed.capabilities = hello.capabilities
                log("session \(claimed.id) resumed: \(hello.app.name) reconnected")
                return (claimed, true)
            } catch .notFound {
                // Its file was deleted after it ended (the timeline's `x`, `rewind sessions --delete`): the app run
                // is recorded in a new session.
                log("session \(claimed.id) of \(hello.app.name) was deleted: recording it in a new session")
                attachLock.lock()
                lock.withLock {
                    byIdentity[hello.app]?.removeAll { $0 === claimed }
                    byID[claimed.id] = nil
                    candidates = byIdentity[hello.app] ?? []
                }
            } catch {
                log("cannot continue session \(claimed.id) of \(hello.app.name): \(error)")
                throw WireError(code: .internal, message: "the daemon cannot record this session: \(error)")
            }
        }
        defer { attachLock.unlock() }
        if !candidates.isEmpty && !isOpen(connection) {
            // A connection already closed whose hello comes late, after a newer connection of the app took the
            // session: the newer hello carries the app's state and says how many actions were not received.
            log("ignored the hello of \(hello.app.name) on connection \(connection): it has closed, and a newer "
                + "connection of that app holds its session")
            throw WireError(code: .internal, message: "this connection closed; a newer one holds the session")
        }
        do {
            if candidates.isEmpty, let previous = saved.newest(of: hello.app),
               let session = try resumeSaved(previous, hello: hello, connection: connection) {
                return (session, true)
            }
            let now = Date()
            let recording = try store.createSession(
                appName: hello.app.name, instance: hello.app.instance, protocolVersion: hello.protocolVersion,
                stateType: hello.stateType, initialState: hello.state, startedAt: now)
            let session = LiveSession(
                id: recording.id, identity: hello.app, stateType: hello.stateType, initialState: hello.state,
                appActions: hello.seq ?? 0, recording: recording, hub: hub, startedAt: now,
                log: log)
            session.capabilities = hello.capabilities
            session.attach(connection)
            session.recordActionsBeforeFirstHello()
            register(session)
            hub.publish(.sessionStarted(session.id, hello.app))
            if let live = candidates.last {
                log("session \(session.id) started: a second connection presents itself as \(hello.app.name) "
                    + "(\(hello.app.instance)), whose session \(live.id) is live; it is recorded apart")
            } else {
                log("session \(session.id) started: \(hello.app.name) (\(hello.app.instance))")
            }
            return (session, false)
        } catch {
            log("cannot record \(hello.app.name): \(error)")
            throw WireError(code: .internal, message: "the daemon cannot record this session: \(error)")
        }
    }

    /// Continues the session file `previous` of a daemon that ran before; nil when another process records it or
    /// its file was deleted since the daemon started.
    private func resumeSaved(_ previous: SessionOwner, hello: Hello,
                             connection: ConnectionID) throws(SessionStoreError) -> LiveSession? {
        let reader: SessionReader
        do {
            reader = try store.openSession(previous.id)
        } catch .notFound {
            saved.forget(hello.app)
            log("session \(previous.id) of \(hello.app.name) was deleted: starting a new one")
            return nil
        }
        let lastState = try Self.lastMainLineState(of: previous.id, in: store)
        let lastAppSeq = try reader.lastAccountedAction()
        let recording: SessionRecording
        do {
            recording = try store.resumeSession(previous.id)
        } catch .sessionInUse {
            log("session \(previous.id) of \(hello.app.name) is recorded by another process: starting a new one")
            return nil
        }
        saved.forget(hello.app)
        let session = LiveSession(
            id: previous.id, identity: hello.app, stateType: hello.stateType ?? previous.stateType,
            initialState: lastState.state, initialStateKnown: lastState.known, appActions: UInt64(clamping: max(0, lastAppSeq)),
            recording: recording, hub: hub, startedAt: previous.startedAt, log: log)
        session.capabilities = hello.capabilities
        session.recordReconnect(hello, connection: connection, resumed: nil)
        register(session)
        log("session \(session.id) resumed after a daemon restart: \(hello.app.name)")
        return session
    }

    /// The main line's state after the last recorded event of session `id`, as its file holds it, and whether the
    /// recording knew it then (false inside a `dropped` range: the file then holds the state before the range).
    private static func lastMainLineState(of id: SessionID, in store: SessionStore) throws(SessionStoreError)
        -> (state: JSONValue, known: Bool)
    {
        let reader = try store.openSession(id)
        let last = reader.eventCount
        let known = last == 0 ? true : try reader.unknownState(after: last, branch: 0) == nil
        return (try reader.state(at: last, branch: 0), known)
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
