import ArgumentParser
import Dispatch
import Foundation
import RewindDaemon
import RewindSessionFile
import RewindWire

/// `rewind replay SESSION [--into LIVE-SESSION] [--from N] [--to M] [--speed N | --step]`: a recorded run, replayed
/// into a live app — at once, at the original pace times N, or one action per Enter.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a session's recorded actions into a connected app, with its effects muted.",
        discussion: """
            The app is reset to the recorded state before the first replayed event, then runs the recorded \
            actions through its reducers with effects muted (their results are already in the recording). \
            SESSION may be saved or live; --into names the live session whose app receives it (default: SESSION). \
            Without --speed (or with --speed 0) the actions go as fast as possible, in one command. With --speed N \
            they are sent one at a time at the recorded pace times N (2 = twice as fast); with --step, one at a \
            time each time Enter is pressed (end of input stops, exit status 0). Ctrl-C stops a paced replay between two \
            actions (exit status 130); either way it says how many actions were replayed.
            """
    )

    @Argument(help: "The session whose actions are replayed: its id or a unique prefix, live or saved.")
    var session: String

    @Option(name: .long, help: ArgumentHelp("The live session whose app receives the replay (an id or a unique "
                                            + "prefix); required when SESSION is not live.", valueName: "session"))
    var into: String?

    @Option(name: .long, help: "The first event to replay (default 1).")
    var from: UInt64?

    @Option(name: .long, help: "The last event to replay (default: the last).")
    var to: UInt64?

    @Option(name: .long, help: "Replay at the recorded pace times N (0: as fast as possible).")
    var speed: Double?

    @Flag(name: .long, help: "Replay one action each time Enter is pressed.")
    var step = false

    @OptionGroup var connection: ConnectionOptions

    /// Where a prefix of SESSION is looked for when the daemon has not seen the session since it started (a saved
    /// session); a whole id the daemon reads from its own directory.
    @OptionGroup var data: DataOptions

    func validate() throws {
        if let speed, !(speed >= 0 && speed.isFinite) {
            throw ValidationError("--speed takes a number of times the recorded pace, 0 or more")
        }
        if step && (speed ?? 0) > 0 { throw ValidationError("give --speed or --step, not both") }
    }

    func run() throws {
        let client = try ControlClient(host: connection.host, port: connection.port,
                                       token: connection.effectiveToken)
        let (source, receiver, receiverStateType) = try resolveSessions(with: client)
        let session = source.rawValue, target = receiver.rawValue
        guard step || (speed ?? 0) > 0 else {
            let result = try client.request(.replay(session: session, target: target, fromSeq: from, toSeq: to))
            var count = ""
            if case .object(let object) = result, case .int(let states)? = object["states"] { count = "\(states) " }
            CommandStreams.current.printLine("replayed \(count)actions of \(session) into \(target)")
            return
        }
        var page = try recordedActions(of: source, client, from: from, withState: true)
        // Refused before anything is sent, as the daemon's own replay refuses it (not by the app's decoder).
        do {
            try Daemon.requireSameStateType(recorded: page.stateType, of: source, live: receiverStateType, of: receiver)
        } catch {
            throw CommandError(error.description)
        }
        _ = try client.request(.replayActions(target: target, state: page.state ?? .null, actions: []))
        let progress = PacedReplayProgress(total: page.next == nil ? page.actions.count : nil, session: session,
                                           target: target)
        progress.stopOnInterrupt()
        var previousTime = page.actions.first?.time
        // The actions come a page at a time (the daemon bounds each answer), the next asked for when one runs out.
        pages: while true {
            for action in page.actions {
                if step {
                    CommandStreams.current.printLine("event \(action.index) \(TerminalText.escaped(action.label ?? "action")): Enter replays it, Ctrl-C stops")
                    fflush(nil)  // every stream: naming `stdout` is not concurrency-safe
                    guard progress.waitForEnter() else { break pages }
                } else if let speed, let previous = previousTime {
                    progress.sleep(seconds: max(0, action.time - previous) / speed)
                }
                previousTime = action.time
                if progress.isStopped { break pages }
                _ = try client.request(.replayActions(target: target, state: nil, actions: [action.action]))
                progress.replayedOne()
            }
            guard let next = page.next, next > 0 else { break }
            page = try recordedActions(of: source, client, from: UInt64(next), withState: false)
        }
        let done = progress.replayed
        if progress.isStopped || progress.endedEarly {
            CommandStreams.current.printLine(progress.stoppedLine(after: done))
            if progress.isStopped { throw ExitCode(130) }  // Ctrl-C, as a shell expects; end of input is not an error
        } else {
            CommandStreams.current.printLine("replayed \(done) actions of \(session) into \(target)")
        }
    }
}

extension ReplayCommand {
    /// One page of session `source`'s recorded actions from event `from` on (up to `--to`), with the state before
    /// them when `withState`.
    private func recordedActions(of source: SessionID, _ client: ControlClient, from: UInt64?,
                                 withState: Bool) throws -> RecordedActions {
        let reply = try client.request(.recordedActions(session: source.rawValue, fromSeq: from, toSeq: to,
                                                        withState: withState))
        guard let recorded = RecordedActions(json: reply), !withState || recorded.state != nil else {
            throw CommandError("the daemon's answer to recordedActions is not readable: \(reply.serialized().prefix(80))")
        }
        return recorded
    }

    /// The source session (of the daemon, or saved in `--data`) and the live session that receives the replay,
    /// both resolved from what the user typed; a source that is not live needs `--into`.
    private func resolveSessions(with client: ControlClient) throws
        -> (source: SessionID, target: SessionID, targetStateType: String?) {
        let sessions = try SessionIDResolver.daemonSessions(client)
        let daemonIDs = sessions.compactMap { try? SessionID(validating: $0.session) }
        // Saved sessions of the directory too (none when it cannot be read: the daemon's list still counts).
        let store = (try? data.openStoreForReadingIfRecorded()) ?? nil
        let saved = (try? store?.sessionIDs()) ?? []
        let candidates = Array(Set(daemonIDs).union(saved))
        // An id found in neither goes to the daemon as typed: it reads its own data directory (which --data may not
        // name) and answers at once when the session is not there either.
        let place = "the rewind daemon at \(client.address) or \(data.directory.path)"
        let known = try !SessionIDResolver.matches(session, among: candidates).isEmpty
        let source = try known ? SessionIDResolver.resolve(session, among: candidates, in: place)
                               : SessionIDResolver.validated(session)
        if !known && into == nil {
            throw CommandError("no session \"\(session)\" in \(place) (for a saved session of another directory, give "
                + "--data DIR, or its whole id and the live session that receives it with --into SESSION)")
        }
        // The receiving app's state type, from the listing already read (a paced replay compares it before sending).
        func stateType(of target: SessionID) -> String? { sessions.first { $0.session == target.rawValue }?.stateType }
        if let into {
            let target = try SessionIDResolver.resolveLive(into, with: client, for: "receive a replay")
            return (source, target, stateType(of: target))
        }
        if sessions.contains(where: { $0.session == source.rawValue && $0.live }) { return (source, source, stateType(of: source)) }
        let live = sessions.filter(\.live)
        let hint = live.isEmpty ? "no app is connected to the daemon at \(client.address) now"
            : "live now: " + live.prefix(SessionIDResolver.listedCandidates).map(SessionIDResolver.describe)
                .joined(separator: ", ")
        throw CommandError("session \(source) is not live (its app is not connected): name the live session that "
            + "receives its actions with --into SESSION (\(hint))")
    }
}

/// How far a paced replay got, and whether Ctrl-C asked it to stop. Ctrl-C while waiting for Enter ends the
/// process at once, after saying how many actions were replayed.
private final class PacedReplayProgress: @unchecked Sendable {  // mutable state guarded by `condition`
    private let condition = NSCondition()
    /// How many actions the replay holds; nil while more pages may come.
    private let total: Int?
    private let session: String
    private let target: String
    private var count = 0
    private var stopped = false
    private var waitingForInput = false
    private var inputEnded = false
    private var source: (any DispatchSourceSignal)?

    init(total: Int?, session: String, target: String) {
        self.total = total
        self.session = session
        self.target = target
    }

    /// What a replay that stopped after `done` actions says: the same words whether Ctrl-C came while it waited for
    /// Enter (the signal handler says it) or just before (the main thread does).
    func stoppedLine(after done: Int) -> String {
        "stopped after \(done)\(total.map { " of \($0)" } ?? "") actions of \(session) replayed into \(target)"
    }

    var replayed: Int { locked { count } }
    var isStopped: Bool { locked { stopped } }
    /// True when standard input ended while the replay waited for Enter (`--step`): it stops there, not an error.
    var endedEarly: Bool { locked { inputEnded } }

    func replayedOne() { locked { count += 1 } }

    /// Turns SIGINT into a stop request.
    func stopOnInterrupt() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [self] in
            condition.lock()
            stopped = true
            let waiting = waitingForInput, done = count
            condition.broadcast()
            condition.unlock()
            if waiting {
                // The main thread is blocked in `readLine` holding standard input's stdio lock, which `exit` and
                // `fflush(nil)` would wait for: write directly (everything printed before was flushed) and leave.
                FileHandle.standardOutput.write(Data("\n\(stoppedLine(after: done))\n".utf8))
                _exit(130)
            }
        }
        source.resume()
        self.source = source
    }

    /// Reads one line from standard input; false at end of input or after Ctrl-C.
    func waitForEnter() -> Bool {
        // A Ctrl-C that came between the prompt and here found nobody waiting: stop now instead of reading.
        let alreadyStopped = locked { () -> Bool in
            if stopped { return true }
            waitingForInput = true
            return false
        }
        if alreadyStopped { return false }
        let line = readLine()
        return locked {
            waitingForInput = false
            if line == nil { inputEnded = true }
            return line != nil && !stopped
        }
    }

    /// Sleeps up to `seconds`, waking early on Ctrl-C.
    func sleep(seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopped, condition.wait(until: deadline) {}
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
