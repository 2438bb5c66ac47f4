import RewindWebSocket

/// Where the inspector's transport connects: a `ws://host:port/path` address taken apart.
///
/// Threading: a plain value, usable from any thread.
public struct InspectorURL: Sendable, Hashable, CustomStringConvertible {
    /// The host: an IP literal (IPv6 without brackets) or a name. `localhost` is connected to as
    /// 127.0.0.1 (libwebsockets resolves names synchronously; literals never wait on DNS).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The request path, starting with `/`.
    public var path: String

    /// An address from its parts.
    public init(host: String, port: Int, path: String = "/") {
        self.init(WebSocketURL(host: host, port: port, path: path))
    }

    /// Parses `ws://host[:port][/path]` (port 80 when absent; IPv6 hosts in brackets, `ws://[::1]:7723`).
    /// Nil for anything else, including `wss://` (the transport has no TLS).
    public init?(string: String) {
        guard let parsed = WebSocketURL(string: string) else { return nil }
        self.init(parsed)
    }

    /// `ws://host:port/path`.
    public var description: String {
        webSocketURL.description
    }

    /// The same address for the shared WebSocket client.
    var webSocketURL: WebSocketURL {
        WebSocketURL(host: host, port: port, path: path)
    }

    private init(_ url: WebSocketURL) {
        host = url.host
        port = url.port
        path = url.path
    }
}
