import Foundation
import RewindSessionFile
import RewindWebSocket
import RewindWire

/// The `rewind` daemon: accepts apps and control clients over WebSocket, records every session to disk, and sends
/// commands (jump, dispatch, replay) back to live apps.
///
/// ```swift
/// var configuration = DaemonConfiguration()
/// configuration.port = 0                      // any free port
/// let daemon = try Daemon(configuration: configuration)
/// let port = try daemon.start()
/// …
/// daemon.stop()                               // flushes and closes every session cleanly
/// ```
///
/// Apps connect with subprotocol `rewind.v1` (see ``AppConnection``), control clients (the CLI, scripts) with
/// `rewind.control.v1` (see ``ControlConnection``); the wire format is in docs/PROTOCOL.md.
///
/// Threading: `start`, `stop` and the command methods from any thread. Network callbacks run on the server's
/// service thread; each app connection's messages on its own queue; control commands on their session's queue
/// (``SessionCommandQueues``, ``SkipToggleLanes``), never waiting for an app; each recording writes on its own
/// thread. Observers of ``events`` are called on the service thread.
package final class Daemon: @unchecked Sendable {  // mutable state guarded by `lock`; connections by the service thread
    /// What the daemon was started with.
    package let configuration: DaemonConfiguration
    /// The session files.
    package let store: SessionStore
    /// Session starts and ends, and every recorded event, for the timeline and `rewind tail`.
    package let events = DaemonEventHub()

    let registry: SessionRegistry
    /// The app connections open at the server (for the registry: a session whose connection is open is never
    /// taken over).
    private let openApps: OpenConnections
    /// The server, for the registry's probes (set by ``start()``).
    private let serverReference: ServerReference
    private let lock = NSLock()
    private var server: WebSocketServer?
    private var appConnections: [ConnectionID: AppConnection] = [:]
    private var controlConnections: [ConnectionID: ControlConnection] = [:]
    /// The queues control commands run on, one per session (``SessionCommandQueues``).
    let commandQueues = SessionCommandQueues()
    /// The lanes skip toggles run in, one per session (``SkipToggleLanes``).
    let skipLanes = SkipToggleLanes()
    /// Work handed from the service thread to the app connections' queues, waited for by ``stop()``.
    private let ingest = DispatchGroup()

    /// Opens the data directory. Refuses a non-loopback address without a token.
    package init(configuration: DaemonConfiguration) throws(DaemonError) {
        if !configuration.isLoopback && (configuration.token ?? "").isEmpty {
            throw DaemonError("binding to \(configuration.host) (beyond loopback) requires a token: pass "
                + "--token-file PATH (a file only you can read, mode 0600) or set REWIND_TOKEN (--token works too, "
                + "but every local user can read it in 'ps')")
        }
        self.configuration = configuration
        do {
            store = try SessionStore(directory: configuration.dataDirectory, options: configuration.recording)
        } catch {
            throw DaemonError("cannot use the data directory \(configuration.dataDirectory.path): \(error)")
        }
        let openApps = OpenConnections()
        self.openApps = openApps
        let server = ServerReference()
        self.serverReference = server
        let connections = SessionRegistry.Connections(
            isOpen: { openApps.contains($0) },
            probe: { id, timeout, answer in
                guard let live = server.current else { return answer(false) }
                live.probe(id, timeout: timeout, completion: answer)
            },
            drop: { id, reason in server.current?.drop(id, reason: reason) },
            waitUntilClosed: { id, timeout in openApps.waitUntilClosed(id, timeout: timeout) })
        registry = SessionRegistry(store: store, hub: events, connections: connections,
                                   maxStateBytes: configuration.maxMessageBytes,
                                   probeTimeout: configuration.takeoverProbeTimeout, log: configuration.log)
        let log = configuration.log
        events.addObserver { event in
            if case .sessionEnded(let id) = event { log("session \(id) ended") }
        }
    }

    /// Starts listening, then marks the sessions a crashed daemon left open as interrupted in the background
    /// (``SessionStore/recoverInterruptedInBackground(completion:)``: an app reconnecting to one of them meanwhile
    /// still resumes it), and logs how many it marked once that ends. Returns the port.
    ///
    /// Threading: any thread; does no file work (a daemon restarted over many interrupted sessions on a busy disk
    /// listens at once).
    @discardableResult
    package func start() throws(DaemonError) -> Int {
        // A file-size limit (`ulimit -f`) must fail the write (EFBIG, reported as an unwritable session file)
        // rather than kill the daemon with SIGXFSZ: it keeps serving and keeps what it had committed.
        signal(SIGXFSZ, SIG_IGN)
        var serverConfiguration = WebSocketServerConfiguration(
            host: configuration.host, port: configuration.port,
            subprotocols: [WireProtocol.appSubprotocol, WireProtocol.controlSubprotocol],
            allowedOrigins: configuration.allowedOrigins, maxMessageBytes: configuration.maxMessageBytes,
            maxQueuedBytesPerConnection: max(1, configuration.maxQueuedBytesPerPeer))
        if !(configuration.token ?? "").isEmpty {
            serverConfiguration.maxUnadmittedMessageBytes = max(1, configuration.maxUnauthenticatedMessageBytes)
        }
        serverConfiguration.admissionTimeout = max(0, configuration.helloTimeout)
        let helloSeconds = configuration.helloTimeout
        serverConfiguration.admissionTimeoutReason = "no accepted hello (or first request) within "
            + (helloSeconds == helloSeconds.rounded() && helloSeconds < 1e9 ? "\(Int(helloSeconds)) s" : "\(helloSeconds) s")
        serverConfiguration.messageTimeout = max(0, configuration.messageTimeout)
        serverConfiguration.maxConnections = configuration.maxConnections
        serverConfiguration.keepaliveInterval = max(0, configuration.keepaliveInterval)
        serverConfiguration.keepaliveTimeout = max(0, configuration.keepaliveTimeout)
        let server = WebSocketServer(configuration: serverConfiguration, delegate: self)
        lock.lock()
        self.server = server
        lock.unlock()
        serverReference.current = server
        let port: Int
        do {
            port = try server.start()
        } catch {
            throw DaemonError("cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
        let log = configuration.log
        store.recoverInterruptedInBackground { result in
            guard case .success(let interrupted) = result, !interrupted.isEmpty else { return }
            log("marked \(interrupted.count) session(s) interrupted (a previous daemon stopped without closing them)")
        }
        return port
    }

    /// The port the daemon listens on (after ``start()``).
    package var port: Int {
        lock.lock()
        defer { lock.unlock() }
        return server?.listeningPort ?? 0
    }

    /// Closes every connection, then flushes and closes every session cleanly (each ends `clean` once its events are
    /// committed: the apps did nothing wrong, and reconnect to the next daemon). Idempotent.
    ///
    /// The sessions are finished side by side (up to eight at once): closing a session file checkpoints its write-ahead log, which for
    /// a busy recording is mostly waiting for the disk, and one after the other a daemon that recorded ten busy
    /// apps took more than 10 s to stop (the soak's limit).
    package func stop() {
        lock.lock()
        let server = self.server
        self.server = nil
        lock.unlock()
        for session in registry.all { session.markDaemonStopping() }
        server?.stop()
        serverReference.current = nil
        _ = ingest.wait(timeout: .now() + 10)
        let finishing = OperationQueue()
        finishing.maxConcurrentOperationCount = 8
        for session in registry.all where !session.hasEnded {
            finishing.addOperation { session.finish(endState: .clean) }
        }
        finishing.waitUntilAllOperationsAreFinished()
    }

    /// Waits until every message received so far has been handled (decoded, checked and appended to its session),
    /// or `timeout` seconds pass; true when it was. Apps' messages are handled on their connections' own queues, so
    /// tools and tests that just saw a frame arrive call this before reading what it recorded.
    @discardableResult
    package func waitUntilIdle(timeout: Double = 10) -> Bool {
        ingest.wait(timeout: .now() + timeout) == .success
    }

    /// Every session seen since the daemon started (live or disconnected), oldest first.
    package var sessions: [LiveSession] { registry.all }

    /// The session with that id, if the daemon has seen it since it started.
    package func session(_ id: SessionID) -> LiveSession? { registry.session(id) }

    /// Sends `message` to an app's connection.
    func send(_ message: DaemonMessage, to connection: ConnectionID) -> Bool {
        lock.lock()
        let server = self.server
        lock.unlock()
        return server?.send(WireCodec.encode(message), to: connection) ?? false
    }

    /// Sends a control response or event to a control client.
    func send(_ response: ControlResponse, to connection: ConnectionID) {
        lock.lock()
        let server = self.server
        lock.unlock()
        _ = server?.send(WireCodec.encode(response), to: connection)
    }

    private func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        lock.lock()
        let server = self.server
        lock.unlock()
        server?.close(connection, code: code, reason: reason)
    }

    private var limits: JSONLimits {
        var limits = JSONLimits.default
        limits.maxDepth = configuration.maxNestingDepth
        limits.maxBytes = configuration.maxMessageBytes
        return limits
    }
}

extension Daemon: WebSocketServerDelegate {
    /// Service thread: creates the connection's protocol handler for its subprotocol.
    package func server(_ server: WebSocketServer, didOpen id: ConnectionID, subprotocol: String, origin: String?,
                       peer: String) -> Bool {
        if subprotocol == WireProtocol.controlSubprotocol {
            let connection = ControlConnection(
                id: id, daemon: self, limits: limits, admit: { [weak server] in server?.admit(id) },
                close: { [weak self] code, reason in self?.close(id, code: code, reason: reason) })
            lock.lock()
            controlConnections[id] = connection
            lock.unlock()
            return true
        }
        let environment = AppConnection.Environment(
            limits: limits, token: configuration.token, maxBacklogBytes: max(1, configuration.maxBacklogBytesPerApp),
            attach: { [registry] hello, connection throws(WireError) in
                try registry.attach(hello, connection: connection)
            },
            send: { [weak self] message in _ = self?.send(message, to: id) },
            close: { [weak self] code, reason in self?.close(id, code: code, reason: reason) },
            setReceiving: { [weak server] receiving in server?.setReceiving(receiving, for: id) },
            admit: { [weak server] in server?.admit(id) },
            log: configuration.log)
        lock.lock()
        appConnections[id] = AppConnection(id: id, environment: environment)
        lock.unlock()
        // Apps receive rare but large messages (a jump carries a whole state): room for two of the largest.
        server.setMaxQueuedBytes(max(configuration.maxQueuedBytesPerPeer, 2 * configuration.maxMessageBytes), for: id)
        openApps.insert(id)
        return true
    }

    /// Service thread: routes a message to its connection's handler.
    package func server(_ server: WebSocketServer, didReceive message: [UInt8], isBinary: Bool, from id: ConnectionID) {
        lock.lock()
        let app = appConnections[id]
        let control = app == nil ? controlConnections[id] : nil
        lock.unlock()
        if let app {
            app.deliver(message, tracking: ingest)
        } else {
            control?.receive(message)
        }
    }

    /// Service thread: ends the connection's session or subscriptions.
    package func server(_ server: WebSocketServer, didClose id: ConnectionID, code: UInt16?) {
        lock.lock()
        let app = appConnections.removeValue(forKey: id)
        let control = controlConnections.removeValue(forKey: id)
        lock.unlock()
        openApps.remove(id)
        if let app { app.deliverClose(tracking: ingest) }
        control?.closed()
    }
}
