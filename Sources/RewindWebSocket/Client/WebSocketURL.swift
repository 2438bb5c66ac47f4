/// Where a `WebSocketClient` connects: a `ws://host:port/path` address taken apart.
///
/// Threading: a plain value, usable from any thread.
package struct WebSocketURL: Sendable, Hashable, CustomStringConvertible {
    /// The host: an IP literal (IPv6 without brackets) or a name. `localhost` is connected to as
    /// 127.0.0.1 (libwebsockets resolves names synchronously; literals never wait on DNS).
    package var host: String
    /// The TCP port.
    package var port: Int
    /// The request path, starting with `/`.
    package var path: String

    /// An address from its parts.
    package init(host: String, port: Int, path: String = "/") {
        self.host = host
        self.port = port
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// Parses `ws://host[:port][/path]` (port 80 when absent; IPv6 hosts in brackets, `ws://[::1]:7723`).
    /// Nil for anything else, including `wss://` (this transport has no TLS).
    package init?(string: String) {
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
    package var description: String {
        "ws://\(hostForHeader)\(path)"
    }

    /// `host:port` as the HTTP `Host` header writes it (IPv6 in brackets).
    var hostForHeader: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The address to open a socket to.
    var connectAddress: String {
        host.lowercased() == "localhost" ? "127.0.0.1" : host
    }
}
