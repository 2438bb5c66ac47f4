import Foundation
import RewindTestSupport

/// A pseudo-terminal pair for driving `TimelineApp.run(on:)`: the app gets the secondary side, the test
/// writes keys into the primary side, and a thread drains what ncurses writes so that it never blocks.
final class PseudoTerminal: @unchecked Sendable {  // `output` is guarded by `lock`; descriptors are immutable
    let primary: Int32
    let secondary: Int32
    private let lock = NSLock()
    private var output: [UInt8] = []
    private let drained = DispatchSemaphore(value: 0)

    // posix_openpt, grantpt, unlockpt and ptsname are hidden from Swift's Glibc module (they need
    // _XOPEN_SOURCE); they are looked up at run time instead.
    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    private static func function<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw POSIXError(.ENOSYS) }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let openPrimary = try Self.function("posix_openpt", as: OpenFunction.self)
        let grant = try Self.function("grantpt", as: OpenFunction.self)
        let unlock = try Self.function("unlockpt", as: OpenFunction.self)
        let name = try Self.function("ptsname", as: NameFunction.self)
        primary = openPrimary(O_RDWR | O_NOCTTY)
        guard primary >= 0, grant(primary) == 0, unlock(primary) == 0, let path = name(primary) else {
            throw POSIXError(.ENOTTY)
        }
        secondary = open(path, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw POSIXError(.ENOTTY) }
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(primary, &chunk, chunk.count)
                if count <= 0 { break }
                lock.lock()
                output += chunk[0..<count]
                lock.unlock()
            }
            drained.signal()
        }
        thread.start()
    }

    /// Runs `body` on a thread of its own after `seconds`, stretched by `TestTime.scale` (not on a dispatch queue:
    /// the run loop under test blocks a thread of the shared pool, and queued work could wait behind it).
    static func after(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
        Thread {
            usleep(UInt32(TestTime.seconds(seconds) * 1_000_000))
            body()
        }.start()
    }

    /// Sets the window size the terminal reports.
    func resize(columns: UInt16, rows: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
    }

    /// Types `text` as if at the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(primary, $0.baseAddress, $0.count) }
    }

    /// Everything the app wrote to the terminal so far.
    var written: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: output, as: UTF8.self)
    }

    /// Closes both sides and waits for the drain thread.
    func close() {
        Foundation.close(secondary)
        Foundation.close(primary)
        drained.wait()
    }
}
