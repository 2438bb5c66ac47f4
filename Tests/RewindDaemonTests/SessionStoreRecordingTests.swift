import Foundation
import RewindTestSupport
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

@Suite("Recording and reading sessions")
struct SessionStoreRecordingTests {
    @Test("events and states read back exactly as they were recorded")
    func roundTrip() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        var app = SyntheticApp()
        let started = Date(timeIntervalSince1970: 1_800_000_000)
        let recording = try store.createSession(
            appName: "todo", instance: "pid-42", protocolVersion: 1, stateType: "TodoState",
            initialState: app.state, startedAt: started)
        var random = SeededGenerator(seed: 1)
        let states = recordSynthetic(200, into: recording, app: &app, random: &random)
        recording.append(NewEvent(time: 1_800_000_001, kind: .error, detail: "bad frame"), stateAfter: app.state)
        recording.append(NewEvent(time: 1_800_000_002, kind: .note, label: "a note", detail: "hello"), stateAfter: app.state)
        recording.finish(endState: .clean)

        let reader = try store.openSession(recording.id)
        let metadata = reader.metadata
        #expect(metadata.id == recording.id)
        #expect(metadata.appName == "todo")
        #expect(metadata.instance == "pid-42")
        #expect(metadata.stateType == "TodoState")
        #expect(metadata.protocolVersion == 1)
        #expect(metadata.startedAt == started)
        #expect(metadata.endedAt != nil)
        #expect(metadata.endState == .clean)
        #expect(metadata.eventCount == 202)
        #expect(metadata.fileBytes > 0)
        #expect(metadata.lastEventAt == Date(timeIntervalSince1970: 1_800_000_002))

        let events = try reader.events(1...202)
        #expect(events.map(\.index) == Array(1...202))
        #expect(events[0].kind == .action)
        #expect(events[0].appSeq == 1)
        #expect(events[0].time == 1_800_000_000)
        #expect(events[0].reducerMicros == 0)
        #expect(events[0].label == events[0].action?["type"]?.stringValue)
        #expect(events[200].kind == .error)
        #expect(events[200].detail == "bad frame")
        #expect(events[200].patch == nil)
        #expect(events[201].label == "a note")
        #expect(try reader.initialState() == states[0])
        for index in [1, 2, 15, 16, 17, 100, 199, 200] {
            #expect(try reader.state(at: Int64(index)) == states[index])
        }
        #expect(try reader.state(at: 202) == states[200])
        #expect(throws: SessionStoreError.eventNotFound(index: 203, branch: 0)) { try reader.state(at: 203) }
        #expect(try reader.event(at: 5) == events[4])
    }

    @Test("the state at every event equals applying every patch in order, branches included")
    func stateAtEveryIndex() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory, options: RecordingOptions(keyframeInterval: 50, keyframePatchBytes: 2048))
        var app = SyntheticApp()
        let recording = try store.createSession(appName: "random", protocolVersion: 1, initialState: app.state)
        var random = SeededGenerator(seed: 7)
        var expected: [Int64: [Int64: JSONValue]] = [0: [0: app.state]]
        var branchApps: [Int64: SyntheticApp] = [:]
        for n in 1...3000 {
            let roll = random.next() % 100
            if roll < 3 {
                // A snapshot replacing the state without a patch (after a reconnect, say).
                app.state = ["todos": [], "counter": .int(Int64(n)), "filter": "all", "user": ["name": "bob", "visits": 1]]
                let index = recording.append(NewEvent(time: Double(n), kind: .snapshot), stateAfter: app.state)
                expected[0, default: [:]][index] = app.state
            } else if roll < 4 {
                // A state that does not follow from a patch, on an ordinary kind: the caller forces a keyframe.
                app.state = ["todos": [], "counter": .int(Int64(-n)), "filter": "done", "user": ["name": "cy", "visits": 0]]
                let index = recording.append(NewEvent(time: Double(n), kind: .dispatch, label: "set"),
                                             stateAfter: app.state, forceKeyframe: true)
                expected[0, default: [:]][index] = app.state
            } else if roll < 5 {
                // An event without any state change.
                let index = recording.append(NewEvent(time: Double(n), kind: .note, detail: "n\(n)"), stateAfter: app.state)
                expected[0, default: [:]][index] = app.state
            } else if roll < 15 {
                // A recomputation on one of three branches, starting from the main timeline's state.
                let branch = Int64(1 + random.next() % 3)
                var branchApp = branchApps[branch] ?? app
                let before = branchApp.state
                let step = branchApp.step(using: &random)
                branchApps[branch] = branchApp
                let index = recording.append(
                    NewEvent(time: Double(n), kind: .replay, label: step.label, action: step.action,
                             patch: JSONPatch.diff(from: before, to: step.stateAfter), branch: branch),
                    stateAfter: step.stateAfter)
                expected[branch, default: [:]][index] = step.stateAfter
            } else {
                let before = app.state
                let step = app.step(using: &random)
                let index = recording.append(
                    NewEvent(time: Double(n), label: step.label, action: step.action,
                             patch: JSONPatch.diff(from: before, to: step.stateAfter)),
                    stateAfter: step.stateAfter)
                expected[0, default: [:]][index] = step.stateAfter
            }
        }
        recording.finish(endState: .clean)

        let reader = try store.openSession(recording.id)
        #expect(reader.eventCount == 3000)
        #expect(try reader.branches() == [0, 1, 2, 3])
        for (branch, states) in expected {
            var last: JSONValue?
            let first = states.keys.min() ?? 0
            for index in first...3000 {
                if let state = states[Int64(index)] { last = state }
                #expect(try reader.state(at: Int64(index), branch: branch) == last, "branch \(branch) event \(index)")
            }
            if branch != 0, first > 1 {
                #expect(throws: SessionStoreError.eventNotFound(index: first - 1, branch: branch)) {
                    try reader.state(at: first - 1, branch: branch)
                }
            }
        }
        // Random access in any order gives the same answers as the sequential walk.
        for _ in 0..<300 {
            let index = Int64(random.next() % 3001)
            let expectedState = expected[0]?.filter { $0.key <= index }.max { $0.key < $1.key }?.value
            #expect(try reader.state(at: index, branch: 0) == expectedState)
        }
        let onBranchTwo = try reader.events(1...3000, branch: 2)
        #expect(onBranchTwo.allSatisfy { $0.branch == 2 })
        #expect(onBranchTwo.map(\.index) == expected[2]?.keys.sorted())
        #expect(try reader.eventsOnAllBranches(1...3000).map(\.index) == Array(1...3000))
    }

    @Test("a reader sees events as they are committed while the session is recorded")
    func concurrentReader() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        var app = SyntheticApp()
        let recording = try store.createSession(appName: "live", protocolVersion: 1, initialState: app.state)
        let reader = try store.openSession(recording.id)
        #expect(reader.metadata.endState == .live)
        #expect(reader.eventCount == 0)
        #expect(try store.listSessions().first?.endState == .live)

        var random = SeededGenerator(seed: 3)
        let states = recordSynthetic(100, into: recording, app: &app, random: &random)
        recording.flush()
        #expect(recording.committedIndex == 100)
        try reader.refresh()
        #expect(reader.eventCount == 100)
        #expect(try reader.state(at: 100) == states[100])
        #expect(try reader.events(1...1000).count == 100)

        // Without flush: the writer commits within its flush interval (100 ms at most) on its own.
        let more = recordSynthetic(50, into: recording, app: &app, random: &random, startTime: 1_900_000_000)
        let deadline = Date().addingTimeInterval(TestTime.seconds(5))
        while reader.eventCount < 150, Date() < deadline {
            try reader.refresh()
        }
        #expect(reader.eventCount == 150)
        #expect(try reader.state(at: 150) == more[50])

        recording.finish(endState: .clean)
        try reader.refresh()
        #expect(reader.metadata.endState == .clean)
        #expect(try reader.state(at: 150) == more[50])
    }

    @Test("sessions are listed newest first and can be found by a unique prefix, and deleted")
    func listingAndResolving() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let older = try store.createSession(
            appName: "alpha", protocolVersion: 1, initialState: [:], startedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let newer = try store.createSession(
            appName: "beta", protocolVersion: 2, initialState: [:], startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        older.finish(endState: .clean)
        newer.finish(endState: .interrupted)
        _ = FileManager.default.createFile(atPath: directory.url.appendingPathComponent("junk.rewind").path,
                                           contents: Data("not sqlite at all, just some text".utf8))
        var skipped: [SessionStoreError] = []
        let sessions = try store.listSessions { _, error in skipped.append(error) }
        #expect(sessions.map(\.id) == [newer.id, older.id])
        #expect(sessions.map(\.endState) == [.interrupted, .clean])
        #expect(skipped.count == 1)
        #expect(skipped.first?.description.contains("junk.rewind") == true)

        #expect(try store.resolveSessionID(newer.id.rawValue) == newer.id)
        #expect(try store.resolveSessionID("2023") == older.id)
        #expect(throws: SessionStoreError.notFound(try SessionID(validating: "1999"))) { try store.resolveSessionID("1999") }
        #expect(throws: SessionStoreError.self) { try store.resolveSessionID("../x") }
        let bothPrefix = String(older.id.rawValue.prefix(1))
        #expect(throws: SessionStoreError.ambiguousSessionID(bothPrefix, matches: [older.id, newer.id])) {
            try store.resolveSessionID(bothPrefix)
        }
        try store.deleteSession(older.id)
        #expect(try store.listSessions().map(\.id) == [newer.id])
        #expect(throws: SessionStoreError.notFound(older.id)) { try store.openSession(older.id) }
    }

    @Test("a live session cannot be deleted and its recorder's lock keeps recovery away")
    func liveSessionIsProtected() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(appName: "busy", protocolVersion: 1, initialState: [:])
        #expect(throws: SessionStoreError.sessionInUse(recording.id)) { try store.deleteSession(recording.id) }
        #expect(try store.recoverInterrupted() == [])
        #expect(try store.openSession(recording.id).metadata.endState == .live)
        recording.finish(endState: .clean)
        recording.finish(endState: .interrupted) // idempotent: the first end state stays
        #expect(try store.openSession(recording.id).metadata.endState == .clean)
        #expect(recording.append(NewEvent(kind: .note), stateAfter: [:]) == 0)
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("\(recording.id).lock").path))
    }

    @Test("labels can be searched with a regular expression")
    func labelSearch() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let recording = try store.createSession(appName: "labels", protocolVersion: 1, initialState: [:])
        let labels = ["todo/add", "todo/toggle", "filter/set", "todo/add", "todo/add", "counter/increment"]
        for label in labels { recording.append(NewEvent(label: label), stateAfter: [:]) }
        recording.append(NewEvent(kind: .note), stateAfter: [:])
        recording.append(NewEvent(label: "todo/add", branch: 1), stateAfter: [:])
        recording.append(NewEvent(label: ""), stateAfter: [:])
        recording.append(NewEvent(label: ""), stateAfter: [:])
        recording.finish(endState: .clean)
        let reader = try store.openSession(recording.id)
        #expect(try reader.eventIndices(matchingLabel: "^todo/") == [1, 2, 4, 5])
        #expect(try reader.eventIndices(matchingLabel: "add$", in: 2...4) == [4])
        #expect(try reader.eventIndices(matchingLabel: "add", branch: 1) == [8])
        #expect(try reader.eventIndices(matchingLabel: "nothing") == [])
        #expect(try reader.eventIndices(matchingLabel: "^$") == [9, 10])
        #expect(throws: SessionStoreError.self) { try reader.eventIndices(matchingLabel: "(unclosed") }
    }
}
