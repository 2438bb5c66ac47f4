import Foundation
import RewindSessionFile
import RewindWire

/// Puts together the app's answer to one `replay` command: one `result` carrying every state (an app older than
/// `portions`), or the portions of patches a current app sends (PROTOCOL.md, `replay`), turned back into the
/// state after each action by applying each patch to the state before it.
///
/// With `keepingStates` false nothing but a count is kept (a replay whose states nobody reads: `rewind replay`),
/// so the daemon's memory stays flat whatever the states' size.
/// Threading: portions arrive one at a time on the app connection's queue; the lock makes any thread safe anyway.
final class ReplayAnswerAssembler: @unchecked Sendable {  // mutable state guarded by `lock`
    private let lock = NSLock()
    private let expected: Int
    private let keepingStates: Bool
    private var current: JSONValue?
    private var states: [JSONValue] = []
    private var count = 0

    /// An assembler for the answer to a replay of `expected` actions.
    init(expected: Int, keepingStates: Bool) {
        self.expected = expected
        self.keepingStates = keepingStates
    }

    /// Takes one `result` of the answer; returns nil while more portions are to come, else the whole answer (a
    /// result with `states`, or without them and with `replayed` when they are not kept) or why it is unusable.
    func take(_ portion: CommandResult) -> Result<CommandResult, DaemonError>? {
        lock.withLock { () -> Result<CommandResult, DaemonError>? in
            guard portion.ok else {
                return .failure(DaemonError(portion.error ?? "the app refused the command", code: .commandFailed))
            }
            if portion.patches == nil, !portion.more {
                // A single answer with every state (an app that does not know `portions`), or none (a plain reset).
                let answered = portion.states ?? []
                guard answered.count == expected else {
                    return .failure(DaemonError("the app answered \(answered.count) states for \(expected) actions",
                                                code: .commandFailed))
                }
                if keepingStates { return .success(portion) }
                return .success(CommandResult(id: portion.id, ok: true, replayed: answered.count))
            }
            if let from = portion.from { current = from }
            for patch in portion.patches ?? [] {
                count += 1
                guard keepingStates else { continue }
                guard let before = current else {
                    return .failure(DaemonError("the app's answer to replay has patches but no \"from\" state to apply "
                        + "them to", code: .commandFailed))
                }
                do {
                    let after = try patch.apply(to: before)
                    states.append(after)
                    current = after
                } catch {
                    return .failure(DaemonError("the patch of replayed action \(count) in the app's answer does not "
                        + "apply to the state before it: \(error)", code: .commandFailed))
                }
            }
            guard !portion.more else { return nil }
            let replayed = portion.replayed ?? count
            guard count == expected, replayed == expected else {
                return .failure(DaemonError("the app answered \(count) patches (replayed \(replayed)) for \(expected) "
                    + "actions", code: .commandFailed))
            }
            if !keepingStates { return .success(CommandResult(id: portion.id, ok: true, replayed: count)) }
            let all = states
            states = []
            return .success(CommandResult(id: portion.id, ok: true, states: all, state: current, replayed: count))
        }
    }
}
