import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import RewindWire
import Testing

/// `rewind import` of what the Redux DevTools browser extension writes (docs/SESSION-FORMAT.md, "Redux DevTools
/// format"): its default export of actions only, and lifted states with reducer errors and `@@INIT` times.
@Suite("rewind import of Redux DevTools files")
struct ReduxDevToolsImportTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-redux-\(UUID())")

    private func write(_ value: JSONValue, name: String, modified: Date? = nil) throws -> String {
        try write(text: value.serialized(), name: name, modified: modified)
    }

    /// Writes `text` as it is (for what a `JSONValue` cannot hold, such as a lone surrogate escape).
    private func write(text: String, name: String, modified: Date? = nil) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path) }
        return path
    }

    /// Runs `rewind import path` into the directory's `sessions` folder: its standard error, and the new session's
    /// reader on success.
    private func importFile(_ path: String) throws -> (status: Int32?, err: String, reader: SessionReader?) {
        let data = directory.appendingPathComponent("sessions")
        let process = try ChildProcess(Executables.path("rewind"), ["import", path, "--data", data.path])
        process.closeInput()
        let status = process.waitForExit()
        guard status == 0, let id = process.stdoutLines.first?.split(separator: " ").last.map(String.init) else {
            return (status, process.stderrLines.joined(separator: "\n"), nil)
        }
        let store = try SessionStore(directory: data)
        return (status, process.stderrLines.joined(separator: "\n"), try store.openSession(try SessionID(validating: id)))
    }

    /// The sessions the directory's `sessions` folder holds (none after a refused import).
    private func sessionCount() throws -> Int {
        let data = directory.appendingPathComponent("sessions")
        guard FileManager.default.fileExists(atPath: data.path) else { return 0 }
        return try SessionStore(directory: data).listSessions().count
    }

    @Test("the extension's export of actions only is read: the preloaded state, then the actions with unknown states")
    func actionsOnlyExport() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let actions: JSONValue = [["type": "counter/increment"], ["type": "counter/add", "payload": 4]]
        let modified = Date(timeIntervalSince1970: 1_767_323_045)
        let preloaded: JSONValue = ["count": 0]
        let path = try write(["payload": .string(actions.serialized()), "preloadedState": .string(preloaded.serialized())],
                             name: "counter-export.json", modified: modified)
        let run = try importFile(path)
        #expect(run.status == 0, "\(run.err)")
        let reader = try #require(run.reader)
        #expect(reader.eventCount == 3)
        #expect(try reader.initialState() == ["count": 0])
        let events = try reader.events(1...3)
        #expect(events.map(\.kind) == [.dropped, .action, .action])
        #expect(events[0].label == "dropped")
        #expect(events.dropFirst().map(\.label) == ["counter/increment", "counter/add"])
        #expect(events[2].action == ["type": "counter/add", "payload": 4])
        guard case .unknown = try reader.recordedState(after: 3) else {
            Issue.record("the state after an action of an export without states must read as unknown")
            return
        }
        // The file has no times: the session takes the file's, not the import's clock.
        #expect(reader.metadata.startedAt == modified)
        #expect(events.allSatisfy { $0.time == modified.timeIntervalSince1970 })
    }

    @Test("an export of a store created without a preloaded state is read with the initial state unknown")
    func actionsWithoutInitialState() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let actions: JSONValue = [["type": "a"], ["type": "b"]]
        let path = try write(["payload": .string(actions.serialized())], name: "no-state.json")
        let run = try importFile(path)
        #expect(run.status == 0, "\(run.err)")
        let reader = try #require(run.reader)
        #expect(reader.eventCount == 3)
        #expect(try reader.initialState() == .null)
        let events = try reader.events(1...3)
        #expect(events.map(\.kind) == [.dropped, .action, .action])
        #expect(events[0].label == "initial_unknown")
        #expect(events[0].action == ["from": 1, "to": 2])
        #expect(events[0].detail?.contains("no preloadedState") == true, "\(events[0].detail ?? "")")
        // The initial state (recorded as null) and the opening row's own state read as unknown too.
        guard case .unknown(let stretch) = try reader.recordedState(after: 0) else {
            Issue.record("the initial state of an export without preloadedState must read as unknown")
            return
        }
        #expect(stretch.first == 0 && stretch.cause == 1)
        #expect(stretch.explanation(for: 0).contains("(the initial state and every event; event 1: ")
                && stretch.explanation(for: 0).hasSuffix("; no earlier state is known"), "\(stretch.explanation(for: 0))")
        #expect(try reader.unknownState(after: 0) == stretch)
        for index: Int64 in 1...3 {
            guard case .unknown = try reader.recordedState(after: index) else {
                Issue.record("the state after event \(index) must read as unknown")
                continue
            }
        }
        #expect(run.err.contains("warning: the file has no preloadedState: the initial state is unknown"), "\(run.err)")
        // `rewind state` of the initial state says so rather than printing the recorded null.
        let data = directory.appendingPathComponent("sessions").path
        let state = RewindRun.inProcess(["state", reader.id.rawValue, "0", "--data", data])
        #expect(state.status == 1)
        #expect(state.stdout.isEmpty)
        #expect(state.stderr.joined().contains("the state after event 0 was not recorded (unknown from the "
                                               + "initial state to the end of the recording: "),
                "\(state.stderr)")
    }

    @Test("a computedStates entry without state reads as unknown, up to the next state the file holds")
    func entryWithoutState() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        func lifted(_ id: Int) -> JSONValue {
            ["type": "PERFORM_ACTION", "action": ["type": .string("a\(id)")], "timestamp": .int(1_700_000_000_000 + Int64(id))]
        }
        let document: JSONValue = [
            "actionsById": ["0": lifted(0), "1": lifted(1), "2": lifted(2), "3": lifted(3), "4": lifted(4)],
            "computedStates": [["state": ["n": 0]], ["state": ["n": 1]], [:], ["error": "Error: x"], ["state": ["n": 4]]],
            "stagedActionIds": [0, 1, 2, 3, 4],
        ]
        let run = try importFile(try write(document, name: "stateless.json"))
        #expect(run.status == 0, "\(run.err)")
        let reader = try #require(run.reader)
        let events = try reader.events(1...6)
        #expect(events.map(\.kind) == [.action, .dropped, .action, .action, .action, .snapshot])
        #expect(events.map(\.label) == ["a1", "dropped", "a2", "a3", "a4", "state"])
        #expect(events[1].action == ["from": 2, "to": 3])
        #expect(events[1].detail?.contains("computedStates[2]–[3] have no \"state\"") == true, "\(events[1].detail ?? "")")
        #expect(try reader.recordedState(after: 1) == .known(["n": 1]))
        for index: Int64 in 3...5 {
            guard case .unknown = try reader.recordedState(after: index) else {
                Issue.record("the state after event \(index) must read as unknown")
                continue
            }
        }
        #expect(try reader.recordedState(after: 6) == .known(["n": 4]))
        #expect(run.err.contains("warning: 2 computedStates entries have no \"state\""), "\(run.err)")
    }

    @Test("a computedStates entry that is not an object is refused, naming it, and leaves no session")
    func entryNotAnObject() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let document: JSONValue = [
            "actionsById": ["0": ["type": "PERFORM_ACTION", "action": ["type": "@@INIT"]],
                            "1": ["type": "PERFORM_ACTION", "action": ["type": "a"]]],
            "computedStates": [["state": ["n": 0]], 7], "stagedActionIds": [0, 1],
        ]
        let run = try importFile(try write(document, name: "bad-entry.json"))
        #expect(run.status == 1)
        #expect(run.err.contains("computedStates[1] must be an object, not"), "\(run.err)")
        #expect(try sessionCount() == 0)
    }

    @Test("nesting over 512 levels is refused naming the limit, and leaves no session; 512 is read")
    func nestingLimit() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        func document(stateDepth: Int) -> String {
            let state = String(repeating: "[", count: stateDepth) + String(repeating: "]", count: stateDepth)
            return #"{"actionsById": {"0": {"type": "PERFORM_ACTION", "action": {"type": "@@INIT"}}}, "#
                + #""computedStates": [{"state": \#(state)}], "stagedActionIds": [0]}"#
        }
        // The state sits 3 levels down (the document, computedStates, the entry): 509 levels of its own fit.
        let fits = try importFile(try write(text: document(stateDepth: 509), name: "deep-ok.json"))
        #expect(fits.status == 0, "\(fits.err)")
        #expect(try fits.reader?.initialState().depth == 509)
        try? FileManager.default.removeItem(at: directory)
        let run = try importFile(try write(text: document(stateDepth: 510), name: "deep.json"))
        #expect(run.status == 1)
        #expect(run.err.contains("nesting deeper than the limit of 512"), "\(run.err)")
        #expect(try sessionCount() == 0)
    }

    @Test("a lifted state keeps reducer errors and takes its times from @@INIT and the actions")
    func liftedStateErrorsAndTimes() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let lifted: JSONValue = [
            "actionsById": [
                "0": ["type": "PERFORM_ACTION", "action": ["type": "@@INIT"], "timestamp": 1_700_000_000_000],
                "1": ["type": "PERFORM_ACTION", "action": ["type": "inc"], "timestamp": 1_700_000_001_500],
                "2": ["type": "PERFORM_ACTION", "action": ["type": "boom"], "timestamp": 1_700_000_002_000],
            ],
            "computedStates": [["state": ["n": 0]], ["state": ["n": 1]], ["state": ["n": 1], "error": "Error: boom"]],
            "stagedActionIds": [0, 1, 2], "skippedActionIds": [], "committedState": ["n": 0],
            "currentStateIndex": 2, "nextActionId": 3,
        ]
        let run = try importFile(try write(lifted, name: "lifted.json"))
        #expect(run.status == 0, "\(run.err)")
        let reader = try #require(run.reader)
        #expect(reader.metadata.startedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(reader.metadata.endedAt == Date(timeIntervalSince1970: 1_700_000_002))
        let events = try reader.events(1...2)
        #expect(events.map(\.time) == [1_700_000_001.5, 1_700_000_002])
        #expect(events[1].detail == "reducer error: Error: boom")
        #expect(try reader.state(at: 2) == ["n": 1])
    }

    @Test("lone surrogates, which JavaScript strings hold, are read as U+FFFD and the import says so once")
    func loneSurrogates() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let lifted = #"""
            {"actionsById": {"0": {"type": "PERFORM_ACTION", "action": {"type": "@@INIT"}, "timestamp": 1700000000000},
              "1": {"type": "PERFORM_ACTION", "action": {"type": "typed", "text": "a\ud800"}, "timestamp": 1700000001000}},
             "computedStates": [{"state": {"text": ""}}, {"state": {"text": "a\ud800", "tail": "\udc00b"}}],
             "stagedActionIds": [0, 1]}
            """#
        let run = try importFile(try write(text: lifted, name: "surrogates.json"))
        #expect(run.status == 0, "\(run.err)")
        let reader = try #require(run.reader)
        #expect(try reader.state(at: 1) == ["text": "a\u{FFFD}", "tail": "\u{FFFD}b"])
        #expect(try reader.events(1...1).first?.action == ["type": "typed", "text": "a\u{FFFD}"])
        let warnings = run.err.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1 && warnings[0].contains("3 lone surrogates") && warnings[0].contains("U+FFFD"),
                "\(run.err)")

        // In an extension export the actions are JSON text inside a string: the escape is escaped once more.
        let export = #"{"payload": "[{\"type\":\"typed\",\"text\":\"\\ud83d\"}]", "preloadedState": "{\"text\":\"\"}"}"#
        let second = try importFile(try write(text: export, name: "surrogates-export.json"))
        #expect(second.status == 0, "\(second.err)")
        let events = try #require(second.reader).events(1...2)
        #expect(events[1].action == ["type": "typed", "text": "\u{FFFD}"])
        #expect(second.err.contains("1 lone surrogate ") && second.err.contains("was read as U+FFFD"), "\(second.err)")
    }

    @Test("values carrying jsan or Immutable markers are kept as they are, and the import says how many")
    func serializationMarkers() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let date: JSONValue = ["$jsan": "d1700000000000"]
        let map: JSONValue = ["data": [["a", 1]], "__serializedType__": "ImmutableMap"]
        let lifted: JSONValue = [
            "actionsById": [
                "0": ["type": "PERFORM_ACTION", "action": ["type": "@@INIT"], "timestamp": 1_700_000_000_000],
                "1": ["type": "PERFORM_ACTION", "action": ["type": "set", "at": date], "timestamp": 1_700_000_001_000],
            ],
            "computedStates": [["state": ["m": map]], ["state": ["m": map, "at": date]]],
            "stagedActionIds": [0, 1],
        ]
        let run = try importFile(try write(lifted, name: "markers.json"))
        #expect(run.status == 0, "\(run.err)")
        let reader = try #require(run.reader)
        #expect(try reader.state(at: 1) == ["m": map, "at": date])
        #expect(run.err.contains("warning: 4 values carry a Redux DevTools serialization marker")
                && run.err.contains("kept as they are"), "\(run.err)")

        // A file without markers gets no warning.
        let plain: JSONValue = [
            "actionsById": ["0": ["type": "PERFORM_ACTION", "action": ["type": "@@INIT"]]],
            "computedStates": [["state": ["n": 0]]], "stagedActionIds": [0],
        ]
        let quiet = try importFile(try write(plain, name: "plain.json"))
        #expect(quiet.status == 0 && !quiet.err.contains("warning"), "\(quiet.err)")
    }
}
