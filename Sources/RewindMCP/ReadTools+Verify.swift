import Foundation
import RewindWire

/// `verify_session`: `rewind verify` run as a child process (a private daemon on a free loopback port, the app
/// started with `REWIND_URL` pointing at it, the session's actions replayed with effects muted), so that an agent
/// learns whether today's reducers still produce a recorded session's states, and where they first differ.
extension ReadTools {
    /// The longest a verification may run when the caller does not say, in seconds.
    static let defaultVerifySeconds: Int64 = 300

    var verifySession: ToolDefinition? {
        guard let rewindExecutable else { return nil }
        return ToolDefinition(
            name: "verify_session",
            description: "Replays a recorded session into a fresh run of an app (the command given, e.g. "
                + "[\".build/debug/todo\"]) with effects muted, and checks that its reducers produce every recorded "
                + "state, as `rewind verify SESSION --json -- COMMAND`. Answers ok and the events verified, or the "
                + "first event that differs with the JSON Patch from the recorded state to the app's.",
            arguments: [Self.session,
                        .strings("command", "The app to run and its arguments; it must stay running while connected "
                            + "(the samples: their interactive mode).", required: true),
                        .integer("timeoutSeconds", "Stop the verification after this long (default "
                            + "\(Self.defaultVerifySeconds)).", minimum: 1, maximum: 3_600)]
        ) { arguments in
            let budget = try OutputBudget(arguments)
            let session = try arguments.string("session")
            let command = try arguments.strings("command")
            let seconds = try arguments.optionalInteger("timeoutSeconds", in: 1...3_600) ?? Self.defaultVerifySeconds
            _ = try library.reader(session)  // a clear failure for an unknown session before the app is started
            let outcome = try Self.runVerify(executable: rewindExecutable, data: library.directory, session: session,
                                             command: command, seconds: Double(seconds))
            var answer: JSONObject = ["session": .string(session)]
            for (key, value) in outcome {
                answer[key] = key == "recorded" || key == "actual" || key == "diff"
                    ? budget.fitted(value, within: budget.maxBytes / 4,
                                    hint: "read the states with get_state at the event named by seq")
                    : value
            }
            answer["limits"] = budget.limitsJSON
            return .object(answer)
        }
    }

    /// Runs `rewind verify --json` and returns its JSON outcome, or a failure with what it printed.
    static func runVerify(executable: URL, data: URL, session: String, command: [String], seconds: Double)
        throws(ToolFailure) -> JSONObject {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["verify", "--json", "--data", data.path, session, "--"] + command
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ToolFailure("cannot run \(executable.path) verify: \(error)")
        }
        let finished = DispatchSemaphore(value: 0)
        let readOutput = ReadInBackground(output.fileHandleForReading)
        let readErrors = ReadInBackground(errors.fileHandleForReading)
        process.terminationHandler = { _ in finished.signal() }
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            throw ToolFailure("the verification did not finish within \(Int(seconds)) s (raise timeoutSeconds, or "
                + "check that the app connects: it is started with REWIND_URL set)")
        }
        let text = String(decoding: readOutput.wait(), as: UTF8.self)
        let problems = String(decoding: readErrors.wait(), as: UTF8.self)
        if let line = text.split(separator: "\n").last, case .object(let object)? = try? JSONValue(parsing: String(line)) {
            return object
        }
        let said = problems.split(separator: "\n").suffix(5).joined(separator: " | ")
        throw ToolFailure("rewind verify failed (exit \(process.terminationStatus)): "
            + (said.isEmpty ? "it printed nothing" : String(said.prefix(2_000))))
    }
}
