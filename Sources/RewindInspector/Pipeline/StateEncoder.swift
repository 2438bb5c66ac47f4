import Foundation
import RewindWire

/// Encodes the states the inspector sends: redacted `JSONValue` trees, through the encoding memo while it is on
/// (docs/ARCHITECTURE.md, "The encoding memo"), and measures their size so that the outbox charges follow the state.
///
/// The memo is set up at ``prepare(_:)`` when the state is `Encodable` and the memo's encoding of the initial state
/// equals the recorder's own. Every ``InspectorConfiguration/memoCheckInterval``-th memoised tree is handed to a
/// ``MemoChecker`` that compares it with a whole encoding off this thread; when the app goes idle the last tree is
/// compared here (``checkWhileIdle()``). A difference turns the memo off for the rest of the session (said once on
/// standard error) and hands back the true state, which ``FrameBuilder`` sends as a `snapshot` with reason
/// ``memoCheckReason``.
///
/// Threading: a value owned by the pipeline thread (its ``MemoChecker`` runs a thread of its own).
struct StateEncoder<State: Sendable, Action: Sendable> {
    /// How the memo fared so far: states encoded through it, comparisons with a full encoding, and whether one found
    /// it wrong (it is then off for good).
    struct MemoStatistics: Sendable {
        var encodings = 0
        var checks = 0
        var failedCheck = false
    }

    /// The `reason` of the snapshot sent when the memo's tree differed from a full encoding.
    static var memoCheckReason: String { "memo-check" }

    private let coding: RecorderCoding<State, Action>
    private let redactor: Redactor
    private let configuration: InspectorConfiguration
    private let stateType: String
    /// The incremental encoder of states; nil when the state is not `Encodable`, or after a check found the memo
    /// wrong (it stays off for the rest of the session).
    private var memo: StateEncodingMemo?
    /// Encodes a state through the memo (the state's own `Encodable` conformance); set with ``memo``.
    private var memoEncode: ((State, StateEncodingMemo) throws -> JSONValue)?
    /// Memo encodings since the last comparison with a full encoding.
    private var memoEncodingsSinceCheck = 0
    /// The last state encoded through the memo and its unredacted tree; `checked` once a check has it. Nil while
    /// states are not encoded through the memo.
    private var lastMemoEncoding: (state: State, tree: JSONValue, checked: Bool)?
    /// Compares memoised trees with full encodings off the pipeline thread.
    let memoChecker: MemoChecker<State>
    /// How the memo fared so far.
    private(set) var statistics = MemoStatistics()
    /// The encoded state's size as last measured, bytes.
    private(set) var stateBytes = 0
    /// The storage the memo's recent encodings found changed (see ``StateEncodingMemo/lastUnsharedBytes``): the
    /// largest of the last encodings, fading by a sixteenth per encoding.
    private var recentUnsharedBytes = 0
    /// True once a memo encoding measured ``recentUnsharedBytes``.
    private(set) var unsharedMeasured = false
    /// When the state's size was last measured, by any of the measurements or a memo check (monotonic seconds).
    private var lastMeasure = 0.0
    private var sentSinceMeasure = 0

    /// An encoder for states of type `stateType` (named in log lines).
    init(coding: RecorderCoding<State, Action>, redactor: Redactor, configuration: InspectorConfiguration,
         stateType: String) {
        self.coding = coding
        self.redactor = redactor
        self.configuration = configuration
        self.stateType = stateType
        memoChecker = MemoChecker(encode: { try coding.encodeState($0) })
    }

    /// Encodes the initial state (the first baseline), measures it, and sets the memo up when it can be trusted.
    mutating func prepare(_ initial: State, now: Double) -> JSONValue {
        let expected = try? coding.encodeState(initial)
        let baseline = expected.map(redactor.redact) ?? encodeWhole(initial)
        stateBytes = baseline.serializedBytes().count
        lastMeasure = now
        guard configuration.memoMinimumStateBytes < Int.max, let encode = Self.memoEncoder() else { return baseline }
        let memo = StateEncodingMemo(encoder: coding.jsonEncoder)
        guard let expected, let tree = try? encode(initial, memo), tree == expected else {
            log("the incremental encoding of \(stateType) differs from its full encoding; every state is encoded whole")
            return baseline
        }
        self.memo = memo
        memoEncode = encode
        if !memoActive { memo.forget() }
        return baseline
    }

    /// True while the memo is on and no memo encoding has measured what a state shares with the one before: the
    /// states queued meanwhile are charged their whole size (see ``probeUnshared(newest:)``).
    var awaitsSharingProbe: Bool { memoActive && !unsharedMeasured && !sharingProbeFailed }
    /// True once a probe's memo encoding threw (the state cannot be encoded through the memo): not probed again.
    private var sharingProbeFailed = false

    /// True while states are encoded through the memo: it exists (and was never found wrong) and the state is at
    /// least ``InspectorConfiguration/memoMinimumStateBytes`` (as last measured).
    private var memoActive: Bool {
        memo != nil && stateBytes >= configuration.memoMinimumStateBytes
    }

    /// Encodes a state through its own `Encodable` conformance with a memo; nil when `State` is not `Encodable`.
    private static func memoEncoder() -> ((State, StateEncodingMemo) throws -> JSONValue)? {
        guard State.self is any Encodable.Type else { return nil }
        return { state, memo in
            guard let encodable = state as? any Encodable else {
                throw EncodingError.invalidValue(state, EncodingError.Context(codingPath: [], debugDescription: "not Encodable"))
            }
            return try memo.encode(encodable)
        }
    }

    /// Encodes a state to be sent: through the memo while it is active (every
    /// ``InspectorConfiguration/memoCheckInterval``-th tree is offered to the checker), whole otherwise.
    ///
    /// `followsLastSent` says whether `state` is the state right after the last one encoded (an action's): only then
    /// does what the memo found changed measure what one held state does not share with the next, the figure
    /// ``stateCharge`` follows. The state that closes a coalesced range, or one a jump put in place, differs from the
    /// last one sent by many actions' changes; counting that as one state's would overcharge every queued state and
    /// make the outbox coalesce again (at 1 MB and 5,000 actions/s it did, in a cascade, after every closing snapshot).
    mutating func encodeForSending(_ state: State, followsLastSent: Bool = true) -> JSONValue {
        guard let memo, let memoEncode else { return encodeWhole(state) }
        guard memoActive else {
            if memo.remembersAnything { memo.forget() }
            lastMemoEncoding = nil
            return encodeWhole(state)
        }
        let tree: JSONValue
        do {
            tree = try memoEncode(state, memo)
        } catch {
            lastMemoEncoding = nil
            return encodeWhole(state)
        }
        memoEncodingsSinceCheck += 1
        statistics.encodings += 1
        if followsLastSent {
            recentUnsharedBytes = max(memo.lastUnsharedBytes, recentUnsharedBytes - recentUnsharedBytes / 16)
            unsharedMeasured = true
        }
        let checked = memoEncodingsSinceCheck >= max(1, configuration.memoCheckInterval)
            && memoChecker.offer(state: state, tree: tree)
        if checked { memoEncodingsSinceCheck = 0 }
        lastMemoEncoding = (state, tree, checked)
        return redactor.redact(tree)
    }

    /// The redacted whole encoding of `state` (an object naming the error when it cannot be encoded).
    func encodeWhole(_ state: State) -> JSONValue {
        do {
            return redactor.redact(try coding.encodeState(state))
        } catch {
            return .object(JSONObject([("$encodingError", .string(String(describing: error)))]))
        }
    }

    /// Collects the verdict of a check the checker finished: its size measurement replaces this encoder's own; a
    /// difference turns the memo off and returns the true encoding of the last state encoded through the memo (the
    /// patches since the checked state may have been made from wrong trees). Nil when there is nothing to send.
    mutating func takeVerdict(now: Double) -> JSONValue? {
        guard memo != nil, let verdict = memoChecker.takeVerdict() else { return nil }
        statistics.checks += 1
        if verdict.matched {
            stateBytes = verdict.encodedBytes
            lastMeasure = now
            return nil
        }
        let state = lastMemoEncoding?.state
        turnMemoOff()
        return state.map(encodeWhole)
    }

    /// When the app has gone quiet: waits for the check under way, then compares the last memoised tree with a whole
    /// encoding of its state; returns the true encoding when they differ (the memo is then off).
    mutating func checkWhileIdle(now: Double) -> JSONValue? {
        if memo != nil {
            memoChecker.waitUntilIdle()
            if let truth = takeVerdict(now: now) { return truth }
        }
        guard let last = lastMemoEncoding, !last.checked else { return nil }
        lastMemoEncoding?.checked = true
        memoEncodingsSinceCheck = 0
        statistics.checks += 1
        guard let full = try? coding.encodeState(last.state), full != last.tree else { return nil }
        turnMemoOff()
        return redactor.redact(full)
    }

    /// Turns the memo off for the rest of the session after a check found one of its trees wrong, and says why once.
    private mutating func turnMemoOff() {
        statistics.failedCheck = true
        memo?.forget()
        memo = nil
        memoEncode = nil
        lastMemoEncoding = nil
        memoChecker.stop()
        log("the incremental encoding of \(stateType) differed from a full encoding (a type whose encoding reads more "
            + "than its value, or a class instance the first states did not show); sending the full state, and "
            + "encoding every state whole from now on")
    }

    /// True while a check the checker took has not given its verdict yet.
    var owesVerdict: Bool { memoChecker.owesVerdict }

    /// Stops the checker's thread.
    func stop() {
        memoChecker.stop()
    }

    // MARK: - Measuring

    /// How many bytes of memory a `JSONValue` tree takes per byte of its compact serialization. Measured with
    /// `heaptrack` on `stress`'s 1 MB state (objects of three members, one a 60-byte string the tree shares with the
    /// app's state): about 1.5; 2 leaves room for trees whose strings are their own (redacted, or numbers).
    static var treeBytesPerEncodedByte: Int { 2 }

    /// What holding one more state in the outbox costs the process beyond its slot: while the memo encodes the
    /// states, the storage its recent encodings found changed (what a state held beside the next does not share with
    /// it: the collections the change copied) and half as much again, plus 512 bytes (the strings and small
    /// collections the memo does not count); otherwise, and never more than, the state's whole encoded size.
    var stateCharge: Int {
        guard memoActive, unsharedMeasured else { return stateBytes }
        return min(stateBytes, recentUnsharedBytes + recentUnsharedBytes / 2 + 512)
    }

    /// The memory the encoder's trees take, estimated from the state's encoded size: the last state sent (the
    /// baseline of the next patch), the next one while it is diffed against it, and a third for the memo checker's
    /// full encoding or a snapshot's.
    var heldTreeBytes: Int { 3 * Self.treeBytesPerEncodedByte * stateBytes }

    /// When nothing measured the state for a quarter of a second, measures `newest` (the newest state the outbox
    /// holds), so that the outbox's charges follow a state that grows while nothing is sent. True when measured.
    mutating func remeasure(newest: () -> State?, now: Double) -> Bool {
        guard now - lastMeasure >= 0.25 else { return false }
        lastMeasure = now
        guard let state = newest() else { return false }
        stateBytes = max(stateBytes, encodeWhole(state).serializedBytes().count)
        return true
    }

    /// Before the memo has encoded a state after the initial one, encodes the two newest states the outbox holds
    /// through it, the newest last, to learn what a state shares with the one before (so the first states queued,
    /// while the connection comes up, are charged what they hold rather than their whole size). Only the newest's
    /// encoding is measured: it follows the other, where the first follows the initial state by every action queued
    /// so far. With a single state queued, that state is measured against the initial one (an overestimate, so on the
    /// safe side). The trees are not sent; the memo simply remembers the newest state's collections. True when
    /// measured.
    mutating func probeUnshared(newest: () -> (previous: State?, newest: State)?) -> Bool {
        guard !unsharedMeasured, !sharingProbeFailed, memoActive, let memo, let memoEncode, let states = newest() else {
            return false
        }
        do {
            if let previous = states.previous { _ = try memoEncode(previous, memo) }
            _ = try memoEncode(states.newest, memo)
        } catch {
            sharingProbeFailed = true
            return false
        }
        recentUnsharedBytes = memo.lastUnsharedBytes
        unsharedMeasured = true
        return true
    }

    /// Re-measures every few hundred states sent, unless the memo is on and its checks (which measure each state
    /// they check, off this thread) measured within the last second. True when measured.
    mutating func measureOccasionally(_ encoded: JSONValue, now: Double) -> Bool {
        sentSinceMeasure += 1
        guard sentSinceMeasure >= 256 else { return false }
        sentSinceMeasure = 0
        guard !memoActive || now - lastMeasure >= 1 else { return false }
        measure(encoded, now: now)
        return true
    }

    /// Measures `encoded`, a state just sent whole.
    mutating func measure(_ encoded: JSONValue, now: Double) {
        lastMeasure = now
        stateBytes = encoded.serializedBytes().count
    }

    /// Takes `bytes` as the state's size: a frame that carried the state just sent whole (its envelope is a few
    /// dozen bytes).
    mutating func measured(bytes: Int, now: Double) {
        lastMeasure = now
        stateBytes = bytes
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("rewind inspector: \(message)\n".utf8))
    }
}
