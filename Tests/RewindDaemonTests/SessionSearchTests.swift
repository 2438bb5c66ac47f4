import Foundation
@testable import RewindDaemon
@testable import RewindSessionFile
import RewindWire
import Testing

/// `SessionSearch`: files written now carry the label index; files written before it (no index) give the same
/// answers by scanning.
@Suite("Session search")
struct SessionSearchTests {
    private static func session(in directory: URL) throws -> (SessionStore, SessionID) {
        let store = try SessionStore(directory: directory)
        let recording = try store.createSession(appName: "s", protocolVersion: 1, initialState: ["n": 0])
        for index in 1...500 {
            let value = JSONValue.int(Int64(index))
            let label: String? = index % 100 == 0 ? "todo/add" : index % 7 == 0 ? nil : "todo/toggle"
            recording.append(NewEvent(appSeq: Int64(index), time: Double(index), label: label,
                                      action: ["n": value, "title": .string("Milk \(index)")],
                                      patch: JSONPatch([.replace(path: JSONPointer(tokens: ["n"]), value: value)])),
                             stateAfter: ["n": value])
        }
        recording.finish(endState: .clean)
        return (store, recording.id)
    }

    @Test("labels, label search, filtering and action text: the same with the label index and without it")
    func indexAndScanAgree() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-ss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, id) = try Self.session(in: directory)
        func answers(_ search: SessionSearch) throws -> [String] {
            [
                "\(try search.displayLabels(in: 1...500).sorted())",
                "\(try search.firstEvent(labelIn: ["todo/add"], in: 1...500, forward: true) ?? -1)",
                "\(try search.firstEvent(labelIn: ["todo/add"], in: 1...450, forward: false) ?? -1)",
                "\(try search.firstEvent(labelIn: ["action"], in: 8...500, forward: true) ?? -1)",
                "\(try search.firstEvent(labelIn: Set((0..<40).map { "x\($0)" } + ["todo/add"]), in: 101...500, forward: true) ?? -1)",
                "\(try search.eventIndices(labelIn: ["todo/add"], in: 1...500))",
                "\(try search.eventIndices(labelIn: nil, hidingKinds: [.action], in: 1...500))",
                "\(try search.firstEvent(actionContaining: "milk 42", ignoringCase: true, in: 1...500, forward: true) ?? -1)",
                "\(try search.firstEvent(actionContaining: "milk 42", ignoringCase: false, in: 1...500, forward: true) ?? -1)",
            ]
        }
        let indexed = try store.openSession(id).makeSearch()
        #expect(indexed.hasLabelIndex)
        let withIndex = try answers(indexed)
        #expect(withIndex == [
            #"["action", "todo/add", "todo/toggle"]"#, "100", "400", "14", "200", "[100, 200, 300, 400, 500]", "[]",
            "42", "-1",
        ])
        // A file written before the index existed.
        let database = try SQLiteDatabase(path: store.fileURL(for: id).path, mode: .readWrite)
        try database.execute("DROP INDEX \(SessionSchema.labelIndexName)")
        database.close()
        let scanning = try store.openSession(id).makeSearch()
        #expect(!scanning.hasLabelIndex)
        #expect(try answers(scanning) == withIndex)
    }

    @Test("main-line states: the start's state, then each change, keyframes included")
    func states() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-ss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, id) = try Self.session(in: directory)
        let search = try store.openSession(id).makeSearch()
        var seen: [(Int64, JSONValue)] = []
        try search.forEachMainLineState(in: 0...300) { index, state in
            seen.append((index, state))
            return true
        }
        #expect(seen.count == 301)
        #expect(seen.allSatisfy { $0.1 == ["n": .int($0.0)] })
        var stopped = 0
        try search.forEachMainLineState(in: 250...260) { index, _ in
            stopped += 1
            return index < 255
        }
        #expect(stopped == 6)
    }
}
