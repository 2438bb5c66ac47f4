import Foundation
import Rewind
import RewindWire

/// Attaches a store to the `rewind` daemon: one line, and every action and the state diff it caused streams to the
/// timeline, while the daemon can push states and actions back.
///
/// ```swift
/// let store = Store(initialState: AppState(), reducer: appReducer,
///                   middleware: [Inspector.middleware(name: "todo", redacting: ["session.password"])])
/// ```
///
/// Cost on the app's thread: one copy of the action and of the state (a value type: a few reference-count
/// increments) into a bounded outbox per dispatch. Encoding, diffing and sending happen on the inspector's own
/// thread; libwebsockets runs its own service thread. With no daemon running, or `REWIND_DISABLED=1`, the app
/// behaves exactly as without the middleware.
///
/// Commands from the daemon (`jump`, `dispatch`, `replay`) are applied on the main actor, the store's executor:
/// the app's main thread must be serving the main actor (an `async` `main`, `dispatchMain()`, or a run loop). The
/// state that closes a coalesced range (after the app outran the daemon) is read there too, when no later dispatch
/// brings one first.
public enum Inspector {
    /// A middleware that streams the store to the daemon named by `configuration` (by default read from the
    /// environment: `REWIND_URL`, `REWIND_TOKEN`, `REWIND_DISABLED`).
    ///
    /// - Parameters:
    ///   - name: The app's name on the timeline.
    ///   - redacting: Dotted key paths replaced by a placeholder in states and actions before anything leaves the
    ///     process (see ``Redactor``); added to `configuration.redactedPaths`.
    ///   - configuration: Where to connect, the outbox budget, and the rest.
    ///
    /// Inlinable, like the per-dispatch path it creates, so that it is specialized for the app's `State` and
    /// `Action`: generic code run unspecialized looks up type metadata at run time on every dispatch.
    @inlinable
    public static func middleware<State: Codable & Sendable, Action: Codable & Sendable>(
        name: String,
        redacting: [String] = [],
        configuration: InspectorConfiguration = .fromEnvironment()
    ) -> Middleware<State, Action> {
        var configuration = configuration
        configuration.redactedPaths += redacting
        guard !configuration.disabled else {
            return Middleware { _ in { next in next } }
        }
        return middleware(name: name, configuration: configuration, transport: defaultTransport())
    }

    /// The transport ``middleware(name:redacting:configuration:)`` uses: libwebsockets on Linux, Foundation's
    /// URLSession everywhere else.
    @usableFromInline
    static func defaultTransport() -> any InspectorTransport {
        #if REWIND_LIBWEBSOCKETS
        LibWebSocketsTransport()
        #else
        URLSessionTransport()
        #endif
    }

    /// The same middleware over a transport of the caller's choosing (the seam for other WebSocket clients).
    @inlinable
    public static func middleware<State: Codable & Sendable, Action: Codable & Sendable>(
        name: String,
        configuration: InspectorConfiguration,
        transport: any InspectorTransport
    ) -> Middleware<State, Action> {
        Middleware { context in
            guard let initial = context.state else { return { next in next } }
            let session = InspectorSession<State, Action>(
                name: name, configuration: configuration, transport: transport, context: context,
                initialState: initial)
            return { next in
                { dispatched in session.record(dispatched, next: next) }
            }
        }
    }

    /// This process's identity on the timeline: `host:pid:startMillis` (docs/PROTOCOL.md), stable for the life of
    /// the process so that a reconnect continues the same session.
    ///
    /// The host is the kernel's host name (`gethostname`, a system call that never blocks), with any `:` replaced
    /// so that the pid stays the second field: `ProcessInfo.hostName` would do a reverse DNS lookup on Apple
    /// platforms, which can stall the app's launch for seconds on a network without DNS.
    public static let processInstance: String = {
        var name = [CChar](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : ""
        let pid = getpid()
        let started = Int(Date().timeIntervalSince1970 * 1000)
        return "\(host.isEmpty ? "unknown-host" : host.replacingOccurrences(of: ":", with: "_")):\(pid):\(started)"
    }()
}
