/// Where the inspector's transport connects: a `ws://host:port/path` address taken apart.
///
/// It parses and prints addresses exactly as the libwebsockets client's `WebSocketURL` does (a test holds the two
/// to the same table), but on its own: the inspector builds without libwebsockets on Apple platforms.
///
/// Threading: a plain value, usable from any thread.
public struct InspectorURL: Sendable, Hashable, CustomStringConvertible {
    /// The host: an IP literal (IPv6 without brackets) or a name. The libwebsockets transport connects to
    /// `localhost` as 127.0.0.1 (it resolves names synchronously; literals never wait on DNS).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The request path, starting with `/`.
    public var path: String

    /// An address from its parts (a path not starting with `/` gets one).
    public init(host: String, port: Int, path: String = "/") {
        self.host = host
        self.port = port
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// Parses `ws://host[:port][/path]` (port 80 when absent; IPv6 hosts in brackets, `ws://[::1]:7723`).
    /// Nil for anything else, including `wss://` (the daemon speaks no TLS).
    public init?(string: String) {
        let scheme = "ws://"
        guard string.lowercased().hasPrefix(scheme) else { return nil }
        var rest = Substring(string.dropFirst(scheme.count))
        var path = "/"
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
            path = String(rest[slash...])
            if path.hasPrefix("?") { path = "/" + path }
            rest = rest[..<slash]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, !host.contains("@") else { return nil }
        var port = 80
        if let portText {
            guard let parsed = Int(portText), (1...65_535).contains(parsed) else { return nil }
            port = parsed
        }
        self.init(host: String(host), port: port, path: path)
    }

    /// `ws://host:port/path`.
    public var description: String {
        "ws://\(hostForHeader)\(path)"
    }

    /// `host:port` as the HTTP `Host` header (and a URL) writes it: IPv6 in brackets.
    var hostForHeader: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
