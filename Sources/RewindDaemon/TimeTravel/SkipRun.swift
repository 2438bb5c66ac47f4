import Foundation
import RewindSessionFile

/// One skip toggle from its request to its answer (``Daemon/skip(session:index:completion:)``): it is answered
/// exactly once, and within one deadline — the command timeout, counted from the request — whatever it waits for
/// on the way: an earlier skip of the session, the session file, the app's answers to the recomputation's replays
/// (or to the jump back to the main line). When the deadline passes first, the toggle is answered `command_failed`
/// naming what it was waiting for, and the app command it waited for is failed, so that a late answer is ignored and
/// the toggle's work ends (and frees the session's skip lane) at once.
///
/// Threading: any thread; all mutable state guarded by `lock`. The completion and the failing of the outstanding
/// command run outside the lock.
final class SkipRun: @unchecked Sendable {  // mutable state guarded by `lock`
    /// The session whose event is toggled.
    let session: SessionID
    /// The toggled event.
    let index: Int64

    private let lock = NSLock()
    /// Set until the toggle is answered.
    private var completion: Daemon.SkipCompletion?
    /// What the toggle waits for now, as the end of the deadline's sentence ("the app did not answer …").
    private var waitingFor = "an earlier skip of this session was still running"
    /// The app command the toggle waits for, if any.
    private var outstanding: Daemon.SentCommand?
    /// True once the toggle's work has everything it needs and records it before answering: the deadline no
    /// longer answers.
    private var recording = false

    /// A toggle of event `index` of `session`, answered through `completion`.
    init(session: SessionID, index: Int64, completion: @escaping Daemon.SkipCompletion) {
        self.session = session
        self.index = index
        self.completion = completion
    }

    /// Answers `command_failed` once `seconds` pass without an answer (nothing for 0, infinite or not a number:
    /// no limit). `shown` is how the limit is written in the sentence ("60 s"). Any thread.
    func armDeadline(after seconds: Double, shown: String) {
        guard seconds > 0, seconds.isFinite else { return }
        // Weak: a toggle that has ended is released by its work; its deadline then has nothing to answer.
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.expire(shown: shown) }
    }

    /// True once the toggle was answered (by its work or by the deadline): its work stops at the next step.
    var hasAnswered: Bool {
        lock.withLock { completion == nil }
    }

    /// Says what the toggle waits for from now on, for the deadline's sentence: a clause such as "the app did not
    /// answer the replay …".
    func waiting(for what: String) {
        lock.withLock { waitingFor = what }
    }

    /// Remembers the app command the toggle now waits for (nil: none). A toggle answered already fails it at once.
    func track(_ command: Daemon.SentCommand?) {
        let late = lock.withLock { () -> Daemon.SentCommand? in
            guard completion != nil else { return command }
            outstanding = command
            return nil
        }
        if let late { late.live.failCommand(late.id, error: "the skip of event \(index) was already answered") }
    }

    /// Forgets the command the toggle waited for (it was answered).
    func untrack() {
        lock.withLock { outstanding = nil }
    }

    /// Called once the app has answered everything: from now on the deadline no longer answers, so that what the
    /// toggle records (its branch, its `skip` row) and what the client is told agree. False when the deadline
    /// answered first: then nothing is recorded.
    func beginRecording() -> Bool {
        lock.withLock {
            guard completion != nil else { return false }
            recording = true
            return true
        }
    }

    /// Answers the toggle with `result` unless it was answered already; true when this call answered it.
    @discardableResult
    func answer(_ result: Result<SkipOutcome, DaemonError>) -> Bool {
        let pending = lock.withLock { () -> Daemon.SkipCompletion? in
            defer { completion = nil }
            return completion
        }
        pending?(result)
        return pending != nil
    }

    /// The deadline passed: answers `command_failed` with what the toggle waited for, then fails the app command it
    /// waited for (whose failure ends the toggle's work).
    private func expire(shown: String) {
        let (pending, reason, command) = lock.withLock {
            () -> (Daemon.SkipCompletion?, String, Daemon.SentCommand?) in
            guard !recording else { return (nil, waitingFor, nil) }
            defer {
                completion = nil
                outstanding = nil
            }
            return (completion, waitingFor, outstanding)
        }
        guard let pending else { return }
        pending(.failure(DaemonError("cannot skip event \(index) of session \(session): no answer within \(shown) "
            + "(the command timeout): \(reason)", code: .commandFailed)))
        if let command {
            command.live.failCommand(command.id, error: "the skip of event \(index) ran out of time (\(shown))")
        }
    }
}
