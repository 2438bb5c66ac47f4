import Foundation

/// The write end of the self-pipe that the signal handler writes to. Set once, before any handler is installed,
/// and only read afterwards (a plain load of a statically initialized global is async-signal-safe).
nonisolated(unsafe) private var terminationWriteDescriptor: Int32 = -1

/// The read end of that pipe (non-blocking), read by `TerminationSignals.received`.
nonisolated(unsafe) private var terminationReadDescriptor: Int32 = -1

/// Serializes creating the pipe and installing/removing handlers.
private let installLock = NSLock()

/// The handler for SIGINT, SIGTERM and SIGHUP: writes one byte to the self-pipe (`write` is
/// async-signal-safe) and nothing else.
private func terminationHandler(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(terminationWriteDescriptor, &byte, 1)
}

/// Watches SIGINT, SIGTERM and SIGHUP while the timeline owns the terminal, so that they end the UI loop
/// (which then restores the terminal) instead of killing the process with the terminal left in raw mode.
///
/// A classic self-pipe: the handler writes a byte, `received` reads it. (Dispatch signal sources are not used:
/// on Linux they lose signals when the process's signal masks are not what libdispatch expects.) Installing
/// the handlers before `newterm` also stops ncurses from installing its own, which exit without our cleanup.
///
/// Threading: `received` may be called from any thread; create and `cancel()` from the owner's thread.
final class TerminationSignals: @unchecked Sendable {  // `flag` and `previous` are guarded by `lock`
    private static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private let lock = NSLock()
    private var flag = false
    private var previous: [Int32: sigaction] = [:]

    init() {
        installLock.lock()
        defer { installLock.unlock() }
        if terminationWriteDescriptor < 0 {
            var descriptors: [Int32] = [-1, -1]
            if pipe(&descriptors) == 0 {
                for descriptor in descriptors {
                    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                }
                terminationReadDescriptor = descriptors[0]
                terminationWriteDescriptor = descriptors[1]
            }
        }
        Self.drain()
        for number in Self.watched {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = terminationHandler
            #else
            action.__sigaction_u.__sa_handler = terminationHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            if sigaction(number, &action, &old) == 0 {
                previous[number] = old
            }
        }
    }

    /// Whether one of the signals arrived since this object was created.
    var received: Bool {
        lock.lock()
        defer { lock.unlock() }
        if !flag && Self.drain() { flag = true }
        return flag
    }

    /// Forgets the SIGINTs that arrived since the last check (Ctrl-C typed in a program the timeline handed the
    /// terminal to, e.g. the pager, reaches the whole foreground process group); SIGTERM and SIGHUP still count.
    func forgetInterrupts() {
        lock.lock()
        defer { lock.unlock() }
        guard terminationReadDescriptor >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 16)
        while true {
            let count = read(terminationReadDescriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            if chunk[0..<count].contains(where: { Int32($0) != SIGINT }) { flag = true }
        }
    }

    /// Reads everything pending in the pipe; true when there was something.
    @discardableResult
    private static func drain() -> Bool {
        guard terminationReadDescriptor >= 0 else { return false }
        var any = false
        var chunk = [UInt8](repeating: 0, count: 16)
        while read(terminationReadDescriptor, &chunk, chunk.count) > 0 {
            any = true
        }
        return any
    }

    /// Restores the dispositions found at creation. Idempotent.
    func cancel() {
        installLock.lock()
        defer { installLock.unlock() }
        lock.lock()
        defer { lock.unlock() }
        for (number, old) in previous {
            var restored = old
            sigaction(number, &restored, nil)
        }
        previous.removeAll()
    }
}
