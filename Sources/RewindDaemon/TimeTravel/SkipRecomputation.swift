import Foundation
import RewindSessionFile
import RewindWire

/// The app's side of a skip toggle that leaves something skipped: sends the plan's `replay`s to the app one after
/// another — each once the previous one is answered — and gathers the recomputed states of each segment. Waiting for
/// an answer occupies no thread: the next step starts from the answer's completion. The toggle's ``SkipRun`` says
/// what it waits for (for its deadline) and fails the outstanding replay when the deadline passes, which ends this
/// recomputation with that failure.
///
/// Threading: one step at a time (each step is started by the previous one's answer), each on Dispatch's global
/// queue; the progress is guarded by `lock` anyway, since consecutive steps run on different threads.
final class SkipRecomputation: @unchecked Sendable {  // progress guarded by `lock`
    /// Sends one replay of the plan to the app; returns the command sent (nil when it could not be sent: the
    /// completion has then been called with the failure).
    typealias SendReplay = @Sendable (SkipPlan.Replay, @escaping Daemon.CommandCompletion) -> Daemon.SentCommand?

    private let plan: SkipPlan
    private let run: SkipRun
    private let send: SendReplay
    private let finished: @Sendable (Result<[[JSONValue]], DaemonError>) -> Void
    private let lock = NSLock()
    /// The next replay of the plan to send.
    private var next = 0
    /// The recomputed states of each segment so far.
    private var computed: [[JSONValue]]

    /// A recomputation of `plan` for the toggle `run`, sending through `send`; `finished` gets the states of each
    /// segment (in the plan's order), or the first failure, once.
    init(plan: SkipPlan, run: SkipRun, send: @escaping SendReplay,
         finished: @escaping @Sendable (Result<[[JSONValue]], DaemonError>) -> Void) {
        self.plan = plan
        self.run = run
        self.send = send
        self.finished = finished
        self.computed = Array(repeating: [], count: plan.segments.count)
    }

    /// Sends the first replay. Any thread.
    func start() {
        sendNext()
    }

    /// Sends the next replay, or reports the states when every replay is answered.
    private func sendNext() {
        guard !run.hasAnswered else {
            return finished(.failure(DaemonError("the skip was answered already", code: .commandFailed)))
        }
        let step = lock.withLock { () -> (Int, [[JSONValue]]) in (next, computed) }
        guard step.0 < plan.replays.count else { return finished(.success(step.1)) }
        let replay = plan.replays[step.0]
        run.waiting(for: "the app did not answer the replay recomputing " + describe(replay))
        let sent = send(replay) { [self] result in
            run.untrack()
            DispatchQueue.global(qos: .userInitiated).async { [self] in take(result, for: replay) }
        }
        run.track(sent)
    }

    /// Takes the app's answer to `replay`: its states join their segment's, and the next replay goes out.
    private func take(_ result: Result<CommandResult, DaemonError>, for replay: SkipPlan.Replay) {
        switch result {
        case .failure(let error):
            finished(.failure(error))
        case .success(let answer):
            guard let states = answer.states, states.count == replay.actions.count else {
                return finished(.failure(DaemonError(
                    "the app answered \(answer.states?.count ?? 0) states for \(replay.actions.count) actions",
                    code: .commandFailed)))
            }
            lock.withLock {
                if computed.indices.contains(replay.segment) { computed[replay.segment] += states }
                next += 1
            }
            sendNext()
        }
    }

    /// What `replay` recomputes, for the deadline's sentence: "the 3 actions after event 4", "actions 1–32 of the 40
    /// from the state event 9 put in place", "nothing (a reset to the state after event 4)".
    private func describe(_ replay: SkipPlan.Replay) -> String {
        guard !replay.actions.isEmpty else { return "nothing (a reset to the state after event \(plan.earliest - 1))" }
        let start = plan.segments.indices.contains(replay.segment)
            ? plan.segments[replay.segment].reset.map { "from the state event \($0.event.index) put in place" } : nil
        let place = start ?? "after event \(plan.earliest - 1)"
        let count = replay.ofSegment
        if replay.actions.count == count {
            return "the \(count) action\(count == 1 ? "" : "s") \(place)"
        }
        let last = replay.first + replay.actions.count - 1
        return "actions \(replay.first)–\(last) of the \(count) \(place)"
    }
}
