import Foundation
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

@Suite("Export and import")
struct ExportImportTests {
    /// A session with actions, a snapshot, notes, errors and two replay branches; returns its id.
    static func recordVariedSession(in store: SessionStore, events: Int = 600) throws -> SessionID {
        var app = SyntheticApp()
        let recording = try store.createSession(
            appName: "todo", instance: "pid-7", protocolVersion: 1, stateType: "TodoState", initialState: app.state,
            startedAt: Date(timeIntervalSince1970: 1_800_000_000.25))
        var random = SeededGenerator(seed: 21)
        var branches: [Int64: SyntheticApp] = [:]
        for n in 1...events {
            let time = 1_800_000_000.25 + Double(n) / 100
            switch random.next() % 40 {
            case 0:
                app.state = ["todos": [["id": 1, "title": "restored", "done": true]], "counter": .int(Int64(n)),
                             "filter": "all", "user": ["name": "eve", "visits": 3]]
                recording.append(NewEvent(time: time, kind: .snapshot, detail: "after reconnect"), stateAfter: app.state)
            case 1:
                recording.append(NewEvent(time: time, kind: .error, detail: "bad frame \(n)"), stateAfter: app.state)
            case 2:
                recording.append(NewEvent(time: time, kind: .dispatch, label: "raw", action: .int(Int64(n)), patch: JSONPatch()),
                                 stateAfter: app.state)
            case 3, 4, 5:
                let branch = Int64(1 + random.next() % 2)
                var branchApp = branches[branch] ?? app
                let before = branchApp.state
                let step = branchApp.step(using: &random)
                branches[branch] = branchApp
                recording.append(NewEvent(time: time, kind: .replay, label: step.label, action: step.action,
                                          patch: JSONPatch.diff(from: before, to: step.stateAfter), branch: branch),
                                 stateAfter: step.stateAfter)
            default:
                let before = app.state
                let step = app.step(using: &random)
                recording.append(NewEvent(appSeq: Int64(n), time: time, kind: .action, label: step.label,
                                          action: step.action, patch: JSONPatch.diff(from: before, to: step.stateAfter),
                                          reducerMicros: Double(n % 9) + 0.5),
                                 stateAfter: step.stateAfter)
            }
        }
        recording.finish(endState: .clean, endedAt: Date(timeIntervalSince1970: 1_800_000_100.5))
        return recording.id
    }

    @Test("JSON Lines export then import gives the same events and the same state at every event of every branch")
    func jsonLinesRoundTrip() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let original = try store.openSession(try Self.recordVariedSession(in: store))
        let file = directory.url.appendingPathComponent("out.jsonl")
        var exportReports: [TransferProgress] = []
        try SessionExporter(reader: original).export(format: .jsonl, to: file) { exportReports.append($0) }
        #expect(exportReports.last == TransferProgress(completed: 600, total: 600, unit: .events))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".partial"))

        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 601)
        let header = try JSONValue(parsing: String(lines[0]))
        #expect(header["format"] == "rewind-session")
        #expect(header["version"] == 2)
        #expect(header["initialState"] == (try original.initialState()))
        #expect(header["session"]?["app"] == "todo")
        #expect(lines.dropFirst().contains { $0.contains("\"kind\":\"snapshot\"") && $0.contains("\"state\":") })

        #expect(try SessionImporter.detectFormat(of: file) == .jsonl)
        var importReports: [TransferProgress] = []
        let result = try SessionImporter(store: store).importSession(from: file) { importReports.append($0) }
        #expect(result.format == .jsonl)
        #expect(result.eventCount == 600)
        #expect(result.id != original.id)
        #expect(importReports.last?.fraction == 1)

        let imported = try store.openSession(result.id)
        let a = original.metadata
        let b = imported.metadata
        #expect(b.appName == a.appName)
        #expect(b.instance == a.instance)
        #expect(b.startedAt == a.startedAt)
        #expect(b.endedAt == a.endedAt)
        #expect(b.protocolVersion == a.protocolVersion)
        #expect(b.stateType == a.stateType)
        #expect(b.endState == .clean)
        #expect(b.eventCount == a.eventCount)
        #expect(b.importedFrom == "out.jsonl")
        #expect(try imported.eventsOnAllBranches(1...600) == (try original.eventsOnAllBranches(1...600)))
        #expect(try imported.branches() == (try original.branches()))
        for branch in try original.branches() {
            let first = try original.events(1...600, branch: branch).first?.index ?? 0
            for index in first...600 {
                #expect(try imported.state(at: index, branch: branch) == (try original.state(at: index, branch: branch)),
                        "branch \(branch) event \(index)")
            }
        }
    }

    @Test("Redux DevTools export has the lifted-state shape, and imports back with the same state at every event")
    func reduxRoundTrip() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let original = try store.openSession(try Self.recordVariedSession(in: store, events: 400))
        let file = directory.url.appendingPathComponent("devtools.json")
        try SessionExporter(reader: original).export(format: .reduxDevTools, to: file)

        let mainEvents = try original.events(1...400, branch: 0)
        let n = Int64(mainEvents.count)
        let document = try JSONValue(parsing: Array(try Data(contentsOf: file)))
        #expect(document["actionsById"]?.objectValue?.count == mainEvents.count + 1)
        #expect(document["actionsById"]?["0"]?["action"]?["type"] == "@@INIT")
        #expect(document["actionsById"]?["1"]?["type"] == "PERFORM_ACTION")
        #expect(document["computedStates"]?.arrayValue?.count == mainEvents.count + 1)
        #expect(document["computedStates"]?[0]?["state"] == (try original.initialState()))
        #expect(document["computedStates"]?[Int(n)]?["state"] == (try original.state(at: 400, branch: 0)))
        #expect(document["stagedActionIds"] == .array((0...n).map { .int($0) }))
        // Rewind's own rows are not the app's actions: Redux DevTools skips them.
        #expect(document["skippedActionIds"] == .array(mainEvents.indices.filter { mainEvents[$0].kind != .action }
            .map { .int(Int64($0 + 1)) }))
        #expect(mainEvents.indices.allSatisfy { position in
            mainEvents[position].kind == .action
                || document["actionsById"]?[String(position + 1)]?["action"]?["type"]?.stringValue
                    == "@@rewind/\(mainEvents[position].kind.rawValue)"
        })
        #expect(document["currentStateIndex"] == .int(n))
        #expect(document["nextActionId"] == .int(n + 1))
        #expect(document["committedState"] == (try original.initialState()))
        #expect(document["actionsById"]?["1"]?["timestamp"] == .int(ReduxDevToolsFormat.milliseconds(mainEvents[0].time)))

        #expect(try SessionImporter.detectFormat(of: file) == .reduxDevTools)
        let result = try SessionImporter(store: store).importSession(from: file)
        #expect(result.format == .reduxDevTools)
        #expect(result.eventCount == n)
        let imported = try store.openSession(result.id)
        #expect(imported.metadata.appName == "todo")
        #expect(imported.metadata.startedAt == original.metadata.startedAt)
        #expect(try imported.initialState() == (try original.initialState()))
        let importedEvents = try imported.events(1...n)
        #expect(importedEvents.count == mainEvents.count)
        for (position, (before, after)) in zip(mainEvents, importedEvents).enumerated() {
            #expect(after.kind == before.kind)
            #expect(after.label == before.label)
            #expect(after.action == before.action)
            #expect(after.time == before.time)
            #expect(after.appSeq == before.appSeq)
            #expect(after.reducerMicros == before.reducerMicros)
            #expect(after.detail == before.detail)
            #expect((after.patch == nil) == (before.patch == nil))
            #expect(try imported.state(at: Int64(position + 1)) == (try original.state(at: before.index)),
                    "event \(before.index)")
        }
    }

    @Test("a file exported by the Redux DevTools extension itself imports, pretty-printed and with skipped actions")
    func reduxFromTheExtension() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let file = directory.url.appendingPathComponent("state.json")
        try """
        {
          "monitorState": {},
          "actionsById": {
            "0": {"type": "PERFORM_ACTION", "action": {"type": "@@INIT"}, "timestamp": 1700000000000},
            "1": {"type": "PERFORM_ACTION", "action": {"type": "counter/increment"}, "timestamp": 1700000000500},
            "2": {"type": "PERFORM_ACTION", "action": {"type": "counter/add", "amount": 5}, "timestamp": 1700000001000}
          },
          "computedStates": [{"state": {"count": 0}}, {"state": {"count": 1}}, {"state": {"count": 6}}],
          "committedState": {"count": 0},
          "currentStateIndex": 2,
          "nextActionId": 3,
          "skippedActionIds": [2],
          "stagedActionIds": [0, 1, 2]
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try SessionImporter(store: store).importSession(from: file)
        #expect(result.format == .reduxDevTools)
        let reader = try store.openSession(result.id)
        #expect(reader.metadata.appName == "state")
        // The session starts when the store did: the @@INIT action's timestamp, not the first action's.
        #expect(reader.metadata.startedAt == Date(timeIntervalSince1970: 1_700_000_000))
        let events = try reader.events(1...2)
        #expect(events.map(\.label) == ["counter/increment", "counter/add"])
        #expect(events.map(\.time) == [1_700_000_000.5, 1_700_000_001])
        #expect(events[1].action == ["type": "counter/add", "amount": 5])
        // Skipped as a skip in Rewind is: a `skip` row after it says so, and the timeline and exports read it.
        let skipRow = try #require(try reader.events(3...3).first)
        #expect(skipRow.kind == .skip)
        #expect(skipRow.meaning.skip == SkipMark(event: 2, skipped: true))
        #expect(try reader.skippedEventIndices() == [2])
        #expect(try reader.initialState() == ["count": 0])
        #expect(try reader.state(at: 1) == ["count": 1])
        #expect(try reader.state(at: 2) == ["count": 6])
    }

    @Test("a malformed JSON Lines file is refused naming the line, and no half-imported session is left")
    func malformedLines() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let header = #"{"format":"rewind-session","version":1,"session":{"app":"t","startedAt":1},"initialState":{"n":0}}"#
        let good = #"{"index":1,"time":2,"kind":"action","label":"inc","patch":[{"op":"replace","path":"/n","value":1}]}"#
        let cases: [(String, Int, String)] = [
            ("\(header)\n\(good)\n{\"index\":2,\"time\":3,\"kind\":\n", 3, "not valid JSON"),
            ("\(header)\n\(good)\n\n{\"index\":2,\"time\":3,\"kind\":\"explode\"}\n", 4, "unknown event kind \"explode\""),
            ("\(header)\n{\"index\":1,\"time\":2,\"kind\":\"action\",\"patch\":[{\"op\":\"remove\",\"path\":\"/missing\"}]}\n",
             2, "the patch does not apply"),
            ("\(header)\n\(good)\n\(good)\n", 3, "does not come after"),
            ("\(header)\n{\"index\":1,\"kind\":\"action\"}\n", 2, "has no \"time\""),
            ("\(header)\n{\"index\":1,\"time\":1,\"kind\":\"replay\",\"branch\":4}\n", 2, "starts branch 4"),
            (#"{"format":"rewind-session","version":7,"session":{"app":"t","startedAt":1},"initialState":{}}"#, 1, "newer Rewind"),
            (#"{"format":"rewind-session","version":1,"session":{"startedAt":1},"initialState":{}}"#, 1, "has no \"app\""),
        ]
        for (number, (content, line, reason)) in cases.enumerated() {
            let file = directory.url.appendingPathComponent("bad-\(number).jsonl")
            try content.write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try SessionImporter(store: store).importSession(from: file)
                Issue.record("case \(number) was imported")
            } catch {
                guard case .malformedImport(let path, let errorLine, let errorReason) = error else {
                    Issue.record("case \(number): unexpected error \(error)")
                    continue
                }
                #expect(path == file.path)
                #expect(errorLine == line, "case \(number): \(error)")
                #expect(errorReason.contains(reason), "case \(number): \(error)")
                #expect(error.description.hasPrefix("\(file.path), line \(line): "))
            }
        }
        #expect(try store.listSessions().isEmpty, "failed imports leave nothing behind")
    }

    @Test("a JSON Lines file with lone surrogate escapes imports them as U+FFFD, with one warning counting them")
    func loneSurrogatesInLines() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let header = #"{"format":"rewind-session","version":1,"session":{"app":"t\udc00","startedAt":1},"initialState":{"s":""}}"#
        let event = #"{"index":1,"time":2,"kind":"action","label":"type","patch":[{"op":"replace","path":"/s","value":"\ud800\ud800"}]}"#
        let file = directory.url.appendingPathComponent("surrogates.jsonl")
        try "\(header)\n\(event)\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try SessionImporter(store: store).importSession(from: file)
        #expect(result.warnings.count == 1 && result.warnings[0].hasPrefix("3 lone surrogates"), "\(result.warnings)")
        let reader = try store.openSession(result.id)
        #expect(reader.metadata.appName == "t\u{FFFD}")
        #expect(try reader.state(at: 1) == ["s": "\u{FFFD}\u{FFFD}"])
    }

    @Test("a line cut short is said to be incomplete, at its line, without blaming a line end the file lacks")
    func truncatedLines() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let header = #"{"format":"rewind-session","version":1,"session":{"app":"t","startedAt":1},"initialState":{"n":0}}"#
        let good = #"{"index":1,"time":2,"kind":"action","label":"inc","patch":[{"op":"replace","path":"/n","value":1}]}"#
        let cases: [(String, Int)] = [
            (String(header.prefix(60)), 1),  // the whole file: a header cut inside a string, no line end
            ("\(header)\n\(good)\n" + String(good.prefix(50)), 3),  // the last line cut, no line end
            (String(header.prefix(30)) + "\n", 1),  // cut inside a string, then a line end: still the first line's
        ]
        for (number, (content, line)) in cases.enumerated() {
            let file = directory.url.appendingPathComponent("cut-\(number).jsonl")
            try content.write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try SessionImporter(store: store).importSession(from: file)
                Issue.record("case \(number) was imported")
            } catch {
                guard case .malformedImport(_, let errorLine, let reason) = error else {
                    Issue.record("case \(number): unexpected error \(error)")
                    continue
                }
                #expect(errorLine == line, "case \(number): \(error)")
                #expect(reason.contains("is incomplete, it ends in the middle of a JSON value"), "case \(number): \(error)")
                #expect(!reason.contains("U+000A"), "no line end is blamed: \(error)")
            }
        }
    }

    @Test("files in no known format are refused clearly")
    func unknownFormats() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        func attempt(_ content: String) throws -> SessionStoreError? {
            let file = directory.url.appendingPathComponent("\(UUID().uuidString).txt")
            try content.write(to: file, atomically: true, encoding: .utf8)
            do {
                _ = try SessionImporter(store: store).importSession(from: file)
                return nil
            } catch {
                return error
            }
        }
        guard case .unknownImportFormat(_, let emptyReason)? = try attempt("\n  \n") else {
            Issue.record("an empty file was not refused as unknown")
            return
        }
        #expect(emptyReason.contains("empty"))
        guard case .unknownImportFormat(_, let otherReason)? = try attempt(#"{"hello":"world"}"#) else {
            Issue.record("foreign JSON was not refused as unknown")
            return
        }
        #expect(otherReason.contains("neither"))
        guard case .malformedImport(_, let line?, _)? = try attempt("{\n  \"actionsById\": {},\n  \"computedStates\": [,]\n}") else {
            Issue.record("broken pretty-printed JSON was not refused as malformed")
            return
        }
        #expect(line == 3)
        guard case .malformedImport(_, nil, let structure)? = try attempt(#"{"actionsById":{"0":{},"1":{"action":{"type":"x"}}},"computedStates":[{"state":1},2],"stagedActionIds":[0,1]}"#) else {
            Issue.record("a Redux document with a broken structure was not refused")
            return
        }
        #expect(structure.contains("computedStates[1]"))
        #expect(throws: SessionStoreError.self) {
            try SessionImporter(store: store).importSession(from: directory.url.appendingPathComponent("missing.jsonl"))
        }
        #expect(try store.listSessions().isEmpty)
    }

    @Test("exporting to a place that cannot be written is a clear error naming it")
    func unwritableExport() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let reader = try store.openSession(try Self.recordVariedSession(in: store, events: 10))
        let target = directory.url.appendingPathComponent("no-such-dir/out.jsonl")
        #expect(throws: SessionStoreError.unwritable(path: target.path, reason: "No such file or directory")) {
            try SessionExporter(reader: reader).export(format: .jsonl, to: target)
        }
    }
}
