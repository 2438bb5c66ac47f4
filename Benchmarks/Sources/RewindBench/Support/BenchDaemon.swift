import Foundation
import RewindDaemon
import RewindSessionFile
import RewindInspector

/// A real `rewind` daemon in the benchmark's process: a free loopback port, a fresh data directory under the
/// system's temporary directory (removed by ``stop()``), no log output.
///
/// Threading: any thread (the `Daemon` it wraps is thread-safe).
final class BenchDaemon: Sendable {
    /// The daemon.
    let daemon: Daemon
    /// The port it listens on.
    let port: Int
    /// Its data directory.
    let directory: URL

    /// The address apps connect to.
    var url: String { "ws://127.0.0.1:\(port)" }

    /// Starts a daemon recording with `recording`'s options.
    init(name: String, recording: RecordingOptions = RecordingOptions()) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-bench-\(name)-\(UUID().uuidString)", isDirectory: true)
        var configuration = DaemonConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        configuration.recording = recording
        configuration.log = { _ in }
        daemon = try Daemon(configuration: configuration)
        port = try daemon.start()
    }

    /// An inspector configuration pointing at this daemon (everything else at its defaults).
    var inspectorConfiguration: InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.url = url
        return configuration
    }

    /// Waits up to `timeout` seconds for the live session of the app named `app`; throws when it does not appear.
    func liveSession(app: String, timeout: Double = 15) throws -> LiveSession {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let session = daemon.sessions.last(where: { $0.identity.name == app && $0.isLive }) {
                return session
            }
            usleep(2_000)
        }
        throw BenchFailure("the app '\(app)' did not connect to the daemon within \(Int(timeout)) s")
    }

    /// Waits until `session` has committed at least `index` events, up to `timeout` seconds; returns the time it
    /// took (seconds), polling every `poll` seconds. Throws on timeout.
    @discardableResult
    func waitForCommitted(_ session: LiveSession, atLeast index: Int64, timeout: Double = 120,
                          poll: Double = 0.002) throws -> Double {
        let start = Date()
        while session.committedIndex < index {
            if Date().timeIntervalSince(start) > timeout {
                throw BenchFailure("session \(session.id) committed \(session.committedIndex) of \(index) events "
                    + "within \(Int(timeout)) s")
            }
            usleep(UInt32(poll * 1e6))
        }
        return Date().timeIntervalSince(start)
    }

    /// Stops the daemon (flushing every session) and deletes its data directory.
    func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
