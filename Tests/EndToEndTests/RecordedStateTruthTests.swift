import Foundation
import RewindDaemon
import RewindMCP
import RewindSessionFile
import RewindTUI
import RewindTestSupport
import RewindWire
import Testing

/// Issue 18's acceptance check: reading states through every path (`SessionReader`, JSON Lines and Redux
/// DevTools export, `rewind jump`, the timeline, `rewind state`, `rewind mcp`) agrees, for every event, with an
/// independent replay of the session's patches —
/// on a session with branches, jumps, dropped ranges and reconnects, recorded by the real daemon from a
/// hand-driven app peer (an adding counter, `{"count": n}`, whose actions `{"add":{"_0":n}}` it also replays).
@Suite("Recorded states against an independent replay", .serialized)
struct RecordedStateTruthTests {
    /// The app side: a peer that speaks `rewind.v1` and keeps its own count.
    private final class CounterPeer {
        let peer: DaemonPeer
        private(set) var count: Int
        private(set) var seq = 0

        init(port: Int, instance: String, count: Int, seq: Int?) throws {
            peer = try DaemonPeer(port: port, timeout: TestTime.seconds(0.5))
            self.count = count
            let seqMember = seq.map { #","seq":\#($0)"# } ?? ""
            try peer.send(#"{"type":"hello","protocol":1,"app":{"name":"truth","instance":"\#(instance)"},"#
                + #""state":{"count":\#(count)},"stateType":"CounterState","capabilities":["jump","dispatch","replay","batch"]\#(seqMember)}"#)
            let welcome = try next(until: Date(timeIntervalSinceNow: TestTime.seconds(5)))
            #expect(welcome?["type"] == "welcome", "\(String(describing: welcome))")
        }

        /// An `add n` the app dispatched; `withState` false: inside a dropped range, an empty patch.
        func add(_ n: Int, withState: Bool = true) throws {
            seq += 1
            count += n
            let patch = withState ? #"[{"op":"replace","path":"/count","value":\#(count)}]"# : "[]"
            try peer.send(#"{"type":"action","seq":\#(seq),"time":\#(Date().timeIntervalSince1970),"#
                + #""action":{"type":"add","payload":{"add":{"_0":\#(n)}}},"patch":\#(patch)}"#)
        }

        /// An `add n` the app dispatched but never sent (its seq is skipped).
        func lose(_ n: Int) {
            seq += 1
            count += n
        }

        /// Reads until the daemon asks for a `resync`, and answers it with a snapshot of the current state.
        func answerResync() throws {
            let deadline = Date(timeIntervalSinceNow: TestTime.seconds(5))
            while let message = try next(until: deadline) {
                guard message["type"] == "resync" else { continue }
                try peer.send(#"{"type":"snapshot","seq":\#(seq),"state":{"count":\#(count)},"reason":"resync"}"#)
                return
            }
            Issue.record("no resync came")
        }

        /// The next `count` actions go without states (the outbox coalesced), then a snapshot closes the range.
        func dropped(adding values: [Int]) throws {
            try peer.send(#"{"type":"dropped","from":\#(seq + 1),"to":\#(seq + values.count)}"#)
            for value in values { try add(value, withState: false) }
            try peer.send(#"{"type":"snapshot","seq":\#(seq),"state":{"count":\#(count)},"reason":"coalesced"}"#)
        }

        /// Gives the daemon up to 200 ms to complete the command just answered before the next blocking read.
        private func settle(_ done: () -> Bool) {
            for _ in 0..<200 where !done() { usleep(1_000) }
        }

        /// The next message, or nil when none came before `deadline`.
        func next(until deadline: Date) throws -> JSONValue? {
            while Date() < deadline {
                do {
                    return try peer.next()
                } catch RawWebSocketClient.Failure.timedOut {
                    continue
                }
            }
            return nil
        }

        /// Answers the daemon's commands as the Swift inspector does until `done` holds: `replay` with the state
        /// after each action and a `replay` snapshot, `jump` with a `jump` snapshot (`report` false: no snapshot,
        /// so that the session does not grow). Returns the states the jumps carried.
        @discardableResult
        func serve(reportJumps report: Bool = true, until done: () -> Bool) throws -> [JSONValue] {
            let deadline = Date(timeIntervalSinceNow: TestTime.seconds(30))
            var jumped: [JSONValue] = []
            while !done(), Date() < deadline {
                guard let message = try next(until: Date(timeIntervalSinceNow: 0.3)) else { continue }
                let id = message["id"]?.stringValue ?? ""
                switch message["type"]?.stringValue {
                case "replay":
                    if message["reset"] != false { count = Int(message["state"]?["count"]?.int64Value ?? 0) }
                    var states: [String] = []
                    for action in message["actions"]?.arrayValue ?? [] {
                        count += Int(action["add"]?["_0"]?.int64Value ?? 0)
                        states.append(#"{"count":\#(count)}"#)
                    }
                    try peer.send(#"{"type":"result","id":"\#(id)","ok":true,"states":[\#(states.joined(separator: ","))]}"#)
                    try peer.send(#"{"type":"snapshot","seq":\#(seq),"state":{"count":\#(count)},"reason":"replay"}"#)
                    settle(done)
                case "jump":
                    let state = message["state"] ?? .null
                    jumped.append(state)
                    try peer.send(#"{"type":"result","id":"\#(id)","ok":true}"#)
                    if report {
                        count = Int(state["count"]?.int64Value ?? 0)
                        try peer.send(#"{"type":"snapshot","seq":\#(seq),"state":\#(state.serialized()),"reason":"jump"}"#)
                    }
                    settle(done)
                default:
                    continue
                }
            }
            return jumped
        }
    }

    /// Every reader's answer for every row of `events` (the session's rows, every branch) against `expected`, the
    /// independent replay's state after each row (nil inside a stretch of unknown state): the session reader, the
    /// timeline (its row and State tab), `rewind state`, `rewind mcp`'s get_state, the JSON Lines export and that export
    /// imported again, and the Redux DevTools export (the main line).
    static func expectEveryReaderAgrees(with expected: [Int64: JSONValue?], events: [RecordedEvent], reader: SessionReader,
                                        store: SessionStore, data: URL, session: SessionID) throws {
        let unknownIndices = Set(expected.compactMap { entry -> Int64? in
            if case .none = entry.value { return entry.key }
            return nil
        })
        // SessionReader.
        for event in events {
            let truth = try #require(expected[event.index])
            let read = try reader.recordedState(after: event.index)
            if let truth {
                #expect(read == .known(truth), "event \(event.index) (\(event.kind), branch \(event.branch))")
                #expect(try reader.state(at: event.index) == truth, "event \(event.index)")
            } else {
                guard case .unknown(let stretch) = read else {
                    Issue.record("event \(event.index) should be unknown, read \(read)")
                    continue
                }
                #expect(stretch.contains(event.index, branch: 0))
            }
        }

        // The timeline (its row says whether the state is unknown; its State tab shows the row's own branch's
        // state), `rewind state` and `rewind mcp`'s get_state.
        let timeline = SessionTimelineSource(store: store, daemon: nil)
        let rows = try timeline.events(session: session.rawValue, range: 1...Int(events.last?.index ?? 0))
        #expect(rows.map(\.index) == events.map { Int($0.index) })
        for (row, event) in zip(rows, events) {
            let truth = try #require(expected[event.index])
            let place = "event \(event.index) (\(event.kind), branch \(event.branch))"
            #expect(row.stateUnknown == (truth == nil), "the timeline's \(place)")
            if let truth { #expect(try timeline.state(session: session.rawValue, index: row.index) == truth, "the timeline's \(place)") }
            let command = RewindRun.inProcess(["state", session.rawValue, "\(event.index)", "--json",
                                               "--data", data.path])
            if let truth {
                #expect(command.status == 0 && (try? JSONValue(parsing: Array(command.stdout.joined().utf8))) == truth,
                        "rewind state of \(place): \(command.stdout) \(command.stderr)")
                #expect((try? ReadTools.state(after: event.index, in: reader)) == truth, "get_state of \(place)")
            } else {
                #expect(command.status == 1 && command.stderrText.contains("was not recorded"), "rewind state of \(place)")
                #expect((try? ReadTools.state(after: event.index, in: reader)) == nil, "get_state of \(place)")
            }
        }

        // JSON Lines export.
        let lines = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-truth-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: lines) }
        try SessionExporter(reader: reader).export(format: .jsonl, to: lines)
        let exported = try ExportedStates(jsonl: lines)
        #expect(exported.unknown == unknownIndices)
        for event in events {
            guard let truth = try #require(expected[event.index]) else { continue }
            #expect(exported.states[event.index] == truth, "exported event \(event.index)")
        }

        // Imported back, the session has the same stretches of unknown state (renumbered like the events).
        let imported = try SessionImporter(store: store).importSession(from: lines)
        let importedReader = try store.openSession(imported.id)
        let importedUnknown = try importedReader.eventsOnAllBranches(1...importedReader.eventCount)
            .filter { try importedReader.unknownState(after: $0.index) != nil }
        #expect(importedUnknown.map(\.appSeq) == events.filter { unknownIndices.contains($0.index) }.map(\.appSeq))

        // Redux DevTools export (the main line only): computedStates[n] is the state after its n-th event.
        let redux = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-truth-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: redux) }
        try SessionExporter(reader: reader).export(format: .reduxDevTools, to: redux)
        let document = try JSONValue(parsing: Array(try Data(contentsOf: redux)))
        for (position, event) in events.filter({ $0.branch == 0 }).enumerated() {
            let lifted = document["actionsById"]?["\(position + 1)"]
            if let truth = try #require(expected[event.index]) {
                #expect(document["computedStates"]?[position + 1]?["state"] == truth, "redux event \(event.index)")
                #expect(lifted?["rewind"]?["stateUnknown"]?.boolValue != true)
            } else {
                #expect(lifted?["rewind"]?["stateUnknown"] == true, "redux event \(event.index)")
            }
        }
    }

    /// Why the reconstruction could not go on.
    private struct Mismatch: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A result handed from the daemon's completion to the test thread.
    private final class Mailbox<Value: Sendable>: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var stored: Value?
        func put(_ value: Value) { lock.withLock { stored = value } }
        var value: Value? { lock.withLock { stored } }
    }

    /// The independent reconstruction: one state per branch, each event's patch applied in index order; a
    /// state is unknown after an app's `dropped` row until the next event that carries a full state (snapshot,
    /// jump, replay, reconnect), which takes the state the app sent (`sent`, by the event's app seq) when it has no
    /// patch; a branch starts from the main line's state its `recomputed` row names.
    private func reconstruct(_ events: [RecordedEvent], initial: JSONValue,
                             sent: [Int64: JSONValue]) throws -> [Int64: JSONValue?] {
        var current: [Int64: JSONValue] = [0: initial]
        var result: [Int64: JSONValue?] = [0: initial]
        var unknown: Set<Int64> = []
        for event in events {
            let branch = event.branch
            switch event.kind {
            case .dropped where event.label == "dropped":
                // The row itself: the state before the range; the events after it: unknown.
                result[event.index] = current[branch]
                unknown.insert(branch)
                continue
            case .snapshot, .jump, .replay, .reconnect:
                if !unknown.contains(branch), let patch = event.patch, let before = current[branch] {
                    current[branch] = try patch.apply(to: before)
                } else {
                    guard let seq = event.appSeq, let full = sent[seq] else {
                        throw Mismatch("the test does not know the full state of event \(event.index)")
                    }
                    current[branch] = full
                }
                unknown.remove(branch)
            case .note where branch != 0:
                // "branch N: the main line from the state after event K, without …"
                let detail = event.detail ?? ""
                let number = detail.components(separatedBy: "after event ").dropFirst().first?
                    .prefix(while: \.isNumber) ?? ""
                guard let after = Int64(number), case .some(.some(let start)) = result[after] else {
                    throw Mismatch("branch \(branch) starts from an unknown state: \(detail)")
                }
                current[branch] = start
            default:
                if !unknown.contains(branch), let before = current[branch], let patch = event.patch {
                    current[branch] = try patch.apply(to: before)
                }
            }
            result[event.index] = unknown.contains(branch) ? JSONValue?.none : current[branch]
        }
        return result
    }

    @Test("every event's state through SessionReader, export and jump matches an independent replay of the patches")
    func everyPathAgreesWithAnIndependentReplay() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let daemon = harness.daemon
        let instance = UUID().uuidString
        var sent: [Int64: JSONValue] = [:]

        // Connection 1: 1 3 6, a dropped range (+10 ×3, closed at 36), 40, a jump back to 3, then 8.
        var app = try CounterPeer(port: harness.port, instance: instance, count: 0, seq: nil)
        try app.add(1)
        try app.add(2)
        try app.add(3)
        try app.dropped(adding: [10, 10, 10])
        sent[6] = ["count": 36]
        try app.add(4)
        let session = try #require(harness.waitForSession(events: 9, app: "truth"))
        let id = session.id
        let jumped = Mailbox<Result<CommandResult, DaemonError>>()
        daemon.jump(session: id, to: 2) { jumped.put($0) }
        try app.serve { jumped.value != nil }
        _ = try #require(jumped.value).get()
        try app.add(5)
        #expect(harness.waitForSession(events: 11) != nil)

        // The app goes away and comes back with another state (it restarted with 100): a reconnect.
        app.peer.raw.drop()
        let gone = Date(timeIntervalSinceNow: TestTime.seconds(5))
        // Until the recording is finished (its lock file removed): a hello before that finds the file still
        // locked and is refused (a race of the daemon's, not what this test is about).
        let lock = harness.dataDirectory.appendingPathComponent("\(id.rawValue).lock").path
        while session.isLive || FileManager.default.fileExists(atPath: lock), Date() < gone { usleep(10_000) }
        app = try CounterPeer(port: harness.port, instance: instance, count: 100, seq: 8)
        sent[8] = ["count": 100]
        try app.add(1)
        try app.dropped(adding: [1, 1])
        sent[11] = ["count": 103]
        try app.add(2)
        #expect(harness.waitForSession(events: 18) != nil)

        // A skip of event 2 ("add 2") recomputes across the dropped range, the snapshot, the jump and the reconnect.
        let skipped = Mailbox<Result<SkipOutcome, DaemonError>>()
        daemon.skip(session: id, index: 2) { skipped.put($0) }
        try app.serve { skipped.value != nil }
        let outcome = try #require(skipped.value).get()
        // From 1: add 3 → 4, the range's +10 ×3 → 14 24 34; then 36 put in place → 40; the jump's 3 → 8; the
        // reconnect's 100 → 101, 102 103; the snapshot's 103 → 105.
        #expect(outcome.states.map { $0["count"]?.int64Value } == [4, 14, 24, 34, 40, 8, 101, 102, 103, 105])
        // The app answered each of the skip's replays (one per segment) with a `replay` snapshot, which may still be on
        // its way to the daemon (`waitUntilIdle` covers what it has received): wait until the last one, which puts the
        // skip's final state in place, is recorded, so that none is taken later for a row the jumps below added (a
        // ThreadSanitizer run found one there; waiting for the first of them was not enough).
        func waitForRow(_ what: String, _ matches: (RecordedEvent, SessionReader) -> Bool) throws {
            let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
            while true {
                daemon.waitUntilIdle()
                daemon.sessions.filter { $0.id == id }.forEach { $0.flush() }
                let reader = try daemon.store.openSession(id)
                if try reader.eventsOnAllBranches(1...reader.eventCount).contains(where: { matches($0, reader) }) { return }
                guard Date() < deadline else {
                    Issue.record("\(what) was not recorded")
                    return
                }
                usleep(10_000)
            }
        }
        try waitForRow("the skip's last replay snapshot") { event, reader in
            event.kind == .replay && event.branch == 0 && (try? reader.state(at: event.index)) == outcome.finalState
        }
        // A replay of events 1–3 into the session itself: the app is reset to the initial state and runs add 1,
        // add 2, add 3 (1, 3, 6); its `replay` row puts 6 in place on the main line.
        let replayed = Mailbox<Result<CommandResult, DaemonError>>()
        daemon.replay(session: id, from: 1, to: 3, into: id) { replayed.put($0) }
        try app.serve { replayed.value != nil }
        #expect(try #require(replayed.value).get().states == [["count": 1], ["count": 3], ["count": 6]])
        try waitForRow("the replay of events 1–3") { event, _ in event.meaning.replayed == ReplayedRange(from: 1, to: 3) }

        let reader = try daemon.store.openSession(id)
        let total = reader.eventCount
        let events = try reader.eventsOnAllBranches(1...total)
        #expect(Set(events.map(\.branch)) == [0, 1])
        #expect(events.contains { $0.kind == .reconnect } && events.contains { $0.kind == .jump })
        #expect(events.filter { $0.kind == .dropped }.count == 2)
        // The skip's replays (one per segment it recomputes) and the replay of events 1–3, which says what it replayed.
        let replays = events.filter { $0.kind == .replay }.map(\.meaning.replayed)
        #expect(replays.last == ReplayedRange(from: 1, to: 3) && replays.dropLast().allSatisfy { $0 == nil }, "\(replays)")
        let expected = try reconstruct(events, initial: try reader.initialState(), sent: sent)
        let unknownIndices = Set(expected.compactMap { entry -> Int64? in
            if case .none = entry.value { return entry.key }
            return nil
        })
        // The five actions sent without states, and only those.
        #expect(unknownIndices == Set(events.filter { $0.branch == 0 && $0.kind == .action
                                                       && [4, 5, 6, 10, 11].contains($0.appSeq ?? 0) }.map(\.index)))

        try Self.expectEveryReaderAgrees(with: expected, events: events, reader: reader, store: daemon.store,
                                         data: harness.dataDirectory, session: id)

        // rewind jump, to every event: the state pushed is the truth, or the jump is refused with the reason.
        for event in events {
            let truth = try #require(expected[event.index])
            let answer = Mailbox<Result<CommandResult, DaemonError>>()
            daemon.jump(session: id, to: event.index) { answer.put($0) }
            let pushed = try app.serve(reportJumps: false) { answer.value != nil }
            let result = try #require(answer.value)
            if let truth {
                #expect(pushed == [truth], "jump to event \(event.index)")
                #expect((try? result.get()) != nil)
            } else {
                #expect(pushed.isEmpty)
                guard case .failure(let error) = result else {
                    Issue.record("the jump to event \(event.index), whose state is unknown, was not refused")
                    continue
                }
                #expect(error.code == .badField)
                #expect(error.description.contains("the state after event \(event.index) is unknown"), "\(error)")
            }
        }
        // Answered jumps add no rows (an app action still in flight when `total` was read may land meanwhile).
        let after = try daemon.store.openSession(id)
        let later = after.eventCount > total ? try after.eventsOnAllBranches((total + 1)...after.eventCount) : []
        #expect(later.allSatisfy { $0.kind == .action }, "answered jumps add no events here: \(later.map(\.kind))")
    }

    /// Generated runs; two under a sanitizer (`REWIND_TEST_TIME_SCALE` set by `make sanitize`).
    static let generatedSeeds: [UInt64] = TestTime.scale > 1 ? [1, 2] : [1, 2, 3, 4, 5, 6]

    @Test("generated runs through the real daemon — actions, skips and unskips, replays, jumps: every reader agrees with an independent replay, for every row (issue 29)",
          arguments: generatedSeeds)
    func generatedTimeTravel(seed: UInt64) throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let daemon = harness.daemon
        var random = SplitMix(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let app = try CounterPeer(port: harness.port, instance: UUID().uuidString, count: 0, seq: nil)
        try app.add(1)
        let session = try #require(harness.waitForSession(events: 1, app: "truth"))
        let id = session.id
        var script: [String] = ["add"]
        var recomputations = 0

        /// The session's rows as committed once the daemon has taken in what it received.
        func rows() throws -> (SessionReader, [RecordedEvent]) {
            daemon.waitUntilIdle()
            daemon.sessions.filter { $0.id == id }.forEach { $0.flush() }
            let reader = try daemon.store.openSession(id)
            return (reader, try reader.eventsOnAllBranches(1...max(1, reader.eventCount)))
        }
        /// Waits until a row `matches` (what the app sent last is recorded), or records an issue.
        func waitForRow(_ what: String, _ matches: (RecordedEvent, SessionReader) -> Bool) throws {
            let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
            while true {
                let (reader, events) = try rows()
                if events.contains(where: { matches($0, reader) }) { return }
                guard Date() < deadline else {
                    Issue.record("\(what) was not recorded (seed \(seed): \(script.joined(separator: "; ")))")
                    return
                }
                usleep(10_000)
            }
        }

        for _ in 0..<8 {
            let (reader, events) = try rows()
            let actions = events.filter { $0.branch == 0 && $0.kind == .action }.map(\.index)
            switch below(5) {
            case 0, 1:
                let count = 1 + below(3)
                for _ in 0..<count { try app.add(1 + below(9)) }
                script.append("add ×\(count)")
                let last = Int64(app.seq)
                try waitForRow("action \(last)") { event, _ in event.kind == .action && event.appSeq == last }
            case 2:
                let target = actions[below(actions.count)]
                script.append("skip \(target)")
                let answer = Mailbox<Result<SkipOutcome, DaemonError>>()
                daemon.skip(session: id, index: target) { answer.put($0) }
                try app.serve { answer.value != nil }
                let outcome = try #require(answer.value).get()
                if outcome.branch != 0 { recomputations += 1 }
                // The state the toggle put in place: a skip's last replay, or an unskip's jump back to the main line.
                try waitForRow("the state \(target)'s toggle put in place") { event, reader in
                    (event.kind == .replay || event.kind == .jump) && event.branch == 0
                        && event.index > (events.last?.index ?? 0)
                        && (try? reader.state(at: event.index)) == outcome.finalState
                }
            case 3:
                let from = actions[below(actions.count)]
                let to = actions.filter { $0 >= from }[below(actions.filter { $0 >= from }.count)]
                script.append("replay \(from)–\(to)")
                let answer = Mailbox<Result<CommandResult, DaemonError>>()
                daemon.replay(session: id, from: from, to: to, into: id) { answer.put($0) }
                try app.serve { answer.value != nil }
                _ = try #require(answer.value).get()
                try waitForRow("the replay of \(from)–\(to)") { event, _ in
                    event.meaning.replayed == ReplayedRange(from: from, to: to) && event.index > (events.last?.index ?? 0)
                }
            default:
                let target = Int64(below(Int(reader.eventCount) + 1))
                guard (try? reader.unknownState(after: target)) == nil else { continue }
                script.append("jump \(target)")
                let answer = Mailbox<Result<CommandResult, DaemonError>>()
                daemon.jump(session: id, to: target) { answer.put($0) }
                try app.serve { answer.value != nil }
                _ = try #require(answer.value).get()
                try waitForRow("the jump to \(target)") { event, _ in
                    event.kind == .jump && event.meaning.jumpTarget == target && event.index > (events.last?.index ?? 0)
                }
            }
        }

        let (reader, events) = try rows()
        let expected = try reconstruct(events, initial: try reader.initialState(), sent: [:])
        try Self.expectEveryReaderAgrees(with: expected, events: events, reader: reader, store: daemon.store,
                                         data: harness.dataDirectory, session: id)
        #expect(Set(events.map(\.branch)).count == 1 + recomputations,
                "a branch per toggle that recomputed (seed \(seed): \(script.joined(separator: "; ")))")
    }

    @Test("skip, replay and paced replay refuse targets whose state a dropped range left unknown, and say why")
    func targetsInsideADroppedRangeAreRefused() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let daemon = harness.daemon
        let app = try CounterPeer(port: harness.port, instance: UUID().uuidString, count: 0, seq: nil)
        try app.add(1)
        try app.dropped(adding: [2, 3, 4])
        try app.add(5)
        // 1 add, 2 dropped, 3–5 the range's actions, 6 snapshot, 7 add.
        let session = try #require(harness.waitForSession(events: 7, app: "truth"))
        let id = session.id

        let skip = daemon.waitForOutcome(timeout: TestTime.seconds(10)) { daemon.skip(session: id, index: 4, completion: $0) }
        guard case .failure(let skipError) = skip else {
            Issue.record("skipping event 4 was not refused")
            return
        }
        #expect(skipError.description.contains("cannot skip event 4"), "\(skipError)")
        #expect(skipError.description.contains("the state after event 4 is unknown: it was not recorded (events 3–5"),
                "\(skipError)")
        #expect(skipError.description.contains("the last known state is event 2's, the next is event 6's"), "\(skipError)")

        let replay = daemon.waitFor { daemon.replay(session: id, from: 5, into: id, completion: $0) }
        guard case .failure(let replayError) = replay else {
            Issue.record("a replay from event 5 was not refused")
            return
        }
        #expect(replayError.code == .badField)
        #expect(replayError.description.contains("the state after event 4 is unknown"), "\(replayError)")

        let paced = daemon.waitForOutcome(timeout: TestTime.seconds(10)) { daemon.recordedActions(session: id, from: 4, completion: $0) }
        guard case .failure(let pacedError) = paced else {
            Issue.record("a paced replay from event 4 was not refused")
            return
        }
        #expect(pacedError.description.contains("the state after event 3 is unknown"), "\(pacedError)")

        // From the range's first action, the state before it is known: allowed.
        let allowed = daemon.waitForOutcome(timeout: TestTime.seconds(10)) { daemon.recordedActions(session: id, from: 3, completion: $0) }
        #expect((try? allowed.get())?.state == ["count": 1])

        // A main line that ends inside a range still open (no snapshot yet): its last state is unknown, so putting
        // the app back on the main line is refused too.
        try app.peer.send(#"{"type":"dropped","from":\#(app.seq + 1),"to":\#(app.seq + 1)}"#)
        try app.add(6, withState: false)
        #expect(harness.waitForSession(events: 9) != nil)
        let back = daemon.waitFor { daemon.showBranch(session: id, branch: 0, completion: $0) }
        guard case .failure(let backError) = back else {
            Issue.record("the main line's unknown last state was pushed")
            return
        }
        #expect(backError.description.contains("the state after event 9 is unknown: it was not recorded (the events "
            + "from 9 on"), "\(backError)")
    }

    @Test("verify does not compare a state the recording lost track of (an out_of_order gap), and verifies the rest")
    func verifyLeavesUnknownStatesUncompared() throws {
        let harness = try DaemonHarness()
        defer { harness.tearDown() }
        let daemon = harness.daemon
        let app = try CounterPeer(port: harness.port, instance: UUID().uuidString, count: 0, seq: nil)
        try app.add(1)
        app.lose(5)
        try app.add(2)  // seq 3 after 1: the daemon records out_of_order and stores this action without a patch
        try app.answerResync()
        try app.add(1)
        // 1 add, 2 error, 3 the lost action, 4 add (state unknown), 5 snapshot 8, 6 add 9.
        let session = try #require(harness.waitForSession(events: 6, app: "truth"))
        let reader = try daemon.store.openSession(session.id)
        #expect(try reader.events(1...6).map(\.kind) == [.action, .error, .dropped, .action, .snapshot, .action])
        #expect(try reader.event(at: 3).label == "lost", "the action the app numbered 2 is counted lost")
        #expect(try reader.unknownState(after: 4)?.cause == 2)

        let outcome = try SessionVerifier(reader: reader).verify(replay: { state, actions in
            let answer = Mailbox<Result<CommandResult, DaemonError>>()
            daemon.replay(state: state, actions: actions, into: session.id) { answer.put($0) }
            try app.serve { answer.value != nil }
            return try #require(answer.value).get().states ?? []
        })
        // Events 1 and 6 compared; event 4's recorded "state" (the one before the gap) is not the app's.
        #expect(outcome == .verified(events: 2))
    }
}
