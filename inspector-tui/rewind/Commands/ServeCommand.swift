import ArgumentParser
import Dispatch
import Foundation
import RewindDaemon
import RewindTUI

/// `rewind serve [--headless]`: the daemon. In a terminal it shows the live timeline; with `--headless`, or when
/// standard input/output is not a terminal, it only records, logging one line per session start and end.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon: record every connected app, with the live timeline in a terminal.",
        discussion: "SIGINT and SIGTERM flush every session to disk and close it cleanly."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var data: DataOptions

    @Flag(name: .long, help: "Record only: no timeline, one log line per session start and end.")
    var headless = false

    @Option(name: .customLong("allow-origin"),
            help: ArgumentHelp("A browser Origin allowed to connect (repeatable).", valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(name: .customLong("max-message"), help: ArgumentHelp(
        "The largest message accepted, in bytes. Also the largest state rebuilt from an app's patches (as compact "
            + "JSON), and one JSON value per 16 bytes of it is the most one message may hold.", valueName: "bytes"))
    var maxMessage = 64 << 20

    @Option(name: .customLong("max-backlog"),
            help: ArgumentHelp("The most bytes of one app's messages received but not yet recorded; beyond it the "
                               + "daemon reads from that app only as fast as it records (the app waits in TCP and "
                               + "its inspector's outbox coalesces).", valueName: "bytes"))
    var maxBacklog = DaemonConfiguration().maxBacklogBytesPerApp

    func validate() throws {
        guard maxBacklog >= 1 else { throw ValidationError("--max-backlog must be at least 1 byte") }
    }

    func run() throws {
        var configuration = DaemonConfiguration()
        configuration.host = connection.host
        configuration.port = connection.port
        configuration.token = connection.effectiveToken
        configuration.dataDirectory = data.directory
        configuration.allowedOrigins = Set(allowedOrigins)
        configuration.maxMessageBytes = maxMessage
        configuration.maxBacklogBytesPerApp = maxBacklog
        let interactive = isatty(0) == 1 && isatty(1) == 1
        let showTimeline = !headless && interactive
        if showTimeline {
            // The timeline owns the screen: the daemon's notices go to a log file beside the sessions.
            let logFile = data.directory.deletingLastPathComponent().appendingPathComponent("rewind.log")
            configuration.log = LogFile(url: logFile).write
        }

        let daemon: Daemon
        let port: Int
        do {
            daemon = try Daemon(configuration: configuration)
            port = try daemon.start()
        } catch {
            throw CommandError("\(error)")
        }
        if !headless && !interactive {
            log("not a terminal: recording without the timeline (as 'rewind serve --headless')")
        }
        if showTimeline {
            defer { daemon.stop() }
            try runTimeline(daemon: daemon, address: "ws://\(connection.host):\(port)")
        } else {
            log("listening on ws://\(connection.host):\(port), recording to \(data.directory.path)")
            SignalWaiter.waitForTermination()
            daemon.stop()
            log("stopped; every session was flushed and closed")
        }
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data("rewind: \(line)\n".utf8))
    }
}

extension ServeCommand {
    /// Runs the live timeline in the foreground until the user quits.
    private func runTimeline(daemon: Daemon, address: String) throws {
        let source = SessionTimelineSource(store: daemon.store, daemon: daemon, address: address)
        let actions = DaemonTimelineActions(daemon: daemon, store: daemon.store, onQuit: {})
        do {
            try TimelineApp(dataSource: source, actions: actions).run()
        } catch {
            throw CommandError("\(error)")
        }
    }
}
