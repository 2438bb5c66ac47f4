#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Formats the remote address of a connected socket for logs and the delegate.
///
/// Threading: stateless, usable from any thread.
enum PeerAddress {
    /// `ip:port` for IPv4, `[ip]:port` for IPv6, `"unknown"` when the socket has no peer.
    static func describe(socket fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard status == 0 else { return "unknown" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var ip = address.pointee.sin_addr
                    guard inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)) != nil else { return "unknown" }
                    return "\(string(text)):\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var ip = address.pointee.sin6_addr
                    guard inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count)) != nil else { return "unknown" }
                    return "[\(string(text))]:\(UInt16(bigEndian: address.pointee.sin6_port))"
                }
            }
        default:
            return "unknown"
        }
    }

    private static func string(_ characters: [CChar]) -> String {
        let bytes = characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
