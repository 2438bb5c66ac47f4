import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import Testing

/// Issue 31: a killed `rewind import` left a partial session that read like any interrupted recording. An import
/// now writes into the data directory's hidden `.importing` folder and moves the file in once complete.
@Suite("A killed import leaves no session")
struct KilledImportTests {
    /// A JSON Lines export of `count` counter actions.
    private func export(count: Int, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("big.jsonl").path
        var text = #"{"format":"rewind-session","version":1,"session":{"id":"20261122-153012-counter-4f9a2c","#
            + #""app":"counter","startedAt":1795361412.25,"protocolVersion":1},"initialState":{"count":0}}"# + "\n"
        for index in 1...count {
            text += #"{"index":\#(index),"appSeq":\#(index),"time":\#(1795361412.5 + Double(index) / 1000),"#
                + #""kind":"action","label":"increment","action":{"increment":{}},"#
                + #""patch":[{"op":"replace","path":"/count","value":\#(index)}]}"# + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("killed midway, an import leaves nothing listed; the next import cleans up after it and succeeds")
    func killedImportLeavesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-ki-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("sessions")
        let file = try export(count: 300_000, in: directory)
        let staging = data.appendingPathComponent(".importing")

        let killed = try ChildProcess(Executables.path("rewind"), ["import", file, "--data", data.path])
        // Killed once it has begun writing (its file exists in the staging folder).
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(20))
        while Date() < deadline && ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [])
            .allSatisfy({ !$0.hasSuffix(".rewind") }) { usleep(10_000) }
        kill(killed.pid, SIGKILL)
        _ = killed.waitForExit()
        #expect(try SessionStore(directory: data).sessionIDs().isEmpty, "no partial session in the data directory")

        let small = try export(count: 10, in: directory)
        let imported = try ChildProcess(Executables.path("rewind"), ["import", small, "--data", data.path])
        #expect(imported.waitForExit() == 0, "\(imported.stderrLines)")
        let ids = try SessionStore(directory: data).sessionIDs()
        #expect(ids.count == 1)
        #expect(try SessionStore(directory: data).openSession(try #require(ids.first)).eventCount == 10)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        #expect(left.allSatisfy { !$0.hasSuffix(".rewind") }, "the killed import's file was cleaned up: \(left)")
    }
}
