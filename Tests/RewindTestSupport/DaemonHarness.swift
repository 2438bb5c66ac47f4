import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// A real daemon in the test process, on a loopback port it picks itself (or the one given), recording into a
/// temporary directory that is removed afterwards: the in-process daemon under test (the child-process one is
/// ``DaemonProcess``). Its keepalive and takeover-probe clocks are stretched by ``TestTime/scale``.
///
/// Threading: one test starts and stops it; ``daemon`` is as thread-safe as `Daemon` itself, and the waiting helpers
/// may be called from any thread.
package final class DaemonHarness: @unchecked Sendable {
    /// The daemon.
    package let daemon: Daemon
    /// The loopback port it listens on.
    package let port: Int
    /// The directory it records into.
    package let dataDirectory: URL

    /// The `REWIND_URL` apps use to reach this daemon.
    package var url: String { "ws://127.0.0.1:\(port)" }

    /// Starts a daemon with `token` (none by default), recording into `dataDirectory` (a new temporary one by
    /// default), on `port` (one the server picks by default); `configure` changes the configuration last.
    package init(token: String? = nil, dataDirectory: URL? = nil, port: Int? = nil,
         configure: (inout DaemonConfiguration) -> Void = { _ in }) throws {
        self.dataDirectory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-e2e-\(UUID().uuidString)")
        var configuration = DaemonConfiguration()
        configuration.port = port ?? 0   // the server picks a free port; start() returns it
        configuration.dataDirectory = self.dataDirectory
        configuration.token = token
        configuration.log = { _ in }
        // The daemon's clocks stretch with the tests' (sanitizers): a hand-driven peer that waits on something
        // slower is not taken for gone.
        configuration.keepaliveInterval = TestTime.seconds(configuration.keepaliveInterval)
        configuration.keepaliveTimeout = TestTime.seconds(configuration.keepaliveTimeout)
        configuration.takeoverProbeTimeout = TestTime.seconds(configuration.takeoverProbeTimeout)
        configure(&configuration)
        daemon = try Daemon(configuration: configuration)
        self.port = try daemon.start()
    }

    /// Stops the daemon; its data stays.
    package func stop() {
        daemon.stop()
    }

    /// Stops the daemon and removes its data.
    package func tearDown() {
        daemon.stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// Waits until some session has recorded at least `events` events (committed), up to `timeout` (stretched by
    /// `TestTime.scale`); returns it.
    package func waitForSession(events: Int64 = 0, app: String? = nil, timeout: Double = 15) -> LiveSession? {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while Date() < deadline {
            if let session = daemon.sessions.last(where: { app == nil || $0.identity.name == app }),
               session.lastIndex >= events {
                session.flush()
                return session
            }
            usleep(10_000)
        }
        return nil
    }

    /// Waits until the daemon calls at least `count` event observers (a `rewind tail` started is one once it has
    /// subscribed), up to `timeout` (stretched by `TestTime.scale`); says whether it did.
    package func waitForEventObservers(_ count: Int, timeout: Double = 15) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while Date() < deadline {
            if daemon.events.observerCount >= count { return true }
            usleep(10_000)
        }
        return false
    }

    /// The state at the last event of `session`, read back from its file.
    package func lastRecordedState(_ session: LiveSession) throws -> JSONValue {
        daemon.waitUntilIdle(timeout: TestTime.seconds(10))
        session.flush()
        let reader = try daemon.store.openSession(session.id)
        return try reader.state(at: reader.eventCount, branch: 0)
    }

    /// The state at the last event of `session` once `isExpected` holds for it; or, when `timeout` (stretched by
    /// `TestTime.scale`) passes first, the last state read, for the test's expectation to show. For apps whose
    /// last event count is not known: an inspector's "delivered" means written to its socket, the daemon may still
    /// be reading the last frames, and `Daemon.waitUntilIdle` covers only the messages it has received.
    package func lastRecordedState(_ session: LiveSession, timeout: Double = 15,
                           until isExpected: (JSONValue) throws -> Bool) throws -> JSONValue {
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(timeout))
        while true {
            let state = try lastRecordedState(session)
            if try isExpected(state) || Date() >= deadline { return state }
            usleep(10_000)
        }
    }
}
