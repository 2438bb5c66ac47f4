import Foundation
import RewindSessionFile
import RewindWebSocket

/// The daemon's server once started, for work that outlives a call (the registry's probes).
///
/// Threading: any thread; guarded by a lock.
final class ServerReference: @unchecked Sendable {  // `server` guarded by `lock`
    private let lock = NSLock()
    private var server: WebSocketServer?

    /// The running server, nil before `start` and after `stop`.
    var current: WebSocketServer? {
        get { lock.withLock { server } }
        set { lock.withLock { server = newValue } }
    }
}
