import Foundation

/// Runs the timeline's commands through `TimelineActions` off the UI thread — one at a time, in the order they
/// were submitted — and keeps their outcomes until the UI thread takes them, so that a command waiting for the
/// app's answer never freezes the screen.
///
/// Jumps coalesce: a jump submitted right after another jump that has not started yet replaces it (only the last
/// of a burst of `<`/`>` presses is sent to the app; each whole-state jump of a 1 MB state costs ~0.2 s). A jump
/// never overtakes or replaces another kind of command.
///
/// Threading: `submit`, `takeOutcomes`, `waitUntilIdle` and `cancelQueued` may be called from any thread (the UI
/// thread, in practice); the actions are called on the queue's own serial thread. State is guarded by
/// `condition`.
final class CommandQueue: @unchecked Sendable {  // mutable state guarded by `condition`; `actions` see ActionsBox
    /// A finished command and the sentence for the status line.
    struct Outcome: Sendable {
        /// The command that ran (or was refused).
        let command: TimelineCommand
        /// What it reported, or the error it threw.
        let message: StatusMessage
    }

    /// Carries the actions to the queue's thread.
    private struct ActionsBox: @unchecked Sendable {  // `TimelineActions` contract: its commands are called only
        // from this queue's serial thread, one at a time; only `quit()` comes from the UI thread.
        let actions: any TimelineActions
    }

    private let actions: ActionsBox
    private let queue = DispatchQueue(label: "rewind.timeline.commands")
    private let condition = NSCondition()
    private var unfinished = 0
    private var outcomes: [Outcome] = []
    private var generation = 0
    /// Tickets of submitted commands, in order; the last one submitted, whether it is a jump and has not started.
    private var nextTicket = 0
    private var waitingJump: (ticket: Int, command: TimelineCommand)?
    private var superseded: Set<Int> = []

    /// A queue executing commands through `actions`.
    init(actions: any TimelineActions) {
        self.actions = ActionsBox(actions: actions)
    }

    /// Queues `command` to run after those already queued, and returns the queued jump it replaces, if any (a jump
    /// right behind another jump that has not started: see the type's comment). `redraw` and `quit` are not for
    /// this queue (the UI carries them out itself) and are ignored.
    @discardableResult
    func submit(_ command: TimelineCommand) -> TimelineCommand? {
        guard command.progressDescription != nil else { return nil }
        condition.lock()
        unfinished += 1
        let submittedIn = generation
        let ticket = nextTicket
        nextTicket += 1
        var replaced: TimelineCommand?
        if case .jump = command {
            if let waiting = waitingJump {
                superseded.insert(waiting.ticket)
                replaced = waiting.command
            }
            waitingJump = (ticket, command)
        } else {
            waitingJump = nil
        }
        condition.unlock()
        let actions = actions
        queue.async { [self] in
            condition.lock()
            let skipped = submittedIn != generation || superseded.remove(ticket) != nil
            if waitingJump?.ticket == ticket { waitingJump = nil }
            condition.unlock()
            let message = skipped ? nil : Self.execute(command, on: actions.actions)
            condition.lock()
            if let message { outcomes.append(Outcome(command: command, message: message)) }
            unfinished -= 1
            condition.broadcast()
            condition.unlock()
        }
        return replaced
    }

    /// Whether finished commands wait to be taken.
    var hasOutcomes: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !outcomes.isEmpty
    }

    /// Number of commands submitted and not yet finished (the running one included).
    var unfinishedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return unfinished
    }

    /// The outcomes of the commands finished since the last call, in order.
    func takeOutcomes() -> [Outcome] {
        condition.lock()
        defer { condition.unlock() }
        let taken = outcomes
        outcomes.removeAll()
        return taken
    }

    /// Waits until every submitted command has finished, at most `timeout` seconds; true when they all did.
    func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while unfinished > 0 {
            if !condition.wait(until: deadline) { return unfinished == 0 }
        }
        return true
    }

    /// Drops the commands that have not started yet (when the timeline quits); the running one finishes.
    func cancelQueued() {
        condition.lock()
        generation += 1
        condition.unlock()
    }

    private static func execute(_ command: TimelineCommand, on actions: any TimelineActions) -> StatusMessage? {
        do {
            switch command {
            case .jump(let session, let index):
                return StatusMessage(try actions.jump(session: session, index: index))
            case .skip(let session, let index):
                return StatusMessage(try actions.skip(session: session, index: index))
            case .replay(let session, let index):
                return StatusMessage(try actions.replay(session: session, from: index))
            case .dispatch(let session, let action):
                return StatusMessage(try actions.dispatch(session: session, action: action))
            case .export(let session):
                return StatusMessage(try actions.export(session: session))
            case .redraw, .quit, .openInPager, .copy, .search, .cancelSearch, .deleteSession, .computeStats, .savePins:
                return nil
            }
        } catch {
            return StatusMessage("\(error)", isError: true)
        }
    }
}
