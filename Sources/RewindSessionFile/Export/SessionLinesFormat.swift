import Foundation
import RewindWire

/// Rewind's JSON Lines export, version 2 (docs/SESSION-FORMAT.md): encoding and decoding of its lines. Version 2
/// added what a row means (`unknown`, `unknownCause`, `meaning`); a file of version 1 is imported through the
/// migration reader (``SchemaOneMeaning``).
///
/// Line 1: `{"format":"rewind-session","version":1,"session":{…},"initialState":…}`.
/// Then one event per line: `{"index":…,"branch":…,"appSeq":…,"time":…,"kind":…,"label":…,"action":…,
/// "patch":…,"reducerMicros":…,"detail":…,"state":…}`, absent fields omitted (`branch` when 0); `state` only
/// where the state after the event is not the previous state of its branch plus its patch.
/// Threading: pure functions.
package enum SessionLinesFormat {
    /// The `format` value of the header line.
    package static let formatName = "rewind-session"
    /// The version this build writes and the newest it reads.
    package static let version = 2

    /// The session-describing fields shared by both export formats.
    package struct Session {
        var id: String?
        var app: String
        var instance: String?
        var startedAt: Date
        var endedAt: Date?
        var protocolVersion: Int
        var stateType: String?
        var endState: SessionEndState?
    }

    /// One decoded event line.
    package struct EventLine {
        var index: Int64?
        /// The row that made this row's state unknown, as numbered in the file (renumbered by the import).
        var unknownCause: Int64?
        var event: NewEvent
        var state: JSONValue?
    }

    // MARK: Encoding

    package static func sessionObject(_ metadata: SessionMetadata) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("id", .string(metadata.id.rawValue)),
            ("app", .string(metadata.appName)),
        ]
        if let instance = metadata.instance { pairs.append(("instance", .string(instance))) }
        pairs.append(("startedAt", .double(metadata.startedAt.timeIntervalSince1970)))
        if let ended = metadata.endedAt { pairs.append(("endedAt", .double(ended.timeIntervalSince1970))) }
        pairs.append(("protocolVersion", .int(Int64(metadata.protocolVersion))))
        if let stateType = metadata.stateType { pairs.append(("stateType", .string(stateType))) }
        pairs.append(("endState", .string(metadata.endState.rawValue)))
        pairs.append(("eventCount", .int(metadata.eventCount)))
        return .object(JSONObject(pairs))
    }

    package static func header(_ metadata: SessionMetadata, initialState: JSONValue) -> JSONValue {
        .object(JSONObject([
            ("format", .string(formatName)),
            ("version", .int(Int64(version))),
            ("session", sessionObject(metadata)),
            ("initialState", initialState),
        ]))
    }

    package static func line(for event: RecordedEvent, state: JSONValue?) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("index", .int(event.index))]
        if event.branch != 0 { pairs.append(("branch", .int(event.branch))) }
        if let appSeq = event.appSeq { pairs.append(("appSeq", .int(appSeq))) }
        pairs.append(("time", .double(event.time)))
        pairs.append(("kind", .string(event.kind.rawValue)))
        if let label = event.label { pairs.append(("label", .string(label))) }
        if let action = event.action { pairs.append(("action", action)) }
        if let patch = event.patch { pairs.append(("patch", patch.json)) }
        if let micros = event.reducerMicros { pairs.append(("reducerMicros", .double(micros))) }
        if let detail = event.detail { pairs.append(("detail", .string(detail))) }
        pairs += meaningMembers(event.meaning)
        if let state { pairs.append(("state", state)) }
        return .object(JSONObject(pairs))
    }

    /// The members that say what a row means — `unknown` and `unknownCause` when its state is unknown, `meaning` for
    /// its facts — as a line writes them (and the `rewind` member of a Redux DevTools export).
    package static func meaningMembers(_ meaning: RowMeaning) -> [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = []
        if let mark = meaning.unknownState {
            pairs.append(("unknown", .string(mark.reason.rawValue)))
            pairs.append(("unknownCause", .int(mark.cause)))
        }
        if let facts = meaning.storedFacts { pairs.append(("meaning", facts)) }
        return pairs
    }

    /// What the ``meaningMembers(_:)`` of `object` say the row means; `index` (the row's own) stands for a missing
    /// `unknownCause`.
    package static func meaning(in object: JSONObject, index: Int64?, place: String) throws(ImportProblem) -> RowMeaning {
        var meaning = RowMeaning()
        if let reasonText = try object.optionalString("unknown", in: place) {
            guard let reason = UnknownStateReason(rawValue: reasonText) else {
                throw ImportProblem("unknown \"unknown\" reason \"\(reasonText)\" (known: "
                    + UnknownStateReason.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            guard let given = try object.optionalInteger("unknownCause", in: place) ?? index else {
                throw ImportProblem("\"unknown\" needs \"unknownCause\", the index of the row that made it so")
            }
            meaning.unknownState = UnknownStateMark(reason: reason, cause: given)
        }
        if let facts = object["meaning"] {
            do throws(RowMeaningProblem) {
                try meaning.readFacts(facts)
            } catch {
                throw ImportProblem("\"meaning\": \(error.text)")
            }
        }
        return meaning
    }

    // MARK: Decoding

    /// True when `value` is a header line of this format (any version).
    package static func isHeader(_ value: JSONValue) -> Bool {
        value["format"]?.stringValue == formatName
    }

    package static func parseHeader(_ value: JSONValue) throws(ImportProblem) -> (Session, initialState: JSONValue) {
        guard case .object(let object) = value, isHeader(value) else {
            throw ImportProblem("the first line is not a Rewind session header ({\"format\":\"\(formatName)\",…})")
        }
        let version = try object.optionalInteger("version", in: "the header") ?? 0
        guard version >= 1 else { throw ImportProblem("the header's \"version\" must be a positive integer") }
        guard version <= Int64(self.version) else {
            throw ImportProblem("the file was written by a newer Rewind (format version \(version)); this build reads version \(self.version)")
        }
        guard case .object(let session)? = object["session"] else {
            throw ImportProblem("the header has no \"session\" object")
        }
        guard let initialState = object["initialState"] else { throw ImportProblem("the header has no \"initialState\"") }
        return (try parseSession(session, in: "the header's session"), initialState)
    }

    package static func parseSession(_ object: JSONObject, in place: String) throws(ImportProblem) -> Session {
        let endStateText = try object.optionalString("endState", in: place)
        var endState: SessionEndState?
        if let endStateText {
            guard let known = SessionEndState(rawValue: endStateText) else {
                throw ImportProblem("\(place): unknown endState \"\(endStateText)\"")
            }
            endState = known
        }
        return Session(
            id: try object.optionalString("id", in: place),
            app: try object.requiredString("app", in: place),
            instance: try object.optionalString("instance", in: place),
            startedAt: Date(timeIntervalSince1970: try object.requiredTime("startedAt", in: place)),
            endedAt: try object.optionalTime("endedAt", in: place).map { Date(timeIntervalSince1970: $0) },
            protocolVersion: Int(clamping: try object.optionalInteger("protocolVersion", in: place) ?? 0),
            stateType: try object.optionalString("stateType", in: place),
            endState: endState)
    }

    package static func parseEvent(_ value: JSONValue) throws(ImportProblem) -> EventLine {
        guard case .object(let object) = value else {
            throw ImportProblem("an event line must be a JSON object, not \(value.kindName)")
        }
        let place = "the event"
        let kindText = try object.requiredString("kind", in: place)
        guard let kind = EventKind(rawValue: kindText) else {
            throw ImportProblem("unknown event kind \"\(kindText)\" (known: \(EventKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let branch = try object.optionalInteger("branch", in: place) ?? 0
        guard branch >= 0 else { throw ImportProblem("\"branch\" must not be negative") }
        var event = NewEvent(
            appSeq: try object.optionalInteger("appSeq", in: place),
            time: try object.requiredTime("time", in: place),
            kind: kind,
            label: try object.optionalString("label", in: place),
            action: object["action"],
            patch: try object.optionalPatch("patch", in: place),
            reducerMicros: try object.optionalMicros("reducerMicros", in: place),
            detail: try object.optionalString("detail", in: place),
            branch: branch)
        let index = try object.optionalInteger("index", in: place)
        event.meaning = try meaning(in: object, index: index, place: place)
        return EventLine(index: index, unknownCause: event.meaning.unknownState?.cause, event: event,
                         state: object["state"])
    }
}
