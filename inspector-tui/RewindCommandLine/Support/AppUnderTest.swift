import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// An app run by `rewind verify`: a private daemon on a free loopback port recording into a temporary directory,
/// and the app's process with `REWIND_URL` pointing at it, its standard input held open so interactive apps stay
/// up. ``stop()`` ends both and removes the directory.
final class AppUnderTest {
    private let daemon: Daemon
    private let process = Process()
    private let input = Pipe()
    /// The end of the app's standard error, shown when the app fails.
    private let errorOutput = OutputTail()
    private let directory: URL
    /// The app's live session in the private daemon.
    let session: LiveSession

    /// Starts the daemon and the app, and waits up to `connectTimeout` seconds for the app to connect.
    init(command: [String], connectTimeout: Double) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-verify-\(UUID().uuidString)")
        var configuration = DaemonConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        configuration.log = { _ in }
        // A replay of a long segment may take the app a while: the daemon answers it within this bound.
        configuration.commandTimeout = 120
        do {
            daemon = try Daemon(configuration: configuration)
            try daemon.start()
        } catch {
            throw CommandError("cannot start the private daemon: \(error)")
        }

        let executable = command[0].contains("/") ? command[0] : Self.lookUp(command[0])
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["REWIND_URL"] = "ws://127.0.0.1:\(daemon.port)"
        environment["REWIND_DISABLED"] = nil
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorOutput.fileHandleForWriting
        do {
            try process.run()
        } catch {
            daemon.stop()
            throw CommandError("cannot run '\(command[0])': \(error.localizedDescription)")
        }
        errorOutput.closeWritingEnd()

        let deadline = Date(timeIntervalSinceNow: connectTimeout)
        var connected: LiveSession?
        while connected == nil && Date() < deadline && process.isRunning {
            connected = daemon.sessions.first(where: \.isLive)
            if connected == nil { usleep(10_000) }
        }
        guard let connected else {
            let status = process.isRunning ? "did not connect within \(Int(connectTimeout)) s"
                                           : "exited with status \(process.terminationStatus) before connecting"
            if process.isRunning { process.terminate() }
            daemon.stop()
            throw CommandError("the app \(status); is RewindInspector attached to its store?"
                + Self.standardError(errorOutput.lastLines()))
        }
        session = connected
    }

    /// Resets the app to `state`, runs `actions` with effects muted, and returns the state after each action.
    func replay(state: JSONValue, actions: [JSONValue]) throws -> [JSONValue] {
        let result = daemon.waitFor {
            daemon.replay(state: state, actions: actions, into: session.id, completion: $0)
        }
        do {
            return try result.get().states ?? []
        } catch {
            let exited = !process.isRunning ? " (it exited with status \(process.terminationStatus))" : ""
            throw CommandError("the app could not replay: \(error)\(exited)"
                + Self.standardError(errorOutput.lastLines(wait: process.isRunning ? 0 : 0.5)))
        }
    }

    /// Ends the app and the private daemon and removes the daemon's directory.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
            let deadline = Date(timeIntervalSinceNow: 3)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// "\nthe app's standard error ended with:\n  | line…", or nothing when it wrote nothing.
    private static func standardError(_ lines: [String]) -> String {
        guard lines.contains(where: { !$0.isEmpty }) else { return "" }
        return "\nthe app's standard error ended with:\n" + lines.map { "  | " + $0 }.joined(separator: "\n")
    }

    /// The full path of `name` on `PATH`, or `name` itself.
    private static func lookUp(_ name: String) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return name
    }
}
