import Foundation
import RewindTestSupport
import Testing

/// `rewind serve` raises its soft descriptor limit to the hard one: each recording app costs about five descriptors,
/// so the usual soft limit of 1,024 would turn away apps long before the machine's limit (issue 19, item 10).
@Suite("Descriptor limit")
struct DescriptorLimitTests {
    @Test("rewind serve started with a soft limit of 256 runs with the hard limit")
    func serveRaisesTheSoftLimit() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-fds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let port = FreePort.next()
        let serve = try ChildProcess("/bin/sh", ["-c", #"ulimit -Sn 256 && exec "$0" serve --headless --port "$1" --data "$2""#,
                                                 Executables.path("rewind"), "\(port)", data.path])
        defer {
            serve.signal(SIGTERM)
            _ = serve.waitForExit(timeout: 10)
        }
        // Once it listens, the daemon has started (the shell's own limit, before `exec`, was 256).
        let deadline = Date(timeIntervalSinceNow: TestTime.seconds(10))
        while Date() < deadline && !serve.stderrLines.contains(where: { $0.contains("listening on") }) {
            usleep(20_000)
        }
        let limits = try String(contentsOfFile: "/proc/\(serve.pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        let soft = String(fields[3]), hard = String(fields[4])
        #expect(!hard.isEmpty && soft != "256", "soft \(soft), hard \(hard)")
        #expect(soft == hard || Int(soft) == 1 << 20, "soft \(soft), hard \(hard)")
    }
}
