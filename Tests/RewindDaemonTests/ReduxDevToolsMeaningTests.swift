import Foundation
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

/// A Redux DevTools export says what Rewind knows: its own rows are not the app's actions, skipped actions are skipped,
/// and a state Rewind never received is marked, not shown as real. Round trips through Redux DevTools add nothing.
@Suite("Redux DevTools export: what the rows mean")
struct ReduxDevToolsMeaningTests {
    /// A session: actions 1–2, a `dropped` range over actions 3–4, the snapshot that closes it, action 5, a note, and
    /// action 2 skipped in Rewind (then 5 skipped and unskipped).
    static func recordSession(in store: SessionStore) throws -> SessionID {
        let recording = try store.createSession(
            appName: "counter", instance: "pid-1", protocolVersion: 2, stateType: "Counter", initialState: ["count": 0],
            startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        var count: Int64 = 0
        var time = 1_800_000_000.0
        func action(_ seq: Int64, patch: Bool = true) {
            time += 1
            let before = count
            if patch { count += 1 }
            // As the daemon writes them: the actions of the dropped range (event 3) say their state is unknown.
            let meaning = RowMeaning(unknownState: patch ? nil : UnknownStateMark(reason: .dropped, cause: 3))
            recording.append(NewEvent(appSeq: seq, time: time, kind: .action, label: "inc", action: ["type": "inc"],
                                      patch: patch ? JSONPatch.diff(from: ["count": .int(before)], to: ["count": .int(count)]) : nil,
                                      meaning: meaning),
                             stateAfter: ["count": .int(count)])
        }
        action(1)                                                                                  // event 1
        action(2)                                                                                  // event 2
        time += 1
        recording.append(NewEvent(time: time, kind: .dropped, label: "dropped", action: ["from": 3, "to": 4],
                                  detail: "the app's outbox was full: states of actions 3–4 were not sent; a snapshot follows"),
                         stateAfter: ["count": .int(count)])                                        // event 3
        action(3, patch: false)                                                                    // event 4
        action(4, patch: false)                                                                    // event 5
        count = 4
        time += 1
        recording.append(NewEvent(appSeq: 4, time: time, kind: .snapshot, label: "coalesced", detail: "full state"),
                         stateAfter: ["count": 4], forceKeyframe: true)                             // event 6
        action(5)                                                                                  // event 7
        for (label, detail, event) in [("skip", "event 2 (inc) skipped", 2), ("skip", "event 7 (inc) skipped", 7),
                                       ("unskip", "event 7 (inc) is no longer skipped", 7)] as [(String, String, Int64)] {
            time += 1
            recording.append(NewEvent(time: time, kind: .skip, label: label, detail: detail,
                                      meaning: RowMeaning(skip: SkipMark(event: event, skipped: label == "skip"))),
                             stateAfter: ["count": 5])
        }                                                                                          // events 8–10
        recording.finish(endState: .clean, endedAt: Date(timeIntervalSince1970: time + 1))
        return recording.id
    }

    static func exported(_ reader: SessionReader, in directory: TemporaryDirectory) throws -> JSONValue {
        let file = directory.url.appendingPathComponent("devtools-\(UUID().uuidString).json")
        try SessionExporter(reader: reader).export(format: .reduxDevTools, to: file)
        return try JSONValue(parsing: Array(try Data(contentsOf: file)))
    }

    @Test("Rewind's own rows are typed @@rewind/KIND and skipped, so Redux DevTools never runs them through the reducer; actions skipped in Rewind are skipped")
    func ownRowsAndSkipsAreSkipped() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let reader = try store.openSession(try Self.recordSession(in: store))
        let document = try Self.exported(reader, in: directory)
        let types = (1...10).map { document["actionsById"]?[String($0)]?["action"]?["type"]?.stringValue }
        #expect(types == ["inc", "inc", "@@rewind/dropped", "inc", "inc", "@@rewind/snapshot", "inc",
                          "@@rewind/skip", "@@rewind/skip", "@@rewind/skip"])
        // Action 2 stays skipped; action 7 was skipped and unskipped.
        #expect(document["skippedActionIds"] == [2, 3, 6, 8, 9, 10])
    }

    @Test("a state Rewind never received carries an error saying so and why; the states it received do not")
    func unknownStatesAreMarked() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let reader = try store.openSession(try Self.recordSession(in: store))
        let document = try Self.exported(reader, in: directory)
        let computed = try #require(document["computedStates"]?.arrayValue)
        let marked = computed.indices.filter { computed[$0]["error"] != nil }
        #expect(marked == [4, 5], "the states after actions 3 and 4 (events 4 and 5)")
        let error = try #require(computed[4]["error"]?.stringValue)
        #expect(error.hasPrefix("Rewind never received the state after this action: the app's outbox was full"))
        #expect(computed[6]["state"] == ["count": 4])

        // Rewind's own export imports back without reading the mark as a reducer error, every state as before.
        let file = directory.url.appendingPathComponent("again.json")
        try Data(document.serializedBytes()).write(to: file)
        let imported = try store.openSession(try SessionImporter(store: store).importSession(from: file).id)
        #expect(try imported.events(1...10).allSatisfy { !($0.detail ?? "").contains("reducer error") })
        #expect(try imported.unknownStates().map { [$0.first, $0.last] } == reader.unknownStates().map { [$0.first, $0.last] })
        for index in [1, 2, 6, 7] as [Int64] {
            #expect(try imported.state(at: index) == (try reader.state(at: index)), "event \(index)")
        }
    }

    @Test("Redux DevTools → Rewind → Redux DevTools → Rewind adds no action: Rewind's rows are not imported as the app's")
    func roundTripsAddNothing() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        // The extension's default export: the actions only, with the preloaded state.
        let actions: [JSONValue] = [["type": "inc"], ["type": "inc"], ["type": "add", "n": 3]]
        let first = directory.url.appendingPathComponent("counter.json")
        try Data(JSONValue.object(JSONObject([
            ("payload", .string(JSONValue.array(actions).serialized())),
            ("preloadedState", .string(#"{"count":0}"#)),
        ])).serializedBytes()).write(to: first)
        var reader = try store.openSession(try SessionImporter(store: store).importSession(from: first).id)
        for trip in 1...3 {
            let document = try Self.exported(reader, in: directory)
            // What the extension exports of it again: its actions (Rewind's members gone) and the initial state.
            let ids = try #require(document["stagedActionIds"]?.arrayValue).dropFirst().compactMap(\.int64Value)
            let again = ids.compactMap { document["actionsById"]?[String($0)]?["action"] }
            let file = directory.url.appendingPathComponent("trip-\(trip).json")
            try Data(JSONValue.object(JSONObject([
                ("payload", .string(JSONValue.array(again).serialized())),
                ("preloadedState", .string(#"{"count":0}"#)),
            ])).serializedBytes()).write(to: file)
            reader = try store.openSession(try SessionImporter(store: store).importSession(from: file).id)
            let events = try reader.events(1...reader.eventCount)
            #expect(events.filter { $0.kind == .action }.map(\.action) == actions, "trip \(trip)")
            #expect(events.filter { $0.kind == .dropped }.count == 1, "trip \(trip): one stretch of unknown states")
        }
    }

    /// The app's actions of a Redux DevTools document, in staged order: their ids, types, timestamps, states and
    /// reducer errors, and which of them are skipped (Rewind's own `@@rewind/…` rows left out).
    static func appActions(_ document: JSONValue) -> [(id: Int64, type: String, timestamp: Int64?, state: JSONValue?,
                                                        error: String?, skipped: Bool)] {
        let staged = (document["stagedActionIds"]?.arrayValue ?? []).compactMap(\.int64Value)
        let skipped = Set((document["skippedActionIds"]?.arrayValue ?? []).compactMap(\.int64Value))
        let computed = document["computedStates"]?.arrayValue ?? []
        return staged.enumerated().dropFirst().compactMap { position, id in
            let lifted = document["actionsById"]?[String(id)]
            guard let type = lifted?["action"]?["type"]?.stringValue, !type.hasPrefix("@@rewind/") else { return nil }
            let entry = position < computed.count ? computed[position] : .null
            let error = entry["error"]?.stringValue
            return (id, type, lifted?["timestamp"]?.int64Value, entry["state"],
                    error?.hasPrefix(ReduxDevToolsFormat.unknownStatePrefix) == true ? nil : error, skipped.contains(id))
        }
    }

    @Test("Redux DevTools → Rewind → Redux DevTools keeps the actions, states, times, skips and reducer errors (issue 29)")
    func foreignRoundTripKeepsSkipsAndErrors() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let file = directory.url.appendingPathComponent("devtools.json")
        try """
        {"actionsById": {
           "0": {"type": "PERFORM_ACTION", "action": {"type": "@@INIT"}, "timestamp": 1700000000000},
           "1": {"type": "PERFORM_ACTION", "action": {"type": "inc"}, "timestamp": 1700000000500},
           "2": {"type": "PERFORM_ACTION", "action": {"type": "add", "n": 5}, "timestamp": 1700000001000},
           "3": {"type": "PERFORM_ACTION", "action": {"type": "explode"}, "timestamp": 1700000001500},
           "4": {"type": "PERFORM_ACTION", "action": {"type": "inc"}, "timestamp": 1700000002000}},
         "computedStates": [{"state": {"count": 0}}, {"state": {"count": 1}}, {"state": {"count": 1}},
                            {"state": {"count": 1}, "error": "Error: boom"}, {"state": {"count": 2}}],
         "skippedActionIds": [2], "stagedActionIds": [0, 1, 2, 3, 4], "currentStateIndex": 4, "nextActionId": 5}
        """.write(to: file, atomically: true, encoding: .utf8)
        let original = try JSONValue(parsing: Array(try Data(contentsOf: file)))
        let imported = try store.openSession(try SessionImporter(store: store).importSession(from: file).id)
        // In Rewind: action 2 skipped (a skip row says so), action 3's reducer error a fact of its row.
        let actions = try imported.events(1...imported.eventCount).filter { $0.kind == .action }
        #expect(try imported.skippedEventIndices() == [actions[1].index])
        #expect(actions.map(\.meaning.reducerError) == [nil, nil, "Error: boom", nil])

        let exported = try Self.exported(imported, in: directory)
        let before = Self.appActions(original), after = Self.appActions(exported)
        #expect(after.map(\.type) == before.map(\.type))
        #expect(after.map(\.timestamp) == before.map(\.timestamp))
        #expect(after.map(\.state) == before.map(\.state))
        #expect(after.map(\.error) == before.map(\.error))
        #expect(after.map(\.skipped) == before.map(\.skipped))
    }

    @Test("Rewind → Redux DevTools → Rewind keeps what every main-line row means: skips, unknown states, before connect, state reasons (issue 29)")
    func rewindRoundTripKeepsMeaning() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(
            appName: "counter", instance: "pid-1", protocolVersion: 2, stateType: "Counter", initialState: ["count": 0],
            startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        func set(_ value: Int64) -> JSONPatch { JSONPatch([.replace(path: JSONPointer(tokens: ["count"]), value: .int(value))]) }
        recording.append(NewEvent(appSeq: 1, time: 1_800_000_001, label: "inc", action: ["type": "inc"], patch: set(1),
                                  meaning: RowMeaning(beforeConnect: true)), stateAfter: ["count": 1])   // 1
        recording.append(NewEvent(appSeq: 2, time: 1_800_000_002, label: "inc", action: ["type": "inc"], patch: set(2)),
                         stateAfter: ["count": 2])                                                         // 2
        // A skip of event 2 and its branch (rows an export leaves out: the events after them are renumbered).
        recording.append(NewEvent(time: 1_800_000_003, kind: .skip, label: "skip", detail: "event 2 (inc) skipped",
                                  meaning: RowMeaning(skip: SkipMark(event: 2, skipped: true, branch: 1))),
                         stateAfter: ["count": 2])                                                         // 3
        recording.append(NewEvent(time: 1_800_000_003, kind: .note, label: "recomputed", branch: 1,
                                  meaning: RowMeaning(branchFrom: 1)), stateAfter: ["count": 1])           // 4
        recording.append(NewEvent(time: 1_800_000_003, label: "inc", branch: 1, meaning: RowMeaning(recomputes: 2)),
                         stateAfter: ["count": 1])                                                         // 5
        let dropped = RowMeaning(unknownState: UnknownStateMark(reason: .dropped, cause: 6))
        recording.append(NewEvent(time: 1_800_000_004, kind: .dropped, label: "dropped", action: ["from": 3, "to": 3],
                                  detail: "the app's outbox was full"), stateAfter: ["count": 2])          // 6
        recording.append(NewEvent(appSeq: 3, time: 1_800_000_005, label: "inc", action: ["type": "inc"],
                                  meaning: dropped), stateAfter: ["count": 2])                             // 7
        recording.append(NewEvent(appSeq: 3, time: 1_800_000_006, kind: .snapshot, label: "coalesced",
                                  meaning: RowMeaning(stateReason: "coalesced")), stateAfter: ["count": 3],
                         forceKeyframe: true)                                                              // 8
        recording.append(NewEvent(time: 1_800_000_007, kind: .jump, label: "jump to #1",
                                  meaning: RowMeaning(jumpTarget: 1, stateReason: "jump")), stateAfter: ["count": 1],
                         forceKeyframe: true)                                                              // 9
        recording.finish(endState: .clean, endedAt: Date(timeIntervalSince1970: 1_800_000_008))
        let original = try store.openSession(recording.id)

        let document = try Self.exported(original, in: directory)
        let file = directory.url.appendingPathComponent("again.json")
        try Data(document.serializedBytes()).write(to: file)
        let imported = try store.openSession(try SessionImporter(store: store).importSession(from: file).id)
        let mainLine = try original.events(1...original.eventCount)
        let again = try imported.events(1...imported.eventCount)
        #expect(again.map(\.kind) == mainLine.map(\.kind))
        #expect(again.map(\.time) == mainLine.map(\.time))
        // The same facts, the events they name renumbered (the branch's rows 4–5 are not in the export).
        let renumbered = Dictionary(uniqueKeysWithValues: zip(mainLine.map(\.index), again.map(\.index)))
        for (before, after) in zip(mainLine, again) {
            var expected = before.meaning
            if let cause = expected.unknownState?.cause { expected.unknownState?.cause = renumbered[cause] ?? -1 }
            if let skip = expected.skip { expected.skip = SkipMark(event: renumbered[skip.event] ?? -1, skipped: skip.skipped) }
            if let target = expected.jumpTarget { expected.jumpTarget = renumbered[target] ?? -1 }
            #expect(after.meaning == expected, "event \(before.index) → \(after.index)")
        }
        #expect(try imported.skippedEventIndices() == [renumbered[2] ?? -1])
        #expect(try imported.unknownStates().map(\.first) == [renumbered[7] ?? -1])
        // And back to Redux DevTools: the same actions skipped, the same states marked unknown.
        let twice = try Self.exported(imported, in: directory)
        #expect(twice["skippedActionIds"] == document["skippedActionIds"])
        #expect(twice["computedStates"] == document["computedStates"])
    }

    @Test("a lifted state Redux DevTools saved from Rewind's export reads Rewind's marks as unknown states")
    func liftedStateWithoutRewindMembers() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let reader = try store.openSession(try Self.recordSession(in: store))
        var document = try Self.exported(reader, in: directory)
        // The extension keeps actionsById, computedStates and the ids, not Rewind's members.
        guard case .object(var root) = document, case .object(var actions)? = root["actionsById"] else {
            Issue.record("not an object")
            return
        }
        root["rewind"] = nil
        for key in actions.keys {
            if case .object(var lifted)? = actions[key] {
                lifted["rewind"] = nil
                actions[key] = .object(lifted)
            }
        }
        root["actionsById"] = .object(actions)
        document = .object(root)
        let file = directory.url.appendingPathComponent("lifted.json")
        try Data(document.serializedBytes()).write(to: file)
        let imported = try store.openSession(try SessionImporter(store: store).importSession(from: file).id)
        let events = try imported.events(1...imported.eventCount)
        #expect(!events.contains { $0.label?.hasPrefix("@@rewind/") ?? false }, "Rewind's rows are not the app's actions")
        #expect(events.filter { $0.kind == .action }.count == 5)
        #expect(!events.contains { ($0.detail ?? "").contains("reducer error") })
        // The two actions whose states were never received are unknown again (with the action after them, whose
        // state the file holds: it follows that action's row, as after an app's coalesced range).
        let stretches = try imported.unknownStates()
        #expect(stretches.count == 1)
        let unknownActions = events.filter { event in event.kind == .action && stretches.contains { $0.contains(event.index, branch: 0) } }
        let actionIndices = events.filter { $0.kind == .action }.map(\.index)
        #expect(unknownActions.map(\.index) == Array(actionIndices[2...4]), "the third to the fifth action")
        #expect(try imported.state(at: imported.eventCount) == ["count": 5])
    }
}
