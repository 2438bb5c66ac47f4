import RewindWire

/// What one recorded row means, stated by what wrote it (the daemon's ingest, time travel, an import) and read back
/// as it was written: whether the state after the row is known and, when not, why; and the facts the row's display
/// text (`detail`) tells a person — which event a branch row recomputes, which event a skip row skips or brings back
/// and on which branch, where a branch starts, which actions a `lost` row lost, which events a replay replayed. Stored in schema 2's `unknown`, `unknown_cause` and `meaning` columns
/// (docs/SESSION-FORMAT.md, "What a row means"); for files of schema 1 the reader works it out once, in
/// ``SchemaOneMeaning``, the only code that reads `detail`.
///
/// Threading: a plain value; `Sendable`.
package struct RowMeaning: Sendable, Hashable {
    /// Set when the state after the row (on its branch) is not known: why, and which row made it so.
    package var unknownState: UnknownStateMark?
    /// For a row of a recomputed branch: the main-line event it recomputes.
    package var recomputes: Int64?
    /// For a `skip` row: the event it skips or brings back, and the branch its recomputation is recorded on.
    package var skip: SkipMark?
    /// For the first row of a branch N > 0 (its `recomputed` note): the main-line event whose state the branch starts
    /// from (0: the initial state).
    package var branchFrom: Int64?
    /// For a `replay` row of `rewind replay` (or the timeline's `r`): the recorded events whose actions were replayed.
    package var replayed: ReplayedRange?
    /// For a `dropped` row labelled `lost`: the run's actions it counts as lost.
    package var lost: LostActions?
    /// For an app's action: it was dispatched before the connection that delivered it was made (the app queued it
    /// while disconnected), as the app's `hello` says (`dispatched`), not as clocks suggest.
    package var beforeConnect: Bool
    /// For a `jump` row: the event whose recorded state the daemon put the app into (0: the initial state).
    package var jumpTarget: Int64?
    /// For a `snapshot`, `jump` or `replay` row: why the app sent the whole state (`snapshot.reason`: `coalesced`,
    /// `resync`, `encoding`, `jump`, `replay`, …).
    package var stateReason: String?
    /// For an action imported from Redux DevTools whose reducer threw (`computedStates[i].error`): the error's
    /// message; the state after the action is the state before it, as Redux DevTools keeps it.
    package var reducerError: String?

    /// A meaning with every field given; the default is a row whose state is known and that says nothing more.
    package init(unknownState: UnknownStateMark? = nil, recomputes: Int64? = nil, skip: SkipMark? = nil,
                branchFrom: Int64? = nil, replayed: ReplayedRange? = nil, lost: LostActions? = nil,
                beforeConnect: Bool = false, jumpTarget: Int64? = nil, stateReason: String? = nil,
                reducerError: String? = nil) {
        self.unknownState = unknownState
        self.recomputes = recomputes
        self.skip = skip
        self.branchFrom = branchFrom
        self.replayed = replayed
        self.lost = lost
        self.beforeConnect = beforeConnect
        self.jumpTarget = jumpTarget
        self.stateReason = stateReason
        self.reducerError = reducerError
    }

    /// True when the state after the row is known.
    package var stateKnown: Bool { unknownState == nil }

    /// The `meaning` column's JSON object (`recomputes`, `skip`, `branchFrom`, `replayed`, `lost`, `beforeConnect`,
    /// `jumpTarget`, `stateReason`, `reducerError`), nil when it says none.
    package var storedFacts: JSONValue? {
        var pairs: [(String, JSONValue)] = []
        if let recomputes { pairs.append(("recomputes", .int(recomputes))) }
        if let skip {
            var members: [(String, JSONValue)] = [("event", .int(skip.event)), ("skipped", .bool(skip.skipped))]
            if let branch = skip.branch { members.append(("branch", .int(branch))) }
            pairs.append(("skip", .object(JSONObject(members))))
        }
        if let branchFrom { pairs.append(("branchFrom", .int(branchFrom))) }
        if let replayed {
            var members: [(String, JSONValue)] = [("from", .int(replayed.from)), ("to", .int(replayed.to))]
            if let session = replayed.session { members.append(("session", .string(session))) }
            pairs.append(("replayed", .object(JSONObject(members))))
        }
        if let lost {
            pairs.append(("lost", .object(JSONObject([("from", .int(lost.from)), ("to", .int(lost.to)),
                                                      ("count", .int(lost.count))]))))
        }
        if beforeConnect { pairs.append(("beforeConnect", .bool(true))) }
        if let jumpTarget { pairs.append(("jumpTarget", .int(jumpTarget))) }
        if let stateReason { pairs.append(("stateReason", .string(stateReason))) }
        if let reducerError { pairs.append(("reducerError", .string(reducerError))) }
        return pairs.isEmpty ? nil : .object(JSONObject(pairs))
    }

    /// Reads the `meaning` column's object back (members this build does not know are passed over); throws a
    /// description of what is malformed.
    package mutating func readFacts(_ value: JSONValue) throws(RowMeaningProblem) {
        guard let object = value.objectValue else { throw RowMeaningProblem("it is not a JSON object") }
        if let recomputes = object["recomputes"] {
            guard let event = recomputes.int64Value else { throw RowMeaningProblem("\"recomputes\" is not an integer") }
            self.recomputes = event
        }
        if let skip = object["skip"] {
            guard let event = skip.objectValue?["event"]?.int64Value,
                  let skipped = skip.objectValue?["skipped"]?.boolValue else {
                throw RowMeaningProblem("\"skip\" needs an integer \"event\" and a boolean \"skipped\"")
            }
            let branch = skip.objectValue?["branch"]
            guard branch == nil || branch?.int64Value != nil else {
                throw RowMeaningProblem("\"skip\"'s \"branch\" is not an integer")
            }
            self.skip = SkipMark(event: event, skipped: skipped, branch: branch?.int64Value)
        }
        if let from = object["branchFrom"] {
            guard let event = from.int64Value else { throw RowMeaningProblem("\"branchFrom\" is not an integer") }
            branchFrom = event
        }
        if let range = object["replayed"] {
            guard let from = range.objectValue?["from"]?.int64Value, let to = range.objectValue?["to"]?.int64Value else {
                throw RowMeaningProblem("\"replayed\" needs integers \"from\" and \"to\"")
            }
            let session = range.objectValue?["session"]
            guard session == nil || session?.stringValue != nil else {
                throw RowMeaningProblem("\"replayed\"'s \"session\" is not a string")
            }
            replayed = ReplayedRange(session: session?.stringValue, from: from, to: to)
        }
        if let lost = object["lost"] {
            guard let from = lost.objectValue?["from"]?.int64Value, let to = lost.objectValue?["to"]?.int64Value,
                  let count = lost.objectValue?["count"]?.int64Value else {
                throw RowMeaningProblem("\"lost\" needs integers \"from\", \"to\" and \"count\"")
            }
            self.lost = LostActions(from: from, to: to, count: count)
        }
        if let early = object["beforeConnect"] {
            guard let flag = early.boolValue else { throw RowMeaningProblem("\"beforeConnect\" is not a boolean") }
            beforeConnect = flag
        }
        if let target = object["jumpTarget"] {
            guard let event = target.int64Value else { throw RowMeaningProblem("\"jumpTarget\" is not an integer") }
            jumpTarget = event
        }
        if let reason = object["stateReason"] {
            guard let text = reason.stringValue else { throw RowMeaningProblem("\"stateReason\" is not a string") }
            stateReason = text
        }
        if let error = object["reducerError"] {
            guard let text = error.stringValue else { throw RowMeaningProblem("\"reducerError\" is not a string") }
            reducerError = text
        }
    }
}

/// Why a row's state is unknown, and the row that made it so (the first row of its stretch of unknown state has
/// the same `cause` as every other row of the stretch).
/// Threading: a plain value; `Sendable`.
package struct UnknownStateMark: Sendable, Hashable {
    /// Why the state is unknown.
    package var reason: UnknownStateReason
    /// The index of the row that made it unknown: the `dropped` or `lost` row, the `error` row of a patch that did
    /// not apply or of an event out of order, the import's opening row.
    package var cause: Int64

    /// A mark with every field given.
    package init(reason: UnknownStateReason, cause: Int64) {
        self.reason = reason
        self.cause = cause
    }
}

/// The reasons the record can lose track of the app's state (stored as their raw values in the `unknown` column).
/// Threading: a plain value; `Sendable`.
package enum UnknownStateReason: String, Sendable, Hashable, CaseIterable {
    /// The app's outbox coalesced: the actions of a `dropped` range came without their states (PROTOCOL.md §3.3).
    case dropped
    /// Actions of the run never reached the record (a `lost` row), so the state after them is not known.
    case lost
    /// A patch did not apply to the record's state (or would have passed the state limit).
    case patchFailed = "patch_failed"
    /// A message came out of order: the record cannot tell what the state became.
    case outOfOrder = "out_of_order"
    /// An imported file holds no initial state: the initial state and what follows are unknown.
    case initialUnknown = "initial_unknown"
}

extension UnknownStateReason {
    /// A short phrase for people, after "not recorded: " (e.g. "inside a dropped range").
    package var phrase: String {
        switch self {
        case .dropped: return "inside a dropped range"
        case .lost: return "after actions that never reached the record"
        case .patchFailed: return "after a patch that did not apply"
        case .outOfOrder: return "after a message that came out of order"
        case .initialUnknown: return "the imported file holds no initial state"
        }
    }

    /// A sentence for people saying what happened.
    package var sentence: String {
        switch self {
        case .dropped: return "The app's outbox coalesced: it could not send the states of these actions"
        case .lost: return "Actions of the app never reached the record"
        case .patchFailed: return "A patch did not apply to the recorded state: the daemon lost track of the app's state"
        case .outOfOrder: return "A message came out of order: the daemon cannot tell what the state became"
        case .initialUnknown: return "The imported file holds no initial state"
        }
    }
}

/// Which event a `skip` row skips (`skipped` true) or brings back (`skipped` false), and the branch the states after
/// it were recomputed on.
/// Threading: a plain value; `Sendable`.
package struct SkipMark: Sendable, Hashable {
    /// The main-line event the row is about.
    package var event: Int64
    /// True for a skip, false for an unskip.
    package var skipped: Bool
    /// The branch recording the recomputation this toggle caused; nil when none was recorded (an unskip that put
    /// the app back on the main line, or a file that does not say).
    package var branch: Int64?

    /// A mark with every field given.
    package init(event: Int64, skipped: Bool, branch: Int64? = nil) {
        self.event = event
        self.skipped = skipped
        self.branch = branch
    }
}

/// The recorded events whose actions a replay ran: `from`…`to` of `session` (nil: the session the row is in).
/// Threading: a plain value; `Sendable`.
package struct ReplayedRange: Sendable, Hashable {
    /// The session the actions came from; nil when it is the session the replay row is recorded in.
    package var session: String?
    /// The first replayed event.
    package var from: Int64
    /// The last replayed event.
    package var to: Int64

    /// A range with every field given.
    package init(session: String? = nil, from: Int64, to: Int64) {
        self.session = session
        self.from = from
        self.to = to
    }
}

/// The run's actions a `lost` row counts as lost: `from`…`to` (the app's numbers), `count` of them.
/// Threading: a plain value; `Sendable`.
package struct LostActions: Sendable, Hashable {
    /// The first lost action's number.
    package var from: Int64
    /// The last lost action's number.
    package var to: Int64
    /// How many actions were lost.
    package var count: Int64

    /// A range with every field given.
    package init(from: Int64, to: Int64, count: Int64) {
        self.from = from
        self.to = to
        self.count = count
    }
}

/// What is wrong with a stored meaning (for the reader's `corrupt` error).
package struct RowMeaningProblem: Error {
    /// The description.
    package var text: String
    package init(_ text: String) { self.text = text }
}
