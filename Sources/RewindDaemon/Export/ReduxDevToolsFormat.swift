import Foundation
import RewindWire

/// The Redux DevTools import format (the extension's "lifted state"): encoding of its pieces and decoding of a
/// whole document into a session (docs/SESSION-FORMAT.md).
///
/// `actionsById["0"]` is `@@INIT` and `computedStates[0]` the initial state; event N is `actionsById["N"]`, a
/// `PERFORM_ACTION` wrapper with the action and a millisecond `timestamp`, and `computedStates[N]` the state
/// after it. Rewind adds a `rewind` member to each wrapper (kind, exact time, appSeq, label, reducer time,
/// detail) and one at the top (the session), so that its own exports import back losslessly; other files
/// import with defaults.
/// Threading: pure functions.
enum ReduxDevToolsFormat {
    /// The Redux DevTools wrapper for one event, with Rewind's details under `rewind`.
    static func liftedAction(for event: RecordedEvent) -> JSONValue {
        var details: [(String, JSONValue)] = [
            ("index", .int(event.index)),
            ("kind", .string(event.kind.rawValue)),
            ("time", .double(event.time)),
        ]
        if let appSeq = event.appSeq { details.append(("appSeq", .int(appSeq))) }
        if let label = event.label { details.append(("label", .string(label))) }
        if let micros = event.reducerMicros { details.append(("reducerMicros", .double(micros))) }
        if let detail = event.detail { details.append(("detail", .string(detail))) }
        if event.patch == nil { details.append(("noPatch", true)) }
        let action: JSONValue
        if let original = event.action, original["type"]?.stringValue != nil {
            action = original
        } else {
            // Redux actions are objects with a string `type`; anything else is wrapped, and the original kept.
            var pairs: [(String, JSONValue)] = [("type", .string(event.label ?? "@@rewind/\(event.kind.rawValue)"))]
            if let original = event.action {
                pairs.append(("payload", original))
                details.append(("action", original))
            }
            if let detail = event.detail, event.kind != .action { pairs.append(("detail", .string(detail))) }
            details.append(("synthesized", true))
            action = .object(JSONObject(pairs))
        }
        return .object(JSONObject([
            ("type", "PERFORM_ACTION"),
            ("action", action),
            ("timestamp", .int(milliseconds(event.time))),
            ("rewind", .object(JSONObject(details))),
        ]))
    }

    /// The wrapper of the `@@INIT` action at id 0.
    static func initAction(at time: Double) -> JSONValue {
        .object(JSONObject([
            ("type", "PERFORM_ACTION"),
            ("action", ["type": "@@INIT"]),
            ("timestamp", .int(milliseconds(time))),
        ]))
    }

    /// Unix seconds to JavaScript milliseconds. Never traps: a stored time outside any sensible range (written
    /// by an older version, which did not check) saturates.
    static func milliseconds(_ seconds: Double) -> Int64 {
        Int64(saturating: (seconds * 1000).rounded())
    }

    // MARK: Decoding

    /// A Redux DevTools document decoded into what a recording needs.
    struct Document {
        var session: SessionLinesFormat.Session?
        var initialState: JSONValue
        var steps: [Step]
    }

    /// One staged action after `@@INIT`.
    struct Step {
        var event: NewEvent
        var state: JSONValue
        /// The original event had no patch (its state is replaced or unchanged).
        var noPatch: Bool
    }

    /// True when `value` looks like a Redux DevTools lifted state.
    static func isDocument(_ value: JSONValue) -> Bool {
        value["actionsById"]?.objectValue != nil && value["computedStates"]?.arrayValue != nil
    }

    static func parse(_ value: JSONValue) throws(ImportProblem) -> Document {
        guard case .object(let root) = value else { throw ImportProblem("the document must be a JSON object") }
        guard case .object(let actions)? = root["actionsById"] else {
            throw ImportProblem("the document has no \"actionsById\" object")
        }
        guard case .array(let computed)? = root["computedStates"] else {
            throw ImportProblem("the document has no \"computedStates\" array")
        }
        var staged: [Int64]
        if let stagedValue = root["stagedActionIds"] {
            guard case .array(let ids) = stagedValue else { throw ImportProblem("\"stagedActionIds\" must be an array") }
            staged = []
            for (position, id) in ids.enumerated() {
                guard let number = id.int64Value else {
                    throw ImportProblem("stagedActionIds[\(position)] must be an integer, not \(id.kindName)")
                }
                staged.append(number)
            }
        } else {
            staged = actions.keys.compactMap { Int64($0) }.sorted()
        }
        let skipped = Set((root["skippedActionIds"]?.arrayValue ?? []).compactMap(\.int64Value))
        guard !staged.isEmpty else { throw ImportProblem("\"stagedActionIds\" is empty: there is no initial state") }
        guard computed.count == staged.count else {
            throw ImportProblem("\"computedStates\" has \(computed.count) entries for \(staged.count) staged actions")
        }
        var session: SessionLinesFormat.Session?
        if case .object(let rewind)? = root["rewind"], case .object(let sessionObject)? = rewind["session"] {
            session = try SessionLinesFormat.parseSession(sessionObject, in: "rewind.session")
        }
        func state(at position: Int) throws(ImportProblem) -> JSONValue {
            guard case .object(let entry) = computed[position], let state = entry["state"] else {
                throw ImportProblem("computedStates[\(position)] has no \"state\"")
            }
            return state
        }

        let initialState = try state(at: 0)
        var steps: [Step] = []
        steps.reserveCapacity(staged.count - 1)
        var previousTime = session?.startedAt.timeIntervalSince1970 ?? 0
        for position in 1..<staged.count {
            let id = staged[position]
            let place = "actionsById[\"\(id)\"]"
            guard case .object(let lifted)? = actions[String(id)] else {
                throw ImportProblem("stagedActionIds[\(position)] is \(id), but \(place) does not exist")
            }
            guard let action = lifted["action"] else { throw ImportProblem("\(place) has no \"action\"") }
            let details = lifted["rewind"]?.objectValue ?? JSONObject()
            let detailsPlace = "\(place).rewind"
            var kind = EventKind.action
            if let kindText = try details.optionalString("kind", in: detailsPlace) {
                guard let known = EventKind(rawValue: kindText) else {
                    throw ImportProblem("\(detailsPlace): unknown kind \"\(kindText)\"")
                }
                kind = known
            }
            let synthesized = details["synthesized"]?.boolValue ?? false
            let timestamp = try lifted.optionalNumber("timestamp", in: place).map { $0 / 1000 }
            let time: Double
            if let exact = try details.optionalTime("time", in: detailsPlace) {
                time = exact
            } else {
                time = try ImportProblem.checkTime(timestamp ?? previousTime, "timestamp", in: place)
            }
            previousTime = time
            var detail = try details.optionalString("detail", in: detailsPlace)
            if detail == nil, details.isEmpty, skipped.contains(id) { detail = "skipped in Redux DevTools" }
            let event = NewEvent(
                appSeq: try details.optionalInteger("appSeq", in: detailsPlace),
                time: time,
                kind: kind,
                label: details.isEmpty ? action["type"]?.stringValue : try details.optionalString("label", in: detailsPlace),
                action: synthesized ? details["action"] : action,
                patch: nil,
                reducerMicros: try details.optionalMicros("reducerMicros", in: detailsPlace),
                detail: detail,
                branch: 0)
            steps.append(Step(event: event, state: try state(at: position), noPatch: details["noPatch"]?.boolValue ?? false))
        }
        return Document(session: session, initialState: initialState, steps: steps)
    }
}
