#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds out why libwebsockets could not listen on an address (it only says that it failed), by trying to
/// bind a socket there and reporting the system's error.
///
/// Threading: stateless, usable from any thread.
enum BindProbe {
    /// A short explanation, e.g. "Address already in use".
    static func explainFailure(host: String, port: Int) -> String {
        let isIPv6 = host.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { _ = close(fd) }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let status: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return "\(host) is not an IPv6 address" }
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
            let text = (host.isEmpty || host == "0.0.0.0") ? "0.0.0.0" : host.lowercased() == "localhost" ? "127.0.0.1" : host
            guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else {
                return "\(host) is not an IP address (use a literal such as 127.0.0.1)"
            }
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if status != 0 { return String(cString: strerror(errno)) }
        return "libwebsockets could not create its listening socket"
    }
}
