import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The inspector's transport on Foundation's `URLSessionWebSocketTask`: the default on Apple platforms (iOS, tvOS,
/// watchOS, macOS), where nothing else needs to be linked. It speaks what the daemon expects: subprotocol
/// `rewind.v1` (a handshake that does not agree on it fails), no `Origin` header (the daemon refuses browser
/// origins), incoming messages up to `maxMessageBytes`, and a backlog of sent bytes counted until URLSession says
/// each message was written, which the pipeline reads as `queuedBytes` for the outbox's budget.
///
/// It compiles everywhere. On Linux (FoundationNetworking over libcurl) WebSockets work only if libcurl was built
/// with them, which Debian 12's and Ubuntu 24.04's are not: there every connect fails at once with
/// ``unsupportedReason`` (logged once per process on standard error), never a hang. Use `LibWebSocketsTransport`
/// there (the default on Linux).
///
/// A connection attempt that has not opened after `connectTimeoutSeconds` is abandoned and reported.
///
/// Threading: all methods from any thread, none blocking on the network (`disconnect` waits at most about a
/// second for queued messages, and for a delegate call in progress unless called from one). Delegate methods
/// arrive one at a time on the transport's own serial queue.
public final class URLSessionTransport: InspectorTransport, @unchecked Sendable {
    // @unchecked: the mutable members (`current`, `sessionCount`) are read and written with `lock` held; URLSession
    // objects are thread-safe.

    /// The reason reported (and logged) when this Foundation cannot open WebSockets (libcurl without them).
    public static let unsupportedReason =
        "URLSession WebSockets are not supported by this Foundation (libcurl without WebSocket support); "
        + "use the libwebsockets transport"

    private let maxQueuedBytes: Int
    private let maxMessageBytes: Int
    private let connectTimeoutSeconds: Int
    /// Every delegate call, URLSession callback and timer runs here, one at a time.
    private let callbacks = DispatchQueue(label: "rewind.inspector.urlsession-transport")
    private let onCallbacksKey = DispatchSpecificKey<Bool>()
    private let lock = NSCondition()
    private var current: Connection?

    /// A transport that is not connected.
    /// - Parameters:
    ///   - maxQueuedBytes: the most bytes `send` may hold before URLSession has written them.
    ///   - maxMessageBytes: the largest incoming message accepted (URLSession's `maximumMessageSize`; its
    ///     default of 1 MiB is too small for the states a `jump` carries).
    ///   - connectTimeoutSeconds: how long a connection attempt (TCP and handshake) may take.
    public init(maxQueuedBytes: Int = 64 << 20, maxMessageBytes: Int = 64 << 20, connectTimeoutSeconds: Int = 5) {
        self.maxQueuedBytes = maxQueuedBytes
        self.maxMessageBytes = maxMessageBytes
        self.connectTimeoutSeconds = connectTimeoutSeconds
        callbacks.setSpecific(key: onCallbacksKey, value: true)
    }

    deinit {
        disconnect()
    }

    /// See `InspectorTransport.connect(to:subprotocol:delegate:)`.
    public func connect(to url: InspectorURL, subprotocol: String, delegate: any InspectorTransportDelegate) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = callbacks
        let events = SessionEvents(transport: self)
        let session = URLSession(configuration: Self.sessionConfiguration(), delegate: events, delegateQueue: queue)
        guard let task = Self.handshakeTask(in: session, to: url, subprotocol: subprotocol) else {
            session.invalidateAndCancel()
            replace(with: nil)
            callbacks.async { delegate.transportDidDisconnect(reason: "'\(url)' is not a URL URLSession accepts") }
            return
        }
        task.maximumMessageSize = maxMessageBytes
        let connection = Connection(
            task: task, session: session, delegate: delegate, subprotocol: subprotocol,
            backlog: SendBacklog(limit: maxQueuedBytes))
        replace(with: connection)
        task.resume()
        callbacks.asyncAfter(deadline: .now() + .seconds(connectTimeoutSeconds)) { [weak self] in
            guard let self, self.isCurrent(task), !self.isOpen(task) else { return }
            self.end(task, reason: "no WebSocket handshake with \(url) within \(self.connectTimeoutSeconds) s")
        }
    }

    /// See `InspectorTransport.send(_:)`.
    public func send(_ message: [UInt8]) -> Bool {
        lock.lock()
        guard let connection = current, connection.isOpen, connection.backlog.admit(message.count) else {
            lock.unlock()
            return false
        }
        lock.unlock()
        let count = message.count
        let task = connection.task
        task.send(.string(String(decoding: message, as: UTF8.self))) { [weak self] error in
            guard let self else { return }
            self.lock.lock()
            connection.backlog.release(count)
            self.lock.broadcast()
            self.lock.unlock()
            if let error {
                self.callbacks.async { self.end(task, reason: "sending failed: \(Self.describe(error))") }
            }
        }
        return true
    }

    /// See `InspectorTransport.queuedBytes`.
    public var queuedBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        guard let current, current.isOpen else { return 0 }
        return current.backlog.bytes
    }

    /// See `InspectorTransport.disconnect()`.
    public func disconnect() {
        let onCallbacks = DispatchQueue.getSpecific(key: onCallbacksKey) == true
        if !onCallbacks {
            // Let what is queued go out first (send completions arrive on `callbacks`, which this thread is not).
            let deadline = Date(timeIntervalSinceNow: 1)
            lock.lock()
            while let current, current.isOpen, current.backlog.bytes > 0, lock.wait(until: deadline) {}
            lock.unlock()
        }
        replace(with: nil)
        // A delegate call that passed its check before `current` changed finishes before this returns.
        if !onCallbacks { callbacks.sync {} }
    }

    /// The WebSocket task for `url`, not resumed: it asks for `subprotocol` (URLSession's own
    /// `Sec-WebSocket-Protocol` negotiation) and adds no header of its own, so no `Origin`.
    static func handshakeTask(in session: URLSession, to url: InspectorURL,
                              subprotocol: String) -> URLSessionWebSocketTask? {
        guard let address = URL(string: url.description), address.host != nil else { return nil }
        return session.webSocketTask(with: address, protocols: [subprotocol])
    }

    /// A session of its own per connection, without caches, cookies or credentials; the connect timeout is the
    /// transport's own timer, so URLSession's request timeout (an idle timeout on some systems) is set far away.
    private static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 7 * 24 * 3600
        configuration.timeoutIntervalForResource = 365 * 24 * 3600
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        return configuration
    }

    /// Makes `connection` the current one, closing the previous one (with 1000, unreported).
    private func replace(with connection: Connection?) {
        lock.lock()
        let previous = current
        current = connection
        lock.broadcast()
        lock.unlock()
        guard let previous else { return }
        previous.task.cancel(with: .normalClosure, reason: nil)
        previous.session.finishTasksAndInvalidate()
    }

    private func isCurrent(_ task: URLSessionWebSocketTask) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return current?.task === task
    }

    private func isOpen(_ task: URLSessionWebSocketTask) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return current?.task === task && current?.isOpen == true
    }

    // MARK: Events (on `callbacks`)

    fileprivate func opened(_ task: URLSessionWebSocketTask, subprotocol agreed: String?) {
        lock.lock()
        guard let connection = current, connection.task === task else {
            lock.unlock()
            return
        }
        guard agreed == connection.subprotocol else {
            lock.unlock()
            end(task, reason: "the server did not agree on subprotocol \(connection.subprotocol) "
                + "(it answered \(agreed.map { "'\($0)'" } ?? "none"))")
            return
        }
        connection.isOpen = true
        lock.unlock()
        receive(on: connection)
        connection.delegate.transportDidConnect()
    }

    private func receive(on connection: Connection) {
        let task = connection.task
        task.receive { [weak self] result in
            guard let self else { return }
            // Taken apart here, so that only bytes and words cross to the callbacks queue.
            var message: [UInt8]?
            var failure: String?
            switch result {
            case .success(.string(let text)): message = Array(text.utf8)
            case .success(.data(let data)): message = [UInt8](data)
            case .success: break
            case .failure(let error):
                failure = Self.describe(error, closeCode: task.closeCode, closeReason: task.closeReason)
            }
            self.callbacks.async { [message, failure] in
                guard self.isCurrent(task) else { return }
                if let failure { return self.end(task, reason: failure) }
                if let message { connection.delegate.transportDidReceive(message) }
                self.receive(on: connection)
            }
        }
    }

    /// Ends `task`'s connection, if it is still the current one, and reports `reason` to its delegate.
    fileprivate func end(_ task: URLSessionWebSocketTask, reason: String) {
        lock.lock()
        guard let connection = current, connection.task === task else {
            lock.unlock()
            return
        }
        current = nil
        lock.broadcast()
        lock.unlock()
        task.cancel(with: .normalClosure, reason: nil)
        connection.session.invalidateAndCancel()
        if reason == Self.unsupportedReason { Self.logUnsupportedOnce() }
        connection.delegate.transportDidDisconnect(reason: reason)
    }

    /// Words for an error URLSession reported, with the peer's close code and reason when it closed.
    static func describe(
        _ error: any Error, closeCode: URLSessionWebSocketTask.CloseCode = .invalid, closeReason: Data? = nil
    ) -> String {
        if closeCode != .invalid {
            let reason = closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return "closed by the peer with \(closeCode.rawValue): \(reason)"
        }
        let error = error as NSError
        #if !canImport(Darwin)
        // FoundationNetworking answers a ws:// task with "unsupported URL" when libcurl has no WebSockets.
        if error.domain == NSURLErrorDomain && error.code == NSURLErrorUnsupportedURL { return unsupportedReason }
        #endif
        let text = error.userInfo[NSLocalizedDescriptionKey] as? String ?? error.localizedDescription
        return "\(text) (\(error.domain) \(error.code))"
    }

    private static let loggedUnsupported = NSLock()
    nonisolated(unsafe) private static var hasLoggedUnsupported = false // guarded by loggedUnsupported

    private static func logUnsupportedOnce() {
        loggedUnsupported.lock()
        let first = !hasLoggedUnsupported
        hasLoggedUnsupported = true
        loggedUnsupported.unlock()
        if first { FileHandle.standardError.write(Data("rewind inspector: \(unsupportedReason)\n".utf8)) }
    }

    /// One connection attempt and, once open, its connection.
    ///
    /// Threading: `task`, `session`, `delegate` and `subprotocol` are immutable; `isOpen` and `backlog` are read
    /// and written with the transport's lock held.
    private final class Connection: @unchecked Sendable {
        let task: URLSessionWebSocketTask
        let session: URLSession
        let delegate: any InspectorTransportDelegate
        let subprotocol: String
        var isOpen = false
        var backlog: SendBacklog

        init(task: URLSessionWebSocketTask, session: URLSession, delegate: any InspectorTransportDelegate,
             subprotocol: String, backlog: SendBacklog) {
            self.task = task
            self.session = session
            self.delegate = delegate
            self.subprotocol = subprotocol
            self.backlog = backlog
        }
    }

    /// URLSession's delegate for one session: forwards to the transport, which it does not keep alive.
    ///
    /// Threading: called on the session's delegate queue, which runs on the transport's `callbacks` queue.
    private final class SessionEvents: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
        // @unchecked: `transport` is set once, in init.
        private weak var transport: URLSessionTransport?

        init(transport: URLSessionTransport) {
            self.transport = transport
        }

        func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask,
                        didOpenWithProtocol agreed: String?) {
            transport?.opened(webSocketTask, subprotocol: agreed)
        }

        func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask,
                        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
            let text = reason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            transport?.end(webSocketTask, reason: "closed by the peer with \(closeCode.rawValue): \(text)")
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let webSocketTask = task as? URLSessionWebSocketTask else { return }
            let reason = error.map { URLSessionTransport.describe($0) } ?? "the connection ended"
            transport?.end(webSocketTask, reason: reason)
        }
    }
}
