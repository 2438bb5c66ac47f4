import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of a daemon, whose connections a test can reset (both sides closed with
/// `SO_LINGER` 0, so each peer gets an RST and whatever was in flight is lost): how issue 19 reproduced a network
/// drop (`ss -K`, a reset TCP connection) in a test. It can also reset the app's side only and leave the daemon's
/// socket open and silent — a half-open connection, as a roaming laptop or a tunnel that lost its far side leaves
/// (issue 28) — or stop forwarding without closing anything (a black hole).
///
/// Threading: ``reset()`` and ``stop()`` from any thread; each accepted connection is pumped by two threads of its
/// own; the accepting thread runs until ``stop()``.
package final class ResettingProxy: @unchecked Sendable {  // `links`, `stopped` guarded by `lock`
    /// One proxied connection: the app's socket, the daemon's, and whether it was reset. The two pump threads
    /// poll with a short timeout, so they notice a reset; a peer's orderly end is passed on to the other peer
    /// (`shutdown(SHUT_WR)`). The last pump out closes both sockets, with `SO_LINGER` 0 (an RST to each peer) after
    /// a reset. Closing a socket another thread still polls could hand its number to a new socket.
    private final class Link: @unchecked Sendable {  // `dead`, `running`, `fate` guarded by `lock`
        /// What happens to the sockets once the pumps stop.
        enum Fate {
            /// Both closed: orderly when both peers ended their side, with an RST to each after ``reset()``.
            case closeBoth
            /// The app's socket gets an RST; the daemon's stays open, and nothing more reaches it.
            case halfOpen
            /// Both stay open; nothing more is forwarded either way.
            case blackHole
        }

        let client: Int32
        let server: Int32
        private let lock = NSLock()
        private var dead = false
        private var running = 2
        private var fate = Fate.closeBoth

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        var isDead: Bool { lock.withLock { dead } }

        func kill(_ fate: Fate = .closeBoth) {
            lock.withLock {
                if !dead { self.fate = fate }
                dead = true
            }
        }

        /// A pump ended; the last one closes the sockets its fate says: with an RST to each peer when the link was
        /// reset, with an orderly close (everything written is delivered) when both peers ended their side. Returns
        /// the sockets left open (closed by ``ResettingProxy/stop()``).
        func pumpEnded() -> [Int32] {
            let (last, reset, fate) = lock.withLock { () -> (Bool, Bool, Fate) in
                running -= 1
                return (running == 0, dead, self.fate)
            }
            guard last else { return [] }
            let closing: [Int32]
            switch fate {
            case .closeBoth: closing = [client, server]
            case .halfOpen: closing = [client]
            case .blackHole: closing = []
            }
            for fd in closing {
                if reset {
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                }
                close(fd)
            }
            return [client, server].filter { !closing.contains($0) }
        }
    }

    /// The port apps connect to.
    package let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var links: [Link] = []
    private var stopped = false
    /// Sockets a half-open or black-holed link left open, closed at ``stop()``.
    private var held: [Int32] = []

    /// Listens on a free loopback port, forwarding every connection to `targetPort` on 127.0.0.1.
    package init(targetPort: Int) throws {
        target = targetPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = FreePort.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw ProxyError("cannot listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test.proxy.accept"
        thread.start()
    }

    /// The address to give apps.
    package var url: String { "ws://127.0.0.1:\(port)" }

    /// Resets every open connection (each peer gets an RST; bytes in flight are lost). Returns how many.
    @discardableResult
    package func reset() -> Int {
        lock.lock()
        let current = links
        links = []
        lock.unlock()
        for link in current { link.kill() }
        return current.count
    }

    /// Resets the app's side of every open connection only (the app gets an RST) and leaves the daemon's side open
    /// and silent: half-open connections. Returns how many.
    @discardableResult
    package func resetAppSide() -> Int {
        take(.halfOpen)
    }

    /// Stops forwarding on every open connection, either way, without closing anything. Returns how many.
    @discardableResult
    package func blackHole() -> Int {
        take(.blackHole)
    }

    private func take(_ fate: Link.Fate) -> Int {
        lock.lock()
        let current = links
        links = []
        lock.unlock()
        for link in current { link.kill(fate) }
        return current.count
    }

    /// Stops accepting, resets every connection, and closes the sockets half-open or black-holed links left open.
    package func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        reset()
        usleep(50_000)  // the pumps notice within their 20 ms poll
        let sockets = lock.withLock { () -> [Int32] in
            defer { held = [] }
            return held
        }
        for fd in sockets { close(fd) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = FreePort.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let link = Link(client: client, server: server)
            lock.lock()
            let isStopped = stopped
            if !isStopped && connected == 0 { links.append(link) }
            lock.unlock()
            if isStopped || connected != 0 { link.kill() }
            pump(link, from: client, to: server)
            pump(link, from: server, to: client)
        }
    }

    private func pump(_ link: Link, from source: Int32, to destination: Int32) {
        let thread = Thread { [self] in
            defer {
                let left = link.pumpEnded()
                if !left.isEmpty { lock.withLock { held += left } }
            }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            var poller = pollfd(fd: source, events: Int16(POLLIN), revents: 0)
            while !link.isDead {
                let ready = poll(&poller, 1, 20)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                if ready < 0 { return }
                let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
                if count == 0 {
                    // One peer ended its side (an app that exits, a daemon killed with nothing unread): pass the end
                    // on after what it sent, as a direct connection would (an RST here would throw away what the
                    // other peer has not read yet). The other direction runs until that peer ends it too.
                    shutdown(destination, Int32(SHUT_WR))
                    return
                }
                if count < 0 {
                    // The peer reset the connection: the other one gets a reset too.
                    link.kill()
                    return
                }
                var offset = 0
                while offset < count && !link.isDead {
                    let sent = buffer.withUnsafeBytes {
                        send(destination, $0.baseAddress! + offset, count - offset,
                             Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                    }
                    if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                        var writable = pollfd(fd: destination, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&writable, 1, 20)
                        continue
                    }
                    if sent <= 0 {
                        link.kill()
                        return
                    }
                    offset += sent
                }
            }
        }
        thread.name = "test.proxy.pump"
        thread.start()
    }

    /// The proxy could not start.
    package struct ProxyError: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
        /// An error saying `description`.
        package init(_ description: String) { self.description = description }
    }
}
