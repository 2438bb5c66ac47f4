#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Free loopback TCP ports for tests that need a port number before starting a server (prefer port 0
/// and `WebSocketServer.start()`'s return value when the server can pick its own).
///
/// The ports come from below the system's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`), and none is
/// handed out twice in one test process. A port the system picks for a socket bound to port 0 is an ephemeral one:
/// with hundreds of loopback connections open in the parallel suite, the source port of some test's client
/// connection could take it between the check and the server's `listen` ("Address already in use", seen in a run
/// under load). Below that range only another server can take it.
///
/// Threading: any thread (the handed-out set is behind a lock).
package enum FreePort {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var handedOut: Set<Int> = []

    /// A port that was free on 127.0.0.1 a moment ago, below the ephemeral range, not handed out before.
    package static func next() -> Int {
        let range = candidates()
        lock.lock()
        defer { lock.unlock() }
        for _ in 0..<10_000 {
            let port = Int.random(in: range)
            guard !handedOut.contains(port), isFree(port) else { continue }
            handedOut.insert(port)
            return port
        }
        // The range is exhausted (it holds thousands of ports): let the system pick one.
        return systemPicked()
    }

    /// A port on 127.0.0.1 where nothing listens (connections to it are refused).
    package static func unused() -> Int { next() }

    /// The ports to pick from: from 20,000 up to the ephemeral range's start (Linux's default 32768).
    package static func candidates() -> ClosedRange<Int> {
        var low = 32_768
        if let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
           let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
           let value = Int(first) {
            low = value
        }
        return low > 21_024 ? 20_000...(low - 1) : 10_000...(max(10_001, low - 1))
    }

    /// True when a socket can be bound to `port` on 127.0.0.1 now.
    package static func isFree(_ port: Int) -> Bool {
        withSocket(boundTo: port) { _ in true } ?? false
    }

    /// A port the system picks for a socket bound to port 0, which is then closed.
    package static func systemPicked() -> Int {
        let port = withSocket(boundTo: 0) { fd -> Int in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }
        guard let port else { preconditionFailure("binding a socket to 127.0.0.1:0 failed: \(errno)") }
        return port
    }

    /// Runs `body` with a TCP socket bound to `port` on 127.0.0.1 (closed afterwards); nil when it cannot be bound.
    private static func withSocket<T>(boundTo port: Int, _ body: (Int32) -> T) -> T? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        var address = loopback(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0 ? body(fd) : nil
    }

    /// An IPv4 loopback socket address.
    package static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}
