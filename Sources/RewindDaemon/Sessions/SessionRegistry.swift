import Foundation
import RewindWebSocket
import RewindWire

/// The daemon's sessions by app identity: which session an app's `hello` belongs to.
///
/// A `hello` from an app identity seen before (same name and instance) continues that session: while the daemon
/// runs, from memory; after a daemon restart, by reopening the newest session file of that identity. Anything else
/// starts a new session file.
///
/// Threading: any thread; guarded by a lock held only for dictionary work and file opening.
final class SessionRegistry: @unchecked Sendable {  // all mutable state guarded by `lock`
    private let store: SessionStore
    private let hub: DaemonEventHub
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var byIdentity: [AppIdentity: LiveSession] = [:]
    private var byID: [SessionID: LiveSession] = [:]

    init(store: SessionStore, hub: DaemonEventHub, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.hub = hub
        self.log = log
    }

    /// The session for the app that sent `hello` on `connection`, and whether it continues an earlier one.
    func attach(_ hello: Hello, connection: ConnectionID) throws(WireError) -> (LiveSession, resumed: Bool) {
        lock.lock()
        defer { lock.unlock() }
        do {
            if let existing = byIdentity[hello.app] {
                let reopened = existing.hasEnded ? try store.resumeSession(existing.id) : nil
                existing.capabilities = hello.capabilities
                existing.recordReconnect(hello, connection: connection, resumed: reopened)
                log("session \(existing.id) resumed: \(hello.app.name) reconnected")
                return (existing, true)
            }
            if let previous = try newestSession(of: hello.app) {
                let reader = try store.openSession(previous.id)
                let lastState = try reader.state(at: reader.eventCount, branch: 0)
                let lastAppSeq = reader.eventCount > 0 ? try reader.event(at: reader.eventCount).appSeq : nil
                let recording = try store.resumeSession(previous.id)
                let session = LiveSession(
                    id: previous.id, identity: hello.app, stateType: hello.stateType ?? previous.stateType,
                    initialState: lastState, appActions: UInt64(clamping: max(0, lastAppSeq ?? 0)),
                    recording: recording, hub: hub, startedAt: previous.startedAt, log: log)
                register(session)
                session.capabilities = hello.capabilities
                session.recordReconnect(hello, connection: connection, resumed: nil)
                log("session \(session.id) resumed after a daemon restart: \(hello.app.name)")
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
            register(session)
            session.capabilities = hello.capabilities
            session.attach(connection)
            hub.publish(.sessionStarted(session.id, hello.app))
            log("session \(session.id) started: \(hello.app.name) (\(hello.app.instance))")
            return (session, false)
        } catch {
            log("cannot record \(hello.app.name): \(error)")
            throw WireError(code: .internal, message: "the daemon cannot record this session: \(error)")
        }
    }

    /// The session with that id, if the daemon has seen it since it started.
    func session(_ id: SessionID) -> LiveSession? {
        lock.lock()
        defer { lock.unlock() }
        return byID[id]
    }

    /// Every session the daemon has seen since it started, oldest first.
    var all: [LiveSession] {
        lock.lock()
        defer { lock.unlock() }
        return byID.values.sorted { $0.startedAt < $1.startedAt }
    }

    private func register(_ session: LiveSession) {
        byIdentity[session.identity] = session
        byID[session.id] = session
    }

    private func newestSession(of app: AppIdentity) throws(SessionStoreError) -> SessionMetadata? {
        try store.listSessions().first { $0.appName == app.name && $0.instance == app.instance }
    }
}
