import Foundation
import RewindWire

/// Compares trees the encoding memo produced with full encodings of their states, on a thread of its own, so that
/// the inspector's pipeline never stops for a whole-state encoding while the app is busy.
///
/// The pipeline offers every ``InspectorConfiguration/memoCheckInterval``-th memoised state with its tree
/// (``offer(state:tree:)``); the checker takes it when it is free and when its own share of a processor allows (after
/// a check that took `d`, it takes the next no sooner than `d × (1 / dutyCycle − 1)` later, so checks use at most
/// ``dutyCycle`` of one processor however large the state), encodes the state whole, compares, and leaves a
/// ``Verdict`` that the pipeline collects with ``takeVerdict()``. A check also measures the state's encoded size, which
/// spares the pipeline its own whole-state size measurements while the memo is on.
///
/// A wrong tree is found one check later than a check on the pipeline thread would find it (the patches made from it
/// are already sent); the pipeline then sends the true state as a `snapshot`, as it does for a difference found when
/// the app goes idle.
///
/// The thread starts with the first offer (apps whose states stay below the memo's threshold never start it) and
/// waits without a timeout while there is nothing to check: no wake-ups while the app is idle.
///
/// Threading: ``offer(state:tree:)``, ``takeVerdict()``, ``waitUntilIdle()`` and ``stop()`` from the pipeline thread
/// (any thread is safe: everything shared is guarded by one lock); the encoding runs on the checker's thread, with
/// `encode`, which must be safe to call from any thread.
final class MemoChecker<State: Sendable>: @unchecked Sendable {
    /// What one check found.
    struct Verdict: Sendable {
        /// True when the memo's tree was the full encoding.
        var matched: Bool
        /// Bytes of the state's encoded JSON (of its full encoding).
        var encodedBytes: Int
        /// How long the check took, in seconds.
        var seconds: Double
    }

    /// The largest share of one processor the checks may use.
    static var dutyCycle: Double { 0.125 }

    private let encode: @Sendable (State) throws -> JSONValue
    private let lock = NSCondition()
    private var job: (state: State, tree: JSONValue)?
    private var checking = false
    private var verdicts: [Verdict] = []
    private var nextAllowed = 0.0
    private var stopping = false
    private var started = false

    /// A checker that encodes states whole with `encode` (the recorder's coding, before redaction).
    init(encode: @escaping @Sendable (State) throws -> JSONValue) {
        self.encode = encode
    }

    /// Hands `state` and the memo's `tree` of it to the checker; false (and nothing kept) when it is still checking,
    /// holds a verdict not yet collected, or must rest to keep within its ``dutyCycle``.
    func offer(state: State, tree: JSONValue) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping, job == nil, !checking, verdicts.isEmpty, monotonicSeconds() >= nextAllowed else { return false }
        job = (state, tree)
        if !started {
            started = true
            let thread = Thread { [self] in run() }
            thread.name = "rewind.inspector.memo-check"
            thread.start()
        }
        lock.broadcast()
        return true
    }

    /// The verdict of the last finished check, once; nil when none is waiting.
    func takeVerdict() -> Verdict? {
        lock.lock()
        defer { lock.unlock() }
        return verdicts.isEmpty ? nil : verdicts.removeFirst()
    }

    /// True while a state waits for its check or is being checked, or a verdict waits to be taken: until then the
    /// pipeline may still have to send a state again.
    var owesVerdict: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !stopping && (job != nil || checking || !verdicts.isEmpty)
    }

    /// Waits until no state waits for its check or is being checked (the verdict is then ready to take).
    func waitUntilIdle() {
        lock.lock()
        while (job != nil || checking) && !stopping { lock.wait() }
        lock.unlock()
    }

    /// Ends the checker's thread (after the check under way, if any); verdicts not taken are forgotten. Idempotent.
    func stop() {
        lock.lock()
        stopping = true
        job = nil
        verdicts.removeAll()
        lock.broadcast()
        lock.unlock()
    }

    private func run() {
        while true {
            lock.lock()
            while job == nil && !stopping { lock.wait() }
            guard !stopping, let (state, tree) = job else {
                lock.unlock()
                return
            }
            job = nil
            checking = true
            lock.unlock()

            let started = monotonicSeconds()
            let full = try? encode(state)
            let bytes = (full ?? tree).serializedBytes().count
            let verdict = Verdict(matched: full == tree, encodedBytes: bytes, seconds: monotonicSeconds() - started)

            lock.lock()
            checking = false
            if !stopping { verdicts.append(verdict) }
            nextAllowed = monotonicSeconds() + verdict.seconds * (1 / Self.dutyCycle - 1)
            lock.broadcast()
            lock.unlock()
        }
    }
}
