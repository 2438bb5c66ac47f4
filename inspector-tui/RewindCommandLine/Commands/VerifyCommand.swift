import ArgumentParser
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// `rewind verify SESSION -- APP-COMMAND [ARGS…]`: replays a recorded session into a fresh run of the app and checks
/// that its reducers still produce every recorded state.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that an app's reducers still produce a recorded session's states.",
        discussion: """
            Starts a private daemon on a free loopback port, runs APP-COMMAND with REWIND_URL pointing at it, \
            replays the session's actions into the app with effects muted, and compares the state after every \
            action with the recording. Prints 'verified N events' (exit 0) or the first divergent event with the \
            JSON diff from the recorded state to the app's (exit 1). The app must keep running while it is \
            connected (for the samples: their interactive mode, which waits on standard input).
            """
    )

    @Argument(help: "The session to verify: its id or a unique prefix (see 'rewind sessions'), or a capture file.")
    var session: String

    @Argument(parsing: .postTerminator, help: "The app to run, after '--'.")
    var appCommand: [String] = []

    @Flag(name: .long, help: "Print the outcome as one JSON object (for CI).")
    var json = false

    @Option(name: .long, help: "Seconds to wait for the app to connect.")
    var connectTimeout = 15.0

    @OptionGroup var data: DataOptions

    func validate() throws {
        guard !appCommand.isEmpty else {
            throw ValidationError("name the app to run after '--', e.g. rewind verify SESSION -- .build/debug/counter")
        }
    }

    func run() throws {
        // A capture file stands for the session imported from it (CaptureFileArgument).
        let store = try CaptureFileArgument.isCaptureFile(session) ? data.openStore() : data.openStoreForReading()
        let id = try CaptureFileArgument.session(for: session, in: store) ?? SessionIDResolver.resolve(session, in: store)
        let reader: SessionReader
        do {
            reader = try store.openSession(id)
        } catch {
            throw CommandError("\(error)")
        }
        let run = try AppUnderTest(command: appCommand, connectTimeout: connectTimeout)
        defer { run.stop() }

        if let recorded = reader.metadata.stateType, let actual = run.session.stateType, recorded != actual {
            try report(.failure("the app's state type is \(actual), but the session recorded \(recorded); "
                + "nothing was replayed"))
            throw ExitCode(1)
        }
        let offered = run.session.capabilities
        if !offered.contains(WireCapability.replay) {
            // Said up front, about the app: not as a refusal naming the private daemon's session.
            let others = offered.filter { $0 != WireCapability.batch && $0 != WireCapability.ack }
            try report(.failure("the app does not offer 'replay' (it offers "
                + (others.isEmpty ? "no command" : others.map { "'\($0)'" }.joined(separator: ", "))
                + "): verify replays the recorded actions through the app's reducers, which its recorder's host must "
                + "offer (offerReplay, see docs/INTEGRATIONS.md); nothing was replayed"))
            throw ExitCode(1)
        }
        let progress = ProgressLine("verifying")
        let outcome: SessionVerifier.Outcome
        do {
            outcome = try SessionVerifier(reader: reader).verify(
                replay: { state, actions in try run.replay(state: state, actions: actions) },
                progress: { done, total in progress.update(TransferProgress(completed: done, total: total, unit: .events)) })
        } catch {
            progress.finish()
            throw CommandError("verification stopped: \(error)")
        }
        progress.finish()
        switch outcome {
        case .verified(let events):
            try report(.verified(events))
        case .diverged(let divergence):
            try report(.diverged(divergence))
            throw ExitCode(1)
        }
    }

    /// `replace /count: 42 → 5`, `add /items/3: {…}`, `remove /name (was "x")`.
    static func describe(_ operation: JSONPatchOperation, recorded: JSONValue) -> String {
        func text(_ value: JSONValue?) -> String {
            let serialized = value?.serialized() ?? "nothing"
            return serialized.count > 120 ? String(serialized.prefix(117)) + "…" : serialized
        }
        switch operation {
        case .replace(let path, let value): return "replace \(path): \(text(recorded[path])) → \(text(value))"
        case .add(let path, let value): return "add \(path): \(text(value))"
        case .remove(let path): return "remove \(path) (was \(text(recorded[path])))"
        case .move(let from, let path): return "move \(from) → \(path)"
        case .copy(let from, let path): return "copy \(from) → \(path)"
        case .test(let path, let value): return "test \(path) = \(text(value))"
        }
    }

    private enum Report {
        case verified(Int)
        case diverged(SessionVerifier.Divergence)
        case failure(String)
    }

    private func report(_ report: Report) throws {
        if json {
            var object = JSONObject()
            switch report {
            case .verified(let events):
                object["ok"] = true
                object["verified"] = .int(Int64(events))
            case .diverged(let divergence):
                object["ok"] = false
                object["seq"] = .int(divergence.index)
                object["label"] = .string(divergence.label)
                object["diff"] = divergence.diff.json
                object["recorded"] = divergence.recorded
                object["actual"] = divergence.actual
            case .failure(let message):
                object["ok"] = false
                object["error"] = .string(message)
            }
            CommandStreams.current.printLine(JSONValue.object(object).serialized())
            return
        }
        switch report {
        case .verified(let events):
            CommandStreams.current.printLine("verified \(events) events")
        case .diverged(let divergence):
            CommandStreams.current.printLine("event \(divergence.index) (\(TerminalText.escaped(divergence.label))) differs from the recording (recorded → app):")
            for operation in divergence.diff.operations {
                CommandStreams.current.printLine("  " + TerminalText.escaped(Self.describe(operation, recorded: divergence.recorded)))
            }
        case .failure(let message):
            CommandStreams.current.writeError("Error: \(message)\n")
        }
    }
}
