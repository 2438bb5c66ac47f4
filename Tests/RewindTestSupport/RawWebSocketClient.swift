import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A deliberately bare WebSocket client over a blocking POSIX socket, for testing servers with exactly
/// the bytes a test chooses: custom handshake headers, invalid UTF-8, lying frame lengths, frames cut off
/// mid-way. Reads block for at most `timeout` seconds.
///
/// Threading: not thread-safe; one test uses one client from one thread. After ``answerPingsInBackground()`` a thread
/// of the client's own reads the socket too (frames reach the test through ``readFrame()``), and writes are locked.
package final class RawWebSocketClient: @unchecked Sendable {  // one thread at a time, or the background reader and locked writes
    /// Something the client could not do.
    package enum Failure: Error, Equatable {
        case connectFailed(Int32)
        case sendFailed(Int32)
        case timedOut
        case closedByPeer
        case malformedResponse(String)
    }

    /// The server's answer to the opening handshake.
    package struct HandshakeResponse {
        /// The HTTP status (101 when the upgrade was accepted).
        package var status: Int
        /// Header names lower-cased.
        package var headers: [String: String]
    }

    /// One frame read from the server.
    package struct Frame: Equatable {
        /// Whether this is the last frame of its message.
        package var fin: Bool
        /// The opcode (see ``Opcode``).
        package var opcode: UInt8
        /// The payload, unmasked.
        package var payload: [UInt8]
    }

    /// WebSocket opcodes.
    package enum Opcode {
        /// The rest of a fragmented message.
        package static let continuation: UInt8 = 0
        /// A text message (UTF-8).
        package static let text: UInt8 = 1
        /// A binary message.
        package static let binary: UInt8 = 2
        /// A close frame.
        package static let close: UInt8 = 8
        /// A ping.
        package static let ping: UInt8 = 9
        /// A pong.
        package static let pong: UInt8 = 10
    }

    private var fd: Int32
    private var received: [UInt8] = []
    private var readIndex = 0
    /// How long a read waits, seconds.
    private let readTimeout: Double
    /// Serializes writes once a background reader answers pings.
    private let writeLock = NSLock()
    /// The thread that reads every frame and answers pings, once started.
    private var backgroundReader: BackgroundFrameReader?

    /// Connects to `127.0.0.1:port`; `timeout` bounds every read (by default 5 s, stretched by `TestTime.scale`).
    package init(port: Int, timeout: Double = TestTime.seconds(5)) throws {
        readTimeout = timeout
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.connectFailed(errno) }
        var limit = timeval()
        limit.tv_sec = .init(Int(timeout))
        limit.tv_usec = .init(Int((timeout - Double(Int(timeout))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1  // frames written in pieces must not wait for delayed ACKs
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = FreePort.loopback(port: port)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let error = errno
            _ = close(fd)
            fd = -1
            throw Failure.connectFailed(error)
        }
    }

    deinit {
        if fd >= 0 { _ = close(fd) }
    }

    /// Sends the opening handshake and reads the response head.
    @discardableResult
    package func handshake(path: String = "/", subprotocols: [String]? = ["rewind.v1"], origin: String? = nil,
                   extraHeaders: [String] = []) throws -> HandshakeResponse {
        var lines = [
            "GET \(path) HTTP/1.1",
            "Host: 127.0.0.1",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        ]
        if let subprotocols { lines.append("Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))") }
        if let origin { lines.append("Origin: \(origin)") }
        lines += extraHeaders
        try sendRaw(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8))
        return try readResponseHead()
    }

    /// Reads an HTTP response head (status line and headers).
    package func readResponseHead() throws -> HandshakeResponse {
        let head = try readHead()
        var headerLines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = headerLines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure.malformedResponse(statusLine) }
        var headers: [String: String] = [:]
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            headers[name] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        return HandshakeResponse(status: status, headers: headers)
    }

    /// Sends a frame. `declaredLength` lies about the payload length when set; `masked` false breaks the
    /// rule that clients mask.
    package func sendFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true,
                   declaredLength: Int? = nil) throws {
        try sendRaw(Self.frame(opcode: opcode, payload: payload, fin: fin, masked: masked,
                               declaredLength: declaredLength))
    }

    /// Sends a text frame with these bytes (which need not be UTF-8).
    package func sendText(_ bytes: [UInt8], fin: Bool = true) throws {
        try sendFrame(opcode: Opcode.text, payload: bytes, fin: fin)
    }

    /// Sends a text frame with this string.
    package func sendText(_ text: String) throws {
        try sendText(Array(text.utf8))
    }

    /// Sends a close frame with a code and a reason.
    package func sendClose(code: UInt16, reason: String = "") throws {
        try sendFrame(opcode: Opcode.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// Sends bytes as they are.
    package func sendRaw(_ bytes: [UInt8]) throws {
        writeLock.lock()
        defer { writeLock.unlock() }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure.sendFailed(errno) }
            offset += sent
        }
    }

    /// Reads the next frame (from the background reader's queue once ``answerPingsInBackground()`` started it).
    package func readFrame() throws -> Frame {
        if let backgroundReader { return try backgroundReader.next(timeout: readTimeout) }
        return try readFrameFromSocket()
    }

    /// From now on answers the server's pings at once, as a live client's WebSocket library does whether or not the app
    /// reads: a thread of the client's own reads every frame, answers pings with pongs, and keeps the other frames for
    /// ``readFrame()`` (which waits for one up to the read timeout). For app peers that must look alive to a daemon that
    /// pings them. Stops when the connection ends or at ``drop()``. Call once, after the handshake.
    package func answerPingsInBackground() {
        guard backgroundReader == nil else { return }
        let reader = BackgroundFrameReader()
        backgroundReader = reader
        let thread = Thread { [self] in
            while true {
                do {
                    let frame = try readFrameFromSocket()
                    if frame.opcode == Opcode.ping {
                        try? sendFrame(opcode: Opcode.pong, payload: frame.payload)
                    } else {
                        reader.deliver(frame)
                    }
                } catch Failure.timedOut {
                    if reader.isStopping { return reader.end(Failure.closedByPeer) }
                } catch {
                    return reader.end(error)
                }
            }
        }
        thread.name = "test.raw-client.reader"
        thread.start()
    }

    private func readFrameFromSocket() throws -> Frame {
        let head = try read(2)
        let fin = head[0] & 0x80 != 0
        let opcode = head[0] & 0x0F
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let bytes = try read(2)
            length = Int(bytes[0]) << 8 | Int(bytes[1])
        } else if length == 127 {
            length = try read(8).reduce(0) { $0 << 8 | Int($1) }
        }
        let mask = head[1] & 0x80 != 0 ? try read(4) : []
        var payload = try read(length)
        if !mask.isEmpty {
            for index in payload.indices { payload[index] ^= mask[index % 4] }
        }
        return Frame(fin: fin, opcode: opcode, payload: payload)
    }

    /// Reads a whole message (text or binary, reassembled), skipping control frames other than close.
    package func readMessage() throws -> [UInt8] {
        var message: [UInt8] = []
        while true {
            let frame = try readFrame()
            switch frame.opcode {
            case Opcode.close:
                throw Failure.closedByPeer
            case Opcode.ping:
                try? sendFrame(opcode: Opcode.pong, payload: frame.payload)  // as a live client would
            case Opcode.pong:
                continue
            default:
                message += frame.payload
                if frame.fin { return message }
            }
        }
    }

    /// Reads frames until a close frame and returns its code (nil if it had none), answering it; nil also
    /// when the connection ended without a close frame.
    package func readCloseCode() throws -> UInt16? {
        while true {
            let frame: Frame
            do {
                frame = try readFrame()
            } catch Failure.closedByPeer {
                return nil
            }
            guard frame.opcode == Opcode.close else { continue }
            try? sendFrame(opcode: Opcode.close, payload: Array(frame.payload.prefix(2)))
            guard frame.payload.count >= 2 else { return nil }
            return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
        }
    }

    /// Whether the server has closed the TCP connection (reads until end of stream or timeout).
    package func peerClosedConnection() -> Bool {
        if let backgroundReader { return backgroundReader.waitForEnd(timeout: readTimeout) }
        while true {
            do {
                _ = try read(1)
            } catch Failure.closedByPeer {
                return true
            } catch {
                return false
            }
        }
    }

    /// Shuts the connection down both ways without closing the descriptor, so a thread blocked reading this client
    /// returns at once (end of stream) while the descriptor stays valid; the reading thread then calls ``drop()``.
    /// Safe from any thread: it only reads `fd`.
    package func shutDown() {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Closes the socket without a closing handshake (stopping the background reader first, if any). Call it from
    /// the thread that reads this client (or when none reads): it releases the descriptor.
    package func drop() {
        guard fd >= 0 else { return }
        if let backgroundReader {
            backgroundReader.stop()
            _ = shutdown(fd, Int32(SHUT_RDWR))
            _ = backgroundReader.waitForEnd(timeout: readTimeout + 1)
        }
        _ = close(fd)
        fd = -1
    }

    /// Encodes one frame.
    package static func frame(opcode: UInt8, payload: [UInt8], fin: Bool = true, masked: Bool = true,
                      declaredLength: Int? = nil) -> [UInt8] {
        let length = declaredLength ?? payload.count
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes += [UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(length) >> (UInt64($0) * 8)) & 0xFF) }
        }
        bytes.reserveCapacity(bytes.count + 4 + payload.count)
        if masked {
            let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
            bytes += mask
            for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index % 4]) }
        } else {
            bytes += payload
        }
        return bytes
    }

    private func readHead() throws -> String {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = findTerminator(terminator) {
                let head = Array(received[readIndex..<end])
                readIndex = end + terminator.count
                return String(decoding: head, as: UTF8.self)
            }
            try fill()
        }
    }

    private func findTerminator(_ terminator: [UInt8]) -> Int? {
        guard received.count - readIndex >= terminator.count else { return nil }
        for start in readIndex...(received.count - terminator.count)
        where received[start..<start + terminator.count].elementsEqual(terminator) {
            return start
        }
        return nil
    }

    private func read(_ count: Int) throws -> [UInt8] {
        while received.count - readIndex < count { try fill() }
        let bytes = Array(received[readIndex..<readIndex + count])
        readIndex += count
        if readIndex > 1 << 20 {
            received.removeFirst(readIndex)
            readIndex = 0
        }
        return bytes
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received += chunk[0..<count]
        } else if count == 0 {
            throw Failure.closedByPeer
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
            throw Failure.timedOut
        } else {
            throw Failure.closedByPeer
        }
    }
}

extension RawWebSocketClient {
    /// Reads frames for up to `seconds`, returning them in order; with `answeringPings`, answers each ping at once with
    /// a pong carrying the ping's payload (as a live peer would). Stops early after a close frame (which it does not
    /// answer), after a frame for which `stop` is true, or when the connection ends; `ended` tells the latter (end of
    /// stream or a read error). A frame cut off mid-way waits for its rest as long as the client's read timeout.
    package func readFrames(for seconds: Double, answeringPings: Bool = false,
                    until stop: (Frame) -> Bool = { _ in false }) -> (frames: [Frame], ended: Bool) {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        var frames: [Frame] = []
        while true {
            if received.count == readIndex {  // nothing buffered: wait for bytes until the deadline
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return (frames, false) }
                let milliseconds = left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, Int32(clamping: max(1, milliseconds)))
                if ready == 0 { continue }  // the loop sees the deadline passed
                if ready < 0 {
                    if errno == EINTR { continue }
                    return (frames, true)
                }
            }
            do {
                let frame = try readFrame()
                frames.append(frame)
                if answeringPings, frame.opcode == Opcode.ping {
                    try sendFrame(opcode: Opcode.pong, payload: frame.payload)
                }
                if frame.opcode == Opcode.close || stop(frame) { return (frames, false) }
            } catch Failure.timedOut {
                return (frames, false)
            } catch {
                return (frames, true)
            }
        }
    }
}

/// The frames a ``RawWebSocketClient``'s background reader took from the socket, handed to the test's thread.
///
/// Threading: any thread; guarded by its condition.
final class BackgroundFrameReader: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
    private var frames: [RawWebSocketClient.Frame] = []
    private var ending: Error?
    private var stopping = false

    /// True once ``stop()`` was called.
    var isStopping: Bool { condition.withLock { stopping } }

    /// The reader thread took a frame.
    func deliver(_ frame: RawWebSocketClient.Frame) {
        condition.withLock {
            frames.append(frame)
            condition.broadcast()
        }
    }

    /// The reader thread ended with `error` (the connection closed, or it was stopped).
    func end(_ error: Error) {
        condition.withLock {
            ending = error
            condition.broadcast()
        }
    }

    /// Asks the reader thread to stop at its next read time-out.
    func stop() {
        condition.withLock { stopping = true }
    }

    /// The next frame, waiting up to `timeout` seconds; throws the connection's end once every frame was taken.
    func next(timeout: Double) throws -> RawWebSocketClient.Frame {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while frames.isEmpty {
            if let ending { throw ending }
            if !condition.wait(until: deadline) { throw RawWebSocketClient.Failure.timedOut }
        }
        return frames.removeFirst()
    }

    /// Waits up to `timeout` seconds for the reader thread to end; true when it did.
    func waitForEnd(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while ending == nil {
            if !condition.wait(until: deadline) { break }
        }
        return ending != nil
    }
}
