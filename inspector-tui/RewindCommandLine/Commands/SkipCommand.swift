import ArgumentParser
import RewindWire

/// `rewind skip SESSION SEQ` toggles skipping one recorded action (the app recomputes what follows, recorded as a
/// branch); `rewind skip SESSION --branch B` puts the app into the last state of branch B (0 = the original).
struct SkipCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Skip or un-skip a recorded action in a live app, or flip the app between branches.",
        discussion: """
            'rewind skip SESSION SEQ' toggles whether action event SEQ of SESSION's original timeline is skipped. \
            The app recomputes every later state without the skipped actions, through its own reducers with \
            effects muted, and the recomputed states are recorded as a new branch of the session; the app ends in \
            the recomputed state. Skipping several events skips them all; un-skipping the last one puts the app \
            back into the original timeline's last state. 'rewind skip SESSION --branch B' puts the app into the \
            last state of branch B (0 = the original timeline), to compare the two.
            """
    )

    @Argument(help: "The live session: its id or a unique prefix (see 'rewind sessions').")
    var session: String

    @Argument(help: "The action event to skip or un-skip.")
    var seq: UInt64?

    @Option(name: .long, help: ArgumentHelp("Show the last state of this branch instead (0 = the original).",
                                            valueName: "branch"))
    var branch: UInt64?

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if seq == nil && branch == nil {
            throw ValidationError("give the event to skip (SEQ) or --branch B: 'rewind skip SESSION SEQ' skips or "
                + "un-skips an action, 'rewind skip SESSION --branch B' shows the last state of branch B")
        }
        if seq != nil && branch != nil {
            throw ValidationError("give either the event to skip (SEQ) or --branch B, not both")
        }
    }

    func run() throws {
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken)
        let session = try SessionIDResolver.resolveLive(self.session, with: client,
                                                        for: branch == nil ? "skip" : "show a branch").rawValue
        if let branch {
            _ = try client.request(.branch(session: session, branch: branch))
            CommandStreams.current.printLine("\(session): the app now has the last state of branch \(branch)"
                + (branch == 0 ? " (the original timeline)" : ""))
            return
        }
        guard let seq else { return }
        let result = try client.request(.skip(session: session, seq: seq))
        let skipped = result["skipped"]?.arrayValue?.compactMap(\.int64Value) ?? []
        if skipped.isEmpty {
            CommandStreams.current.printLine("\(session): nothing skipped any more; the app is back on the original timeline")
        } else {
            let states = result["states"]?.int64Value ?? 0
            let branch = result["branch"]?.int64Value ?? 0
            CommandStreams.current.printLine("\(session): skipping event\(skipped.count == 1 ? "" : "s") "
                + skipped.map(String.init).joined(separator: ", ")
                + "; \(states) state\(states == 1 ? "" : "s") recomputed on branch \(branch)")
        }
    }
}
