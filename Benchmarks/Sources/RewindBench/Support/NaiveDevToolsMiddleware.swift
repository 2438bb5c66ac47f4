import Foundation
import Rewind

/// The baseline the issue names: a middleware that, like Redux DevTools' remote client, encodes the whole state
/// (and the action) with `JSONEncoder` after every dispatch and sends it, all on the app's thread.
///
/// "Sends" is a blocking `write(2)` into a local socket pair whose other end a thread drains (cheaper than a TCP
/// connection, so the baseline is if anything flattered).
///
/// Threading: the middleware runs on the main actor like every middleware; the drain thread only reads its socket.
final class NaiveDevToolsMiddleware: @unchecked Sendable {  // the descriptors are immutable after init
    private let appEnd: Int32
    private let drainEnd: Int32

    /// Opens the socket pair and starts the drain thread.
    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, streamSocket, 0, &descriptors) == 0 else {
            throw BenchFailure("socketpair: errno \(errno)")
        }
        appEnd = descriptors[0]
        drainEnd = descriptors[1]
        let drain = drainEnd
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while read(drain, &buffer, buffer.count) > 0 {}
        }
        thread.name = "bench.naive-drain"
        thread.start()
    }

    /// Closes both ends (the drain thread then ends).
    func close() {
        shutdown(appEnd, Int32(SHUT_RDWR))
        _ = closeDescriptor(appEnd)
        _ = closeDescriptor(drainEnd)
    }

    /// The middleware.
    func middleware<State: Encodable, Action: Encodable>() -> Middleware<State, Action> {
        let fd = appEnd
        return Middleware { context in
            let encoder = JSONEncoder()
            return { next in
                { dispatched in
                    next(dispatched)
                    guard let state = context.state,
                          let stateData = try? encoder.encode(state),
                          let actionData = try? encoder.encode(dispatched.action) else { return }
                    NaiveDevToolsMiddleware.send(actionData, to: fd)
                    NaiveDevToolsMiddleware.send(stateData, to: fd)
                }
            }
        }
    }

    private static func send(_ data: Data, to fd: Int32) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
private let streamSocket = SOCK_STREAM
#endif

private func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
