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
package enum ReduxDevToolsFormat {
    /// The Redux DevTools wrapper for one event, with Rewind's details under `rewind`.
    package static func liftedAction(for event: RecordedEvent) -> JSONValue {
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
        // What the row means, as a session file states it (the document's `rewind.rowsStateMeaning`).
        details += SessionLinesFormat.meaningMembers(event.meaning)
        let action: JSONValue
        if let original = event.action, original["type"]?.stringValue != nil {
            action = original
        } else {
            // Redux actions are objects with a string `type`; anything else is wrapped, and the original kept. Rewind's
            // own rows are typed `@@rewind/KIND` (as Redux names its own `@@INIT`), never like an app's action.
            let type = event.kind == .action ? event.label ?? "@@rewind/action" : rowTypePrefix + event.kind.rawValue
            var pairs: [(String, JSONValue)] = [("type", .string(type))]
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

    /// The type prefix of the actions that stand for Rewind's own rows (`@@rewind/dropped`, `@@rewind/snapshot`…).
    /// A file without Rewind's `rewind` members (Redux DevTools' own export of one of Rewind's) is imported without
    /// them: the import records what the file lacks in its own rows.
    package static let rowTypePrefix = "@@rewind/"

    /// The start of an action's `computedStates` entry marking a state Rewind never received.
    package static let unknownStatePrefix = "Rewind never received "

    /// The `,"error":"…"` member of the `computedStates` entry of a state Rewind never received (`stretch` holds it;
    /// `initial`: the entry of `@@INIT`): Redux DevTools shows it beside the state, which is the last one received.
    package static func unknownStateError(_ stretch: UnknownState, initial: Bool) -> String {
        let what = initial ? "the initial state" : "the state after this action"
        let message = unknownStatePrefix + what + ": " + stretch.reason + ". The state shown is the last one it "
            + "received before."
        return entryError(message)
    }

    /// The `,"error":"…"` member of a `computedStates` entry: the message Redux DevTools shows beside the state (a
    /// reducer's error, ``RowMeaning/reducerError``, or a state Rewind never received).
    package static func entryError(_ message: String) -> String {
        ",\"error\":" + JSONValue.string(message).serialized()
    }

    /// The wrapper of the `@@INIT` action at id 0.
    package static func initAction(at time: Double) -> JSONValue {
        .object(JSONObject([
            ("type", "PERFORM_ACTION"),
            ("action", ["type": "@@INIT"]),
            ("timestamp", .int(milliseconds(time))),
        ]))
    }

    /// Unix seconds to JavaScript milliseconds. Never traps: a stored time outside any sensible range (written
    /// by an older version, which did not check) saturates.
    package static func milliseconds(_ seconds: Double) -> Int64 {
        Int64(saturating: (seconds * 1000).rounded())
    }

    // MARK: Decoding

    /// A Redux DevTools document decoded into what a recording needs.
    package struct Document {
        var session: SessionLinesFormat.Session?
        /// The state before the first action; nil when the document does not hold it (an extension export without
        /// `preloadedState`, a `computedStates[0]` without `state`).
        var initialState: JSONValue?
        /// When the session started (unix seconds): `rewind.session.startedAt`, else the `@@INIT` action's
        /// `timestamp`, else the first timestamped action's; nil when the document has no time at all.
        var startedAt: Double?
        var steps: [Step]
        /// The document holds actions only (the extension's default export): the states after them are unknown.
        var actionsOnly: Bool
        /// Lone surrogate escapes read as U+FFFD in the JSON texts the document embeds (an extension export's
        /// `payload` and `preloadedState`).
        var replacedSurrogates = 0
        /// Objects in the file that carry a jsan or Immutable marker (``ReduxSerializationMarkers``).
        var serializationMarkers = 0
        /// The document is Rewind's own export whose rows state what they mean (`rewind.rowsStateMeaning`): each
        /// step's ``Step/meaning`` is the row's, in the original session's numbering (``Step/originalIndex``).
        var statesMeaning = false
        /// The document is Rewind's own export (it has the top-level `rewind` member).
        var fromRewind = false
    }

    /// One staged action after `@@INIT`.
    package struct Step {
        var event: NewEvent
        /// The state after the action; nil when the document does not hold it (an export of actions only, a
        /// `computedStates` entry without `state`): the importer records it as unknown.
        var state: JSONValue?
        /// The original event had no patch (its state is replaced or unchanged).
        var noPatch: Bool
        /// The event had no time of its own (the importer gives it the time of the event before it, or the
        /// session's start).
        var untimed: Bool
        /// Its place in the file: its `computedStates` position (1 for the first action), or its position from 1 in
        /// an export of actions only.
        var entry: Int
        /// Rewind's index of the row in the session it was exported from (`rewind.index`), when the file says.
        var originalIndex: Int64?
        /// The error its reducer threw, as Redux DevTools recorded it (`computedStates[i].error`).
        var reducerError: String?
        /// Redux DevTools skipped it (`skippedActionIds`) in a file that is not Rewind's own export.
        var skippedInFile = false
    }

    /// True when `action` stands for one of Rewind's own rows (its type starts with ``rowTypePrefix``).
    package static func isRewindRow(_ action: JSONValue) -> Bool {
        action["type"]?.stringValue?.hasPrefix(rowTypePrefix) ?? false
    }

    /// True when `value` looks like a Redux DevTools lifted state.
    package static func isDocument(_ value: JSONValue) -> Bool {
        value["actionsById"]?.objectValue != nil && value["computedStates"]?.arrayValue != nil
    }

    /// True when `value` looks like the browser extension's default export: `{"payload": "<JSON text>",
    /// "preloadedState": "<JSON text>"}` (the payload is the staged actions, or a whole lifted state).
    package static func isExtensionExport(_ value: JSONValue) -> Bool {
        guard case .object(let root) = value, case .string? = root["payload"] else { return false }
        return root.keys.allSatisfy { $0 == "payload" || $0 == "preloadedState" }
    }

    /// Decodes a lifted state (``isDocument(_:)``) or an extension export (``isExtensionExport(_:)``).
    package static func parse(_ value: JSONValue, limits: JSONLimits) throws(ImportProblem) -> Document {
        guard isExtensionExport(value), case .string(let payloadText)? = value["payload"] else {
            var document = try parse(value)
            document.serializationMarkers = ReduxSerializationMarkers.count(in: value)
            return document
        }
        var replaced = 0
        let payload = try embeddedJSON(payloadText, "payload", limits: limits, replaced: &replaced)
        if isDocument(payload) {
            var document = try parse(payload)
            document.replacedSurrogates = replaced
            document.serializationMarkers = ReduxSerializationMarkers.count(in: payload)
            return document
        }
        guard case .array(let actions) = payload else {
            throw ImportProblem("\"payload\" holds \(payload.kindName), neither an array of actions nor a lifted state "
                + "(with \"actionsById\" and \"computedStates\")")
        }
        // A store created without a preloaded state (the usual case) is exported without one: its initial state is
        // the reducer's own, which the file does not hold.
        var initialState: JSONValue?
        if case .string(let stateText)? = value["preloadedState"] {
            initialState = try embeddedJSON(stateText, "preloadedState", limits: limits, replaced: &replaced)
        }
        var steps: [Step] = []
        steps.reserveCapacity(actions.count)
        for (position, action) in actions.enumerated() {
            // One of Rewind's own rows from an earlier export (not the app's action): this import makes its own.
            if isRewindRow(action) { continue }
            let event = NewEvent(appSeq: Int64(steps.count + 1), time: 0, kind: .action,
                                 label: action["type"]?.stringValue, action: action, patch: nil, branch: 0)
            steps.append(Step(event: event, state: nil, noPatch: true, untimed: true, entry: position + 1,
                              originalIndex: nil, reducerError: nil))
        }
        return Document(session: nil, initialState: initialState, startedAt: nil, steps: steps, actionsOnly: true,
                        replacedSurrogates: replaced,
                        serializationMarkers: ReduxSerializationMarkers.count(in: payload)
                            + ReduxSerializationMarkers.count(in: initialState ?? .null))
    }

    /// The JSON document held as text in the member `key` of an extension export.
    private static func embeddedJSON(
        _ text: String, _ key: String, limits: JSONLimits, replaced: inout Int
    ) throws(ImportProblem) -> JSONValue {
        do throws(JSONParseError) {
            return try SessionImporter.parse(Array(text.utf8)[...], limits, replaced: &replaced)
        } catch {
            throw ImportProblem("\"\(key)\" is not JSON text: \(error)")
        }
    }

    package static func parse(_ value: JSONValue) throws(ImportProblem) -> Document {
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
        /// True when the document is Rewind's own export (its `rewind` members hold the rows' meaning).
        let fromRewind = root["rewind"] != nil
        let statesMeaning = fromRewind && root["rewind"]?["rowsStateMeaning"]?.boolValue == true
        /// The entry's state (nil when it has none: JavaScript's `JSON.stringify` leaves out an `undefined` state;
        /// the importer records it as unknown) and reducer error.
        func entry(at position: Int) throws(ImportProblem) -> (state: JSONValue?, error: String?) {
            guard case .object(let entry) = computed[position] else {
                throw ImportProblem("computedStates[\(position)] must be an object, not \(computed[position].kindName)")
            }
            var state = entry["state"]
            // A reducer that threw: Redux DevTools keeps the state before it and the error's message.
            var error: String?
            switch entry["error"] {
            case .string(let message)?: error = message
            case nil, .null?: error = nil
            case let other?: error = other.serialized()
            }
            if let message = error, message.hasPrefix(unknownStatePrefix) {
                // Rewind's mark of a state it never received (its export): no reducer error, and the state shown is
                // not the state after the action. Rewind's own export holds the rows that say so; another file does
                // not, and the state is read as unknown.
                error = nil
                if !fromRewind { state = nil }
            }
            return (state, error)
        }
        func timestamp(of lifted: JSONObject, at place: String) throws(ImportProblem) -> Double? {
            guard let milliseconds = try lifted.optionalNumber("timestamp", in: place) else { return nil }
            return try ImportProblem.checkTime(milliseconds / 1000, "timestamp", in: place)
        }

        let initialState = try entry(at: 0).state
        // The `@@INIT` action's time is when the store was created: the session's start.
        var startedAt = session?.startedAt.timeIntervalSince1970
        if startedAt == nil, case .object(let initAction)? = actions[String(staged[0])] {
            startedAt = try timestamp(of: initAction, at: "actionsById[\"\(staged[0])\"]")
        }
        var steps: [Step] = []
        steps.reserveCapacity(staged.count - 1)
        for position in 1..<staged.count {
            let id = staged[position]
            let place = "actionsById[\"\(id)\"]"
            guard case .object(let lifted)? = actions[String(id)] else {
                throw ImportProblem("stagedActionIds[\(position)] is \(id), but \(place) does not exist")
            }
            guard let action = lifted["action"] else { throw ImportProblem("\(place) has no \"action\"") }
            let details = lifted["rewind"]?.objectValue ?? JSONObject()
            // One of Rewind's own rows that lost its `rewind` member (Redux DevTools' export of a Rewind export): not
            // the app's action; the rows this import adds say what the file lacks.
            if details.isEmpty, isRewindRow(action) { continue }
            let detailsPlace = "\(place).rewind"
            var kind = EventKind.action
            if let kindText = try details.optionalString("kind", in: detailsPlace) {
                guard let known = EventKind(rawValue: kindText) else {
                    throw ImportProblem("\(detailsPlace): unknown kind \"\(kindText)\"")
                }
                kind = known
            }
            let synthesized = details["synthesized"]?.boolValue ?? false
            var time = try details.optionalTime("time", in: detailsPlace)
            if time == nil { time = try timestamp(of: lifted, at: place) }
            if startedAt == nil { startedAt = time }
            let (state, reducerError) = try entry(at: position)
            var detail = try details.optionalString("detail", in: detailsPlace)
            if let reducerError, !statesMeaning {
                detail = (detail.map { "\($0); " } ?? "") + "reducer error: \(reducerError)"
            }
            let originalIndex = try details.optionalInteger("index", in: detailsPlace)
            var meaning = RowMeaning()
            if statesMeaning {
                do throws(ImportProblem) {
                    meaning = try SessionLinesFormat.meaning(in: details, index: originalIndex, place: detailsPlace)
                } catch {
                    throw ImportProblem("\(detailsPlace): \(error.reason)")
                }
            }
            let event = NewEvent(
                appSeq: try details.optionalInteger("appSeq", in: detailsPlace),
                time: time ?? 0,
                kind: kind,
                label: details.isEmpty ? action["type"]?.stringValue : try details.optionalString("label", in: detailsPlace),
                action: synthesized ? details["action"] : action,
                patch: nil,
                reducerMicros: try details.optionalMicros("reducerMicros", in: detailsPlace),
                detail: detail,
                branch: 0,
                meaning: meaning)
            steps.append(Step(event: event, state: state, noPatch: details["noPatch"]?.boolValue ?? false,
                              untimed: time == nil, entry: position,
                              originalIndex: originalIndex,
                              reducerError: statesMeaning ? nil : reducerError,
                              skippedInFile: !fromRewind && skipped.contains(id)))
        }
        return Document(session: session, initialState: initialState, startedAt: startedAt, steps: steps,
                        actionsOnly: false, statesMeaning: statesMeaning, fromRewind: fromRewind)
    }
}
