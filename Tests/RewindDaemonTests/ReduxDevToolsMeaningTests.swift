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
