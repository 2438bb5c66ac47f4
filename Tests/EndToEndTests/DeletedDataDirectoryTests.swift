import Foundation
import RewindDaemon
import RewindSessionFile
import RewindTestSupport
import Testing

/// Issue 31: after `rm -rf` of the data directory, a live session kept writing into its deleted file without a word
/// (everything it wrote was gone when it closed). Now the daemon logs it once and keeps the events unacknowledged.
@Suite("A session file deleted while recording")
struct DeletedDataDirectoryTests {
    final class Log: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test("the daemon says the file was deleted, once, and acknowledges nothing written into it")
    func deletedFileIsReported() throws {
        let log = Log()
        let harness = try DaemonHarness { $0.log = { log.add($0) } }
        defer { harness.tearDown() }
        let app = try ChildProcess(Executables.path("counter"), [], environment: ["REWIND_URL": harness.url])
        defer { app.closeInput() }
        app.write("increment\n")
        let session = try #require(harness.waitForSession(events: 1, app: "counter"))
        try FileManager.default.removeItem(at: harness.dataDirectory)
        app.write("increment\nincrement\n")
        #expect(app.waitForLine { $0 == #"{"count":3}"# } != nil)
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while Date() < deadline && !log.all.contains(where: { $0.contains("was deleted while recording") }) {
            usleep(50_000)
        }
        let reports = log.all.filter { $0.contains("was deleted while recording") }
        #expect(reports.count == 1, "\(log.all)")
        #expect(reports.first?.contains("session \(session.id)") == true, "\(reports)")
        #expect(session.lastIndex >= 1)
        #expect(harness.daemon.sessions.first?.storageError != nil, "the session says it cannot write")
    }
}
