import Foundation
import RewindWire
import Testing
@testable import RewindDaemon
@testable import RewindSessionFile

/// ``CaptureImport``: capture files recorded through the ingest machine — the capture's own clock, parts that do
/// not follow each other, grouping into runs, and nothing left behind by a failure.
@Suite("Capture import")
struct CaptureImportTests {
    private static let app = AppIdentity(name: "shop", instance: "host:77:1800000000000")

    /// The state after action `n` of the test app: a counter.
    private static func state(_ n: UInt64) -> JSONValue { ["count": .int(Int64(n))] }

    /// The action event `n` (at time 1,800,000,000 + 10 `n`), with its patch from the state before it.
    private static func action(_ n: UInt64) -> ActionEvent {
        ActionEvent(seq: n, time: 1_800_000_000 + 10 * Double(n), action: ActionPayload(type: "increment", payload: .null),
                    patch: JSONPatch.diff(from: state(n - 1), to: state(n)))
    }

    /// Writes a capture file: header, hello (the state after action `from`, at `createdAt`), then `messages`.
    private static func write(_ url: URL, reason: CaptureHeader.Reason = .offline, part: Int? = nil, from: UInt64,
                              createdAt: Double, messages: [AppMessage]) throws {
        let header = CaptureHeader(app: app, reason: reason, part: part, createdAt: createdAt)
        let hello = AppMessage.hello(Hello(app: app, state: state(from), seq: from))
        var bytes = header.serializedBytes() + [10] + WireCodec.encode(hello) + [10]
        for message in messages { bytes += WireCodec.encode(message) + [10] }
        try Data(bytes).write(to: url)
    }

    @Test("rows carry the capture's own times: the session starts at the first header's createdAt, a later part's reconnect at its own, and ends at the last action")
    func captureClock() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let one = directory.url.appendingPathComponent("one.rewind-capture.jsonl")
        let two = directory.url.appendingPathComponent("two.rewind-capture.jsonl")
        try Self.write(one, part: 1, from: 0, createdAt: 1_800_000_000,
                       messages: [.action(Self.action(1)), .action(Self.action(2)), .goodbye(Goodbye(seq: 2))])
        // Part 2 starts after a pause; its hello says action 5: actions 3–5 are in no file.
        try Self.write(two, part: 2, from: 5, createdAt: 1_800_000_050,
                       messages: [.batch([Self.action(6), Self.action(7)]), .goodbye(Goodbye(seq: 7))])

        let results = try CaptureImport(store: store).importFiles([two, one])
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result.files == [one, two])
        #expect(result.lostActions == 3 && result.actionCount == 4 && result.endState == .clean)

        let reader = try store.openSession(result.id)
        #expect(reader.metadata.startedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(reader.metadata.endedAt == Date(timeIntervalSince1970: 1_800_000_070))
        #expect(reader.metadata.endState == .clean)
        let events = try reader.events(1...reader.eventCount)
        // Actions 1–2; the lost actions 3–5 and the reconnect, at part 2's start; actions 6–7.
        #expect(events.map(\.kind) == [.action, .action, .dropped, .reconnect, .action, .action])
        #expect(events.map(\.label) == ["increment", "increment", "lost", "reconnect", "increment", "increment"])
        #expect(events.map(\.time) == [1_800_000_010, 1_800_000_020, 1_800_000_050, 1_800_000_050, 1_800_000_060,
                                       1_800_000_070])
        #expect(try reader.actionsLost() == 3)
        #expect(try reader.state(at: 4) == Self.state(5))
        #expect(try reader.state(at: 6) == Self.state(7))
        #expect(try reader.unknownState(after: 3) != nil, "the state after the lost actions is unknown")
    }

    @Test("offline parts of one run are one run in part order; triggered captures and other runs are runs of their own; a part given twice is refused")
    func grouping() throws {
        func file(_ name: String, _ instance: String, _ reason: CaptureHeader.Reason, part: Int?, at time: Double)
            -> CaptureRun.File {
            CaptureRun.File(url: URL(fileURLWithPath: "/captures/\(name)"),
                            header: CaptureHeader(app: AppIdentity(name: "shop", instance: instance), reason: reason,
                                                  part: part, createdAt: time))
        }
        let runs = try CaptureRun.group([
            file("a-3", "a", .offline, part: 3, at: 30), file("b-t", "b", .trigger, part: nil, at: 5),
            file("a-1", "a", .offline, part: 1, at: 10), file("a-t", "a", .trigger, part: nil, at: 40),
            file("c-1", "c", .offline, part: 1, at: 20),
        ])
        #expect(runs.map { $0.files.map(\.url.lastPathComponent) } == [["b-t"], ["a-1", "a-3"], ["c-1"], ["a-t"]])

        #expect(throws: SessionStoreError.self) {
            try CaptureRun.group([file("a-1", "a", .offline, part: 1, at: 10),
                                  file("a-1-copy", "a", .offline, part: 1, at: 10)])
        }
    }

    @Test("a file that fails leaves nothing in the data directory or its staging folder")
    func failureLeavesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try SessionStore.forTests(directory)
        let good = directory.url.appendingPathComponent("good.rewind-capture.jsonl")
        try Self.write(good, reason: .trigger, from: 0, createdAt: 1_800_000_000, messages: [.action(Self.action(1))])
        let bad = directory.url.appendingPathComponent("bad.rewind-capture.jsonl")
        try Self.write(bad, reason: .trigger, from: 0, createdAt: 1_800_000_100, messages: [.action(Self.action(1))])
        try Data(#"{"type":"snapshot","seq":1}"#.utf8 + [10]).append(to: bad)

        #expect {
            try CaptureImport(store: store).importFiles([good, bad])
        } throws: { error in
            "\(error)".hasPrefix("\(bad.path), line 4: not a message of the wire protocol: missing_field")
        }
        #expect(try store.sessionIDs().isEmpty)
        let staging = try SessionStore(directory: directory.url.appendingPathComponent(".importing"))
        #expect(try staging.sessionIDs().isEmpty)
    }
}

extension Data {
    /// Appends the bytes to the file at `url`.
    fileprivate func append(to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: self)
    }
}
