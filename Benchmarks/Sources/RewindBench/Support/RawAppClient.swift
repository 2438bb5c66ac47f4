#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare app-side WebSocket client over a blocking POSIX socket, for the ingest benchmark: it sends
/// pre-built text frames as fast as the daemon takes them, so that what is measured is the daemon, not a client.
///
/// Frames are masked with the all-zero key (RFC 6455 requires a mask from clients, and any key is valid), so the
/// payload goes out without being copied or transformed.
///
/// Threading: one thread at a time. `@unchecked Sendable` so that the thread that connects can hand it to a sender
/// thread; it is closed only after that thread is done with it.
final class RawAppClient: @unchecked Sendable {
    private var fd: Int32

    /// Connects to `127.0.0.1:port` and completes the handshake for the `rewind.v1` subprotocol.
    init(port: Int) throws {
        fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw BenchFailure("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let error = errno
            close()
            throw BenchFailure("connect to port \(port): errno \(error)")
        }
        let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Protocol: rewind.v1\r\n\r\n"
        try write(Array(request.utf8))
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: [13, 10, 13, 10]) {
            guard read(fd, &byte, 1) == 1 else { throw BenchFailure("the daemon closed during the handshake") }
            head.append(byte)
        }
        let status101 = String(decoding: head.prefix(12), as: UTF8.self)
        guard status101.hasSuffix("101") else {
            throw BenchFailure("handshake refused: \(String(decoding: head, as: UTF8.self))")
        }
    }

    deinit {
        close()
    }

    /// Sends `payload` as one text frame; blocks while the socket's buffer is full.
    func sendText(_ payload: [UInt8]) throws {
        var header: [UInt8] = [0x81]
        let count = payload.count
        if count < 126 {
            header.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            header.append(0x80 | 126)
            header.append(UInt8(count >> 8))
            header.append(UInt8(count & 0xFF))
        } else {
            header.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { header.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF)) }
        }
        header.append(contentsOf: [0, 0, 0, 0])
        try write(header)
        try write(payload)
    }

    /// Closes the socket (without a closing handshake: the daemon ends the session as a dropped connection).
    func close() {
        if fd >= 0 {
            closeDescriptor(fd)
            fd = -1
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(fd, buffer.baseAddress! + offset, buffer.count - offset, noSignalFlag)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw BenchFailure("send: errno \(errno)")
                }
                offset += written
            }
        }
    }
}

#if canImport(Glibc)
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
private let noSignalFlag = Int32(MSG_NOSIGNAL)
#else
private let streamSocketType = SOCK_STREAM
private let noSignalFlag: Int32 = 0
#endif

/// `close(2)` (the class's own `close()` hides the C function inside it).
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

extension Array where Element == UInt8 {
    /// True when the array ends with `suffix`.
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
