import Foundation
import RewindMCP
import RewindSessionFile
import RewindTestSupport
import RewindTUI
import RewindWire
import Testing

/// Issue 29: "is the state after event K known, and what is it" has one answer, whoever reads the file. Generated app
/// runs (actions, batches, `dropped` ranges with lost actions, patches that do not apply, gaps in the app's numbers,
/// jumps) go through the daemon's real ingest into a real session file; then every reader answers for every row —
/// the session reader, the timeline, `rewind state`, `rewind mcp`'s `get_state`, a JSON Lines export imported again,
/// and the Redux DevTools export — and each answer must equal the others and, where the run knows it, the app's own state (an independent
/// replay of its reducer).
@Suite("Every reader tells the same truth about a session file")
struct EveryReaderAgreesTests {
    /// One reader's answer for one row.
    enum Answer: Equatable, CustomStringConvertible {
        case known(JSONValue)
        case unknown

        var description: String {
            switch self {
            case .known(let state): "known \(state.serialized())"
            case .unknown: "unknown"
            }
        }
    }

    /// Ten generated runs; three under a sanitizer (`REWIND_TEST_TIME_SCALE` set by `make sanitize`: everything runs
    /// 4–15× slower there, and the property is the same).
    static let seeds: Range<UInt64> =
        (Double(ProcessInfo.processInfo.environment["REWIND_TEST_TIME_SCALE"] ?? "") ?? 1) > 1 ? 0..<3 : 0..<10

    @Test("generated sessions: every reader's answer for every row equals the others' and the app's own state",
          arguments: seeds)
    func readersAgree(seed: UInt64) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-readers-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SessionStore(directory: directory)
        let run = try GeneratedRecording(seed: seed, steps: 40, into: store)
        let reader = try store.openSession(run.id)
        #expect(reader.eventCount == run.eventCount)
        #expect(run.truth.values.contains(.unknown) || run.script.allSatisfy { $0.hasPrefix("actions") || $0.hasPrefix("jump") },
                "the run has unknown states to tell")

        let jsonLines = directory.appendingPathComponent("export.jsonl")
        try SessionExporter(reader: reader).export(format: .jsonl, to: jsonLines)
        let reimported = try store.openSession(try SessionImporter(store: store).importSession(from: jsonLines).id)
        #expect(reimported.eventCount == run.eventCount)

        let reduxFile = directory.appendingPathComponent("export.redux.json")
        try SessionExporter(reader: reader).export(format: .reduxDevTools, to: reduxFile)
        let redux = try JSONValue(parsing: [UInt8](try Data(contentsOf: reduxFile)))
        guard case .array(let computedStates)? = redux["computedStates"] else {
            Issue.record("the Redux DevTools export has computedStates")
            return
        }
        #expect(Int64(computedStates.count) == run.eventCount + 1, "one computed state per row and the initial one")

        let timeline = SessionTimelineSource(store: store, daemon: nil)
        let rows = try timeline.events(session: run.id.rawValue, range: 1...Int(run.eventCount))  // no row for 0

        for index in 0...run.eventCount {
            let file = Self.answer(try reader.recordedState(after: index))
            var answers: [(String, Answer)] = [
                ("the session reader", file),
                ("rewind state", Self.commandAnswer(session: run.id, index: index, data: directory)),
                ("a JSON Lines export imported again", Self.answer(try reimported.recordedState(after: index))),
                ("the Redux DevTools export", Self.reduxAnswer(computedStates[Int(index)])),
                ("rewind mcp's get_state", Self.agentAnswer(index: index, reader: reader)),
            ]
            if index > 0 {
                answers.append(("the timeline", try Self.timelineAnswer(rows[Int(index) - 1], index: index, timeline,
                                                                        session: run.id)))
            }
            let kind = index == 0 ? "the initial state" : "\(try reader.event(at: index).kind)"
            let context = "seed \(seed), row \(index) (\(kind)); run: " + run.script.joined(separator: "; ")
            for (name, answer) in answers.dropFirst() where answer != file {
                Issue.record("\(name) says \(answer), the session reader \(file) — \(context)")
            }
            if let truth = run.truth[index] {
                let expected: Answer = switch truth {
                case .known(let state): .known(state)
                case .unknown: .unknown
                }
                #expect(file == expected, "the app's own state after row \(index) — \(context)")
            }
        }
    }

    private static func answer(_ state: RecordedState) -> Answer {
        switch state {
        case .known(let value): .known(value)
        case .unknown: .unknown
        }
    }

    /// The timeline's row says whether the state is unknown; its State tab shows the row's state otherwise.
    private static func timelineAnswer(_ row: TimelineEvent, index: Int64, _ timeline: SessionTimelineSource,
                                       session: SessionID) throws -> Answer {
        #expect(row.index == Int(index))
        if row.stateUnknown { return .unknown }
        return .known(try timeline.state(session: session.rawValue, index: Int(index)))
    }

    /// `rewind state SESSION K --json`, in process: the state, or the error saying it was not recorded.
    private static func commandAnswer(session: SessionID, index: Int64, data: URL) -> Answer {
        let run = RewindRun.inProcess(["state", session.rawValue, "\(index)", "--json", "--data", data.path])
        if run.status == 0, let state = try? JSONValue(parsing: Array(run.stdout.joined().utf8)) { return .known(state) }
        if run.status == 1, run.stderrText.contains("was not recorded") { return .unknown }
        Issue.record("rewind state \(index) answered \(run.status ?? -1): \(run.stdout) \(run.stderrText)")
        return .unknown
    }

    /// The agent interface's `get_state`: the state, or the failure saying it was not recorded.
    private static func agentAnswer(index: Int64, reader: SessionReader) -> Answer {
        do {
            return .known(try ReadTools.state(after: index, in: reader))
        } catch {
            if error.description.contains("was not recorded") { return .unknown }
            Issue.record("get_state \(index) failed: \(error)")
            return .unknown
        }
    }

    /// A computed state of the Redux DevTools export: an entry with an `error` is a state Rewind never received.
    private static func reduxAnswer(_ entry: JSONValue) -> Answer {
        if entry["error"] != nil { return .unknown }
        return .known(entry["state"] ?? .null)
    }
}
