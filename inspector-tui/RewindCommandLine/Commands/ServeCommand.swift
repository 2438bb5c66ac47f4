import ArgumentParser
import Dispatch
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTUI
import RewindWire

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
            help: ArgumentHelp("The most bytes of one app's messages not yet committed to its session file; beyond "
                               + "it the daemon reads from that app only as fast as it commits (the app waits in TCP "
                               + "and its inspector's outbox coalesces); nothing is discarded.", valueName: "bytes"))
    var maxBacklog = DaemonConfiguration().maxBacklogBytesPerApp

    @Option(name: .customLong("hello-timeout"),
            help: ArgumentHelp("Seconds a new connection has to send an accepted hello (a control client its first "
                               + "request) before it is closed with 1008; 0: no limit.", valueName: "seconds"))
    var helloTimeout = DaemonConfiguration().helloTimeout

    @Option(name: .customLong("message-timeout"),
            help: ArgumentHelp("Seconds a message may take from its first byte to its last before the connection "
                               + "is closed with 1008; 0: no limit.", valueName: "seconds"))
    var messageTimeout = DaemonConfiguration().messageTimeout

    @Option(name: .customLong("command-timeout"),
            help: ArgumentHelp("Seconds an app has to answer a command (jump, dispatch, replay) before it fails "
                               + "with command_failed; 0: no limit.", valueName: "seconds"))
    var commandTimeout = DaemonConfiguration().commandTimeout

    @Option(name: .customLong("keepalive"),
            help: ArgumentHelp("Seconds of silence after which the daemon pings a connection; one that does not "
                               + "answer within twice that is taken for gone (a half-open connection: a sleeping "
                               + "laptop, a network change) and its session ends; 0: never.", valueName: "seconds"))
    var keepalive = DaemonConfiguration().keepaliveInterval

    @Option(name: .customLong("takeover-probe"),
            help: ArgumentHelp("Seconds the still-open connection of an app run has to answer a ping when the same "
                               + "run connects again; without an answer the new connection continues its session.",
                               valueName: "seconds"))
    var takeoverProbe = DaemonConfiguration().takeoverProbeTimeout

    @Option(name: .customLong("max-unauthenticated-message"),
            help: ArgumentHelp("With a token: the largest message before the token was checked (the hello, which "
                               + "carries the app's state).", valueName: "bytes"))
    var maxUnauthenticatedMessage = DaemonConfiguration().maxUnauthenticatedMessageBytes

    @Option(name: .customLong("max-queued"),
            help: ArgumentHelp("The most bytes waiting to be sent to one control client (a tail viewer); one "
                               + "that reads slower is closed with 1013 (apps: at least twice --max-message).",
                               valueName: "bytes"))
    var maxQueued = DaemonConfiguration().maxQueuedBytesPerPeer

    @Option(name: .customLong("max-connections"),
            help: ArgumentHelp("The most connections served at once (default: the descriptor limit less a "
                               + "quarter); beyond it new connections wait.", valueName: "count"))
    var maxConnections: Int?

    func validate() throws {
        guard maxBacklog >= 1 else { throw ValidationError("--max-backlog must be at least 1 byte") }
        for (name, value) in [("--hello-timeout", helloTimeout), ("--message-timeout", messageTimeout),
                              ("--command-timeout", commandTimeout), ("--keepalive", keepalive),
                              ("--takeover-probe", takeoverProbe)] where !(value >= 0 && value.isFinite) {
            throw ValidationError("\(name) takes a number of seconds, 0 or more")
        }
        guard maxUnauthenticatedMessage >= 1, maxQueued >= 1, (maxConnections ?? 1) >= 1 else {
            throw ValidationError("--max-unauthenticated-message, --max-queued and --max-connections must be at least 1")
        }
    }

    func run() throws {
        DescriptorLimit.raiseToHardLimit()
        var configuration = DaemonConfiguration()
        configuration.host = connection.host
        configuration.port = connection.port
        configuration.token = connection.effectiveToken
        configuration.dataDirectory = data.directory
        configuration.allowedOrigins = Set(allowedOrigins)
        configuration.maxMessageBytes = maxMessage
        configuration.maxBacklogBytesPerApp = maxBacklog
        configuration.helloTimeout = helloTimeout
        configuration.messageTimeout = messageTimeout
        configuration.commandTimeout = commandTimeout
        configuration.keepaliveInterval = keepalive
        configuration.keepaliveTimeout = 2 * keepalive
        configuration.takeoverProbeTimeout = takeoverProbe
        configuration.maxUnauthenticatedMessageBytes = maxUnauthenticatedMessage
        configuration.maxQueuedBytesPerPeer = maxQueued
        configuration.maxConnections = maxConnections
        let interactive = isatty(0) == 1 && isatty(1) == 1
        let showTimeline = !headless && interactive
        if showTimeline {
            // The timeline owns the screen: the daemon's notices go to a log file beside the sessions.
            let logFile = data.directory.deletingLastPathComponent().appendingPathComponent("rewind.log")
            configuration.log = LogFile(url: logFile).write
        }

        // Caught from before the daemon listens: a SIGTERM sent as soon as "listening" is printed stops it.
        let signals = headless || !interactive ? SignalWaiter() : nil
        let daemon: Daemon
        let port: Int
        do {
            daemon = try Daemon(configuration: configuration)
        } catch {
            throw CommandError("\(error)")
        }
        do {
            port = try daemon.start()
        } catch {
            daemon.stop()
            try answerBusyPort(error, offeringToAttach: showTimeline)
            return
        }
        if connection.token != nil && !configuration.isLoopback {
            log("serving beyond loopback with a token given by --token, which every local user can read in 'ps': "
                + "prefer --token-file PATH (a file only you can read, mode 0600) or REWIND_TOKEN")
        }
        if !headless && !interactive {
            log("not a terminal: recording without the timeline (as 'rewind serve --headless')")
        }
        if let warning = Self.permissionsWarning(for: daemon.store.directory) { log(warning) }
        if showTimeline {
            defer { daemon.stop() }
            try runTimeline(daemon: daemon, address: "ws://\(connection.host):\(port)")
        } else {
            log("listening on ws://\(connection.host):\(port), recording to \(data.directory.path)")
            (signals ?? SignalWaiter()).waitForTermination()
            daemon.stop()
            log("stopped; every session was flushed and closed")
        }
    }

    /// Answers a daemon that could not listen (`error`): throws the error, which names another rewind when a
    /// rewind daemon answers at that address (the usual reason: another `rewind` runs there) and says how to watch
    /// it instead. With `offeringToAttach` (the timeline in a terminal), when that rewind records a live session
    /// whose file is in this command's session directory, asks "Attach to it as a viewer? [Y/n]" and on yes shows
    /// that session attached to it (as `rewind open SESSION --port N`) until the user quits; on no, or at the end
    /// of input, exits with status 1. Never reads standard input otherwise.
    private func answerBusyPort(_ error: any Error, offeringToAttach: Bool) throws {
        let address = "\(connection.host):\(connection.port)"
        guard connection.port != 0,
              let client = try? ControlClient(host: connection.host, port: connection.port,
                                              token: connection.effectiveToken, timeout: 1) else {
            // The daemon's sentence repeats the server's "cannot listen on …: " prefix.
            var text = "\(error)"
            let prefix = "cannot listen on \(address): "
            while text.hasPrefix(prefix + prefix) { text.removeFirst(prefix.count) }
            throw CommandError(text + (text.hasSuffix("in use") ? " (choose another port with --port N)" : ""))
        }
        let listing = try? SessionIDResolver.daemonListing(client)
        let live = (listing?.sessions ?? []).filter(\.live).sorted { $0.startedAt > $1.startedAt }
        // The live sessions this command can show: their files are in its session directory.
        let store = try? data.openStoreForReading()
        let saved = Set((try? store?.sessionIDs()) ?? [])
        let shown = live.filter { (try? SessionID(validating: $0.session)).map(saved.contains) ?? false }
        let port = connection.port == WireProtocol.defaultPort ? "" : " --port \(connection.port)"
        // The other rewind says where it records; an older one does not, and then its sessions are looked for in
        // this command's directory.
        let theirDirectory = listing?.dataDirectory ?? data.directory.path
        let example = (shown.first ?? live.first).map {
            "'" + SessionIDResolver.openCommand($0.session, port: connection.port, dataDirectory: theirDirectory) + "'"
        } ?? "'rewind open SESSION\(port)'"
        let sessionsCommand = "rewind sessions" + SessionIDResolver.dataOption(for: theirDirectory)
        let elsewhere = !live.isEmpty && shown.isEmpty
            ? "; it records into \(listing?.dataDirectory ?? "another directory"), not \(data.directory.path)" : ""
        let message = "cannot listen on \(address): another rewind is probably running there (a rewind daemon "
            + "answers on that port\(live.isEmpty ? "" : " with \(live.count) live session\(live.count == 1 ? "" : "s")")"
            + "\(elsewhere)). Watch it as a viewer instead: \(example) shows a session and drives its app, "
            + "'rewind tail\(port)' prints its events, '\(sessionsCommand)' lists what it recorded; or start this one on "
            + "another port with --port N"
        guard offeringToAttach, let store, let session = shown.first,
              let id = try? SessionID(validating: session.session) else {
            throw CommandError(message)
        }
        log(message)
        CommandStreams.current.write("Attach to it as a viewer (session \(session.session), app "
            + "\(TerminalText.escaped(session.app.name)))? [Y/n] ")
        fflush(nil)
        guard Self.isYes(readLine()) else { throw ExitCode.failure }
        try OpenCommand.showTimeline(of: id, isLive: true, store: store, connection: connection)
    }

    /// True for an answer that accepts a `[Y/n]` question: empty (the default), y or yes in any case; false at
    /// the end of input (nil).
    static func isYes(_ answer: String?) -> Bool {
        guard let answer else { return false }
        return ["", "y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    private func log(_ line: String) {
        CommandStreams.current.writeError("rewind: \(line)\n")
    }
}

extension ServeCommand {
    /// Runs the live timeline in the foreground until the user quits.
    private func runTimeline(daemon: Daemon, address: String) throws {
        let source = SessionTimelineSource(store: daemon.store, daemon: daemon, address: address,
                                           deletesSessions: true)
        let actions = DaemonTimelineActions(daemon: daemon, store: daemon.store, onQuit: {})
        do {
            try TimelineApp(dataSource: source, actions: actions).run()
        } catch {
            throw CommandError("\(error)")
        }
        log(Self.farewell(recorded: daemon.sessions.sorted { $0.startedAt < $1.startedAt }.map(\.id.rawValue),
                          directory: daemon.store.directory))
    }

    /// A warning for a data directory other users may write into (they could change, replace or delete the
    /// recordings; rewind creates its directories 0700), or nil.
    static func permissionsWarning(for directory: URL) -> String? {
        var status = stat()
        guard stat(directory.path, &status) == 0, status.st_mode & 0o022 != 0 else { return nil }
        let who = status.st_mode & 0o002 != 0 ? "every user" : "its group"
        return "warning: \(directory.path) is writable by \(who): they can change, replace or delete its sessions "
            + "(chmod go-w \(directory.path), or use another --data)"
    }

    /// What the timeline says on quit: where the sessions are and the commands that reopen and list them (with
    /// `--data` when the directory is not the default), naming the newest session this run recorded.
    static func farewell(recorded: [String], directory: URL) -> String {
        let data = SessionIDResolver.dataOption(for: directory.path)
        let reopen = recorded.last.map { "'rewind open \($0)\(data)' reopens the last one" }
            ?? "'rewind open SESSION\(data)' reopens one"
        let count = recorded.count == 1 ? "1 session" : "\(recorded.count) sessions"
        return "\(count) recorded this run; sessions are in \(directory.path): \(reopen), "
            + "'rewind sessions\(data)' lists them"
    }
}
